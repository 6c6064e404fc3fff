"""The report a designer reads: the HTML page (:mod:`.page`), its cells and tables
(:mod:`.html`), figures (:mod:`.figures`), the ranked findings (:mod:`.findings`) and
the same cells in the terminal (:mod:`.terminal`)."""

from analysis.report.page import REPORT_FILE, build_report, default_report_dir

__all__ = ["REPORT_FILE", "build_report", "default_report_dir"]
