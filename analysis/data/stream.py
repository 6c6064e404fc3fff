"""One pass over a run's parts: a batch of per-game arrays per chunk, reduced to totals.

Every statistic of the reports is a function of *totals over games*: counts, sums,
sums of squares and cross-products of per-game totals (:mod:`analysis.stats.clustered`),
histograms of integer values, and the conditional logit's log-likelihood, gradient and
Hessian (:mod:`analysis.stats.ally_model`). Each is computed by mapping one
:class:`Batch` (the games of one chunk, from the three tables' parts of that chunk) to
named totals and adding the totals up. Memory is bounded by one chunk's columns
(about 25,000 games), whatever the number of games in the run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from analysis.data.runs import Run
from sim.rundir import RunError, part_files

UNFINISHED = ("stalled", "truncated")  # games-table columns that mark a game left out of win rates (R4 Reading)


@dataclass(frozen=True)
class Batch:
    """The games of one chunk of a run, as arrays indexed by game.

    Attributes
    ----------
    game : ndarray of int64, shape (G,)
        Game indices, ascending.
    games : dict of ndarray
        Games-table columns, shape ``(G,)``.
    players : dict of ndarray
        Players-table columns, shape ``(G, n)`` for scalars and ``(G, n, A)`` for
        per-ally arrays (``held``, ``played``, ``opening``), indexed by turn order.
    cards : dict of ndarray
        Cards-table columns, shape ``(G, K)`` (``K`` tasks, morale cards or allies).
    unfinished : ndarray of bool, shape (G,)
        The stalled and truncated games.
    """

    game: np.ndarray
    games: dict[str, np.ndarray]
    players: dict[str, np.ndarray]
    cards: dict[str, np.ndarray]

    unfinished: np.ndarray

    @property
    def size(self) -> int:
        """Games in the batch."""
        return len(self.game)

    def finished(self) -> Batch:
        """The batch without its stalled and truncated games (left out of win rates,
        R4 Reading)."""
        if not self.unfinished.any():
            return self
        keep = ~self.unfinished
        tables = [{c: v[keep] for c, v in table.items()} for table in (self.games, self.players, self.cards)]
        return Batch(self.game[keep], *tables, self.unfinished[keep])


@dataclass(frozen=True)
class Columns:
    """The columns a pass reads from each table (``game`` is always read)."""

    games: tuple[str, ...] = ()
    players: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()

    def __or__(self, other: Columns) -> Columns:
        def union(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
            return tuple(dict.fromkeys(a + b))

        return Columns(union(self.games, other.games), union(self.players, other.players),
                       union(self.cards, other.cards))  # fmt: skip


def _read(path: Path, columns: Sequence[str], sort: Sequence[str]) -> pl.DataFrame:
    frame = pl.read_parquet(path, columns=list(dict.fromkeys(("game", *sort[1:], *columns))))
    return frame if frame.select(pl.struct(list(sort)).is_sorted()).item() else frame.sort(list(sort))


def _per_game(frame: pl.DataFrame, column: str, n: int) -> np.ndarray:
    values = frame[column].to_numpy()
    return values.reshape(len(values) // n, n, *values.shape[1:])


def chunk_batch(run: Run, chunk: int, columns: Columns) -> Batch:
    """The batch of one chunk (its three parts), with only ``columns``.

    Parameters
    ----------
    run : Run
    chunk : int
        Index into the run's parts (``part-NNNNN``), in chunk order.
    columns : Columns

    Raises
    ------
    sim.rundir.RunError
        When the chunk's parts do not hold the same games, or a game does not have
        one players row per player.
    """
    name = part_files(run.path, "games")[chunk].name
    games = _read(run.path / "games" / name, (*columns.games, *UNFINISHED), ("game",))
    game = games["game"].to_numpy()
    unfinished = ((games["stalled"] + games["truncated"]) > 0).to_numpy()
    tables: dict[str, dict[str, np.ndarray]] = {"games": {c: games[c].to_numpy() for c in columns.games}}
    n = run.players
    for table, wanted, sort in (("players", columns.players, ("game", "turn_order")), ("cards", columns.cards, ("game",))):
        tables[table] = {}
        if not wanted:
            continue
        frame = _read(run.path / table / name, wanted, sort)
        per = n if table == "players" else 1
        if frame.height != per * len(game) or not np.array_equal(frame["game"].to_numpy()[::per], game):
            raise RunError(f"{run.path}: the {table} part {name} does not hold one row per "
                           f"{'player of every' if per > 1 else 'every'} game of the games part")  # fmt: skip
        tables[table] = {c: (_per_game(frame, c, n) if per > 1 else frame[c].to_numpy()) for c in wanted}
    return Batch(game, tables["games"], tables["players"], tables["cards"], unfinished)


def batches(run: Run, columns: Columns, include_unfinished: bool = True) -> Iterator[Batch]:
    """Every chunk's :class:`Batch`, in chunk order (see :func:`chunk_batch`),
    without the stalled and truncated games unless ``include_unfinished``."""
    for chunk in range(len(part_files(run.path, "games"))):
        batch = chunk_batch(run, chunk, columns)
        yield batch if include_unfinished else batch.finished()


Totals = dict[str, Any]  # named totals: ndarrays, or objects that add (GameMoments)


def add_totals(total: Totals | None, part: Totals) -> Totals:
    """``total + part`` key by key (``part`` when ``total`` is None)."""
    if total is None:
        return dict(part)
    return {key: total[key] + value if key in total else value for key, value in part.items()}


def reduce_run(run: Run, columns: Columns, totals: Callable[[Batch], Totals], include_unfinished: bool = True) -> Totals:
    """``Σ_chunks totals(batch)``: one statistic's totals over the whole run.

    Raises
    ------
    sim.rundir.RunError
        As :func:`chunk_batch`.
    """
    out: Totals | None = None
    for batch in batches(run, columns, include_unfinished):
        out = add_totals(out, totals(batch))
    return out if out is not None else {}
