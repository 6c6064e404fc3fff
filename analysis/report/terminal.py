"""Tables and findings in the terminal: the report's language (rates in %,
differences in pp, each estimate with its 95% CI and n) as rich tables, for
``card-value``, ``sweep``, ``tune`` and ``compare``, and the findings the report
opens with, for ``run`` and ``report``.

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
from analysis.report.findings import FINDINGS_SHOWN
from analysis.report.html import estimate, present
from analysis.data.runs import Run
from analysis.report.model import Section
from analysis.skill_check import CANNOT_TELL, DEPENDS, HOLDS
from analysis.report.words.report import (CAPTIONS, FULL_TABLE, answer_text, empty_text, note_text, provenance,
                                          warnings)
from analysis.report.words.skill import skill_check_lines
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


def print_table(table: pd.DataFrame, title: str = "", hide: tuple[str, ...] = (), console: Console | None = None) -> None:
    """Print :func:`rich_table` of ``table`` (to ``console``, default standard output)."""
    (console or stdout_console()).print(rich_table(table, title, hide))


def print_skill_check(check: pd.DataFrame, console: Console | None = None) -> None:
    """Print every measure of a skill check (:func:`analysis.skill_check.compare_measures`),
    one row each: its state (depends on skill, cannot tell yet, holds), its change
    with the skilled bot (95% CI), the smallest change the check's games detect, its
    threshold, and the skilled games that would tell; measures that depend on skill
    first, then those that cannot tell yet, fewest games to tell first."""
    order = check["state"].map({DEPENDS: 0, CANNOT_TELL: 1, HOLDS: 2})
    rows = check.assign(order=order).sort_values(["run", "order", "games_to_tell"], kind="stable")
    shown = pd.DataFrame({
        "run": rows["run"], "measure": rows["subject"], "state": rows["state"],
        "change (95% CI)": [estimate(r.difference, r.difference_low, r.difference_high, "", noun=r.unit)
                            for r in rows.itertuples()],
        "detectable": [f"{r.detectable:.2g} {r.unit}" for r in rows.itertuples()],
        "threshold": [f"{r.threshold:g} {r.unit}" for r in rows.itertuples()],
        "skilled games to tell": rows["games_to_tell"]})  # fmt: skip
    print_table(shown, "The skill check, measure by measure", console=console)


def print_findings(found: pd.DataFrame, console: Console | None = None, check: pd.DataFrame | None = None,
                   unchecked: pd.DataFrame | None = None) -> None:  # fmt: skip
    """Print the findings the report opens with: a heading, then the first
    :data:`~analysis.report.findings.FINDINGS_SHOWN` of ``found`` one numbered line
    each, its sentence (number, 95% CI, n) and the report section that holds the
    detail.

    Parameters
    ----------
    found : pandas.DataFrame
        :func:`analysis.report.findings.findings`, most important first (its
        ``sentence`` and ``section`` columns).
    console : rich.console.Console, optional
        Default standard output (:func:`sim.console.stdout_console`). A line longer
        than the console is left to the terminal to wrap (soft wrap), so a file holds
        one line per finding.
    check : pandas.DataFrame, optional
        The report's ``skill_check`` table: its sentence per run follows the findings
        (:func:`analysis.report.words.skill.skill_check_lines`).
    unchecked : pandas.DataFrame, optional
        The runs without a skill check (:func:`analysis.skill_check.unchecked`): a line
        each says so and gives the command that plays it.
    """
    console = console or stdout_console()
    shown = found.head(FINDINGS_SHOWN)
    more = f" ({len(shown)} of {len(found)}; all in the report)" if len(found) > len(shown) else ""
    console.print(Text(f"Findings, most important first{more}:" if len(found) else "Findings: none."), soft_wrap=True)
    for number, row in enumerate(shown.itertuples(index=False), 1):
        console.print(Text(f"{number:>2}. {row.sentence} [{row.section}]"), soft_wrap=True)
    for line in skill_check_lines(check, unchecked):
        console.print(Text(line), soft_wrap=True)


def print_section(section: Section, console: Console | None = None) -> None:
    """Print one section of the report as the page shows it, in the terminal: its
    title, each answer's sentence and details, its notes, and each table shown in the
    page (:func:`rich_table`, under its caption; a long table is in its CSV only, and
    an empty one says so), in the words of :mod:`analysis.report.words`."""
    console = console or stdout_console()
    console.print(Text(section.title, style="bold underline"), soft_wrap=True)
    for answer in section.answers:
        for text in answer_text(answer):
            if text:
                console.print(Text(text), soft_wrap=True)
    for note in section.notes:
        console.print(Text(note_text(note), style="dim"), soft_wrap=True)
    for table in section.tables:
        caption = CAPTIONS[table.name]
        if table.frame.empty:
            console.print(Text(f"{caption} {empty_text(table.name)}", style="dim"), soft_wrap=True)
        elif not table.shown:
            console.print(Text(f"{caption} {FULL_TABLE}tables/{table.name}.csv", style="dim"), soft_wrap=True)
        else:
            console.print(rich_table(table.frame, caption, table.hide))


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
            console.print(Text(text), soft_wrap=True)
        elif isinstance(block, doc.Lines):
            for line in block.marked():
                console.print(Text(line), soft_wrap=True)
        elif isinstance(block, doc.Table):
            console.print(rich_table(block.frame, hide=block.hide))
        elif isinstance(block, doc.Diff):
            console.print(Text(block.text.rstrip("\n")), soft_wrap=True)
