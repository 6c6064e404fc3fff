"""The section "Closeness and drama": margins, lead changes, decisiveness and
comebacks (:mod:`analysis.closeness`)."""

from __future__ import annotations

from analysis import closeness
from analysis.data.runs import Run
from analysis.report.figures import plot_margins
from analysis.report.model import FigureSpec, Note, Section, Table, answer, rows_of


def closeness_section(runs: list[Run]) -> Section:
    """Per run, the winner's mean margin in points (answer kind ``closeness``);
    tables ``closeness``, ``margin_histogram``."""
    summary, margins = closeness.closeness(runs), closeness.margin_histogram(runs)
    answers = []
    for run in runs:
        m = rows_of(summary, run).set_index("measure")
        answers.append(answer("closeness", runs, run, m.loc["margin"], "value", m.loc["margin", "games"], "points",
                              m=m))  # fmt: skip
    return Section(
        "Closeness and drama",
        answers,
        [Note("closeness")],
        [FigureSpec("margins", plot_margins, (margins,))],
        [Table("closeness", summary), Table("margin_histogram", margins, shown=False)],
    )  # fmt: skip
