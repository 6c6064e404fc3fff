"""The bot ``search``: information-set Monte-Carlo tree search over its turn's decisions.

At the start of each of its turns (called from the game loop, :func:`plan_turn`) the
bot runs ``iterations`` iterations of IS-MCTS (Cowling, Powley & Whitehouse 2012; the
tree and its selection rule: :mod:`sim.bots.search_tree`). Each iteration:

1. copies the position's game part (:data:`sim.state.GAME`) into a second state, the
   *twin*, which shares the bot's memory (the tree);
2. *determinises* what the player cannot see (:data:`sim.state.HIDDEN`),
   consistently with what it has seen: the cards it cannot see are listed from its
   seat's view (:mod:`sim.bots.observation`) in ascending order, never read from
   where they truly are; the other players' hands are dealt from those allies (same
   hand sizes), the statue deck and discard from the rest (same sizes), the task
   deck from the tasks not yet seen, and the deal and dice streams are re-seeded,
   all shuffled from the bot's own stream. So the search, like every built-in bot,
   decides the same whatever the hidden cards are (tests/test_bots_observation.py);
3. plays the seat's turn with every decision of the seat chosen down the tree by
   UCB1, expanding one node; the other seats play as ``planner``;
4. plays the game out with ``planner`` in every seat (the default policy), scores it
   (R9) and backs up 1 for a win of the seat, else 0.

Then the real turn follows the tree: at each decision of the seat the offered row
whose child has the most visits, ``planner``'s choice off the tree. The search runs
from the game loop, so no decision calls the engine back (numba cannot load cached
mutually recursive kernels, docs/ARCHITECTURE.md).
"""

from sim._numba import kernel
from sim.bots.ids import PLANNER
from sim.bots.observation import seat_view, show_hand
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
    EMPTY,
    N_PLAYERS,
    OUTCOME,
    OUTCOME_RUNNING,
    PERM_MORALE_N,
    PERM_TASKS_N,
    R_DEBUG,
    R_TRACE,
    RESTRICT_NONE,
    ROW_SIZE,
    STATUE_DISCARD_N,
    STATUE_N,
    WINNER,
    copy_game,
)



@kernel
def _unseen_cards(obs, deck, seat, pool):
    """Write to ``pool`` the statue indices (R3.3: allies, then morale cards) of the
    cards ``seat`` cannot see, in ascending order: every card but its own hand, the
    squads and received allies of every seat (R5, A1, A6), the morale track (R7) and
    the permanent discard (R3.4). Reads the seat view ``obs`` only. Returns (cards,
    allies among them)."""
    n_allies = deck.ally_points.shape[0]
    for c in range(pool.shape[0]):
        pool[c] = 1
    for k in range(obs.hand_n[seat]):
        pool[obs.own_hand[k]] = 0
    for q in range(obs.g[N_PLAYERS]):
        for s in range(obs.squad_n[q]):
            for k in range(obs.squad_size[q, s]):
                pool[obs.squad_cards[q, s, k]] = 0
        for k in range(obs.received_n[q]):
            pool[obs.received[q, k]] = 0
    for pos in range(ROW_SIZE):
        if obs.track[pos] != EMPTY:
            pool[n_allies + obs.track[pos]] = 0
    for k in range(obs.g[PERM_MORALE_N]):
        pool[n_allies + obs.perm_morale[k]] = 0
    n, allies = 0, 0
    for c in range(pool.shape[0]):  # compacted in place: pool[c] is read before index c is written
        if pool[c]:
            pool[n] = c
            n += 1
            if c < n_allies:
                allies += 1
    return n, allies


@kernel
def _unseen_tasks(obs, tasks):
    """Write to ``tasks`` the tasks still in the task deck, in ascending order: every
    task but the row's, the completed ones (R6.3) and the permanent discard (R3.4).
    Reads the seat view ``obs`` only. Returns their number."""
    for t in range(tasks.shape[0]):
        tasks[t] = 1
    for pos in range(ROW_SIZE):
        if obs.row[pos] != EMPTY:
            tasks[obs.row[pos]] = 0
    for q in range(obs.g[N_PLAYERS]):
        for k in range(obs.done_n[q]):
            tasks[obs.done[q, k]] = 0
    for k in range(obs.g[PERM_TASKS_N]):
        tasks[obs.perm_tasks[k]] = 0
    n = 0
    for t in range(tasks.shape[0]):
        if tasks[t]:
            tasks[n] = t
            n += 1
    return n


@kernel
def determinise(st, deck, seat):
    """Deal again, in ``st``, what ``seat`` cannot see (:data:`sim.state.HIDDEN`),
    keeping every pile's size (module docstring). What is dealt depends on the seat's
    view (:mod:`sim.bots.observation`) and the bot stream only, never on the hidden
    cards' true places: the unseen cards are listed in ascending order, then
    shuffled."""
    show_hand(st, seat)
    obs = seat_view(st)
    pool = obs.pool
    n_unseen, allies = _unseen_cards(obs, deck, seat, pool)
    shuffle(st.streams, BOT, pool, allies)  # allies first: only they may go to hands
    j = 0
    for q in range(st.g[N_PLAYERS]):
        if q != seat:
            for i in range(st.hand_n[q]):
                st.hand[q, i] = pool[j]
                j += 1
    rest = pool[j:n_unseen]
    shuffle(st.streams, BOT, rest, n_unseen - j)
    n_statue = st.g[STATUE_N]
    st.statue[:n_statue] = rest[:n_statue]
    st.statue_discard[: st.g[STATUE_DISCARD_N]] = rest[n_statue : n_statue + st.g[STATUE_DISCARD_N]]
    shuffle(st.streams, BOT, st.task_deck, _unseen_tasks(obs, st.task_deck))
    st.streams[DEAL] = next_u64(st.streams, BOT)
    st.streams[DICE] = next_u64(st.streams, BOT)


@kernel
def _iteration(st, twin, deck, seat):
    """One IS-MCTS iteration (module docstring), played out in ``twin``; 1 if ``seat``
    wins."""
    copy_game(st, twin)
    determinise(twin, deck, seat)
    own = twin.seat_bot[seat]
    for b in range(twin.bots.shape[0]):
        if b != own:
            twin.bots[b, BOT_POLICY] = PLANNER
            twin.bots[b, BOT_RESTRICTION] = RESTRICT_NONE
            twin.bot_params[b, : PLANNER_DEFAULTS.shape[0]] = PLANNER_DEFAULTS
    twin.rules[R_TRACE] = 0
    twin.rules[R_DEBUG] = 0
    enter_tree(twin, MODE_SEARCH)
    take_turn(twin, deck)
    leave_tree(twin)
    while twin.g[OUTCOME] == OUTCOME_RUNNING:
        take_turn(twin, deck)
    score_game(twin, deck)
    st.streams[BOT] = twin.streams[BOT]  # fresh randomness for the next iteration
    return 1.0 if twin.g[WINNER] == seat else 0.0


@kernel
def plan_turn(st, twin, deck):
    """Search the active seat's turn (module docstring) and leave the tree ready for
    the real turn to follow. The playouts run in ``twin`` (:func:`sim.state.new_twin`:
    it shares ``st``'s bot memory, the tree), so the position in ``st`` is left as it
    was, but for the bot stream."""
    seat = st.g[ACTIVE]
    reset_tree(st, seat)
    for _ in range(int(st.bot_params[st.seat_bot[seat], ITERATIONS])):
        backpropagate(st, _iteration(st, twin, deck, seat))
    enter_tree(st, MODE_FOLLOW)
