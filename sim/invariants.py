"""The rules' invariants between turns, checked by the game loop itself in a build with
``REVACHOL_CHECK_INVARIANTS=1`` (:mod:`sim._flags`).

:func:`sim.engine.play_game` calls :func:`check_invariants` after setup, after every
turn and at the end of the game when :data:`CHECK_INVARIANTS` is set. Numba freezes
the switch into the machine code, so the default build compiles no call and no check.
The checks, each naming its rule:

* every ally, task and morale card is in exactly one zone, and the squads' ability
  counts agree with their allies (:func:`sim.rules.zones.check_zones`; R3.1-R3.4, R5,
  R6.3, R7, R8, A1, A6);
* hands hold at most five cards (R4.3); a squad holds at least one ally (R5.3) and its
  ``squad_symbols`` are the sum of its allies' symbols (R6.1);
* the task row is right-aligned, and full while the task deck lasts (R6.5, R8.5);
* the morale track holds at most two cards, from position 1, and ``TRACK_N`` counts
  them (R7.1, R7.3);
* the counters agree with the zones: completions by game and by seat (R6.3), tasks
  held against completed minus lost (R8.3), the permanent discards against failed and
  lost tasks (R3.4, R8.1) and against morale-loss events (R8.5);
* the outcome agrees with the position (R9.1 and the R4 Reading).

A violation raises ``AssertionError`` whose arguments are the rule and its message,
then the seat (and squad) or the counts concerned.
"""

from sim._flags import CHECK_INVARIANTS
from sim._numba import kernel
from sim.rules.zones import check_zones
from sim.state import (
    BAD_CHOICE, EMPTY, HAND_LIMIT, MORALE_EVENTS, N_PLAYERS, OUTCOME, OUTCOME_FINISHED, OUTCOME_RUNNING,
    OUTCOME_STALLED, OUTCOME_TRUNCATED, PERM_MORALE_N, PERM_TASKS_N, R_TURN_CAP, S_TASKS_COMPLETED, S_TASKS_LOST,
    STUCK_RUN, TASK_DECK_N, TASKS_COMPLETED, TASKS_FAILED, TRACK_N, TURN,
)  # fmt: skip

__all__ = ["CHECK_INVARIANTS", "check_invariants"]


@kernel
def _check_squads(st, deck):
    """R4.3 hand sizes, R5.3 non-empty squads, R6.1 ``squad_symbols``."""
    for p in range(st.g[N_PLAYERS]):
        if not 0 <= st.hand_n[p] <= HAND_LIMIT:
            raise AssertionError("R4.3: a hand holds more than five cards (seat, cards)", p, st.hand_n[p])
        for s in range(st.squad_n[p]):
            if st.squad_size[p, s] < 1:
                raise AssertionError("R5.3: an empty squad still exists (seat, squad)", p, s)
            for k in range(st.squad_symbols.shape[2]):
                shown = 0
                for i in range(st.squad_size[p, s]):
                    shown += deck.ally_symbol_counts[st.squad_cards[p, s, i], k]
                if st.squad_symbols[p, s, k] != shown:
                    raise AssertionError(
                        "R6.1: squad_symbols differ from the sum of the squad's allies (seat, squad, symbol)", p, s, k
                    )


@kernel
def _check_row_and_track(st):
    """R6.5 the task row, R7.1/R7.3 the morale track."""
    row_size = st.row.shape[0]
    for pos in range(row_size - 1):
        if st.row[pos] != EMPTY and st.row[pos + 1] == EMPTY:
            raise AssertionError("R6.5: the task row has an empty position right of a task (position)", pos + 1)
    if st.g[TASK_DECK_N] > 0 and st.row[0] == EMPTY:
        raise AssertionError("R6.5/R8.5: the task row is not full while the task deck lasts (deck)", st.g[TASK_DECK_N])
    on_track = 0
    for pos in range(st.track.shape[0]):
        if st.track[pos] != EMPTY:
            if pos != on_track:
                raise AssertionError("R7.1: the morale track does not fill from position 1 (position)", pos + 1)
            on_track += 1
    if on_track > 2:
        raise AssertionError("R7.3: the morale track holds three cards between turns", on_track)
    if st.g[TRACK_N] != on_track:
        raise AssertionError("R7: TRACK_N differs from the cards on the track (TRACK_N, cards)",
                             st.g[TRACK_N], on_track)  # fmt: skip


