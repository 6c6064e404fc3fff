"""Policy dispatch: which bot decides for a seat.

A run gives each seat a policy id (``int64 (P,)``); :func:`decide` calls that
policy's kernel with the pending decision and checks the answer in debug mode.
"""

from sim._numba import kernel
from sim.bots.random_bot import random_choose
from sim.bots.uniform_bot import uniform_choose
from sim.state import R_DEBUG, SCRIPT_N, SCRIPT_POS

RANDOM = 0
SCRIPTED = 1
UNIFORM = 2
POLICY_IDS = {"random": RANDOM, "scripted": SCRIPTED, "uniform": UNIFORM}


@kernel
def scripted_choose(st):
    """The ``scripted`` policy: the next option index from ``st.script``, in order.
    It replays a recorded or hand-written list of decisions (tests, replays).

    Raises
    ------
    RuntimeError
        When the script has no entry left.
    """
    pos = st.g[SCRIPT_POS]
    if pos >= st.g[SCRIPT_N]:
        raise RuntimeError("the scripted policy ran out of choices")
    st.g[SCRIPT_POS] = pos + 1
    return st.script[pos]


@kernel
def decide(st, deck, seat, kind, n_options, policies):
    """Ask seat ``seat``'s policy to pick one of the ``n_options`` rows of
    ``st.options`` for a decision of ``kind`` (:mod:`sim.decisions`).

    Raises
    ------
    AssertionError
        In debug mode, when the policy names no offered option.
    """
    policy = policies[seat]
    if policy == RANDOM:
        choice = random_choose(st, deck, seat, kind, n_options)
    elif policy == SCRIPTED:
        choice = scripted_choose(st)
    elif policy == UNIFORM:
        choice = uniform_choose(st, n_options)
    else:
        raise ValueError("unknown policy id")
    if st.rules[R_DEBUG]:
        assert 0 <= choice < n_options, "policy chose an option that was not offered"
    return choice
