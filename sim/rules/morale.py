"""The morale track and the morale-loss event (RULES R7, R8)."""

from sim import port
from sim._numba import ZERO, hot_kernel, inline_kernel, kernel
from sim.cards import Ability, Penalty, SaveKind
from sim.decisions import D_PENALTY, P_INDEX, P_POS, P_TYPE
from sim.events import EV_DRAW_MORALE, EV_MORALE_EVENT, EV_PENALTY, EV_ROLL, log_event
from sim.rng import roll_die
from sim.rules.squads import take_from_hand, take_from_squad, to_statue_discard
from sim.rules.task_row import refill_row
from sim.state import (
    ACTIVE,
    EMPTY,
    FIRST_EVENT_TURN,
    MORALE_EVENTS,
    MS_EVENTS,
    MS_SAVES,
    N_PLAYERS,
    PERM_MORALE_N,
    PERM_TASKS_N,
    ROW_SIZE,
    S_PEN_SQUAD_ALLY,
    S_PENALTY_NOTHING,
    S_SAVES,
    S_TASKS_LOST,
    TASK_FAILED,
    TASK_LOST,
    TASKS_FAILED,
    TF_STATUS,
    TF_TURN,
    TRACK_N,
    TURN,
)

BOTH_FACES = int(SaveKind.BOTH_FACES)
ONE_FACE = int(SaveKind.ONE_FACE)
SQUAD_ALLY = int(Penalty.SQUAD_ALLY)
COMPLETED_TASK = int(Penalty.COMPLETED_TASK)
UNTOUCHABLE = int(Ability.UNTOUCHABLE)


@hot_kernel
def is_saved(deck, morale, die1, die2):
    """R8.2: the dice save the player when they show the required faces, compared die
    by die, never summed (forms and probabilities: :mod:`sim.cards`)."""
    kind = deck.morale_save_kind[morale]
    a = deck.morale_faces[morale, 0]
    b = deck.morale_faces[morale, 1]
    if kind == BOTH_FACES:
        return (die1 == a and die2 == b) or (die1 == b and die2 == a)
    if kind == ONE_FACE:
        return die1 == a or die2 == a
    return die1 == die2


@kernel
def penalty_options(st, deck, seat, penalty):
    """Write the cards ``seat`` may give up to ``penalty`` (R8.3, R8.4) as ``[type,
    index, position]`` rows (:mod:`sim.decisions`); return their count."""
    n = ZERO
    if penalty == SQUAD_ALLY:
        for s in range(st.squad_n[seat]):
            for k in range(st.squad_size[seat, s]):
                if deck.ally_ability[st.squad_cards[seat, s, k]] != UNTOUCHABLE:  # R8.4
                    n = _penalty_row(st, n, penalty, s, k)
    elif penalty == COMPLETED_TASK:
        for i in range(st.done_n[seat]):
            n = _penalty_row(st, n, penalty, i, EMPTY)
    else:
        for i in range(st.hand_n[seat]):
            n = _penalty_row(st, n, penalty, i, EMPTY)
    return n


@hot_kernel
def _penalty_row(st, n, penalty, index, pos):
    """Write option row ``n`` of a ``D_PENALTY`` decision; return ``n + 1``."""
    st.options[n, P_TYPE] = penalty
    st.options[n, P_INDEX] = index
    st.options[n, P_POS] = pos
    return n + 1


@inline_kernel
def suffer_penalty(st, deck, seat, penalty):
    """``seat`` was not saved: it gives up one card of the penalty's kind, chosen by its
    policy (R8.3, R8.7); with no such card it loses nothing."""
    st.seat_stats[seat, S_PEN_SQUAD_ALLY + penalty] += 1
    n = penalty_options(st, deck, seat, penalty)
    if n == 0:
        st.seat_stats[seat, S_PENALTY_NOTHING] += 1
        log_event(st, EV_PENALTY, seat, penalty, EMPTY, 0, 0)
        return
    give_up(st, deck, seat, penalty, port.decide(st, deck, seat, D_PENALTY, n))


