"""Per-player summaries of players-table columns: the mean per player-game with a
game-clustered interval (:mod:`analysis.stats.clustered`) and the spread of the
player-game values (:class:`analysis.stats.histogram.Histogram`), from one streamed
pass over the run (:mod:`analysis.data.passes`).

Source: the ``players`` table (one row per game and turn order).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.data.passes import Pass, totals_of
from analysis.data.runs import Run
from analysis.data.stream import Batch, Columns, Totals
from analysis.stats.clustered import GameMoments, ratio_columns
from analysis.stats.histogram import Histogram
from analysis.stats.inference import PERCENTILES


def _per_player_totals(columns: tuple[str, ...]):
    def totals(batch: Batch) -> Totals:
        out: Totals = {}
        for column in columns:
            y = batch.players[column]
            out[f"{column}/moments"] = GameMoments.of(np.stack([y.sum(1), np.full(batch.size, y.shape[1])], axis=1))
            out[f"{column}/values"] = Histogram.of(y)
        return out

    return totals


def per_player_pass(columns: tuple[str, ...], include_unfinished: bool = True) -> Pass:
    """The pass of :func:`summarise_per_player` over these players-table columns."""
    return Pass(("per player", columns, include_unfinished), Columns(players=columns), _per_player_totals(columns),
                include_unfinished)  # fmt: skip


def summarise_per_player(run: Run, columns: dict[str, str], include_unfinished: bool = True) -> pd.DataFrame:
    """Mean per player-game of players-table columns, with game-clustered intervals.

    One pass over the run (:func:`analysis.data.stream.reduce_run`): the mean's
    interval comes from the per-game totals' moments, the spread from the histogram
    of the player-game values (:class:`analysis.stats.histogram.Histogram`), both
    exact.

    Parameters
    ----------
    run : Run
    columns : dict of str to str
        Column of the players table → what it counts (the table's ``what``).
    include_unfinished : bool
        Count stalled and truncated games (yes by default: these are not win rates).

    Returns
    -------
    pandas.DataFrame
        One row per column: ``measure``, ``what``, ``player_games``, ``games``,
        ``mean`` with its game-clustered ``mean_low``/``mean_high``
        (:mod:`analysis.stats.clustered`), and over the player-game rows ``sd``,
        ``median``, ``p5`` … ``p95``, ``min``, ``max``.
    """
    totals = totals_of(run, per_player_pass(tuple(columns), include_unfinished))
    rows = []
    for column, what in columns.items():
        moments, values = totals[f"{column}/moments"], totals[f"{column}/values"]
        mean = ratio_columns("mean", moments, rate=False)
        summary = values.summary()
        spread = ({key: float(summary[key][0]) for key in ("sd", "median", *(f"p{p}" for p in PERCENTILES), "min", "max")}
                  if values.n[0] else {})  # fmt: skip
        rows.append({"measure": column, "what": what, "player_games": int(values.n[0]), "games": moments.games,
                     **{key: float(value) for key, value in mean.items()}, **spread})  # fmt: skip
    return pd.DataFrame(rows)
