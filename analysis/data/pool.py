"""The local worker processes that read a long run's chunks side by side.

A pass over a run is a map over its chunks and a sum of small totals in chunk order
(:mod:`analysis.data.stream`); so is each Newton step of the ally model over its
spool (:mod:`analysis.stats.ally_model`). :func:`ordered_map` runs such a map on
loky's worker processes and yields the results in the order of the items, so the
sums are added in the same order, and give the same values, whatever the number of
workers. It uses loky's reusable executor, the one a run's workers use
(:mod:`sim.run.workers`), rather than ``joblib.Parallel``, which cannot share it
(``revachol run`` plays, then reports, in one process). Outside
:func:`local_workers` (or with one worker) everything runs in this process: a
library call or a small run never starts a process.
"""

from __future__ import annotations

import contextlib
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from itertools import islice
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

IN_FLIGHT = 2  # items submitted per worker ahead of the one awaited
# Each worker computes with one thread, as the workers share the cores (numpy's BLAS, polars' decoder), and
# keeps the memory it frees for its next chunk, as a run's workers do (sim.run.workers.KEEP_FREED_MEMORY).
WORKER_ENV = {name: "1" for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "POLARS_MAX_THREADS")}
PARALLEL_GAMES = 200_000  # runs of fewer games are read in this process: starting workers costs more
_WORKERS: ContextVar[int] = ContextVar("workers", default=1)


def default_workers(games: int) -> int:
    """Worker processes for reading ``games`` games: every core of this machine from
    :data:`PARALLEL_GAMES` games on, otherwise 1 (this process)."""
    return max(1, os.cpu_count() or 1) if games >= PARALLEL_GAMES else 1


@contextlib.contextmanager
def local_workers(workers: int) -> Iterator[None]:
    """Run every :func:`ordered_map` of the body on ``workers`` local processes (1:
    in this process).

    Raises
    ------
    ValueError
        When ``workers`` is below 1.
    """
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    token = _WORKERS.set(workers)
    try:
        yield
    finally:
        _WORKERS.reset(token)


def ordered_map(fn: Callable[..., R], items: Iterable[T], *args) -> Iterator[R]:
    """``fn(item, *args)`` for each item, in the items' order, on the workers of
    :func:`local_workers` (loky's reusable executor, the one a run's workers use;
    ``fn`` and its arguments are sent with cloudpickle). At most
    :data:`IN_FLIGHT` items per worker are submitted ahead of the one awaited, so
    memory is a few items' whatever their number."""
    workers = _WORKERS.get()
    if workers <= 1:
        yield from (fn(item, *args) for item in items)
        return
    from joblib.externals.loky import get_reusable_executor

    from sim.run.workers import KEEP_FREED_MEMORY

    environment = WORKER_ENV | {name: os.environ.get(name, value) for name, value in KEEP_FREED_MEMORY.items()}
    pool = get_reusable_executor(max_workers=workers, env=environment)
    items = iter(items)
    pending = deque(pool.submit(fn, item, *args) for item in islice(items, IN_FLIGHT * workers))
    while pending:
        result = pending.popleft().result()
        for item in islice(items, 1):
            pending.append(pool.submit(fn, item, *args))
        yield result
