"""Setting up a game (RULES R2.2, R3)."""

from sim._numba import copy_into, inline_kernel, kernel
from sim.events import EV_DEAL, EV_FIRST, log_event
from sim.rng import DEAL, DICE, SEATS, below, seed_game, shuffle
from sim.rules.squads import add_to_hand
from sim.rules.task_row import reveal_into_empty
from sim.state import (
    ACTIVE,
    EMPTY,
    FIRST,
    INITIAL_HAND,
    N_PLAYERS,
    STATUE_N,
    NEEDS_ROW,
    STALE,
    TASK_DECK_N,
    TF_SEAT,
    R_SHUFFLE_SEATS,
    WINNER,
)


@kernel
def reset(st):
    """Empty every zone and counter of a state so it can hold a new game."""
    st.g[:] = 0
    st.g[WINNER] = EMPTY
    st.row[:] = EMPTY
    st.needs[NEEDS_ROW, :] = STALE  # sim.rules.completion.subset_needs computes it anew
    st.special_needs[NEEDS_ROW, :] = STALE  # and special_subset_needs
    st.track[:] = EMPTY
    st.hand_n[:] = 0
    st.squad_n[:] = 0
    st.relocators[:] = 0
    st.done_n[:] = 0
    st.received_n[:] = 0
    st.scored[:] = EMPTY  # sim.lead scores every seat anew
    st.seat_stats[:] = 0
    st.held[:] = False
    st.played[:] = False
    st.task_fate[:] = 0
    st.task_fate[:, TF_SEAT] = EMPTY
    st.morale_stats[:] = 0
    st.ally_stats[:] = 0


@inline_kernel
def setup_game(st, deck, n_players, keys, game_index):
    """Set up game ``game_index`` for ``n_players`` seats from the run's stream keys.

    R2.2: a uniformly random first seat (DICE stream). R3.1: the task deck is shuffled
    and three tasks revealed, right to left. R3.2: three allies are dealt to each
    seat, one at a time from seat 0, and recorded as its opening hand. R3.3: the other allies and every morale card are
    shuffled into the statue deck. R3.4: both discards start empty. Seat ``s`` gets
    bot ``s`` of the run, or a random bot order with ``R_SHUFFLE_SEATS``.
    """
    reset(st)
    seed_game(keys, game_index, st.streams)
    st.g[N_PLAYERS] = n_players
    for seat in range(n_players):
        st.seat_bot[seat] = seat
    if st.rules[R_SHUFFLE_SEATS]:
        shuffle(st.streams, SEATS, st.seat_bot, n_players)
    first = below(st.streams, DICE, n_players)
    st.g[FIRST] = first
    st.g[ACTIVE] = first
    log_event(st, EV_FIRST, first, 0, 0, 0, 0)
    n_tasks = st.task_deck.shape[0]
    for t in range(n_tasks):
        st.task_deck[t] = t
    shuffle(st.streams, DEAL, st.task_deck, n_tasks)
    st.g[TASK_DECK_N] = n_tasks
    reveal_into_empty(st)
    n_allies = deck.ally_points.shape[0]
    n_morale = deck.morale_penalty.shape[0]
    for a in range(n_allies):
        st.statue[a] = a
    shuffle(st.streams, DEAL, st.statue, n_allies)
    top = n_allies
    for _ in range(INITIAL_HAND):
        for seat in range(n_players):
            top -= 1
            add_to_hand(st, seat, st.statue[top])
            log_event(st, EV_DEAL, seat, st.statue[top], 0, 0, 0)
    copy_into(st.opening, st.held)  # R3.2: the opening hands, recorded for the opening-hand win rate
    for m in range(n_morale):
        st.statue[top + m] = n_allies + m
    st.g[STATUE_N] = top + n_morale
    shuffle(st.streams, DEAL, st.statue, top + n_morale)
