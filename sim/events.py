"""Event codes of the game log that the engine writes when tracing (``R_TRACE``).

Each log row is ``[code, a, b, c, d, e]``; the meaning of ``a``..``e`` is given next
to each code. :mod:`sim.trace` turns the rows into a readable log.
"""

from sim._numba import inline_kernel
from sim.state import LOG_N, R_TRACE

EV_TURN = 1  # seat, turn number (1-based)
EV_PLAY = 2  # seat, ally, squad, extra (1 for A4's extra play), new squad (0/1)
EV_DRAW_ALLY = 3  # seat, ally
EV_DRAW_MORALE = 4  # seat, morale card, morale cards on the track after it
EV_RESHUFFLE = 5  # cards shuffled into the new statue deck (R4.5)
EV_MORALE_EVENT = 6  # morale card, failed task (R8.1)
EV_ROLL = 7  # seat, die 1, die 2, saved (0/1)
EV_PENALTY = 8  # seat, penalty type, card lost (ally or task id, -1: nothing to lose)
EV_COMPLETE = 9  # seat, task at position 1, 2, 3 of the completion or -1, points
EV_SQUAD_CARD = 10  # ally of the completing squad, fate: 0 discarded, 1 stays (A5), 2 given to seat c
EV_BORROW = 11  # borrower ally, lender ally, lender seat
EV_SWAP = 12  # seat, victim seat, ally taken, target squad (A6)
EV_RELOCATE = 13  # seat, ally, from squad, to squad (A7)
EV_REVEAL = 14  # task, position (1-3)
EV_STUCK = 15  # seat (R4 Reading)
EV_END = 16  # outcome (state.OUTCOME_*), winner seat, tie decided by dice (0/1)
EV_FORCED_DRAW = 17  # seat (A9)
EV_FIRST = 18  # first seat (R2.2)
EV_DEAL = 19  # seat, ally dealt at setup (R3.2)


@inline_kernel
def log_event(st, code, a, b, c, d, e):
    """Append one event row when tracing is on; a no-op otherwise."""
    if st.rules[R_TRACE] == 0:
        return
    i = st.g[LOG_N]
    if i < st.log.shape[0]:
        st.log[i, 0] = code
        st.log[i, 1] = a
        st.log[i, 2] = b
        st.log[i, 3] = c
        st.log[i, 4] = d
        st.log[i, 5] = e
        st.g[LOG_N] = i + 1
