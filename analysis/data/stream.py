"""One pass over a run's parts: a batch of per-game arrays per chunk, reduced to totals.

Every statistic of the reports is a function of *totals over games*: counts, sums,
sums of squares and cross-products of per-game totals (:mod:`analysis.stats.clustered`),
histograms of integer values, and the conditional logit's log-likelihood, gradient and
Hessian (:mod:`analysis.stats.ally_model`). Each is computed by mapping one
:class:`Batch` (the games of one chunk, from the three tables' parts of that chunk) to
named totals and adding the totals up. Memory is bounded by one chunk's columns
(about 25,000 games), whatever the number of games in the run.

Two settings reach every pass without changing the signature of any statistic: the
progress display (:func:`showing`, :class:`analysis.data.progress.ReadProgress`),
advanced per part read, and a Dask client (:func:`on_cluster`), with which
:func:`reduce_run` maps :func:`chunk_batch` and the totals over the chunks on the
cluster's workers and adds the small totals up here, in chunk order (the same sums
as without the cluster).

Runs that played the same games (a paired comparison, common random numbers) are
read in step, game range by game range, whatever their chunk sizes (:func:`in_step`).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from analysis.data.pool import default_workers, local_workers, ordered_map
from analysis.data.progress import PROGRESS_GAMES, ReadProgress
from analysis.data.runs import Run
from sim.rundir import RunError, part_files
from sim.rundir.schema import ALLY_SETS, unpack_allies

UNFINISHED = ("stalled", "truncated")  # games-table columns that mark a game left out of win rates (R4 Reading)
_PROGRESS: ContextVar[ReadProgress] = ContextVar("progress", default=ReadProgress(False))
_CLIENT: ContextVar[object | None] = ContextVar("client", default=None)


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
        return self.take(~self.unfinished) if self.unfinished.any() else self

    def take(self, games) -> Batch:
        """The batch of some of its games: ``games`` a slice, or a bool or index array
        over the batch's games."""
        tables = [{c: v[games] for c, v in table.items()} for table in (self.games, self.players, self.cards)]
        return Batch(self.game[games], *tables, self.unfinished[games])


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
    for column in set(ALLY_SETS) & set(columns.players):  # bit-packed sets of allies (sim.rundir.schema)
        tables["players"][column] = unpack_allies(tables["players"][column], len(run.deck.allies))
    return Batch(game, tables["games"], tables["players"], tables["cards"], unfinished)


@contextlib.contextmanager
def showing(progress: ReadProgress) -> Iterator[ReadProgress]:
    """Advance ``progress`` by every part that :func:`batches` and :func:`reduce_run`
    read while the body runs."""
    token = _PROGRESS.set(progress)
    try:
        yield progress
    finally:
        _PROGRESS.reset(token)


@contextlib.contextmanager
def on_cluster(client) -> Iterator[None]:
    """Run every :func:`reduce_run` of the body on the workers of ``client`` (a
    ``dask.distributed.Client``, see :func:`sim.run.cluster.dask_client`); they must see
    the runs at the same paths."""
    token = _CLIENT.set(client)
    try:
        yield
    finally:
        _CLIENT.reset(token)


@contextlib.contextmanager
def reading(runs: Sequence[Run], progress: bool | None = None, scheduler: str | None = None,
            dask_local: int | None = None, workers: int | None = None) -> Iterator[ReadProgress]:  # fmt: skip
    """The progress display, the local worker processes and, when asked, the Dask
    cluster of a long analysis of ``runs``, while the body runs (:func:`showing`,
    :func:`analysis.data.pool.local_workers`, :func:`on_cluster`).

    Parameters
    ----------
    runs : sequence of Run
    progress : bool, optional
        Show the display on stderr; default: when stderr is a terminal and the runs
        hold at least :data:`analysis.data.progress.PROGRESS_GAMES` games.
    scheduler, dask_local : optional
        The Dask scheduler's address, or a number of local workers
        (:func:`sim.run.cluster.dask_client`); neither: this machine reads every part.
    workers : int, optional
        Local processes that read the parts and fit the ally model side by side
        (1: this process); default :func:`analysis.data.pool.default_workers` of the
        runs' games. The results do not depend on it.

    Raises
    ------
    sim.rundir.RunError
        When a cluster is asked for and Dask is not installed.
    ValueError
        When ``workers`` is below 1.
    """
    if progress is None:
        progress = sys.stderr.isatty() and sum(run.games for run in runs) >= PROGRESS_GAMES
    with contextlib.ExitStack() as stack:
        display = stack.enter_context(showing(stack.enter_context(ReadProgress(progress).shown())))
        stack.enter_context(local_workers(workers if workers is not None else default_workers(sum(r.games for r in runs))))
        if scheduler is not None or dask_local is not None:
            from sim.run.cluster import dask_client

            stack.enter_context(on_cluster(stack.enter_context(dask_client(scheduler, dask_local))))
        yield display


