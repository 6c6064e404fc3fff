"""The report a designer reads: built by :mod:`.page` from the sections as data
(:mod:`.sections`, :mod:`.model`) and the ranked findings (:mod:`.findings`), worded
by :mod:`.words`, drawn as HTML by :mod:`.render` (cells and tables: :mod:`.html`;
figures: :mod:`.figures`) and written by :mod:`.writer`; the same cells in the
terminal (:mod:`.terminal`). The pages of ``compare`` and ``advise`` are built as data
(:mod:`.document`) and drawn as HTML or plain text by :mod:`.render_page`."""

from analysis.report.page import REPORT_FILE, build_report, default_report_dir

__all__ = ["REPORT_FILE", "build_report", "default_report_dir"]
