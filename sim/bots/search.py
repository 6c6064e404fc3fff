"""The bot ``search``: a determinised flat Monte-Carlo lookahead over each turn's move.

At the start of each of its turns (called from the game loop, :func:`plan_turn`),
the bot lists its candidate moves: draw, or play a hand card into a squad or a new
one. For each candidate it plays ``rollouts / candidates`` rollouts:

1. restore the position (a copy kept in a second state);
2. *determinise* what the player cannot see, consistently with what it has seen:
   the other players' hands are redealt from the allies it cannot see (same hand
   sizes), the statue deck and discard are reshuffled from the rest (same sizes), the
   task deck is reshuffled, and the deal and dice streams are re-seeded, all from
   the bot's own stream;
3. make the candidate move, then play the game out with ``greedy`` in every seat.

The candidate that wins the most rollouts is played (ties: the first, i.e. drawing).
The rest of the turn's decisions (where to complete, abilities, penalties) are the
``planner``'s. Its budget parameter ``rollouts`` is rollouts per decision. The search
runs at turn granularity from the game loop, so no decision calls the engine back
(numba cannot load cached mutually recursive kernels).
"""

import numpy as np

from sim._numba import kernel
from sim.bots.greedy import PARAMS as GREEDY_PARAMS
from sim.bots.policy import GREEDY
from sim.rng import BOT, DEAL, DICE, next_u64, shuffle
from sim.rules.draw import can_draw
from sim.rules.scoring import score_game
from sim.rules.turn import take_turn
from sim.state import (
    ACTIVE,
    BOT_POLICY,
    BOT_RESTRICTION,
    FORCED_N,
    FORCED_POS,
    HAND_LIMIT,
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

ROLLOUTS = 0  # index of the budget in the bot's parameters
GREEDY_DEFAULTS = np.array(list(GREEDY_PARAMS.values()), np.float64)


@kernel
def copy_state(src, dst):
    """Copy every array of a game in progress (not the scratch, options or log)."""
    dst.g[:] = src.g
    dst.rules[:] = src.rules
    dst.streams[:] = src.streams
    dst.task_deck[:] = src.task_deck
    dst.row[:] = src.row
    dst.track[:] = src.track
    dst.statue[:] = src.statue
    dst.statue_discard[:] = src.statue_discard
    dst.perm_tasks[:] = src.perm_tasks
    dst.perm_morale[:] = src.perm_morale
    dst.hand[:] = src.hand
    dst.hand_n[:] = src.hand_n
    dst.squad_n[:] = src.squad_n
    dst.squad_size[:] = src.squad_size
    dst.squad_cards[:] = src.squad_cards
    dst.squad_symbols[:] = src.squad_symbols
    dst.done[:] = src.done
    dst.done_n[:] = src.done_n
    dst.received[:] = src.received
    dst.received_n[:] = src.received_n
    dst.seat_stats[:] = src.seat_stats
    dst.held[:] = src.held
    dst.played[:] = src.played
    dst.task_fate[:] = src.task_fate
    dst.morale_stats[:] = src.morale_stats
    dst.ally_stats[:] = src.ally_stats
    dst.bots[:] = src.bots
    dst.bot_params[:] = src.bot_params
    dst.seat_bot[:] = src.seat_bot


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
def _rollout(st, backup, deck, seat, action, play):
    """Play one determinised rollout of a candidate move; 1 if ``seat`` wins."""
    copy_state(backup, st)
    determinise(st, deck, seat)
    for b in range(st.bots.shape[0]):
        st.bots[b, BOT_POLICY] = GREEDY
        st.bots[b, BOT_RESTRICTION] = RESTRICT_NONE
        st.bot_params[b, : GREEDY_DEFAULTS.shape[0]] = GREEDY_DEFAULTS
    st.rules[R_TRACE] = 0
    st.rules[R_DEBUG] = 0
    st.forced[0] = action
    st.forced[1] = play
    st.g[FORCED_N] = 1 if play < 0 else 2
    st.g[FORCED_POS] = 0
    while st.g[OUTCOME] == OUTCOME_RUNNING:
        take_turn(st, deck)
        st.g[FORCED_N] = 0
    score_game(st, deck)
    backup.streams[BOT] = st.streams[BOT]  # fresh randomness for the next rollout
    return 1 if st.g[WINNER] == seat else 0


@kernel
def plan_turn(st, backup, deck):
    """Choose the active seat's move by rollouts and queue it in ``st.forced``."""
    seat = st.g[ACTIVE]
    may_play = st.hand_n[seat] > 0
    may_draw = st.hand_n[seat] < HAND_LIMIT and can_draw(st)
    n_plays = st.hand_n[seat] * (st.squad_n[seat] + 1) if may_play else 0
    n_candidates = n_plays + (1 if may_draw else 0)
    if n_candidates < 2:
        return
    draw_action = 1 if may_play else 0
    budget = int(st.bot_params[st.seat_bot[seat], ROLLOUTS])
    per_candidate = max(1, budget // n_candidates)
    copy_state(st, backup)
    for c in range(n_candidates):
        action, play = (draw_action, -1) if may_draw and c == 0 else (0, c - (1 if may_draw else 0))
        wins = 0
        for _ in range(per_candidate):
            wins += _rollout(st, backup, deck, seat, action, play)
        st.wins[c] = wins
    copy_state(backup, st)
    best = 0
    for c in range(1, n_candidates):
        if st.wins[c] > st.wins[best]:
            best = c
    action, play = (draw_action, -1) if may_draw and best == 0 else (0, best - (1 if may_draw else 0))
    st.forced[0] = action
    st.forced[1] = play
    st.g[FORCED_N] = 1 if play < 0 else 2
    st.g[FORCED_POS] = 0
