"""Writing a report to disk: the one place that makes the report's folders and
writes its files."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from analysis.report.csv_cells import write_csv
from analysis.report.html import figure_png
from analysis.report.model import Report
from analysis.report.render import report_html

REPORT_FILE = "report.html"


@dataclass(frozen=True)
class WrittenReport:
    """What :func:`write` wrote, with the tables it wrote, for a caller that shows
    them (the command line prints the findings) without reading the CSV back."""

    path: Path  # the HTML page, ``out/report.html``
    findings: pd.DataFrame  # :func:`analysis.report.findings.findings`, the block the page opens with (tables/findings.csv)
    tables: dict[str, pd.DataFrame]  # every section's table by name, as written to tables/<name>.csv


def write(result: Report, out: Path) -> WrittenReport:
    """Write ``result`` into ``out`` (created, with its folders ``tables`` and
    ``figures``): ``tables/findings.csv`` and every section's
    table as ``tables/<name>.csv``, every figure drawn as ``figures/<name>.png``,
    then the page, ``report.html`` (UTF-8). Raises OSError when a file cannot be
    written."""
    (out / "tables").mkdir(parents=True, exist_ok=True)
    (out / "figures").mkdir(parents=True, exist_ok=True)
    write_csv(result.findings, out / "tables" / "findings.csv")
    pngs = {}
    for section in result.sections:
        for table in section.tables:
            write_csv(table.frame, out / "tables" / f"{table.name}.csv")
        for figure in section.figures:
            pngs[figure.name] = figure_png(figure.draw())
            (out / "figures" / f"{figure.name}.png").write_bytes(pngs[figure.name])
    path = out / REPORT_FILE
    path.write_text(report_html(result, pngs), encoding="utf-8")
    return WrittenReport(path, result.findings, result.tables)
