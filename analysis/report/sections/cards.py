"""The section "Card strength": each ally against the average ally, its
contributions, and the tasks' completion (:mod:`analysis.cards`)."""

from __future__ import annotations

import pandas as pd

from analysis import cards
from analysis.data.runs import Run
from analysis.report.figures import plot_ally_strength, plot_task_outcomes
from analysis.report.model import FigureSpec, Note, Section, Table, answer, rows_of


FLAGGED_COLUMNS = ("name", "effect_pp", "effect_low_pp", "effect_high_pp", "symbols", "ability")
"""The flagged allies' columns shown above the fold: what a designer edits (R1.2: the
ally's symbols and ability) beside its effect (issue 68 item 4); the effect's sign is
the verdict."""


def cards_section(runs: list[Run], include_unfinished: bool, threshold_pp: float, outcomes: pd.DataFrame,
                  bot: str | None = None) -> Section:  # fmt: skip
    """Per run, the allies with a verdict and the tasks' range of completion rates
    (answer kind ``cards``), from ``outcomes`` (:func:`analysis.cards.task_outcomes`)
    and the allies' strength measured with ``threshold_pp`` (percentage points),
    from ``bot``'s player rows only when given; tables ``ally_strength``,
    ``ally_contributions``, ``task_outcomes``, ``task_completers``; its lead, the
    allies with a verdict (:data:`FLAGGED_COLUMNS` of ``ally_strength``). Raises
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
    flagged = strength[strength["verdict"] != ""].sort_values(["run", "effect_pp"], key=lambda c: -c.abs()
                                                               if c.name == "effect_pp" else c, kind="stable")  # fmt: skip
    lead = Table("flagged_allies", flagged[[*(["run"] if len(runs) > 1 else []), *FLAGGED_COLUMNS]])
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
        lead,
    )  # fmt: skip
