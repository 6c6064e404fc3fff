"""The section "Card strength": each ally against the average ally, its
contributions, and the tasks' completion (:mod:`analysis.cards`)."""

from __future__ import annotations

import pandas as pd

from analysis import cards
from analysis.data.runs import Run
from analysis.report.figures import plot_ally_strength, plot_task_outcomes
from analysis.report.model import FigureSpec, Note, Section, Table, answer, rows_of


def cards_section(runs: list[Run], include_unfinished: bool, threshold_pp: float, outcomes: pd.DataFrame,
                  bot: str | None = None) -> Section:  # fmt: skip
    """Per run, the allies with a verdict and the tasks' range of completion rates
    (answer kind ``cards``), from ``outcomes`` (:func:`analysis.cards.task_outcomes`)
    and the allies' strength measured with ``threshold_pp`` (percentage points),
    from ``bot``'s player rows only when given; tables ``ally_strength``,
    ``ally_contributions``, ``task_outcomes``, ``task_completers``. Raises
    ValueError when ``bot`` plays no seat of a run."""
    strength = cards.ally_strength(runs, include_unfinished, threshold_pp, bot).sort_values(
        ["run", "effect_pp"], ascending=[True, False], kind="stable")
    contributions = cards.ally_contributions(runs)
    completers = cards.task_completers(runs)
    answers = []
    for run in runs:
        tasks = rows_of(outcomes, run)
        answers.append(answer("cards", runs, run, allies=rows_of(strength, run),
                              hardest=tasks.loc[tasks["completion_rate"].idxmin()],
                              easiest=tasks.loc[tasks["completion_rate"].idxmax()]))  # fmt: skip
    return Section(
        "Card strength",
        answers,
        [Note("adaptation"), Note("every_game")],
        [FigureSpec("ally_strength", plot_ally_strength, (strength,)),
         FigureSpec("task_outcomes", plot_task_outcomes, (outcomes,))],
        [Table("ally_strength", strength, hide=("ally", "estimated", "baseline", "p_value", "threshold_pp", "games")),
         Table("ally_contributions", contributions, hide=("ally", "symbols", "estimated")),
         Table("task_outcomes", outcomes, hide=("task", "estimated")),
         Table("task_completers", completers, by_position=True)],
    )  # fmt: skip
