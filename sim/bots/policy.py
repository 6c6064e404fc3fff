"""Policy dispatch: which bot decides for a seat.

A run lists its bots in ``State.bots`` (policy id, restricted ally, restriction) and
``State.bot_params``; ``State.seat_bot`` says which bot sits in each seat this game.
:func:`decide` filters the options by the bot's restriction, calls its policy's
kernel, and checks the answer, always: an index outside ``[0, n_options)`` stops the
game (:func:`refuse_choice`) and :func:`sim.engine.run_games` raises
:class:`sim.engine.BadChoiceError` naming the bot, the decision and the index.

The dispatch is compiled for the policy set of the state's type
(:mod:`sim.bots.ids`): :func:`choose` has a branch for each policy of the set only,
so the bots a run does not name are never compiled.
"""

from numba.extending import overload

from sim._numba import hot_kernel, inline_kernel, kernel
from sim.bots import greedy, planner, search_tree
from sim.bots.greedy import greedy_choose
from sim.bots.planner import planner_choose
from sim.bots.random_bot import random_choose
from sim.bots.restrict import restrict_options
from sim.bots.search_tree import search_choose
from sim.bots.uniform_bot import uniform_choose
from sim.bots.ids import GREEDY, PLANNER, RANDOM, SCRIPTED, SEARCH, UNIFORM, USER, policy_set
from sim.bots.user import user_choose
from sim.state import (
    BAD_CHOICE, BAD_INDEX, BAD_KIND, BAD_N_OPTIONS, BAD_SEAT, BOT_ADDRESS, BOT_POLICY, BOT_RESTRICTED,
    BOT_RESTRICTION, RESTRICT_NONE, SCRIPT_N, SCRIPT_POS,
)  # fmt: skip

POLICY_IDS = {  # the bots a user may name (sim.bots.spec)
    "random": RANDOM, "uniform": UNIFORM, "greedy": GREEDY, "planner": PLANNER, "search": SEARCH,
}  # fmt: skip
POLICY_PARAMS = {  # name: default value, in the order of State.bot_params
    "random": {}, "uniform": {}, "greedy": greedy.PARAMS, "planner": planner.PARAMS, "search": search_tree.PARAMS,
}  # fmt: skip
POLICY_LIMITS = {"search": search_tree.LIMITS}  # name: {parameter: (low, high, whole numbers only)}


@kernel
def scripted_choose(st):
    """The ``scripted`` policy: the next option index from ``st.script``, in order.
    It replays a hand-written list of decisions in tests that set ``st.script`` and
    ``st.bots`` themselves; users cannot name it (it is not in ``POLICY_IDS``).

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
def refuse_choice(st, seat, kind, choice, n_options):
    """Record the game's first choice outside ``[0, n_options)`` in ``st.g[BAD_*]``
    (:mod:`sim.state`) and return 0 in its place, a row every decision offers, so that
    the turn ends without reading or writing past the options; the game loop
    (:func:`sim.engine.play_game`) then stops."""
    if st.g[BAD_CHOICE] == 0:
        st.g[BAD_CHOICE] = 1
        st.g[BAD_SEAT] = seat
        st.g[BAD_KIND] = kind
        st.g[BAD_INDEX] = choice
        st.g[BAD_N_OPTIONS] = n_options
    return 0


# The call that asks each policy for its option index, by policy id.
CALLS = {
    RANDOM: "random_choose(st, deck, seat, kind, n_options)",
    GREEDY: "greedy_choose(st, deck, seat, kind, n_options, st.bot_params[bot])",
    PLANNER: "planner_choose(st, deck, seat, kind, n_options, st.bot_params[bot])",
    # by its tree (planned at turn start by sim.bots.search), else as planner:
    SEARCH: "search_choose(st, deck, seat, kind, n_options, st.bot_params[bot])",
    SCRIPTED: "scripted_choose(st)",
    UNIFORM: "uniform_choose(st, n_options)",
    USER: "user_choose(st, deck, seat, kind, n_options, st.bots[bot, BOT_ADDRESS])",
}


def _dispatch(policies):
    """A function ``(st, deck, seat, kind, n_options, bot, policy) -> index`` with one
    branch per policy id in ``policies``, raising ValueError for any other id."""
    lines = ["def choose(st, deck, seat, kind, n_options, bot, policy):"]
    lines += [f"    if policy == {p}:\n        return {CALLS[p]}" for p in policies]
    lines.append('    raise ValueError("unknown policy id")')
    namespace = {}
    exec("\n".join(lines), globals(), namespace)  # noqa: S102 (source built from CALLS only)
    return namespace["choose"]


choose = _dispatch(sorted(CALLS))  # plain Python (NUMBA_DISABLE_JIT=1): every policy


@overload(choose, jit_options={"nogil": True})
def _choose_for(st, deck, seat, kind, n_options, bot, policy):
    """Compiled :func:`choose` for the policy set of ``st``'s type (all policies for a
    state type that names none)."""
    policies = getattr(st, "policies", None)
    return _dispatch(sorted(CALLS) if policies is None else policy_set(policies))


@hot_kernel
def decide(st, deck, seat, kind, n_options):
    """Ask the bot of seat ``seat`` (``st.seat_bot``, ``st.bots``) to pick one of the
    ``n_options`` rows of ``st.options`` for a decision of ``kind``
    (:mod:`sim.decisions`), after its restriction, if any, filters them.

    Returns the index, or 0 when the policy named no offered option; that is
    recorded by :func:`refuse_choice` and stops the game (one comparison, always).
    """
    bot = st.seat_bot[seat]
    if st.bots[bot, BOT_RESTRICTION] != RESTRICT_NONE:
        ally, mode = st.bots[bot, BOT_RESTRICTED], st.bots[bot, BOT_RESTRICTION]
        n_options = restrict_options(st, seat, kind, n_options, ally, mode)
    choice = choose(st, deck, seat, kind, n_options, bot, st.bots[bot, BOT_POLICY])
    if not 0 <= choice < n_options:
        return refuse_choice(st, seat, kind, choice, n_options)
    return choice


@inline_kernel
def reads_play_rows(st, seat):
    """Whether the bot of ``seat`` reads the rows of a ``D_PLAY`` decision. ``random``
    (:mod:`sim.bots.random_bot`) and ``uniform`` pick a play from the number of rows
    alone, so for them :func:`sim.rules.turn.play_turn` does not write the rows and
    finds the card and squad from the index; a restricted bot reads them, since
    :func:`sim.bots.restrict.restrict_options` filters them.

    Skipping the rows: ``revachol bench``'s ability-free 4-player ``random`` line went
    from about 94,200 to 95,500 games/s (issue 14)."""
    bot = st.seat_bot[seat]
    policy = st.bots[bot, BOT_POLICY]
    return st.bots[bot, BOT_RESTRICTION] != RESTRICT_NONE or (policy != RANDOM and policy != UNIFORM)
