"""Closeness and drama: how far ahead the winner ends, how often the lead changes,
how late the game is settled, and how often the winner comes from behind.

Ludii's LeadChange, Drama and Decisiveness family (Ludeme/Ludii,
``Evaluation/src/metrics/multiple/metrics/``), adapted to a game scored once at the
end; the engine records the per-game fields (:mod:`sim.lead`):

* **margin** — the winner's points minus the runner-up's (points, R9.2). A margin of
  0 means R9.3's tie-breaks (tasks held, then the die) decided.
* **lead changes** — times the seat leading alone changed (Ludii LeadChange counts
  them as a share of moves; a count per game reads more plainly here).
* **decisiveness** — the turn at which the last seat to lead alone took the lead, as a
  share of the game's turns: near 1, the game was open to the end; near 0, settled
  early. Games in which no seat ever led alone are left out of it.
* **comeback rate** — the share of games whose winner had fewer points than the
  leader after half of the game's turns.

Each is over finished games (stalled and truncated games are left out, R4 Reading):
means carry a t interval, shares a Wilson interval, all with the number of games.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.data.runs import Run, RunsLike, per_run
from analysis.data.passes import Pass, totals_of
from analysis.data.stream import Batch, Columns, Totals
from analysis.stats.histogram import Histogram
from analysis.stats.inference import rate_columns

FIELDS = ("margin", "lead_changes", "lead_taken_turn", "winner_behind_at_half", "turns")
MEASURES = {  # measure: (unit, what it is)
    "margin": ("points", "winner's points over the runner-up's"),
    "lead_changes": ("changes", "times the seat leading alone changed"),
    "decisiveness": ("share of the game", "turn the final lead was taken, over the game's turns"),
}


def _histograms(batch: Batch) -> Totals:
    games = batch.games
    with np.errstate(divide="ignore", invalid="ignore"):  # no seat ever led alone: left out
        decisiveness = np.where(games["lead_taken_turn"] > 0, games["lead_taken_turn"] / games["turns"], np.nan)
    return {"margin": Histogram.of(games["margin"]), "lead_changes": Histogram.of(games["lead_changes"]),
            "decisiveness": Histogram.of(decisiveness), "comebacks": int(games["winner_behind_at_half"].sum())}  # fmt: skip


def closeness_pass(run: Run) -> Pass:
    """The pass of the closeness table: the histograms of the measures and the
    comebacks over the finished games."""
    return Pass("closeness", Columns(games=FIELDS), _histograms, include_unfinished=False)


def _finished(run: Run) -> Totals:
    return totals_of(run, closeness_pass(run))


def closeness(runs: RunsLike) -> pd.DataFrame:
    """Margin, lead changes, decisiveness and comeback rate of a run's games.

    Returns
    -------
    pandas.DataFrame
        One row per run and measure (``margin``, ``lead_changes``, ``decisiveness``,
        ``comeback_rate``): ``unit``, ``meaning``, ``games`` (the games measured),
        ``value`` with ``value_low`` and ``value_high`` (95% t interval for means,
        Wilson for the comeback rate), and ``median`` (NaN for the rate).
    """

    def one(run: Run) -> pd.DataFrame:
        totals = _finished(run)
        rows = []
        for measure, (unit, meaning) in MEASURES.items():
            s = {key: value[0] for key, value in totals[measure].summary("games").items()}
            rows.append({"measure": measure, "unit": unit, "meaning": meaning, "games": float(s["games"]),
                         "value": s["mean"], "value_low": s["mean_low"], "value_high": s["mean_high"],
                         "median": s["median"]})  # fmt: skip
        games = int(totals["margin"].n[0])
        rate = {key: float(v[0]) for key, v in rate_columns("value", [totals["comebacks"]], [games]).items()}
        rows.append({"measure": "comeback_rate", "unit": "share of games",
                     "meaning": "the winner trailed the leader after half of the turns", "games": games,
                     **rate, "median": float("nan")})  # fmt: skip
        return pd.DataFrame(rows)

    return per_run(runs, one)


def margin_histogram(runs: RunsLike) -> pd.DataFrame:
    """How often each winning margin occurs (points), over finished games.

    Returns
    -------
    pandas.DataFrame
        One row per run and margin: ``margin`` (points), ``games``, ``count``,
        ``share`` with its Wilson interval.
    """
    return per_run(runs, lambda run: _finished(run)["margin"].distribution("margin", "games"))


def passes(run: Run, include_unfinished: bool = False) -> list[Pass]:
    """The passes over ``run`` of this module's report tables, for
    :func:`analysis.data.passes.prefetch`."""
    return [closeness_pass(run)]
