"""The players table as per-game arrays: one row per game, one column per turn-order
position, so that every statistic can treat the game as its unit (the players of a
game share it: :mod:`analysis.stats.clustered`).

Memory: a Boolean per-ally column takes ``games × players × allies`` bytes (160 MB
for a million four-player games of 40 allies).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pandas as pd

from analysis.stats.clustered import GameMoments, ratio_columns
from analysis.data.runs import Run
from analysis.stats.inference import PERCENTILES
from sim.rundir import RunError

CHUNK_GAMES = 100_000  # games per chunk when a statistic is summed chunk by chunk


def player_arrays(run: Run, *columns: str, include_unfinished: bool = False) -> dict[str, np.ndarray]:
    """Columns of the run's players table as arrays of shape ``(G, n, ...)``.

    Parameters
    ----------
    run : Run
    *columns : str
        Columns of the players table (scalars give ``(G, n)``, per-ally Boolean
        arrays such as ``held`` give ``(G, n, A)``).
    include_unfinished : bool
        Keep the stalled and truncated games (left out by default, RULES R4 Reading).

    Returns
    -------
    dict of ndarray
        The columns, indexed ``[game, turn order]``, and ``game`` ``(G,)``, the game
        indices in ascending order.

    Raises
    ------
    sim.rundir.RunError
        When a game does not have exactly one row per player.
    """
    frame = run.scan_for_win_rates("players", "game", "turn_order", *columns, include_unfinished=include_unfinished)
    frame = frame.collect()
    n = run.players
    game = frame["game"].to_numpy()
    order = frame["turn_order"].to_numpy()
    if len(game) % n or not ((order.reshape(-1, n) == np.arange(n)).all() and (game.reshape(-1, n) == game[::n, None]).all()):
        frame = frame.sort(["game", "turn_order"])  # the runner writes them in this order; sort if not
        game, order = frame["game"].to_numpy(), frame["turn_order"].to_numpy()
        if len(game) % n or not (order.reshape(-1, n) == np.arange(n)).all():
            raise RunError(f"{run.path}: the players table does not hold one row per player of every game")
    out = {"game": game[::n]}
    for column in columns:
        values = frame[column].to_numpy()
        out[column] = values.reshape(len(game) // n, n, *values.shape[1:])
    return out


def player_bots(run: Run, *columns: str, include_unfinished: bool = False) -> tuple[list[str], dict[str, np.ndarray]]:
    """The bot that played each player row, with other players-table columns.

    A row's bot is the run's bot of the row's ``bot`` index when the table records
    it (runs with shuffled seats), otherwise the bot of its seat. Seats that play
    the same bot specification share its label.

    Returns
    -------
    names : list of str
        The run's distinct bot labels, sorted.
    data : dict of ndarray
        As :func:`player_arrays` for ``columns``, plus ``bot_label`` int64
        ``(G, n)``: the index in ``names`` of each row's bot.
    """
    index = "bot" if "bot" in run.scan("players").collect_schema().names() else "seat"
    data = player_arrays(run, index, *columns, include_unfinished=include_unfinished)
    names = sorted(set(run.bot_names))
    data["bot_label"] = np.array([names.index(bot) for bot in run.bot_names], np.int64)[data[index]]
    return names, data


def chunks(length: int, size: int = CHUNK_GAMES) -> Iterator[slice]:
    """Slices that cover ``range(length)`` in pieces of at most ``size`` games."""
    for start in range(0, length, size):
        yield slice(start, min(start + size, length))


def summarise_per_player(run: Run, columns: dict[str, str], include_unfinished: bool = True) -> pd.DataFrame:
    """Mean per player-game of players-table columns, with game-clustered intervals.

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
    data = player_arrays(run, *columns, include_unfinished=include_unfinished)
    rows = []
    for column, what in columns.items():
        y = data[column].astype(np.float64)
        games, n = y.shape
        mean = ratio_columns("mean", GameMoments.of(np.stack([y.sum(1), np.full(games, n)], axis=1)), rate=False)
        flat = y.ravel()
        spread = ({"sd": flat.std(ddof=1) if flat.size > 1 else np.nan, "median": np.median(flat),
                   **{f"p{p}": np.percentile(flat, p) for p in PERCENTILES}, "min": flat.min(), "max": flat.max()}
                  if flat.size else {})  # fmt: skip
        rows.append({"measure": column, "what": what, "player_games": flat.size, "games": games,
                     **{key: float(value) for key, value in mean.items()}, **spread})  # fmt: skip
    return pd.DataFrame(rows)
