"""The report as data: what each section holds, before any word or any HTML.

A section builder (:mod:`analysis.report.sections`) returns a :class:`Section`: its
title, its tables, its answers, its figures and the keys of its notes, data only.
:mod:`analysis.report.words` turns the answers and notes into sentences,
:mod:`analysis.report.render` lays a section out as HTML and
:func:`analysis.report.writer.write` writes the whole :class:`Report` to disk.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

from analysis.data.runs import Run


@dataclass
class Table:
    """A table of a section: written as ``tables/<name>.csv``, shown in the page
    unless ``shown`` is False (long tables: CSV only). Its caption is
    ``words.CAPTIONS[name]``."""

    name: str  # the table function's name, and the CSV's
    frame: pd.DataFrame
    hide: tuple[str, ...] = ()  # columns left out of the page (kept in the CSV)
    shown: bool = True  # in the page; always written as CSV
    by_position: bool = False  # shown as one column per turn-order position (task_completers)


@dataclass(frozen=True)
class FigureSpec:
    """A figure of a section, not yet drawn: ``plot(*args)`` draws it
    (:mod:`analysis.report.figures`); written as ``figures/<name>.png``, its alt text
    is ``words.ALT_TEXTS[name]``."""

    name: str
    plot: Callable[..., Figure]
    args: tuple = ()

    def draw(self) -> Figure:
        """The matplotlib Figure of the spec's tables."""
        return self.plot(*self.args)


@dataclass(frozen=True)
class Answer:
    """One answer of a section: the columns of a finding
    (:data:`analysis.report.findings.COLUMNS`) but its sentence, which
    :func:`analysis.report.words.report.answer_text` makes from ``kind`` and ``facts``, and
    its section, the :class:`Section` that holds it.

    ``value``, ``low`` and ``high`` (in ``unit``; NaN when the answer has no single
    number) and ``n`` (games) are the answer's headline number, its 95% CI and its
    sample size."""

    kind: str  # the key of its words in analysis.report.words.report.ANSWERS
    run: str = ""  # the run's name; "" for an answer about every run
    label: str = ""  # the run as the sentence names it; "" when the report has one run
    subject: str = ""
    value: float = math.nan
    low: float = math.nan
    high: float = math.nan
    n: int = 0
    unit: str = ""
    facts: dict[str, Any] = field(default_factory=dict)  # the rows and values its sentences read


@dataclass(frozen=True)
class Note:
    """A note under a section's answers: ``words.NOTES[key]`` filled in with
    ``facts``."""

    key: str
    facts: dict[str, Any] = field(default_factory=dict)


@dataclass
class Section:
    """One question of the report: its answers (one or more per run), notes,
    figures and tables, and ``lead``, a few rows of one of its tables shown under the
    answers, above the fold (not written: its rows are in that table's CSV)."""

    title: str
    answers: list[Answer]
    notes: list[Note] = field(default_factory=list)
    figures: list[FigureSpec] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    lead: Table | None = None


@dataclass
class Report:
    """The whole report, before it is written: the runs, the findings that open it,
    its sections in order, and when it was made (ISO 8601, UTC)."""

    runs: list[Run]
    findings: pd.DataFrame  # analysis.report.findings.findings
    sections: list[Section]
    include_unfinished: bool
    made: str
    unchecked: pd.DataFrame | None = None  # analysis.skill_check.unchecked: the runs without a skill check

    @property
    def tables(self) -> dict[str, pd.DataFrame]:
        """Every section's table by name, in the order of the page."""
        return tables_of(self.sections)


def tables_of(sections: list[Section]) -> dict[str, pd.DataFrame]:
    """Every table of ``sections`` by name, in their order."""
    return {table.name: table.frame for section in sections for table in section.tables}


def answer(kind: str, runs: list[Run], run: Run | None = None, headline: pd.Series | None = None, column: str = "",
           n: int = 0, unit: str = "", **facts) -> Answer:  # fmt: skip
    """An :class:`Answer` of ``run`` (labelled when ``runs`` holds several) whose
    headline is ``headline[column]`` with its ``_low``/``_high`` bounds (NaN
    without a headline row) over ``n`` games; ``facts`` are what its sentences
    read."""
    value = ((headline[column], headline[f"{column}_low"], headline[f"{column}_high"]) if headline is not None
             else (math.nan,) * 3)  # fmt: skip
    return Answer(kind, run.name if run else "", run.label if run and len(runs) > 1 else "", column,
                  *map(float, value), int(n), unit, facts=facts)  # fmt: skip


def rows_of(frame: pd.DataFrame, run: Run) -> pd.DataFrame:
    """The rows of ``frame`` (a table of several runs) that belong to ``run``."""
    return frame[frame["run"] == run.name]
