"""The task row: revealing, sliding, the end of the game, and the points of face-up
tasks (RULES R3.1, R6.5, R9.1)."""

from sim._numba import hot_kernel, kernel
from sim.events import EV_REVEAL, log_event
from sim.state import (
    EMPTY,
    OUTCOME,
    OUTCOME_FINISHED,
    ROW_SIZE,
    TASK_DECK_N,
    TASK_FACE_UP,
    TF_STATUS,
)


@hot_kernel
def subset_points(st, deck, subset):
    """Reward points of the face-up tasks in ``subset`` (bit i = position i + 1)."""
    total = 0
    for pos in range(ROW_SIZE):
        if (subset >> pos) & 1:
            total += deck.task_points[st.row[pos]]
    return total


@kernel
def reveal_into_empty(st):
    """Reveal tasks from the task deck into the empty positions, rightmost empty
    position first, while the deck lasts (R3.1, R6.5, R8.5)."""
    for pos in range(ROW_SIZE - 1, -1, -1):
        if st.row[pos] == EMPTY and st.g[TASK_DECK_N] > 0:
            n = st.g[TASK_DECK_N] - 1
            task = st.task_deck[n]
            st.g[TASK_DECK_N] = n
            st.row[pos] = task
            st.task_fate[task, TF_STATUS] = TASK_FACE_UP
            log_event(st, EV_REVEAL, task, pos + 1, 0, 0, 0)


@kernel
def slide_right(st):
    """The remaining tasks slide right to fill the gaps, keeping their order (R6.5, R8.5)."""
    write = ROW_SIZE - 1
    for pos in range(ROW_SIZE - 1, -1, -1):
        task = st.row[pos]
        if task != EMPTY:
            st.row[pos] = EMPTY
            st.row[write] = task
            write -= 1


@kernel
def refill_row(st):
    """Slide, reveal, and end the game when no task is face up (R6.5, R8.5, R9.1)."""
    slide_right(st)
    reveal_into_empty(st)
    if st.row[ROW_SIZE - 1] == EMPTY:
        st.g[OUTCOME] = OUTCOME_FINISHED
