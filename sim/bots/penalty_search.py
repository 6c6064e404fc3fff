"""The ``search`` bot's penalties on other seats' turns: a flat Monte-Carlo search.

When a morale-loss event on another seat's turn costs the bot's seat a card (R8.2,
R8.3), the choice is made during that turn, inside the rules, where the seat's turn
tree (:mod:`sim.bots.search`) cannot reach. The policy dispatch
(:func:`sim.bots.policy.decide`) then calls :func:`search_penalty` with the whole
state, as the game loop calls the turn-start hook. For ``penalty_iterations``
iterations it:

1. picks an option row by UCB1 over the rows (Auer, Cesa-Bianchi & Fischer 2002),
   rewards in [0, 1], ``explore`` as in the tree, with the same progressive bias
   towards ``planner``'s choice (Chaslot et al. 2008; :mod:`sim.bots.search_tree`);
   rows not yet tried first, ``planner``'s first of all;
2. copies the game into the twin and deals again what the seat cannot see
   (:func:`sim.bots.search.start_playout`), so that the choice is the same whatever
   the arrangement of the hidden cards (tests/test_bots_observation.py);
3. gives up the row's card and plays the turn in progress to its end
   (:func:`sim.rules.turn.resume_turn`), then the game, with ``planner`` in every
   seat, and scores it: 1 for a win of the seat, else 0.

It then gives up the card of the row played most (ties: ``planner``'s choice, then
the better mean). The search is flat, one level: the rows are the arms of a bandit,
and what follows is ``planner``'s, as in the tree's playouts.

The twin is the game loop's (:func:`sim.state.kernel_state` links it). Its kernels
are typed with the policies up to ``planner`` (:data:`PLAYOUT_SET`), not the run's,
so the playouts' decisions never reach this bot: no kernel calls itself (numba
cannot load cached mutually recursive kernels, docs/ARCHITECTURE.md). In the turn
tree's own playouts no twin is linked, and ``planner`` decides.

The dispatch reaches the search through a C callback (:func:`penalty_address`, in the
bot's ``BOT_ADDRESS``; :func:`off_turn_penalty`), compiled once on its own: called
as a kernel, its playouts (a whole game loop) were compiled again into every kernel
of the turn that can ask for a penalty, which tripled the search bot's first
compilation (docs/PERFORMANCE.md).
"""

import functools
import math

import numba
import numpy as np
from numba import cfunc, types
from numba.extending import overload

from sim._numba import ViewType, call_c, kernel, linked_view
from sim.bots.ids import RUNG_NAMES, rung_set
from sim.bots.observation import seat_view
from sim.bots.planner import planner_choose
from sim.bots.search import finish_playout, seat_planners, start_playout
from sim.bots.search_tree import BIAS, EXPLORE, HORIZON, PENALTY_ITERATIONS, PLANNER_DEFAULTS
from sim.bots.user import view_types
from sim.decisions import D_PENALTY
from sim.rules.turn import resume_turn
from sim.state import BOT_ADDRESS, BOT_RESTRICTION, EMPTY, RAISED

PLAYOUT_SET = rung_set(RUNG_NAMES.index("planner"))
"""The policy set of the twin's kernels in these playouts (:mod:`sim.bots.ids`)."""
has_twin, playout_twin = linked_view(PLAYOUT_SET)
PLAYS, WINS = 0, 1  # columns of State.penalty_stats


@kernel
def _pick(stats, n_options, played, explore, bias, favourite):
    """The row to play out next: ``favourite`` untried, else the first untried row,
    else the highest UCB1 value, ``bias / (plays + 1)`` added for ``favourite``."""
    if stats[favourite, PLAYS] == 0.0:
        return favourite
    best, best_value = EMPTY, -math.inf
    for i in range(n_options):
        plays = stats[i, PLAYS]
        if plays == 0.0:
            return np.int64(i)
        value = stats[i, WINS] / plays + explore * math.sqrt(math.log(played) / plays)
        if i == favourite:
            value += bias / (plays + 1.0)
        if value > best_value:
            best, best_value = np.int64(i), value
    return best


@kernel
def _most_played(stats, n_options, favourite):
    """The row played most; ties: ``favourite``, then the higher mean."""
    best = favourite
    for i in range(n_options):
        plays, best_plays = stats[i, PLAYS], stats[best, PLAYS]
        if plays > best_plays or (plays == best_plays and best != favourite
                                  and stats[i, WINS] > stats[best, WINS]):  # fmt: skip
            best = np.int64(i)
    return best


