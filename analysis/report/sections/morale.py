"""The section "Morale loss": events per game, what penalties take back, the
morale cards' saves against their dice (:mod:`analysis.morale`)."""

from __future__ import annotations

from analysis import morale
from analysis.data.runs import Run
from analysis.report.figures import plot_morale_events, plot_morale_saves
from analysis.report.model import FigureSpec, Note, Section, Table, answer, rows_of


def morale_section(runs: list[Run], include_unfinished: bool) -> Section:
    """Per run, the mean morale-loss events per game (answer kind ``morale``);
    tables ``morale_per_game``, ``morale_impact``, ``win_rate_by_saves``,
    ``player_penalties``, ``morale_cards``, ``morale_event_distribution``."""
    per_game, events = morale.morale_per_game(runs), morale.morale_event_distribution(runs)
    penalties, saves = morale.player_penalties(runs), morale.morale_cards(runs)
    impact = morale.morale_impact(runs, include_unfinished)
    by_saves = morale.win_rate_by_saves(runs, include_unfinished)
    answers = []
    for run in runs:
        measures = rows_of(per_game, run).set_index("measure")
        events_ = measures.loc["morale_events"]
        answers.append(answer("morale", runs, run, events_, "mean", events_["games"], "events", events=events_,
                              failed=measures.loc["failed_share"], saves=rows_of(saves, run),
                              impact=rows_of(impact, run), by_saves=rows_of(by_saves, run)))  # fmt: skip
    return Section(
        "Morale loss",
        answers,
        [Note("morale")],
        [FigureSpec("morale_events", plot_morale_events, (events,))]
        + ([FigureSpec("morale_saves", plot_morale_saves, (saves,))] if len(saves) else []),
        [Table("morale_per_game", per_game), Table("morale_impact", impact), Table("win_rate_by_saves", by_saves),
         Table("player_penalties", penalties),
         Table("morale_cards", saves, hide=("card", "probability", "p_value", "games")),
         Table("morale_event_distribution", events, shown=False)],
    )  # fmt: skip
