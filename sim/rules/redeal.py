"""Dealing again what one seat cannot see: a game as that seat may believe it
(R3.1-R3.4, R4.2), for a bot that searches from the seat's information set.

The rules' side of a search, as TabletopGames' ``copy(playerId)`` or OpenSpiel's
``ResampleFromInfostate``: the bot copies the game in progress to a second state
(:data:`sim.state.copy_game`) and calls :func:`redeal_unseen` on it, so that the
bot reads none of the hidden arrays itself (:mod:`sim.bots.search`).
"""

from sim._numba import kernel
from sim.rng import DEAL, DICE, next_u64, shuffle
from sim.state import N_PLAYERS, STATUE_DISCARD_N, STATUE_N, TASK_DECK_N


@kernel
def redeal_unseen(st, deck, seat, stream):
    """Deal again, in ``st``, what ``seat`` cannot see (:data:`sim.state.HIDDEN`),
    keeping every pile's size, drawing from random stream ``stream``
    (:mod:`sim.rng`): the other seats' hands (R3.2) from the unseen allies, the
    statue deck (R3.3) and its discard (R3.4) from the rest; the task deck (R3.1)
    in a new order; the deal and dice streams (R4.2, R8.2) re-seeded.

    The deal depends on the *set* of unseen cards and the stream only, never on
    where those cards truly are: they are gathered from the other hands, the statue
    deck and its discard, sorted (allies first, R3.3's statue indices), then
    shuffled; the task deck is sorted, then shuffled. The set is what the seat knows
    by elimination, every card being in one zone (:mod:`sim.rules.zones`). Uses
    ``st.pool`` (int64, allies + morale cards) as scratch."""
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
    shuffle(st.streams, stream, pool, allies)
    j = 0
    for q in range(st.g[N_PLAYERS]):
        if q != seat:
            for i in range(st.hand_n[q]):
                st.hand[q, i] = pool[j]
                j += 1
    rest = pool[in_hands:k]
    shuffle(st.streams, stream, rest, k - in_hands)
    n_statue = st.g[STATUE_N]
    st.statue[:n_statue] = rest[:n_statue]
    st.statue_discard[: st.g[STATUE_DISCARD_N]] = rest[n_statue : n_statue + st.g[STATUE_DISCARD_N]]
    n_tasks = st.g[TASK_DECK_N]
    st.task_deck[:n_tasks].sort()
    shuffle(st.streams, stream, st.task_deck, n_tasks)
    st.streams[DEAL] = next_u64(st.streams, stream)
    st.streams[DICE] = next_u64(st.streams, stream)
