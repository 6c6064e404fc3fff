"""The section "Game length": turns and rounds, endings, the game-length curve and
the first morale-loss event (:mod:`analysis.length`)."""

from __future__ import annotations

import pandas as pd

from analysis import length
from analysis.data.runs import Run
from analysis.report.figures import plot_length_histogram, plot_survival
from analysis.report.model import FigureSpec, Note, Section, Table, answer, rows_of
from analysis.stats.power import detectable_from_interval


def _median_turn(curve: pd.DataFrame) -> str | None:
    """The first turn at which the Kaplan–Meier curve reaches 50%, if it does."""
    reached = curve[curve["survival"] <= 0.5]
    return None if reached.empty else str(int(reached["turn"].iloc[0]))


def length_section(runs: list[Run], target_turns: tuple[float, float] | None = None,
                   threshold_turns: float = length.DEFAULT_THRESHOLD_TURNS) -> Section:  # fmt: skip
    """Per run, the mean game length (answer kind ``length``) and, with the
    designer's ``target_turns`` (low, high), the miss of it in turns flagged with 80%
    power at the run's games (a miss counting from ``threshold_turns``,
    :func:`analysis.stats.power.detectable_effect`); tables ``game_length``,
    ``game_endings``, ``length_histogram``, ``length_survival``,
    ``first_event_incidence``."""
    summary, endings = length.game_length(runs), length.game_endings(runs)
    histogram = length.length_histogram(runs)
    survival, first_event = length.length_survival(runs), length.first_event_incidence(runs)
    answers = []
    for run in runs:
        turns, rounds = (rows_of(summary, run).set_index("measure").loc[m] for m in ("turns", "rounds"))
        median_event = _median_turn(rows_of(first_event, run).assign(survival=lambda f: 1 - f["incidence"]))
        mde = float(detectable_from_interval(turns["mean_low"], turns["mean_high"], threshold_turns))
        answers.append(answer("length", runs, run, turns, "mean", turns["games"], "turns", turns=turns, rounds=rounds,
                              ended=rows_of(endings, run).set_index("ending"),
                              median_end=_median_turn(rows_of(survival, run)), median_event=median_event,
                              target=target_turns, mde=mde))  # fmt: skip
    return Section(
        "Game length",
        answers,
        [Note("length")],
        [FigureSpec("length_histogram", plot_length_histogram, (histogram,)),
         FigureSpec("survival", plot_survival, (survival, first_event))],
        [Table("game_length", summary), Table("game_endings", endings),
         Table("length_histogram", histogram, shown=False), Table("length_survival", survival, shown=False),
         Table("first_event_incidence", first_event, shown=False)],
    )  # fmt: skip
