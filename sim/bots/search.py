"""The bot ``search``: information-set Monte-Carlo tree search over its turn's decisions.

At the start of each of its turns (called from the game loop, :func:`plan_turn`) the
bot runs ``iterations`` iterations of IS-MCTS (Cowling, Powley & Whitehouse 2012; the
tree and its selection rule: :mod:`sim.bots.search_tree`). Each iteration:

1. restores the position (a copy kept in a second state);
2. *determinises* what the player cannot see, consistently with what it has seen:
   the other players' hands are redealt from the allies it cannot see (same hand
   sizes), the statue deck and discard are reshuffled from the rest (same sizes), the
   task deck is reshuffled, and the deal and dice streams are re-seeded, all from
   the bot's own stream;
3. plays the seat's turn with every decision of the seat chosen down the tree by
   UCB1, expanding one node; the other seats play as ``planner``;
4. plays the game out with ``planner`` in every seat (the default policy), scores it
   (R9) and backs up 1 for a win of the seat, else 0.

Then the real turn follows the tree: at each decision of the seat the offered row
whose child has the most visits, ``planner``'s choice off the tree. The search runs
from the game loop, so no decision calls the engine back (numba cannot load cached
mutually recursive kernels, docs/ARCHITECTURE.md).
"""

import numpy as np

from sim._numba import copy_into, kernel
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
)



@kernel
def copy_state(src, dst):
    """Copy every array of a game in progress (not the scratch, options or log)."""
    copy_into(dst.g, src.g)
    copy_into(dst.rules, src.rules)
    copy_into(dst.streams, src.streams)
    copy_into(dst.task_deck, src.task_deck)
    copy_into(dst.row, src.row)
    copy_into(dst.track, src.track)
    copy_into(dst.statue, src.statue)
    copy_into(dst.statue_discard, src.statue_discard)
    copy_into(dst.perm_tasks, src.perm_tasks)
    copy_into(dst.perm_morale, src.perm_morale)
    copy_into(dst.hand, src.hand)
    copy_into(dst.hand_n, src.hand_n)
    copy_into(dst.squad_n, src.squad_n)
    copy_into(dst.squad_size, src.squad_size)
    copy_into(dst.squad_cards, src.squad_cards)
    copy_into(dst.squad_symbols, src.squad_symbols)
    copy_into(dst.squad_flags, src.squad_flags)
    copy_into(dst.relocators, src.relocators)
    copy_into(dst.done, src.done)
    copy_into(dst.done_n, src.done_n)
    copy_into(dst.received, src.received)
    copy_into(dst.received_n, src.received_n)
    copy_into(dst.scored, src.scored)
    copy_into(dst.seat_stats, src.seat_stats)
    copy_into(dst.held, src.held)
    copy_into(dst.played, src.played)
    copy_into(dst.task_fate, src.task_fate)
    copy_into(dst.morale_stats, src.morale_stats)
    copy_into(dst.ally_stats, src.ally_stats)
    copy_into(dst.bots, src.bots)
    copy_into(dst.bot_params, src.bot_params)
    copy_into(dst.seat_bot, src.seat_bot)


@kernel
def determinise(st, deck, seat):
    """Redeal what ``seat`` cannot see, keeping every pile's size (module docstring)."""
    pool = st.pool
    n_allies = deck.ally_points.shape[0]
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
    allies = 0  # allies first: only they may go to hands
    for i in range(k):
        if pool[i] < n_allies:
            pool[i], pool[allies] = pool[allies], pool[i]
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
    shuffle(st.streams, BOT, st.task_deck, st.g[TASK_DECK_N])
    st.streams[DEAL] = next_u64(st.streams, BOT)
    st.streams[DICE] = next_u64(st.streams, BOT)


@kernel
def _iteration(st, backup, deck, seat):
    """One IS-MCTS iteration (module docstring); 1 if ``seat`` wins."""
    copy_state(backup, st)
    determinise(st, deck, seat)
    own = st.seat_bot[seat]
    for b in range(st.bots.shape[0]):
        if b != own:
            st.bots[b, BOT_POLICY] = PLANNER
            st.bots[b, BOT_RESTRICTION] = RESTRICT_NONE
            st.bot_params[b, : PLANNER_DEFAULTS.shape[0]] = PLANNER_DEFAULTS
    st.rules[R_TRACE] = 0
    st.rules[R_DEBUG] = 0
    enter_tree(st, MODE_SEARCH)
    take_turn(st, deck)
    leave_tree(st)
    while st.g[OUTCOME] == OUTCOME_RUNNING:
        take_turn(st, deck)
    score_game(st, deck)
    backup.streams[BOT] = st.streams[BOT]  # fresh randomness for the next iteration
    return 1.0 if st.g[WINNER] == seat else 0.0


@kernel
def plan_turn(st, backup, deck):
    """Search the active seat's turn (module docstring) and leave the tree ready for
    the real turn to follow; the position is restored unchanged."""
    seat = st.g[ACTIVE]
    reset_tree(st, seat)
    copy_state(st, backup)
    for _ in range(int(st.bot_params[st.seat_bot[seat], ITERATIONS])):
        backpropagate(st, _iteration(st, backup, deck, seat))
    copy_state(backup, st)
    enter_tree(st, MODE_FOLLOW)