def _chunks(run: Run) -> range:
    chunks = range(len(part_files(run.path, "games")))
    _PROGRESS.get().start_pass(run.name, len(chunks))
    return chunks


def batches(run: Run, columns: Columns, include_unfinished: bool = True) -> Iterator[Batch]:
    """Every chunk's :class:`Batch`, in chunk order (see :func:`chunk_batch`),
    without the stalled and truncated games unless ``include_unfinished``."""
    progress = _PROGRESS.get()
    for chunk in _chunks(run):
        batch = chunk_batch(run, chunk, columns)
        progress.advance(batch.size * run.players)
        yield batch if include_unfinished else batch.finished()


def in_step(*streams: Iterator[Batch]) -> Iterator[tuple[Batch, ...]]:
    """The batches of runs that played the same games, in step: each tuple holds the
    same games from every stream (by :attr:`Batch.game`), whatever the runs' chunk
    sizes, e.g. ``in_step(batches(a, columns), batches(b, columns))`` for a paired
    comparison of ``a`` and ``b`` (common random numbers).

    Raises
    ------
    sim.rundir.RunError
        When the streams do not hold the same games in the same order.
    """
    heads: list[Batch | None] = [None] * len(streams)
    while True:
        heads = [head if head is not None and head.size else next(stream, None) for head, stream in zip(heads, streams)]
        if all(head is None for head in heads):
            return
        size = min(head.size if head is not None else 0 for head in heads)
        if size == 0 or not all(np.array_equal(head.game[:size], heads[0].game[:size]) for head in heads):
            raise RunError("the runs do not hold the same games: compare complete runs of the same games")
        yield tuple(head.take(slice(0, size)) for head in heads)
        heads = [head.take(slice(size, None)) for head in heads]


Totals = dict[str, Any]  # named totals: ndarrays, or objects that add (GameMoments)
SIDE = "side"  # a totals key handed to reduce_run's ``side`` chunk by chunk, not summed


def add_totals(total: Totals | None, part: Totals) -> Totals:
    """``total + part`` key by key (``part`` when ``total`` is None)."""
    if total is None:
        return dict(part)
    return {key: total[key] + value if key in total else value for key, value in part.items()}


def _chunk_totals(chunk: int, run: Run, columns: Columns, totals: Callable[[Batch], Totals],
                  include_unfinished: bool) -> tuple[Totals, int]:  # fmt: skip
    """One chunk's totals and its games (a task of :func:`reduce_run` on a worker)."""
    batch = chunk_batch(run, chunk, columns)
    return totals(batch if include_unfinished else batch.finished()), batch.size


def _on_cluster(client, run: Run, columns: Columns, totals: Callable[[Batch], Totals],
                include_unfinished: bool) -> Iterator[tuple[Totals, int]]:  # fmt: skip
    """The chunks' totals computed on ``client``'s workers, one task per chunk,
    yielded in chunk order as they arrive."""
    from dask.distributed import as_completed

    futures = client.map(_chunk_totals, _chunks(run), run=run, columns=columns, totals=totals,
                         include_unfinished=include_unfinished, pure=False)  # fmt: skip
    index = {future.key: chunk for chunk, future in enumerate(futures)}
    arrived: dict[int, tuple[Totals, int]] = {}
    following = 0
    for future in as_completed(futures):
        arrived[index[future.key]] = future.result()
        while following in arrived:
            yield arrived.pop(following)
            following += 1


def reduce_run(run: Run, columns: Columns, totals: Callable[[Batch], Totals], include_unfinished: bool = True,
               side: Callable[[Any], None] | None = None) -> Totals:  # fmt: skip
    """``Σ_chunks totals(batch)``: one statistic's totals over the whole run, added
    in chunk order, so the sums are the same wherever the chunks are read: here, on
    local worker processes (:func:`analysis.data.pool.local_workers`), or on the
    workers of a Dask cluster inside :func:`on_cluster` (``totals`` is sent with
    cloudpickle and run there).

    Parameters
    ----------
    side : callable, optional
        Receives the value each chunk's totals hold under :data:`SIDE`, in chunk
        order, instead of summing it: per-chunk output to stream elsewhere (the ally
        model's spool), which memory could not hold for the whole run.

    Raises
    ------
    sim.rundir.RunError
        As :func:`chunk_batch`.
    """
    client = _CLIENT.get()
    parts = (_on_cluster(client, run, columns, totals, include_unfinished) if client is not None
             else ordered_map(_chunk_totals, _chunks(run), run, columns, totals, include_unfinished))  # fmt: skip
    progress, out = _PROGRESS.get(), None
    for part, games in parts:
        progress.advance(games * run.players)
        if side is not None:
            side(part.pop(SIDE))
        out = add_totals(out, part)
    return out if out is not None else {}
