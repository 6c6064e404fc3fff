"""Policy dispatch: which bot decides for a seat.

A run lists its bots in ``State.bots`` (policy id, restricted ally, restriction) and
``State.bot_params``; ``State.seat_bot`` says which bot sits in each seat this game.
:func:`decide` filters the options by the bot's restriction, calls its policy's
kernel, and checks the answer, always: an index outside ``[0, n_options)`` stops the
game (:func:`refuse_choice`) and :func:`sim.play.run_games` raises
:class:`sim.play.BadChoiceError` naming the bot, the decision and the index.

The dispatch is compiled for the policy set of the state's type
(:mod:`sim.bots.ids`): :func:`choose` has a branch for each policy of the set only,
so the bots a run does not name are never compiled.
"""

from numba.extending import overload

from sim import port
from sim._numba import hot_kernel, inline_kernel, kernel
from sim.bots.ids import SCRIPTED, policy_set
from sim.bots.observation import seat_view, show_hand  # noqa: F401 (seat_view: named in the generated dispatch)
from sim.bots.restrict import restrict_options
from sim.bots.table import BY_ID, POLICIES
from sim.decisions import D_PENALTY  # noqa: F401 (named in the generated dispatch)
from sim.rules.completion import subset_needs  # noqa: F401 (named in the generated dispatch)
from sim.state import (  # noqa: F401 (ACTIVE, BOT_ADDRESS: named in the generated dispatch)
    ACTIVE, BAD_CHOICE, BAD_INDEX, BAD_KIND, BAD_N_OPTIONS, BAD_SEAT, BOT_ADDRESS, BOT_POLICY, BOT_RESTRICTION,
    BOT_RESTRICTED, RESTRICT_NONE,
)  # fmt: skip

POLICY_IDS = {p.name: p.id for p in POLICIES if p.name}  # the bots a user may name (sim.bots.spec)
POLICY_PARAMS = {p.name: p.params for p in POLICIES if p.name}  # name: default value, in State.bot_params order
POLICY_LIMITS = {p.name: p.limits for p in POLICIES if p.limits}  # name: {parameter: (low, high, whole only)}
__all__ = ["SCRIPTED", "POLICY_IDS", "POLICY_PARAMS", "POLICY_LIMITS", "decide", "turn_start", "reads_option_rows"]


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


def _compile_source(name: str, lines: list[str], namespace: dict):
    """The function ``name`` defined by source ``lines`` built from :data:`POLICIES`
    only, with ``namespace`` and this module's globals in scope."""
    scope = {**globals(), **namespace}
    exec("\n".join(lines), scope)  # noqa: S102 (source built from the policy table only)
    return scope[name]


def _dispatch(policies):
    """A function ``(st, deck, seat, kind, n_options, bot, policy) -> index`` with one
    branch per policy id in ``policies``, raising ValueError for any other id. A
    policy that reads the need tables gets them filled for the task row first, by the
    rules' kernel on the whole state: they depend on the face-up tasks alone (R6.1),
    and the kernel is compiled once, not again for the seat view. A policy with an
    off-turn penalty kernel (:mod:`sim.bots.table`) is given the whole state for an
    R8.3 penalty on another seat's turn, as its turn-start hook is at its own."""
    lines = ["def choose(st, deck, seat, kind, n_options, bot, policy):", "    obs = seat_view(st)"]
    namespace = {}
    for p in policies:
        fill = "        subset_needs(st, deck)\n" if BY_ID[p].reads_need_tables else ""
        penalty = ""
        if BY_ID[p].off_turn_penalty is not None:
            namespace[f"penalty_{p}"] = BY_ID[p].off_turn_penalty
            penalty = (f"        if kind == D_PENALTY and seat != st.g[ACTIVE]:\n"
                       f"            return penalty_{p}(st, deck, seat, n_options, bot)\n")  # fmt: skip
        namespace[f"choose_{p}"] = BY_ID[p].choose
        lines.append(f"    if policy == {p}:\n{fill}{penalty}        return choose_{p}({BY_ID[p].arguments})")
    lines.append('    raise ValueError("unknown policy id")')
    return _compile_source("choose", lines, namespace)


