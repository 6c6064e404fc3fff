"""Every command's brief in the terminal (:func:`print_page`, a
:class:`~analysis.report.document.Page`): the report's language (rates in %,
differences in pp, each estimate with its 95% CI and n) as rich tables, and the
report as plain text for its golden file (:func:`report_text`).

The cells are those of the HTML report (:func:`analysis.report.html.present`) and the
findings its sentences (:func:`analysis.report.findings.findings`), so the terminal
and the page never disagree on units or rounding. Output goes to standard output at
its width, or at :data:`sim.console.WIDTH` columns when it is a file or a pipe
(:func:`sim.console.stdout_console`), so a long ally id is never cut.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
from rich.console import Console
from rich.table import Table
from rich.text import Text

from analysis.report import document as doc
from analysis.report.html import present
from analysis.data.runs import Run
from analysis.report.model import Section
from analysis.report.words.report import answer_text, note_text, provenance, warnings
from sim.console import stdout_console


def rich_table(table: pd.DataFrame, title: str = "", hide: tuple[str, ...] = ()) -> Table:
    """The table's :func:`~analysis.report.html.present` cells as a ``rich.table.Table``
    (numbers right-aligned, the first column left-aligned). Cells and title are
    plain text, never rich markup: a card value such as ``[red, blue]`` prints as is."""
    text = present(table, hide)
    out = Table(title=Text(title) if title else None, title_justify="left", header_style="bold")
    for i, column in enumerate(text.columns):
        out.add_column(Text(str(column)), justify="left" if i == 0 else "right", overflow="fold")
    for row in text.itertuples(index=False):
        out.add_row(*(Text(str(cell)) for cell in row))
    return out


def table_text(table: pd.DataFrame, hide: tuple[str, ...] = ()) -> str:
    """The table's :func:`~analysis.report.html.present` cells as plain text, one row a
    line, the columns aligned: the page's units and rounding, for a golden text."""
    return present(table, hide).to_string(index=False)


STABLE_PROVENANCE = ("toolkit version", "rules version", "deck hash", "games", "players", "bots", "root seed",
                     "rule options", "points-blind companion")  # fmt: skip
"""The provenance rows a golden text keeps: the others name a path, a date or a
duration, which differ from machine to machine."""


def report_text(found: pd.DataFrame, tables: dict[str, pd.DataFrame], sections: Sequence[Section] = (),
                runs: Sequence[Run] = ()) -> str:  # fmt: skip
    """The whole report as plain text, for review as a diff (tests/golden/): the
    warnings; every finding, numbered; every section's answers (sentence and
    details) and notes; every table by name with the page's cells
    (:func:`~analysis.report.html.present`: the page's units and rounding), one row a
    line; and each run's provenance (:data:`STABLE_PROVENANCE` rows, and the note on
    the games left out). ``found``, ``tables`` and ``sections`` are
    :class:`analysis.report.writer.WrittenReport`'s, ``runs`` the report's runs."""
    lines = [*(f"! {line}" for line in warnings(list(runs))), "Findings, most important first:"]
    lines += [f"{number:>2}. {row.sentence} [{row.section}]" for number, row in enumerate(found.itertuples(index=False), 1)]
    for section in sections:
        lines += ["", f"== section: {section.title}",
                  *(text for answer in section.answers for text in answer_text(answer) if text),
                  *(f"note: {note_text(note)}" for note in section.notes)]  # fmt: skip
    for name, table in tables.items():
        lines += ["", f"== {name} ({len(table)} rows)", table_text(table)]
    for run in runs:
        rows, note = provenance(run, include_unfinished=False)
        lines += ["", f"== provenance: {run.label}", *(f"{k}: {v}" for k, v in rows if k in STABLE_PROVENANCE), note]
    return "\n".join(lines) + "\n"


def print_page(page: doc.Page, console: Console | None = None) -> None:
    """Print a page (:mod:`analysis.report.document`, e.g. a command's brief) in the
    terminal: headings in bold, paragraphs and lines as plain text (never rich
    markup), tables as :func:`rich_table`, the diff as it is; figures are the page's
    alone. Text is never wrapped (a path or a sentence stays on its line, for grep);
    the same blocks as :func:`analysis.report.render_page.page_html` draws."""
    console = console or stdout_console()
    for block in page.blocks:
        if isinstance(block, doc.Heading):
            console.print(Text(block.text, style="bold"), soft_wrap=True)
        elif isinstance(block, doc.Paragraph):
            text = "".join(part.text if isinstance(part, doc.Code) else part for part in block.parts)
            console.print(Text(text, style="dim" if block.kind == doc.NOTE else ""), soft_wrap=True)
        elif isinstance(block, doc.Lines):
            for line in block.marked():
                console.print(Text(line), soft_wrap=True)
        elif isinstance(block, doc.Table):
            console.print(rich_table(block.frame, block.title, block.hide))
        elif isinstance(block, doc.Diff):
            console.print(Text(block.text.rstrip("\n")), soft_wrap=True)
