"""Restricted play (Jaffe, Miller, Andersen, Liu, Karlin, Popović & Nelson, "Evaluating
competitive game balance with restricted play", AIIDE 2012): any bot, told never to
play one ally, or to play it whenever it can.

The restriction filters the legal options before the bot sees them, so the bot's own
policy is unchanged otherwise:

* never: plays of the ally are removed, unless no other play is legal (a full hand
  holding only it cannot be avoided); with the ally as the only hand card, drawing
  is preferred to playing when a draw is legal;
* always: while the ally is in hand, only plays of it are kept (drawing and "none"
  are removed when such a play is offered).
"""

from sim._numba import kernel
from sim.decisions import ACTION_DRAW, ACTION_PLAY, D_ACTION, D_EXTRA_PLAY, D_PLAY
from sim.state import EMPTY, RESTRICT_NEVER


@kernel
def _holds(st, seat, ally):
    for k in range(st.hand_n[seat]):
        if st.hand[seat, k] == ally:
            return True
    return False


@kernel
def _allowed(st, seat, kind, i, ally, mode):
    """Whether option row ``i`` keeps the restriction."""
    if kind == D_ACTION:
        action = st.options[i, 0]
        if mode == RESTRICT_NEVER:
            return not (action == ACTION_PLAY and st.hand_n[seat] == 1)
        return action != ACTION_DRAW
    pos = st.options[i, 0]
    plays_it = pos != EMPTY and st.hand[seat, pos] == ally
    return not plays_it if mode == RESTRICT_NEVER else plays_it


@kernel
def restrict_options(st, seat, kind, n, ally, mode):
    """Filter the ``n`` legal options of a decision by the restriction ``mode`` on
    ``ally`` (module docstring), moving the kept rows to the front of ``st.options``;
    returns how many are left (all ``n`` when every option breaks the restriction)."""
    if kind != D_ACTION and kind != D_PLAY and kind != D_EXTRA_PLAY:
        return n
    if not _holds(st, seat, ally):
        return n
    kept = 0
    for i in range(n):
        if _allowed(st, seat, kind, i, ally, mode):
            kept += 1
    if kept == 0:
        return n
    m = 0
    for i in range(n):
        if _allowed(st, seat, kind, i, ally, mode):
            if m != i:
                for c in range(st.options.shape[1]):
                    st.options[m, c] = st.options[i, c]
            m += 1
    return m
