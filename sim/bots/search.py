"""The bot ``search``: information-set Monte-Carlo tree search over its turn's decisions.

At the start of each of its turns (called from the game loop, :func:`plan_turn`) the
bot runs ``iterations`` iterations of IS-MCTS (Cowling, Powley & Whitehouse 2012; the
tree and its selection rule: :mod:`sim.bots.search_tree`). Each iteration:

1. copies the position's game part (:data:`sim.state.GAME`) into a second state, the
   *twin*, which shares the bot's memory (the tree), from one game view to the other
   (:data:`sim.state.game_view`: the copy can touch nothing else);
2. *determinises* what the player cannot see (:data:`sim.state.HIDDEN`),
   consistently with what it has seen: the cards it cannot see, sorted, so that
   where they truly are does not matter, are shuffled from the bot's own stream;
   the other players' hands are dealt from those allies (same hand sizes), the
   statue deck and discard from the rest (same sizes), the task deck is sorted and
   shuffled, and the deal and dice streams are re-seeded from the bot stream. So the
   search, like every built-in bot, decides the same whatever the arrangement of
   the hidden cards (tests/test_bots_observation.py);
3. plays the seat's turn with every decision of the seat chosen down the tree by
   UCB1 with a progressive bias towards ``planner``'s choice
   (:mod:`sim.bots.search_tree`), expanding one node; the other seats play as
   ``planner``;
4. plays the game out with ``planner`` in every seat (the default policy), scores it
   (R9) and backs up 1 for a win of the seat, else 0.

Then the real turn follows the tree: at each decision of the seat the offered row
whose child has the most visits, ``planner``'s choice off the tree. The search runs
from the game loop, so no decision of the run's policy set calls the engine back
(numba cannot load cached mutually recursive kernels, docs/ARCHITECTURE.md). The
seat's penalties on other seats' turns are searched apart, from the decision, in
playouts typed with a smaller policy set (:mod:`sim.bots.penalty_search`), which
share :func:`start_playout`, :func:`seat_planners` and :func:`finish_playout`.
"""

from sim._numba import kernel
from sim.bots.ids import PLANNER
from sim.bots.search_tree import (
    ITERATIONS, MODE_FOLLOW, MODE_SEARCH, PLANNER_DEFAULTS, backpropagate, enter_tree, leave_tree, reset_tree,
)  # fmt: skip
from sim.rng import BOT, DEAL, DICE, next_u64, shuffle
from sim.rules.scoring import score_game
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
    STATUE_DISCARD_N,
    STATUE_N,
    TASK_DECK_N,
    WINNER,
    copy_game,
    game_view,
    memory_view,
)



@kernel
def determinise(st, deck, seat):
    """Deal again, in ``st``, what ``seat`` cannot see (:data:`sim.state.HIDDEN`),
    keeping every pile's size (module docstring).

    The deal depends on the *set* of unseen cards and the bot stream only, never on
    where those cards truly are: they are gathered from the other hands, the statue
    deck and its discard, sorted (allies first, R3.3's statue indices), then
    shuffled; the task deck is sorted, then shuffled. The set is what the seat knows
    by elimination, every card being in one zone (:mod:`sim.rules.zones`)."""
    pool = st.pool
    k = 0
    for q in range(st.g[N_PLAYERS]):
        if q != seat:
            for i in range(st.hand_n[q]):
                pool[k] = st.hand[q, i]
                k += 1
    in_hands = k
    for i in range(st.g[STATUE_N]):
        pool[k] = st.statue[i]
        k += 1
    for i in range(st.g[STATUE_DISCARD_N]):
        pool[k] = st.statue_discard[i]
        k += 1
    pool[:k].sort()
    n_allies = deck.ally_points.shape[0]
    allies = 0  # allies first: only they may go to hands
    while allies < k and pool[allies] < n_allies:
        allies += 1
    shuffle(st.streams, BOT, pool, allies)
    j = 0
    for q in range(st.g[N_PLAYERS]):
        if q != seat:
            for i in range(st.hand_n[q]):
                st.hand[q, i] = pool[j]
                j += 1
    rest = pool[in_hands:k]
    shuffle(st.streams, BOT, rest, k - in_hands)
    n_statue = st.g[STATUE_N]
    st.statue[:n_statue] = rest[:n_statue]
    st.statue_discard[: st.g[STATUE_DISCARD_N]] = rest[n_statue : n_statue + st.g[STATUE_DISCARD_N]]
    n_tasks = st.g[TASK_DECK_N]
    st.task_deck[:n_tasks].sort()
    shuffle(st.streams, BOT, st.task_deck, n_tasks)
    st.streams[DEAL] = next_u64(st.streams, BOT)
    st.streams[DICE] = next_u64(st.streams, BOT)


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
    cannot see (:func:`determinise`), and turn off the twin's event log and zone
    checks."""
    copy_game(game_view(st), game_view(twin))
    determinise(twin, deck, seat)
    twin.rules[R_TRACE] = 0
    twin.rules[R_DEBUG] = 0


@kernel
def finish_playout(st, twin, deck, seat):
    """Play the game in ``twin`` to its end and score it (R9); hand the bot stream
    back to ``st``, for fresh randomness in the next playout. Returns 1.0 if ``seat``
    won, else 0.0."""
    while twin.g[OUTCOME] == OUTCOME_RUNNING:
        take_turn(twin, deck)
    score_game(twin, deck)
    st.streams[BOT] = twin.streams[BOT]
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
    return finish_playout(st, twin, deck, seat)


@kernel
def plan_turn(st, twin, deck):
    """Search the active seat's turn (module docstring) and leave the tree ready for
    the real turn to follow. The playouts run in ``twin`` (:func:`sim.state.new_twin`:
    it shares ``st``'s bot memory, the tree), so the position in ``st`` is left as it
    was, but for the bot stream."""
    seat = st.g[ACTIVE]
    reset_tree(st, seat)
    for _ in range(int(st.bot_params[st.seat_bot[seat], ITERATIONS])):
        backpropagate(memory_view(st), _iteration(st, twin, deck, seat))
    enter_tree(memory_view(st), MODE_FOLLOW)
