"""Who leads after each turn, and the game's closeness and drama from it.

Ludii's LeadChange, Drama and Decisiveness metrics (Ludeme/Ludii,
``Evaluation/src/metrics/multiple/metrics/``), adapted to a game scored once at the
end: the *lead* after a turn is held by the seats with the most points that R9.2
would score at that moment (completed tasks held plus allies received face down).
A seat *leads alone* when no other seat has as many points.

The engine writes one byte per turn (:func:`note_leaders`), the bitmask of the seats
with the most points, into ``State.leaders`` (int8, ``MAX_TURN_CAP + 1``); nothing
else is logged. :func:`write_closeness` turns it into four fields of the game record:

==========================  =========================================================
margin                      winner's points minus the best other seat's (points, >= 0;
                            0 when R9.3's tie-breaks decided)
lead_changes                times the seat leading alone changed; the first seat to
                            lead alone is not a change (Ludii LeadChange, as a count)
lead_taken_turn             turn at which the last seat to lead alone took the lead
                            (turns; 0 if no seat ever led alone). Divided by the game's
                            turns it is the decisiveness: how late the game was settled
winner_behind_at_half       1 when, after turn ``turns // 2``, the winner had fewer
                            points than the leader (a comeback)
==========================  =========================================================
"""

import numpy as np

from sim._numba import hot_kernel, inline_kernel
from sim.rules.scoring import score
from sim.state import (
    EMPTY, MAX_PLAYERS, MORALE_EVENTS, N_PLAYERS, S_SCORE, S_TASKS_LOST, SC_DONE_N, SC_POINTS, SC_RECEIVED_N,
    SC_TASKS_LOST, SCORE_STAMP, TASKS_COMPLETED, TURN, WINNER,
)  # fmt: skip


@hot_kernel
def note_leaders(st, deck):
    """Write the bitmask of the seats with the most points (R9.2) after turn
    ``g[TURN]`` into ``st.leaders[g[TURN]]`` (bit ``s`` = seat ``s``).

    Points change only when tasks are completed (R6.3, A1 included), lost in a
    morale-loss event (R8.3) or an ally is received face down (A1, A6): while their
    counts stand still, the last turn's mask is copied instead of scoring again."""
    stamp = st.g[TASKS_COMPLETED] + st.g[MORALE_EVENTS]
    for seat in range(MAX_PLAYERS):  # a fixed count, unrolled: a seat out of play never changes it
        stamp += st.received_n[seat]
    turn = st.g[TURN]
    if turn > 1 and stamp == st.g[SCORE_STAMP]:
        st.leaders[turn] = st.leaders[turn - 1]
        return
    st.g[SCORE_STAMP] = stamp
    best = -1
    for seat in range(st.g[N_PLAYERS]):
        best = max(best, _points(st, deck, seat))
    mask = 0  # a second pass, without branches: who leads is a coin flip to the CPU
    for seat in range(st.g[N_PLAYERS]):
        mask |= (1 if st.scored[seat, SC_POINTS] == best else 0) << seat
    st.leaders[st.g[TURN]] = mask


@inline_kernel
def _points(st, deck, seat):
    """The seat's points (R9.2), scored again only when its completed tasks or its
    allies received may have changed since ``st.scored`` was written: completions
    add to ``done_n``, a loss (R8.3) takes one away and adds to its tasks lost (both
    may happen in one turn: A9's draw, then a completion), a received ally adds to
    ``received_n``."""
    done_n, received_n, lost = st.done_n[seat], st.received_n[seat], st.seat_stats[seat, S_TASKS_LOST]
    scored = st.scored
    if scored[seat, SC_DONE_N] != done_n or scored[seat, SC_RECEIVED_N] != received_n or scored[seat, SC_TASKS_LOST] != lost:
        scored[seat, SC_DONE_N] = done_n
        scored[seat, SC_RECEIVED_N] = received_n
        scored[seat, SC_TASKS_LOST] = lost
        scored[seat, SC_POINTS] = score(st, deck, seat)
    return scored[seat, SC_POINTS]


def _lone_leaders() -> np.ndarray:
    """``LONE_LEADER[mask]``: the seat of a one-seat ``mask`` (0 for the empty mask, which
    no turn has), or ``EMPTY`` when seats share the lead; int64 (2 ** MAX_PLAYERS,)."""
    return np.array([EMPTY if m & (m - 1) else max(m.bit_length() - 1, 0) for m in range(1 << MAX_PLAYERS)], np.int64)


LONE_LEADER = _lone_leaders()  # a lookup per turn of the game, where a loop over the mask's bits was


@inline_kernel
def write_closeness(game, record, row, at):
    """Write margin, lead_changes, lead_taken_turn and winner_behind_at_half (see the
    module docstring) of the scored game into ``row[at : at + 4]``, from the state's
    game part and record part (``game_view(st)``, ``record_view(st)``)."""
    winner = game.g[WINNER]
    runner_up = -1
    for seat in range(game.g[N_PLAYERS]):
        if seat != winner and record.seat_stats[seat, S_SCORE] > runner_up:
            runner_up = record.seat_stats[seat, S_SCORE]
    leader, changes, taken = EMPTY, 0, 0
    for turn in range(1, game.g[TURN] + 1):
        seat = LONE_LEADER[record.leaders[turn]]
        if seat != EMPTY and seat != leader:
            if leader != EMPTY:
                changes += 1
            leader, taken = seat, turn
    half = game.g[TURN] // 2
    row[at] = record.seat_stats[winner, S_SCORE] - runner_up
    row[at + 1] = changes
    row[at + 2] = taken
    row[at + 3] = 1 if half > 0 and (record.leaders[half] >> winner) & 1 == 0 else 0
