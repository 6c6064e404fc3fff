"""Totals computed once per opened run: tables that share a pass over the run's parts
(the wins per position of three seat tables, the task totals of two card tables)
read the parts once.

The memo lives as long as the :class:`~analysis.data.runs.Run` object: a report
opens each run once and passes the object to every table, so each shared pass runs
once per report, and opening the run again reads it afresh.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable
from typing import TypeVar

from analysis.data.runs import Run

T = TypeVar("T")
_MEMOS: dict[int, dict[Hashable, object]] = {}  # id(run) → key → value, dropped with the run


def once(run: Run, key: Hashable, compute: Callable[[], T]) -> T:
    """``compute()`` the first time ``key`` is asked of this ``run`` object, the same
    value afterwards.

    Parameters
    ----------
    run : Run
    key : hashable
        Names the value, with every argument it depends on besides the run (e.g.
        ``("seats", include_unfinished)``).
    compute : callable
        Computes the value from the run.
    """
    memo = _MEMOS.get(id(run))
    if memo is None:
        memo = _MEMOS[id(run)] = {}
        weakref.finalize(run, _MEMOS.pop, id(run), None)
    if key not in memo:
        memo[key] = compute()
    return memo[key]  # type: ignore[return-value]


def known(run: Run, key: Hashable) -> bool:
    """Whether :func:`once` has computed ``key`` for this ``run`` object."""
    return key in _MEMOS.get(id(run), {})
