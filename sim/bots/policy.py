"""Policy dispatch: which bot decides for a seat.

A run gives each seat a policy id (``int64 (P,)``); :func:`decide` calls that
policy's kernel with the pending decision and checks the answer in debug mode.
"""

from sim._numba import kernel
from sim.bots.random_bot import random_choose
from sim.state import R_DEBUG

RANDOM = 0
POLICY_IDS = {"random": RANDOM}


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
    else:
        raise ValueError("unknown policy id")
    if st.rules[R_DEBUG]:
        assert 0 <= choice < n_options, "policy chose an option that was not offered"
    return choice
