"""A report's passes over a run: declared, read together, and kept for the run.

Each statistic of a report is a :class:`Pass`: the columns it reads, the totals it
sums chunk by chunk (:func:`analysis.data.stream.reduce_run`), and whether the
stalled and truncated games count. :func:`totals_of` computes a pass's totals the
first time a run object is asked for them and gives the same value afterwards
(:func:`analysis.data.memo.once`). :func:`prefetch` computes many passes in one read
of the parts: each chunk is read once, with the union of the passes' columns, and
handed to every pass's totals. A report prefetches the passes of its tables, so it
reads each part once instead of once per table.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from functools import partial, reduce
from operator import or_

from analysis.data.memo import known, once
from analysis.data.runs import Run
from analysis.data.stream import Batch, Columns, Totals, reduce_run


@dataclass(frozen=True)
class Pass:
    """One statistic's pass over a run.

    Attributes
    ----------
    key : hashable
        Names the totals among the run's, with every argument they depend on besides
        the run (e.g. ``("game counts", include_unfinished)``).
    columns : Columns
    totals : callable
        ``totals(batch)``: the chunk's named totals (sent to the worker processes
        with cloudpickle).
    include_unfinished : bool
        Count the stalled and truncated games (RULES R4 Reading).
    """

    key: Hashable
    columns: Columns
    totals: Callable[[Batch], Totals] = field(compare=False)
    include_unfinished: bool = True


def totals_of(run: Run, statistic: Pass) -> Totals:
    """The pass's totals over the run: computed on the first call for this run
    object (or by :func:`prefetch`), the same value afterwards.

    Raises
    ------
    sim.rundir.RunError
        As :func:`analysis.data.stream.chunk_batch`.
    """
    return once(run, statistic.key, lambda: reduce_run(run, statistic.columns, statistic.totals,
                                                       statistic.include_unfinished))  # fmt: skip


def _together(batch: Batch, passes: tuple[Pass, ...]) -> Totals:
    """Every pass's totals of one chunk, keyed ``(pass index, name)``."""
    finished = batch.finished() if not all(p.include_unfinished for p in passes) else batch
    return {(i, name): value for i, p in enumerate(passes)
            for name, value in p.totals(batch if p.include_unfinished else finished).items()}  # fmt: skip


def prefetch(run: Run, passes: Sequence[Pass]) -> None:
    """Compute, in one read of the run's parts, the totals of every pass not yet
    computed for this run object, for :func:`totals_of` to give.

    Raises
    ------
    sim.rundir.RunError
        As :func:`analysis.data.stream.chunk_batch`.
    """
    todo = tuple({p.key: p for p in passes if not known(run, p.key)}.values())
    if not todo:
        return
    together = reduce_run(run, reduce(or_, (p.columns for p in todo)), partial(_together, passes=todo))
    for i, p in enumerate(todo):
        once(run, p.key, lambda i=i: {name: value for (j, name), value in together.items() if j == i})
