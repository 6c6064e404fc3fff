"""Writing to disk: the one module of the analysis that makes folders and writes
files. Every command's files (the report's, and those of ``compare``, ``sweep``,
``tune``, ``card-value``, ``advise`` and ``train-expert``) are first gathered in a
:class:`Files`, data only, then written by :func:`write_files`."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from analysis.report.csv_cells import csv_text
from analysis.report.html import figure_png
from analysis.report.model import Report, Section
from analysis.report.render import report_html

REPORT_FILE = "report.html"


@dataclass
class Files:
    """A command's files before they are written, each by its path relative to the
    output folder (``tables/compare_games.csv``, ``sweep.png``, ``proposal.yaml``)."""

    tables: dict[str, pd.DataFrame] = field(default_factory=dict)  # CSV, inert for a spreadsheet (csv_cells)
    binaries: dict[str, bytes] = field(default_factory=dict)  # e.g. PNG figures (analysis.report.html.figure_png)
    texts: dict[str, str] = field(default_factory=dict)  # UTF-8 text: HTML pages, YAML, JSON


def write_files(files: Files, out: str | Path) -> dict[str, Path]:
    """Write ``files`` under ``out``, making the folders they need: the tables, then
    the binaries, then the texts, so that a page is written after what it shows.

    Returns
    -------
    dict
        Each file's relative path (as given) to the path written.

    Raises
    ------
    OSError
        When a folder cannot be made or a file cannot be written (full disk, no
        permission); the files written before it stay.
    """
    out = Path(out)
    written = {}
    for name, content in [*((n, csv_text(t)) for n, t in files.tables.items()), *files.binaries.items(),
                          *files.texts.items()]:  # fmt: skip
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        written[name] = path
    return written


@dataclass(frozen=True)
class WrittenReport:
    """What :func:`write` wrote, with the tables it wrote, for a caller that shows
    them (the command line prints the findings) without reading the CSV back."""

    path: Path  # the HTML page, ``out/report.html``
    findings: pd.DataFrame  # :func:`analysis.report.findings.findings`, the block the page opens with (tables/findings.csv)
    tables: dict[str, pd.DataFrame]  # every section's table by name, as written to tables/<name>.csv
    sections: tuple[Section, ...] = ()  # the report's sections, data only, for the terminal's rendering
    unchecked: pd.DataFrame | None = None  # analysis.skill_check.unchecked: the runs without a skill check


def write(result: Report, out: Path) -> WrittenReport:
    """Write ``result`` into ``out`` (:func:`write_files`): ``tables/findings.csv`` and
    every section's table as ``tables/<name>.csv``, every figure drawn as
    ``figures/<name>.png``, then the page, ``report.html``. Raises OSError when a
    file cannot be written."""
    pngs = {figure.name: figure_png(figure.draw()) for section in result.sections for figure in section.figures}
    files = Files({"tables/findings.csv": result.findings,
                   **{f"tables/{t.name}.csv": t.frame for section in result.sections for t in section.tables}},
                  {f"figures/{name}.png": png for name, png in pngs.items()},
                  {REPORT_FILE: report_html(result, pngs)})  # fmt: skip
    (Path(out) / "figures").mkdir(parents=True, exist_ok=True)  # even when no figure fills it
    return WrittenReport(write_files(files, out)[REPORT_FILE], result.findings, result.tables, tuple(result.sections),
                         result.unchecked)  # fmt: skip
