"""A turn: play or draw (RULES R4), with stuck turns and the turn cap (R4 Reading)."""

from sim import port
from sim._numba import inline_kernel, kernel
from sim.decisions import (
    ACTION_DRAW,
    ACTION_PLAY,
    C_BORROWER,
    C_BORROWS,
    C_LENDER,
    C_SQUAD,
    C_SUBSET,
    D_ACTION,
    D_BORROW,
    D_COMPLETE,
    D_PLAY,
)
from sim.events import EV_STUCK, EV_TURN, log_event
from sim.rules.abilities import offer_relocate, on_placed, place_from_hand, play_options, play_row
from sim.rules.completion import borrow_options, complete_tasks, completion_options
from sim.rules.draw import can_draw, draw_until_ally
from sim.rules.morale import resume_event
from sim.state import (
    ACTIVE,
    HAND_LIMIT,
    N_PLAYERS,
    OUTCOME,
    OUTCOME_RUNNING,
    OUTCOME_STALLED,
    OUTCOME_TRUNCATED,
    R_TURN_CAP,
    STUCK_RUN,
    STUCK_TURNS,
    TURN,
    TURN_ACTION,
)


@inline_kernel
def play_turn(st, deck, seat):
    """R4.1: place one hand card and its placement abilities act (A6, A9, A4); then
    :func:`after_placement`."""
    if port.reads_option_rows(st, seat):
        i = port.decide(st, deck, seat, D_PLAY, play_options(st, seat, D_PLAY))
        hand_pos, target = st.options[i, 0], st.options[i, 1]
    else:  # the rows, unwritten: as many as play_options writes
        i = port.decide(st, deck, seat, D_PLAY, st.hand_n[seat] * (st.squad_n[seat] + 1))
        hand_pos, target = play_row(st, seat, i)
    ally = place_from_hand(st, deck, seat, hand_pos, target, D_PLAY)
    on_placed(st, deck, seat, ally)
    after_placement(st, deck, seat)


@inline_kernel
def after_placement(st, deck, seat):
    """R4.1 after the placement and its abilities: A7 may move, then one squad may
    complete tasks (R4.4, R6.2), choosing its A1 borrows one by one."""
    if st.g[OUTCOME] != OUTCOME_RUNNING:
        return
    offer_relocate(st, deck, seat)
    n = completion_options(st, deck, seat)
    if n == 1:
        return
    i = port.decide(st, deck, seat, D_COMPLETE, n)
    if i > 0:
        for column in range(st.choice.shape[0]):
            st.choice[column] = st.options[i, column]
        squad, subset, borrows = st.choice[C_SQUAD], st.choice[C_SUBSET], st.choice[C_BORROWS]
        for b in range(borrows):  # A1: one (borrower, lender) pair at a time
            n = borrow_options(st, deck, seat, squad, subset, b, borrows - b)
            i = port.decide(st, deck, seat, D_BORROW, n)
            st.borrows[b, 0] = st.options[i, C_BORROWER]
            st.borrows[b, 1] = st.options[i, C_LENDER]
        complete_tasks(st, deck, seat, st.choice)


@inline_kernel
def take_turn(st, deck):
    """The active seat takes one turn (R4); then the next seat clockwise is active."""
    seat = st.g[ACTIVE]
    log_event(st, EV_TURN, seat, st.g[TURN] + 1, 0, 0, 0)
    may_play = st.hand_n[seat] > 0
    may_draw = st.hand_n[seat] < HAND_LIMIT and can_draw(st)  # R4.2, R4.3
    if not may_play and not may_draw:
        st.g[STUCK_TURNS] += 1  # R4 Reading: a stuck turn
        st.g[STUCK_RUN] += 1
        log_event(st, EV_STUCK, seat, 0, 0, 0, 0)
        if st.g[STUCK_RUN] >= st.g[N_PLAYERS]:
            st.g[OUTCOME] = OUTCOME_STALLED
    else:
        st.g[STUCK_RUN] = 0
        n = 0
        if may_play:
            st.options[n, 0] = ACTION_PLAY
            n += 1
        if may_draw:
            st.options[n, 0] = ACTION_DRAW
            n += 1
        action = st.options[port.decide(st, deck, seat, D_ACTION, n), 0]
        st.g[TURN_ACTION] = action
        if action == ACTION_PLAY:
            play_turn(st, deck, seat)
        else:
            draw_until_ally(st, deck, seat)
            after_draw(st, deck, seat)
    end_turn(st, seat)


@inline_kernel
def after_draw(st, deck, seat):
    """A7 may move after the R4.2 draw."""
    if st.g[OUTCOME] == OUTCOME_RUNNING:
        offer_relocate(st, deck, seat)


@inline_kernel
def end_turn(st, seat):
    """The turn ends: the turn cap (R4 Reading), then the next seat clockwise is
    active."""
    st.g[TURN] += 1
    if st.g[OUTCOME] == OUTCOME_RUNNING and st.g[TURN] >= st.rules[R_TURN_CAP]:
        st.g[OUTCOME] = OUTCOME_TRUNCATED
    st.g[ACTIVE] = seat + 1 if seat + 1 < st.g[N_PLAYERS] else 0  # clockwise (R2.2), without a division


@kernel
def resume_turn(st, deck, seat, option):
    """The turn in progress, resumed at ``seat``'s R8.3 penalty decision with option
    row ``option``, and played to its end: the rest of the morale-loss event
    (:func:`sim.rules.morale.resume_event`), then the active seat goes on drawing
    until an ally (R8.6, R4.2), then what its action leaves (``g[TURN_ACTION]``): A7
    after a draw, or, after a play whose A9 forced draw set off the event, A7 and the
    completion (R4.1). Morale cards are drawn only there (R4.2, A9), and an A9 draw
    ends the placement's abilities, so nothing else of the turn is pending. A bot's
    search plays out from a penalty decision so (a playout resumed mid-turn)."""
    resume_event(st, deck, seat, option)
    active = st.g[ACTIVE]
    draw_until_ally(st, deck, active)
    if st.g[TURN_ACTION] == ACTION_DRAW:
        after_draw(st, deck, active)
    else:
        after_placement(st, deck, active)
    end_turn(st, active)
