"""The end of the game and scoring (RULES R9)."""

from sim._numba import ZERO, hot_kernel, kernel
from sim.events import EV_END, log_event
from sim.rng import DICE, below
from sim.state import EMPTY, N_PLAYERS, OUTCOME, S_SCORE, TIE_DICE, WINNER


@hot_kernel
def score(st, deck, seat):
    """R9.2: points of the seat's completed tasks plus the victory points of the
    allies it received face down (A1, A6). Hands and squads score nothing."""
    total = 0
    for i in range(st.done_n[seat]):
        total += deck.task_points[st.done[seat, i]]
    for i in range(st.received_n[seat]):
        total += deck.ally_points[st.received[seat, i]]
    return total


@kernel
def score_game(st, deck):
    """Write every seat's score and the winner (R9.3): most points, then most
    completed tasks still held, then a uniformly random pick among those still tied
    (the die roll, DICE stream)."""
    n_players = st.g[N_PLAYERS]
    best, best_tasks, n_tied = -1, -1, ZERO
    for seat in range(n_players):
        points = score(st, deck, seat)
        st.seat_stats[seat, S_SCORE] = points
        tasks = st.done_n[seat]
        if points > best or (points == best and tasks > best_tasks):
            best, best_tasks, n_tied = points, tasks, 1
        elif points == best and tasks == best_tasks:
            n_tied += 1
    pick = below(st.streams, DICE, n_tied) if n_tied > 1 else 0
    st.g[TIE_DICE] = 1 if n_tied > 1 else 0
    winner = EMPTY
    for seat in range(n_players):
        if st.seat_stats[seat, S_SCORE] == best and st.done_n[seat] == best_tasks:
            if pick == 0:
                winner = seat
                break
            pick -= 1
    st.g[WINNER] = winner
    log_event(st, EV_END, st.g[OUTCOME], winner, st.g[TIE_DICE], 0, 0)
