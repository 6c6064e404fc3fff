"""The players table as per-game arrays: one row per game, one column per turn-order
position, so that every statistic can treat the game as its unit (the players of a
game share it: :mod:`analysis.stats.clustered`).

Memory: a Boolean per-ally column takes ``games × players × allies`` bytes (160 MB
for a million four-player games of 40 allies).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from analysis.data.runs import Run
from sim.rundir import RunError
from sim.rundir.schema import ALLY_SETS, unpack_allies

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
        if column in ALLY_SETS:  # bit-packed (sim.rundir.schema)
            values = unpack_allies(values, len(run.deck.allies))
        out[column] = values.reshape(len(game) // n, n, *values.shape[1:])
    return out


def bot_labels(run: Run) -> tuple[list[str], str, np.ndarray]:
    """How to tell the bot that played a player row, batch by batch.

    A row's bot is the run's bot of the row's ``bot`` index when the table records
    it (runs with shuffled seats), otherwise the bot of its seat. Seats that play
    the same bot specification share its label.

    Returns
    -------
    names : list of str
        The run's distinct bot labels, sorted.
    column : str
        The players-table column that tells a row's bot: ``bot`` or ``seat``.
    labels : ndarray of int64, shape (seats,)
        For each value of ``column``, the index in ``names`` of its bot.
    """
    column = "bot" if "bot" in run.scan("players").collect_schema().names() else "seat"
    names = sorted(set(run.bot_names))
    return names, column, np.array([names.index(bot) for bot in run.bot_names], np.int64)


def chunks(length: int, size: int = CHUNK_GAMES) -> Iterator[slice]:
    """Slices that cover ``range(length)`` in pieces of at most ``size`` games."""
    for start in range(0, length, size):
        yield slice(start, min(start + size, length))