@kernel
def _check_counters(st):
    """R6.3, R8.3, R3.4/R8.1, R8.5: counters against zones."""
    completed, lost = 0, 0
    for p in range(st.g[N_PLAYERS]):
        held = st.seat_stats[p, S_TASKS_COMPLETED] - st.seat_stats[p, S_TASKS_LOST]
        if st.done_n[p] != held:
            raise AssertionError("R6.3/R8.3: completed tasks held differ from completed minus lost (seat, held, count)",
                                 p, st.done_n[p], held)  # fmt: skip
        completed += st.seat_stats[p, S_TASKS_COMPLETED]
        lost += st.seat_stats[p, S_TASKS_LOST]
    if st.g[TASKS_COMPLETED] != completed:
        raise AssertionError("R6.3: the game's completions differ from the seats' (game, seats)",
                             st.g[TASKS_COMPLETED], completed)  # fmt: skip
    if st.g[PERM_TASKS_N] != st.g[TASKS_FAILED] + lost:
        raise AssertionError("R3.4/R8.1/R8.3: discarded tasks differ from failed + lost (discarded, failed, lost)",
                             st.g[PERM_TASKS_N], st.g[TASKS_FAILED], lost)  # fmt: skip
    if st.g[PERM_MORALE_N] != st.g[MORALE_EVENTS]:
        raise AssertionError("R8.5: morale cards in the permanent discard differ from the events (cards, events)",
                             st.g[PERM_MORALE_N], st.g[MORALE_EVENTS])  # fmt: skip


@kernel
def _check_outcome(st):
    """R9.1 and the R4 Reading: how the game stands."""
    outcome, turn, cap = st.g[OUTCOME], st.g[TURN], st.rules[R_TURN_CAP]
    if outcome == OUTCOME_RUNNING:
        if st.g[BAD_CHOICE] == 0 and st.row[st.row.shape[0] - 1] == EMPTY:
            raise AssertionError("R9.1: no task is face up but the game goes on")
        if turn >= cap:
            raise AssertionError("R4 Reading: the game goes on past the turn cap (turn, cap)", turn, cap)
    elif outcome == OUTCOME_FINISHED:
        for pos in range(st.row.shape[0]):
            if st.row[pos] != EMPTY:
                raise AssertionError("R9.1: the game finished with a task face up (position)", pos + 1)
    elif outcome == OUTCOME_TRUNCATED:
        if turn != cap:
            raise AssertionError("R4 Reading: truncated before or after the turn cap (turn, cap)", turn, cap)
    elif outcome != OUTCOME_STALLED or st.g[STUCK_RUN] < st.g[N_PLAYERS]:
        raise AssertionError("R4 Reading: an unknown outcome, or stalled before every seat was stuck (outcome, run)",
                             outcome, st.g[STUCK_RUN])  # fmt: skip


@kernel
def check_invariants(st, deck):
    """Check the between-turn invariants of the module docstring on state ``st`` (a
    kernel view, :func:`sim.state.kernel_state`) for deck ``deck``
    (:meth:`sim.deck_arrays.DeckArrays.kernel_ref`).

    Raises
    ------
    AssertionError
        At the first violation: its rule id and message, then the seat, squad or
        counts concerned.
    """
    check_zones(st, deck)
    _check_squads(st, deck)
    _check_row_and_track(st)
    _check_counters(st)
    _check_outcome(st)
