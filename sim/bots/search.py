"""The bot ``search``: information-set Monte-Carlo tree search over its turn's decisions.

At the start of each of its turns (called from the game loop, :func:`plan_turn`) the
bot runs ``iterations`` iterations of IS-MCTS (Cowling, Powley & Whitehouse 2012; the
tree and its selection rule: :mod:`sim.bots.search_tree`). Each iteration:

1. copies the position's game part (:data:`sim.state.GAME`) into a second state, the
   *twin*, which the state's handle links (:func:`sim.state.kernel_state`) and which
   shares the bot's memory (the tree), from one game view to the other
   (:data:`sim.state.game_view`: the copy can touch nothing else);
2. *determinises* what the player cannot see (:data:`sim.state.HIDDEN`),
   consistently with what it has seen, by the rules' redeal for its seat
   (:func:`sim.rules.redeal.redeal_unseen`) drawing from the bot's own stream: the
   other players' hands, the statue deck and discard and the task deck dealt again
   from the cards it cannot see, the deal and dice streams re-seeded. So the
   search, like every built-in bot, decides the same whatever the arrangement of
   the hidden cards (tests/test_bots_observation.py);
3. plays the seat's turn with every decision of the seat chosen down the tree by
   UCB1 with a progressive bias towards ``planner``'s choice
   (:mod:`sim.bots.search_tree`), expanding one node; the other seats play as
   ``planner``;
4. plays the game out with ``planner`` in every seat (the default policy), scores it
   (R9) and backs up 1 for a win of the seat, else 0; with ``horizon`` above 0 it
   plays out that many turns at most and backs up the seat's standing then (its
   share of the win were the game to end: :func:`standing`), a cheaper playout
   (issue 65).

Then the real turn follows the tree: at each decision of the seat the offered row
whose child has the most visits, ``planner``'s choice off the tree. The search runs
from the game loop, so no decision of the run's policy set calls the engine back
(numba cannot load cached mutually recursive kernels, docs/ARCHITECTURE.md). The
seat's penalties on other seats' turns are searched apart, from the decision, in
playouts typed with a smaller policy set (:mod:`sim.bots.penalty_search`), which
share :func:`start_playout`, :func:`seat_planners` and :func:`finish_playout`.
"""

from sim._numba import kernel, linked_view
from sim.bots.ids import PLANNER
from sim.bots.search_tree import (
    HORIZON, ITERATIONS, MODE_FOLLOW, MODE_SEARCH, PLANNER_DEFAULTS, backpropagate, enter_tree, leave_tree,
    reset_tree,
)  # fmt: skip
from sim.rng import BOT
from sim.rules.redeal import redeal_unseen
from sim.rules.scoring import score, score_game
from sim.rules.turn import take_turn
from sim.state import (
    ACTIVE,
    BOT_POLICY,
    BOT_RESTRICTION,
    N_PLAYERS,
    OUTCOME,
    OUTCOME_RUNNING,
    R_DEBUG,
    R_TRACE,
    RESTRICT_NONE,
    TURN,
    WINNER,
    copy_game,
    game_view,
    memory_view,
)


has_twin, playout_twin = linked_view(None)
"""Whether ``st``'s handle links a twin, and that twin, typed with ``st``'s policy set."""


@kernel
def seat_planners(st, spare):
    """Seat ``planner`` (its default parameters, no restriction) in every bot row of
    ``st`` but ``spare`` (``EMPTY``: every row), for a playout (module docstring)."""
    for b in range(st.bots.shape[0]):
        if b != spare:
            st.bots[b, BOT_POLICY] = PLANNER
            st.bots[b, BOT_RESTRICTION] = RESTRICT_NONE
            st.bot_params[b, : PLANNER_DEFAULTS.shape[0]] = PLANNER_DEFAULTS


@kernel
def start_playout(st, twin, deck, seat):
    """Copy the game in progress of ``st`` into ``twin``, deal again what ``seat``
    cannot see (:func:`sim.rules.redeal.redeal_unseen`, from the bot stream), and turn
    off the twin's event log and zone checks."""
    copy_game(game_view(st), game_view(twin))
    redeal_unseen(twin, deck, seat, BOT)
    twin.rules[R_TRACE] = 0
    twin.rules[R_DEBUG] = 0


@kernel
def standing(st, deck, seat):
    """The reward of a playout cut short: ``seat``'s share of the win if the game
    ended now, by R9.2's points then R9.3's completed tasks held: 1 alone ahead,
    ``1 / k`` tied with ``k − 1`` others (R9.3's die), else 0."""
    points, tasks = score(st, deck, seat), st.done_n[seat]
    tied = 0
    for other in range(st.g[N_PLAYERS]):
        their_points, their_tasks = score(st, deck, other), st.done_n[other]
        if their_points > points or (their_points == points and their_tasks > tasks):
            return 0.0
        if their_points == points and their_tasks == tasks:
            tied += 1
    return 1.0 / tied


@kernel
def finish_playout(st, twin, deck, seat, horizon):
    """Play the game in ``twin`` to its end and score it (R9), or, with ``horizon``
    above 0, at most ``horizon`` turns more and take :func:`standing`; hand the bot
    stream back to ``st``, for fresh randomness in the next playout. Returns 1.0 if
    ``seat`` won, else 0.0, or its standing when cut short."""
    stop = twin.g[TURN] + horizon
    while twin.g[OUTCOME] == OUTCOME_RUNNING and (horizon == 0 or twin.g[TURN] < stop):
        take_turn(twin, deck)
    st.streams[BOT] = twin.streams[BOT]
    if twin.g[OUTCOME] == OUTCOME_RUNNING:
        return standing(twin, deck, seat)
    score_game(twin, deck)
    return 1.0 if twin.g[WINNER] == seat else 0.0


@kernel
def _iteration(st, twin, deck, seat):
    """One IS-MCTS iteration (module docstring), played out in ``twin``; 1 if ``seat``
    wins."""
    start_playout(st, twin, deck, seat)
    seat_planners(twin, twin.seat_bot[seat])
    enter_tree(memory_view(twin), MODE_SEARCH)
    take_turn(twin, deck)
    leave_tree(memory_view(twin))
    return finish_playout(st, twin, deck, seat, int(st.bot_params[st.seat_bot[seat], HORIZON]))


@kernel
def plan_turn(st, deck):
    """Search the active seat's turn (module docstring) and leave the tree ready for
    the real turn to follow. The playouts run in the twin that ``st``'s handle links
    (:func:`sim.state.new_twin`: it shares ``st``'s bot memory, the tree), so the
    position in ``st`` is left as it was, but for the bot stream.

    Raises
    ------
    RuntimeError
        When ``st``'s handle links no twin or ``st`` has no tree: the bot was not
        given its memory and playout state (:func:`sim.play.run_games` gives them).
    """
    if not has_twin(st) or st.tree_key.shape[0] == 0:
        raise RuntimeError("the search bot has no playout state or no memory: play it through sim.play.run_games")
    seat = st.g[ACTIVE]
    twin = playout_twin(st)
    reset_tree(st, seat)
    for _ in range(int(st.bot_params[st.seat_bot[seat], ITERATIONS])):
        backpropagate(memory_view(st), _iteration(st, twin, deck, seat))
    enter_tree(memory_view(st), MODE_FOLLOW)
