"""Policy ids, and the policy set a state's kernels are compiled for.

Every kernel takes the state as a view (:mod:`sim._numba`) whose numba type carries
the *policy set*: the policies the state's ``bots`` table names when a kernel is
called from Python, plus the cheap ones that tests script (:data:`ALWAYS`).
:func:`sim.bots.policy.decide` dispatches only to the policies of that set, and the
game loop plans a ``search`` turn only when the set holds ``search``, so a run
compiles only the bots it names: a ``greedy`` run never compiles the search bot.
Each set is compiled once and then loaded from numba's cache.
"""

from __future__ import annotations

from collections.abc import Iterable

RANDOM = 0
SCRIPTED = 1
UNIFORM = 2
GREEDY = 3
PLANNER = 4
USER = 5  # a bot from a user's file (sim.bots.user); not chosen by name
SEARCH = 6
ALWAYS = (RANDOM, SCRIPTED, UNIFORM)  # small kernels, in every set


def policy_set(policy_ids: Iterable[int]) -> tuple[int, ...]:
    """The sorted policy set that kernels are compiled for when the bots table names
    ``policy_ids``: those, :data:`ALWAYS`, and ``planner`` with ``search`` (its
    playouts seat ``planner`` everywhere, :mod:`sim.bots.search`).

    Raises
    ------
    ValueError
        For an id that names no policy.
    """
    ids = {int(i) for i in policy_ids} | set(ALWAYS)
    if SEARCH in ids:
        ids.add(PLANNER)
    unknown = ids - {RANDOM, SCRIPTED, UNIFORM, GREEDY, PLANNER, USER, SEARCH}
    if unknown:
        raise ValueError(f"unknown policy id {sorted(unknown)}")
    return tuple(sorted(ids))
