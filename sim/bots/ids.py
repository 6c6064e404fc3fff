"""Policy ids, and the policy set a state's kernels are compiled for.

Every kernel takes the state as a view (:mod:`sim._numba`) whose numba type carries
the *policy set*: a rung of :data:`LADDER`, the lowest that holds every policy the
state's ``bots`` table names when a kernel is called from Python.
:func:`sim.bots.policy.decide` dispatches only to the policies of that set, and the
turn-start hook (:func:`sim.bots.policy.turn_start`) plans a ``search`` turn only
when the set holds ``search``, so a run
compiles the bots it names and the cheaper ones only: a ``greedy`` run never
compiles ``planner`` or the search bot. Each set compiles the whole engine once,
then loads it from numba's cache; rungs rather than every combination keep that to
four compilations at most (the test suite meets all four).

``REVACHOL_COMPILE_RUNG=NAME`` (``random``, ``greedy``, ``planner`` or ``search``)
raises every set to that rung at least: one compilation then serves every mix of
bots up to it, at the cost of compiling the rung's bots for runs that do not use
them. The games are the same (a set only adds branches that no seat takes); CI's
checked build uses it to compile the engine once, not once per rung
(docs/PERFORMANCE.md).
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from sim.bots.rungs import RUNG_NAMES
from sim.switches import RUNG_SWITCH, compile_rung

RANDOM = 0
SCRIPTED = 1
UNIFORM = 2
GREEDY = 3
PLANNER = 4
USER = 5  # a bot from a user's file (sim.bots.user); not chosen by name
SEARCH = 6
EXPERT = 7
# The rungs, by compile cost: each set holds its rung's policies and all below. The
# first rung's kernels are small (a user bot is called through its address); expert is
# planner's kernels with other weights, so it shares planner's rung; search's
# playouts seat planner everywhere (sim.bots.search), which sits below it.
LADDER = ((RANDOM, SCRIPTED, UNIFORM, USER), (GREEDY,), (PLANNER, EXPERT), (SEARCH,))


def compile_floor(setting: str | None = None) -> int:
    """The index in :data:`LADDER` of the lowest rung kernels are compiled for: 0, or
    the rung that ``setting`` (default: the environment's :data:`RUNG_SWITCH`) names.

    Raises
    ------
    sim.switches.SwitchError
        For a name not in :data:`RUNG_NAMES`.
    """
    setting = compile_rung(os.environ.get(RUNG_SWITCH, "") if setting is None else setting, RUNG_NAMES)
    return RUNG_NAMES.index(setting) if setting else 0


FLOOR = compile_floor()


def policy_set(policy_ids: Iterable[int]) -> tuple[int, ...]:
    """The sorted policy set that kernels are compiled for when the bots table names
    ``policy_ids``: every policy of :data:`LADDER`'s rungs up to the highest that
    holds one of them, or up to :data:`FLOOR` if that is higher.

    Raises
    ------
    ValueError
        For an id that names no policy.
    """
    return rung_set(top_rung(policy_ids))


def top_rung(policy_ids: Iterable[int]) -> int:
    """The index in :data:`LADDER` (and :data:`sim.bots.rungs.RUNG_NAMES`) of the
    rung kernels are compiled for when the bots table names ``policy_ids``: the
    highest that holds one of them, or :data:`FLOOR` if that is higher.

    Raises
    ------
    ValueError
        For an id that names no policy.
    """
    ids = {int(i) for i in policy_ids}
    unknown = ids - {p for rung in LADDER for p in rung}
    if unknown:
        raise ValueError(f"unknown policy id {sorted(unknown)}")
    return max([FLOOR, *(r for r, rung in enumerate(LADDER) if ids & set(rung))])


def rung_set(top: int) -> tuple[int, ...]:
    """The sorted policies of :data:`LADDER`'s rungs ``0 .. top``, whatever
    :data:`FLOOR`: the set of a view that a kernel types itself (the search bot's
    playouts from a penalty, :mod:`sim.bots.penalty_search`)."""
    return tuple(sorted(p for rung in LADDER[: top + 1] for p in rung))