@kernel
def search_penalty(st, deck, seat, n_options, params):
    """The option row ``seat`` gives up to an R8.3 penalty on another seat's turn,
    among the ``n_options`` rows of ``st.options`` (module docstring). ``params``:
    the bot's parameters, float64 (``penalty_iterations``, ``explore``, ``bias``,
    :mod:`sim.bots.search_tree`). Without a linked twin, with one row or with
    ``penalty_iterations=0``: ``planner``'s choice.

    Returns an index in ``[0, n_options)``; ``st.options`` is as it was.

    Raises
    ------
    RuntimeError
        When ``st`` has no penalty statistics: the bot was not given its memory
        (:func:`sim.bots.memory.with_bot_memory`)."""
    favourite = planner_choose(seat_view(st), deck, seat, D_PENALTY, n_options, PLANNER_DEFAULTS)
    budget = int(params[PENALTY_ITERATIONS])
    if budget == 0 or n_options == 1 or not has_twin(st):
        return favourite
    if st.penalty_stats.shape[0] < n_options:
        raise RuntimeError("the search bot has no memory: play it through sim.play.run_games")
    twin = playout_twin(st)
    stats = st.penalty_stats
    stats[:n_options] = 0.0
    own = st.seat_bot[seat]
    for played in range(budget):
        i = _pick(stats, n_options, float(played), params[EXPLORE], params[BIAS], favourite)
        start_playout(st, twin, deck, seat)
        seat_planners(twin, EMPTY)
        twin.bots[own, BOT_RESTRICTION] = st.bots[own, BOT_RESTRICTION]  # the seat keeps its restriction, if any
        resume_turn(twin, deck, seat, i)
        stats[i, PLAYS] += 1.0
        stats[i, WINS] += finish_playout(st, twin, deck, seat, int(params[HORIZON]))
    return _most_played(stats, n_options, favourite)


def _guarded(st, deck, seat, n_options, bot):
    """:func:`search_penalty` for bot row ``bot``, or :data:`sim.state.RAISED` when it
    raised (a C callback cannot pass an exception on; numba cannot bind its text)."""
    try:
        return search_penalty(st, deck, seat, n_options, st.bot_params[bot])
    except Exception:
        return RAISED


@functools.cache
def _callback():
    """:func:`_guarded` compiled as a C callback (kept alive by the cache)."""
    state_type, deck_type = view_types()
    signature = types.int64(ViewType(state_type.ref_type, None, PLAYOUT_SET), deck_type, types.int64, types.int64,
                            types.int64)  # fmt: skip
    return cfunc(signature, cache=True)(_guarded)


def penalty_address() -> int:
    """The machine address of :func:`search_penalty` compiled as a C callback, for a
    ``search`` row's ``BOT_ADDRESS`` (:func:`sim.bots.spec.bot_tables`); compiled, or
    loaded from numba's cache, at the first call in a process. 0 with
    ``NUMBA_DISABLE_JIT=1``, where :func:`off_turn_penalty` calls it as Python. Any
    state's view passes (a pointer): the callback reads no policy of its type."""
    return 0 if numba.config.DISABLE_JIT else _callback().address


def off_turn_penalty(st, deck, seat, n_options, bot):
    """The option row the ``search`` bot in row ``bot`` gives up to an R8.3 penalty
    on another seat's turn (:func:`search_penalty`), for the policy dispatch. Compiled,
    it calls the bot's C callback (``st.bots[bot, BOT_ADDRESS]``; with none,
    ``planner``'s choice), which returns :data:`sim.state.RAISED` if it raised: the
    dispatch's check then stops the game (:func:`sim.bots.policy.decide`).

    Returns an index in ``[0, n_options)``, or ``RAISED``."""
    return search_penalty(st, deck, seat, n_options, st.bot_params[bot])


if not numba.config.DISABLE_JIT:

    @overload(off_turn_penalty, jit_options={"nogil": True})
    def _off_turn_penalty_compiled(st, deck, seat, n_options, bot):
        def through_callback(st, deck, seat, n_options, bot):
            address = st.bots[bot, BOT_ADDRESS]
            if address == 0:
                return planner_choose(seat_view(st), deck, seat, D_PENALTY, n_options, PLANNER_DEFAULTS)
            return call_c(address, st, deck, seat, n_options, bot)

        return through_callback
