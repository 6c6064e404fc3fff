"""What a built-in bot sees: its seat's view of the state.

Every built-in policy's ``choose`` kernel (:mod:`sim.bots.table`) takes the state
through :func:`seat_view`, the same pointer typed as a :class:`sim._numba.ViewType`
that shows only :data:`SEAT_VISIBLE`: the game part (:data:`sim.state.GAME`) without
what no seat sees (:data:`sim.state.HIDDEN`: the other seats' hands, R3.2; the order
of the task deck, R3.1, and of the statue deck, R3.3; the statue discard, R3.4; the
deal and dice streams), plus its own hand (``own_hand``, filled by :func:`show_hand`
before each decision), the decision's ``options``, the need tables of the face-up
tasks (filled by the dispatch for the policies that read them, :mod:`sim.bots.table`),
and the bots' memory (:data:`sim.state.BOT_MEMORY`). Reading anything else is a compile error, so a bot
cannot peek: tests/test_bots_observation.py also plays the bots on positions whose
hidden cards are permuted.

A bot writes only :data:`SEAT_WRITABLE`, its memory. Everything else is read-only,
``squad_symbols`` too: ``greedy`` and ``planner`` weigh a placement or an A7 move by
counting an ally's symbols in or out of a squad as they read it
(:func:`sim.rules.cover.shortfall_with`), not by writing them.

A user bot's observation (:mod:`sim.bots.user`) is the narrower, read-only
:data:`sim.bots.user.VISIBLE`.
"""

import numpy as np

from sim._numba import hot_kernel, view_of
from sim.state import BOT_MEMORY, EMPTY, GAME, HIDDEN

NEED_TABLES = ("needs", "subset_ok")  # rules scratch the dispatch fills for the bots that read it
SEAT_VISIBLE = tuple(name for name in GAME if name not in HIDDEN) + ("options",) + NEED_TABLES + BOT_MEMORY
SEAT_WRITABLE = BOT_MEMORY
BOT_STREAM = np.int64(0)  # the one stream of ``bot_stream`` (a view of streams[sim.rng.BOT])


seat_view = view_of(SEAT_VISIBLE, SEAT_WRITABLE)
"""``seat_view(st)``: the seat view of ``st`` (module docstring)."""


@hot_kernel
def show_hand(st, seat):
    """Copy ``seat``'s hand into ``own_hand``, ``EMPTY`` after its ``hand_n[seat]``
    cards, so that the seat view shows no other seat's hand (R3.2)."""
    for k in range(st.own_hand.shape[0]):
        st.own_hand[k] = st.hand[seat, k] if k < st.hand_n[seat] else EMPTY
