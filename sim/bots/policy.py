"""Policy dispatch: which bot decides for a seat.

A run lists its bots in ``State.bots`` (policy id, restricted ally, restriction) and
``State.bot_params``; ``State.seat_bot`` says which bot sits in each seat this game.
:func:`decide` filters the options by the bot's restriction, calls its policy's
kernel, and checks the answer in debug mode.
"""

import numpy as np

from sim._numba import kernel
from sim.bots import greedy, planner
from sim.bots.greedy import greedy_choose
from sim.bots.planner import planner_choose
from sim.bots.random_bot import random_choose
from sim.bots.restrict import restrict_options
from sim.bots.uniform_bot import uniform_choose
from sim.bots.user import user_choose
from sim.state import ACTIVE, FORCED_N, FORCED_POS, BOT_ADDRESS, BOT_POLICY, BOT_RESTRICTED, BOT_RESTRICTION, R_DEBUG, RESTRICT_NONE, SCRIPT_N, SCRIPT_POS

RANDOM = 0
SCRIPTED = 1
UNIFORM = 2
GREEDY = 3
PLANNER = 4
USER = 5  # a bot from a user's file (sim.bots.user); not chosen by name
SEARCH = 6
PLANNER_DEFAULTS = np.array(list(planner.PARAMS.values()), np.float64)
POLICY_IDS = {
    "random": RANDOM, "scripted": SCRIPTED, "uniform": UNIFORM, "greedy": GREEDY, "planner": PLANNER, "search": SEARCH,
}  # fmt: skip
POLICY_PARAMS = {  # name: default value, in the order of State.bot_params
    "random": {}, "scripted": {}, "uniform": {}, "greedy": greedy.PARAMS, "planner": planner.PARAMS,
    "search": {"rollouts": 64.0},
}  # fmt: skip


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
def decide(st, deck, seat, kind, n_options):
    """Ask the bot of seat ``seat`` (``st.seat_bot``, ``st.bots``) to pick one of the
    ``n_options`` rows of ``st.options`` for a decision of ``kind``
    (:mod:`sim.decisions`), after its restriction, if any, filters them.

    Raises
    ------
    AssertionError
        In debug mode, when the policy names no offered option.
    """
    if st.g[FORCED_POS] < st.g[FORCED_N] and seat == st.g[ACTIVE]:  # a planned move (sim.bots.search)
        choice = st.forced[st.g[FORCED_POS]]
        st.g[FORCED_POS] += 1
        if st.rules[R_DEBUG]:
            assert 0 <= choice < n_options, "a planned move names no offered option"
        return choice
    bot = st.seat_bot[seat]
    if st.bots[bot, BOT_RESTRICTION] != RESTRICT_NONE:
        ally, mode = st.bots[bot, BOT_RESTRICTED], st.bots[bot, BOT_RESTRICTION]
        n_options = restrict_options(st, seat, kind, n_options, ally, mode)
    policy = st.bots[bot, BOT_POLICY]
    if policy == RANDOM:
        choice = random_choose(st, deck, seat, kind, n_options)
    elif policy == GREEDY:
        choice = greedy_choose(st, deck, seat, kind, n_options, st.bot_params[bot])
    elif policy == PLANNER:
        choice = planner_choose(st, deck, seat, kind, n_options, st.bot_params[bot])
    elif policy == SEARCH:  # its turn's first moves are planned by sim.bots.search; the rest as planner
        choice = planner_choose(st, deck, seat, kind, n_options, PLANNER_DEFAULTS)
    elif policy == SCRIPTED:
        choice = scripted_choose(st)
    elif policy == UNIFORM:
        choice = uniform_choose(st, n_options)
    elif policy == USER:
        choice = user_choose(st, deck, seat, kind, n_options, st.bots[bot, BOT_ADDRESS])
    else:
        raise ValueError("unknown policy id")
    if st.rules[R_DEBUG]:
        assert 0 <= choice < n_options, "policy chose an option that was not offered"
    return choice