@inline_kernel
def give_up(st, deck, seat, penalty, option):
    """R8.3: ``seat`` gives up the card of row ``option`` of its ``D_PENALTY`` options
    (:func:`penalty_options`, written in ``st.options``): a squad ally or a hand ally
    to the statue discard, a completed task to the permanent discard."""
    index = st.options[option, P_INDEX]
    if penalty == SQUAD_ALLY:
        card = take_from_squad(st, deck, seat, index, st.options[option, P_POS])
        to_statue_discard(st, card)
    elif penalty == COMPLETED_TASK:
        card = st.done[seat, index]
        for i in range(index, st.done_n[seat] - 1):
            st.done[seat, i] = st.done[seat, i + 1]
        st.done_n[seat] -= 1
        st.perm_tasks[st.g[PERM_TASKS_N]] = card
        st.g[PERM_TASKS_N] += 1
        st.task_fate[card, TF_STATUS] = TASK_LOST
        st.seat_stats[seat, S_TASKS_LOST] += 1
    else:
        card = take_from_hand(st, seat, index)
        to_statue_discard(st, card)
    log_event(st, EV_PENALTY, seat, penalty, card, 0, 0)


@kernel
def morale_event(st, deck):
    """R8: the morale card at track position 3 fails the task at position 3; every
    player, the active one first, rolls both dice; then the clean-up of R8.5."""
    morale = st.track[ROW_SIZE - 1]
    task = st.row[ROW_SIZE - 1]
    turn = st.g[TURN] + 1
    st.g[MORALE_EVENTS] += 1
    if st.g[FIRST_EVENT_TURN] == 0:
        st.g[FIRST_EVENT_TURN] = turn
    st.morale_stats[morale, MS_EVENTS] += 1
    log_event(st, EV_MORALE_EVENT, morale, task, 0, 0, 0)
    # R8.1: the task at position 3 has failed.
    st.row[ROW_SIZE - 1] = EMPTY
    st.perm_tasks[st.g[PERM_TASKS_N]] = task
    st.g[PERM_TASKS_N] += 1
    st.task_fate[task, TF_STATUS] = TASK_FAILED
    st.task_fate[task, TF_TURN] = turn
    st.g[TASKS_FAILED] += 1
    roll_from(st, deck, morale, ZERO)
    clean_up(st, deck, morale)


@inline_kernel
def roll_from(st, deck, morale, first):
    """R8.2: the players from the ``first``-th in rolling order on (0: the active
    player, then clockwise) roll both dice against ``morale``; each one not saved
    suffers its penalty (R8.3)."""
    n_players = st.g[N_PLAYERS]
    for i in range(first, n_players):
        seat = (st.g[ACTIVE] + i) % n_players
        die1 = roll_die(st.streams)
        die2 = roll_die(st.streams)
        saved = is_saved(deck, morale, die1, die2)
        log_event(st, EV_ROLL, seat, die1, die2, 1 if saved else 0, 0)
        if saved:
            st.seat_stats[seat, S_SAVES] += 1
            st.morale_stats[morale, MS_SAVES] += 1
        else:
            suffer_penalty(st, deck, seat, deck.morale_penalty[morale])


@inline_kernel
def clean_up(st, deck, morale):
    """R8.5: the used morale card to the permanent discard, the other two to the
    statue discard; the tasks slide and a new one is revealed; R9.1 if none is left."""
    st.perm_morale[st.g[PERM_MORALE_N]] = morale
    st.g[PERM_MORALE_N] += 1
    for pos in range(ROW_SIZE - 1):
        to_statue_discard(st, deck.ally_points.shape[0] + st.track[pos])
    for pos in range(ROW_SIZE):
        st.track[pos] = EMPTY
    st.g[TRACK_N] = 0
    refill_row(st)


@kernel
def resume_event(st, deck, seat, option):
    """The morale-loss event in progress (R8), resumed at ``seat``'s penalty decision:
    ``seat`` gives up the card of option row ``option`` (R8.3), the players after it
    in rolling order roll (R8.2), then the clean-up (R8.5). The event's morale card
    is still at track position 3 until then (R7.3). ``st.options`` need not hold the
    rows: they are written again, as :func:`suffer_penalty` wrote them."""
    morale = st.track[ROW_SIZE - 1]
    penalty = deck.morale_penalty[morale]
    penalty_options(st, deck, seat, penalty)
    give_up(st, deck, seat, penalty, option)
    n_players = st.g[N_PLAYERS]
    roll_from(st, deck, morale, (seat - st.g[ACTIVE] + n_players) % n_players + 1)
    clean_up(st, deck, morale)


@inline_kernel
def place_morale(st, deck, seat, morale):
    """R7.1: a drawn morale card goes to track position 1, the others move right; R7.2:
    when position 3 is reached, the morale-loss event happens at once."""
    st.track[2] = st.track[1]
    st.track[1] = st.track[0]
    st.track[0] = morale
    st.g[TRACK_N] += 1
    log_event(st, EV_DRAW_MORALE, seat, morale, st.g[TRACK_N], 0, 0)
    if st.g[TRACK_N] == ROW_SIZE:
        morale_event(st, deck)
