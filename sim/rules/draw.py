"""Drawing from the statue deck (RULES R4.2, R4.5 and the R4 Reading)."""

from sim._numba import hot_kernel, inline_kernel, kernel
from sim.events import EV_DRAW_ALLY, EV_RESHUFFLE, log_event
from sim.rng import DEAL, shuffle
from sim.rules.morale import place_morale
from sim.rules.squads import add_to_hand
from sim.state import OUTCOME, OUTCOME_RUNNING, STATUE_DISCARD_N, STATUE_N


@inline_kernel
def can_draw(st):
    """R4 Reading: a draw is impossible only when the statue deck and its discard are
    both empty."""
    return st.g[STATUE_N] + st.g[STATUE_DISCARD_N] > 0


@kernel
def reshuffle(st):
    """R4.5: shuffle the statue discard to form a new statue deck."""
    n = st.g[STATUE_DISCARD_N]
    for i in range(n):
        st.statue[i] = st.statue_discard[i]
    st.g[STATUE_N] = n
    st.g[STATUE_DISCARD_N] = 0
    shuffle(st.streams, DEAL, st.statue, n)
    log_event(st, EV_RESHUFFLE, n, 0, 0, 0, 0)


@hot_kernel
def draw_until_ally(st, deck, seat):
    """R4.2: draw; an ally joins the hand and ends the draw, a morale card is resolved
    (R7) and drawing goes on. It stops without an ally when both piles are empty (R4
    Reading) or when a morale-loss event ends the game (R8.6)."""
    while st.g[OUTCOME] == OUTCOME_RUNNING:
        if st.g[STATUE_N] == 0:
            if st.g[STATUE_DISCARD_N] == 0:
                return
            reshuffle(st)
        n = st.g[STATUE_N] - 1
        card = st.statue[n]
        st.g[STATUE_N] = n
        if card < deck.ally_points.shape[0]:
            add_to_hand(st, seat, card)
            log_event(st, EV_DRAW_ALLY, seat, card, 0, 0, 0)
            return
        place_morale(st, deck, seat, card - deck.ally_points.shape[0])
