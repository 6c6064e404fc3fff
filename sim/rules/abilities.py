"""Abilities that act when an ally is placed or during its owner's turn (RULES A3,
A4, A6, A7, A9). A1, A2, A5 and A8 act on completion (:mod:`sim.rules.completion`).

Readings (RULES "Readings"): A6 is offered when Harry is placed (like A4 and A9);
A4's extra card may go to any squad or a new one (``opt_extra_play_existing_squad``:
existing squads only), and its own ability then acts; A9
draws right after placing, and the player may still complete tasks afterwards.
"""

from sim import port
from sim._numba import hot_kernel, inline_kernel, kernel
from sim.cards import Ability
from sim.decisions import D_EXTRA_PLAY, D_RELOCATE, D_SWAP
from sim.events import EV_FORCED_DRAW, EV_PLAY, EV_RELOCATE, EV_SWAP, log_event
from sim.rules.draw import can_draw, draw_until_ally
from sim.rules.squads import RELOCATE, add_to_squad, find_in_squads, receive, take_from_hand, take_from_squad
from sim.state import AS_SWAPPED, EMPTY, N_PLAYERS, OUTCOME, OUTCOME_RUNNING, R_EXTRA_PLAY_EXISTING, SF_RELOCATE

UNTOUCHABLE = int(Ability.UNTOUCHABLE)
EXTRA_PLAY = int(Ability.EXTRA_PLAY)
SWAP = int(Ability.SWAP)
FORCED_DRAW = int(Ability.FORCED_DRAW)


@hot_kernel
def play_options(st, seat, kind):
    """Write the (hand position, target squad) rows of a ``D_PLAY`` or ``D_EXTRA_PLAY``
    decision: every hand card into every squad or a new squad (R4.1, R5.1, A4), after
    a "none" row 0 for the optional extra play; with ``opt_extra_play_existing_squad``
    the extra card goes into an existing squad only (A4 Reading). Returns the row count."""
    n = 0
    targets = st.squad_n[seat] + 1  # the last target is a new squad
    if kind == D_EXTRA_PLAY:
        st.options[0, 0] = EMPTY
        st.options[0, 1] = EMPTY
        n = 1
        if st.rules[R_EXTRA_PLAY_EXISTING]:
            targets -= 1
    for h in range(st.hand_n[seat]):
        for target in range(targets):
            st.options[n, 0] = h
            st.options[n, 1] = target
            n += 1
    return n


@inline_kernel
def play_row(st, seat, i):
    """The (hand position, target squad) of row ``i`` of a ``D_PLAY`` decision's
    :func:`play_options`, without the rows: hand position ``i // targets``, target
    ``i % targets``, the order :func:`play_options` writes them in. A loop of at most
    ``HAND_LIMIT`` steps rather than a division: the division measured 0.7 to 3.4%
    slower on ``revachol bench``'s ability-free ``random`` line (issue 14)."""
    targets = st.squad_n[seat] + 1
    hand_pos, target = 0, i
    while target >= targets:
        hand_pos, target = hand_pos + 1, target - targets
    return hand_pos, target


@hot_kernel
def place_from_hand(st, deck, seat, hand_pos, target, kind):
    """Put a hand card into a squad for a ``D_PLAY`` or ``D_EXTRA_PLAY`` decision
    (R4.1, A4) and return it."""
    extra = 1 if kind == D_EXTRA_PLAY else 0
    ally = take_from_hand(st, seat, hand_pos)
    new = 1 if target == st.squad_n[seat] else 0
    squad = add_to_squad(st, deck, seat, target, ally)
    st.played[seat, ally] = True
    log_event(st, EV_PLAY, seat, ally, squad, extra, new)
    return ally


@hot_kernel
def _none_row(options):
    """Write option row 0, "do nothing" (:mod:`sim.decisions`): ``EMPTY`` in every column."""
    for column in range(options.shape[1]):
        options[0, column] = EMPTY