def _set_of(st):
    """The policy ids kernels are compiled for with a state of type ``st``: its
    policy set as the type carries it (a rung of the ladder, raised to the compile
    floor when Python typed the view, :class:`sim.state.StateView`; the search bot's
    playout set as it is, :mod:`sim.bots.penalty_search`), or every policy for a
    state type that names none."""
    policies = getattr(st, "policies", None)
    return sorted(BY_ID) if policies is None else list(policies)


choose = _dispatch(sorted(BY_ID))  # plain Python (NUMBA_DISABLE_JIT=1): every policy


@overload(choose, jit_options={"nogil": True})
def _choose_for(st, deck, seat, kind, n_options, bot, policy):
    """Compiled :func:`choose` for the policy set of ``st``'s type."""
    return _dispatch(_set_of(st))


def _turn_start(policies):
    """A function ``(st, deck)`` that calls the turn-start hook of the active
    seat's policy, for the policies in ``policies`` that have one."""
    hooked = [p for p in policies if BY_ID[p].turn_start is not None]
    if not hooked:
        return lambda st, deck: None
    lines = ["def turn_start(st, deck):", "    policy = st.bots[st.seat_bot[st.g[ACTIVE]], BOT_POLICY]"]
    lines += [f"    if policy == {p}:\n        hook_{p}(st, deck)" for p in hooked]
    return _compile_source("turn_start", lines, {f"hook_{p}": BY_ID[p].turn_start for p in hooked})


turn_start = _turn_start(sorted(BY_ID))  # plain Python: every policy


@overload(turn_start, jit_options={"nogil": True})
def _turn_start_for(st, deck):
    """Compiled :func:`turn_start` for the policy set of ``st``'s type: compiled for a
    set without a hooked policy, it does nothing."""
    return _turn_start(_set_of(st))


@hot_kernel
def decide(st, deck, seat, kind, n_options):
    """Ask the bot of seat ``seat`` (``st.seat_bot``, ``st.bots``) to pick one of the
    ``n_options`` rows of ``st.options`` for a decision of ``kind``
    (:mod:`sim.decisions`), after its restriction, if any, filters them. The bot
    reads the seat's view (:mod:`sim.bots.observation`), its hand shown in
    ``own_hand``.

    Returns the index, or 0 when the policy named no offered option; that is
    recorded by :func:`refuse_choice` and stops the game (one comparison, always).
    """
    bot = st.seat_bot[seat]
    show_hand(st, seat)
    if st.bots[bot, BOT_RESTRICTION] != RESTRICT_NONE:
        ally, mode = st.bots[bot, BOT_RESTRICTED], st.bots[bot, BOT_RESTRICTION]
        n_options = restrict_options(st, seat, kind, n_options, ally, mode)
    choice = choose(st, deck, seat, kind, n_options, bot, st.bots[bot, BOT_POLICY])
    if not 0 <= choice < n_options:
        return refuse_choice(st, seat, kind, choice, n_options)
    return choice


ROWLESS = tuple(p.id for p in POLICIES if not p.reads_option_rows)  # policies that pick from the count alone


@inline_kernel
def reads_option_rows(st, seat):
    """Whether the bot of ``seat`` reads the rows of a ``D_PLAY`` decision. The
    policies of :data:`ROWLESS` (``random``, ``uniform``) pick a play from the number
    of rows alone, so for them :func:`sim.rules.turn.play_turn` does not write the
    rows and finds the card and squad from the index; a restricted bot reads them,
    since :func:`sim.bots.restrict.restrict_options` filters them.

    Skipping the rows: ``revachol bench``'s ability-free 4-player ``random`` line went
    from about 94,200 to 95,500 games/s (issue 14)."""
    bot = st.seat_bot[seat]
    if st.bots[bot, BOT_RESTRICTION] != RESTRICT_NONE:
        return True
    policy = st.bots[bot, BOT_POLICY]
    for rowless in ROWLESS:
        if policy == rowless:
            return False
    return True


port.bind(decide=decide, turn_start=turn_start, reads_option_rows=reads_option_rows, policy_set=policy_set)