@kernel
def swap_options(st, deck, seat, harry):
    """A6 rows (row 0: none): any ally but Dolores Dei (A3) in another seat's squad,
    into any of the player's own squads; ``harry`` is the placed A6 ally."""
    _none_row(st.options)
    n = 1
    for q in range(st.g[N_PLAYERS]):
        if q == seat:
            continue
        for s in range(st.squad_n[q]):
            for k in range(st.squad_size[q, s]):
                ally = st.squad_cards[q, s, k]
                if deck.ally_ability[ally] == UNTOUCHABLE:
                    continue
                for target in range(st.squad_n[seat]):
                    st.options[n, 0] = q
                    st.options[n, 1] = s
                    st.options[n, 2] = k
                    st.options[n, 3] = ally
                    st.options[n, 4] = target
                    st.options[n, 5] = harry
                    n += 1
    return n


@inline_kernel
def swap(st, deck, seat, harry, victim, squad, pos, target):
    """A6: take the ally from the victim's squad into squad ``target``; Harry goes face
    down to the victim, who scores him (R9.2)."""
    ally = take_from_squad(st, deck, victim, squad, pos)
    add_to_squad(st, deck, seat, target, ally)
    st.ally_stats[ally, AS_SWAPPED] += 1
    s, k = find_in_squads(st, seat, harry)
    take_from_squad(st, deck, seat, s, k)
    receive(st, victim, harry)
    log_event(st, EV_SWAP, seat, victim, ally, target, 0)


@hot_kernel
def relocate_options(st, deck, seat):
    """A7 rows (row 0: none): a Garte of the player's squads to another of its squads.
    Row 0 is written only when a move is offered: this runs at every turn, and returns
    at once for a seat with no A7 ally in its squads (``st.relocators``)."""
    n = 1
    if st.relocators[seat] == 0:
        return n
    for s in range(st.squad_n[seat]):
        if st.squad_flags[seat, s, SF_RELOCATE] == 0:
            continue
        for k in range(st.squad_size[seat, s]):
            ally = st.squad_cards[seat, s, k]
            if deck.ally_ability[ally] != RELOCATE:
                continue
            for target in range(st.squad_n[seat]):
                if target != s:
                    st.options[n, 0] = s
                    st.options[n, 1] = k
                    st.options[n, 2] = target
                    st.options[n, 3] = ally
                    n += 1
    if n > 1:
        _none_row(st.options)
    return n


@hot_kernel
def offer_relocate(st, deck, seat):
    """A7: during the owner's turn, Garte may move to another of the owner's squads."""
    n = relocate_options(st, deck, seat)
    if n == 1:
        return
    i = port.decide(st, deck, seat, D_RELOCATE, n)
    if i == 0:
        return
    squad, pos, target, ally = st.options[i, 0], st.options[i, 1], st.options[i, 2], st.options[i, 3]
    if st.squad_size[seat, squad] == 1 and target > squad:
        target -= 1  # his old squad ceases to exist (R5.3) and later squads move up
    take_from_squad(st, deck, seat, squad, pos)
    add_to_squad(st, deck, seat, target, ally)
    log_event(st, EV_RELOCATE, seat, ally, squad, target, 0)


@inline_kernel
def on_placed(st, deck, seat, ally):
    """The abilities that act when ``ally`` is placed: A6 swap (optional), A9 forced
    draw (mandatory, if a draw is possible), A4 extra play (optional; the extra card's
    own ability then acts in turn)."""
    current = ally
    while st.g[OUTCOME] == OUTCOME_RUNNING:
        ability = deck.ally_ability[current]
        if ability == SWAP:
            n = swap_options(st, deck, seat, current)
            if n > 1:
                i = port.decide(st, deck, seat, D_SWAP, n)
                if i > 0:
                    row = st.options[i]
                    swap(st, deck, seat, current, row[0], row[1], row[2], row[4])
            return
        if ability == FORCED_DRAW:
            if can_draw(st):
                log_event(st, EV_FORCED_DRAW, seat, 0, 0, 0, 0)
                draw_until_ally(st, deck, seat)
            return
        if ability != EXTRA_PLAY or st.hand_n[seat] == 0:
            return
        n = play_options(st, seat, D_EXTRA_PLAY)
        i = port.decide(st, deck, seat, D_EXTRA_PLAY, n)
        if i == 0:
            return
        current = place_from_hand(st, deck, seat, st.options[i, 0], st.options[i, 1], D_EXTRA_PLAY)

