"""Squads and the moves of single allies between zones (RULES R5)."""

from sim._numba import inline_kernel, kernel
from sim.cards import Ability
from sim.state import EMPTY, SF_RELOCATE, SF_TOKENS, STATUE_DISCARD_N

BORROW = int(Ability.BORROW)
DOUBLE = int(Ability.DOUBLE)
SPECIAL_CROWN = int(Ability.SPECIAL_CROWN)
RELOCATE = int(Ability.RELOCATE)


@inline_kernel
def _count_flags(st, deck, seat, squad, ally, sign):
    """Add ``sign`` to the squad's ``squad_flags`` for ``ally``'s ability (A1, A2, A8:
    ``SF_TOKENS``; A7: ``SF_RELOCATE``, and the seat's ``relocators``)."""
    ability = deck.ally_ability[ally]
    if ability == BORROW or ability == DOUBLE or ability == SPECIAL_CROWN:
        st.squad_flags[seat, squad, SF_TOKENS] += sign
    elif ability == RELOCATE:
        st.squad_flags[seat, squad, SF_RELOCATE] += sign
        st.relocators[seat] += sign


@inline_kernel
def add_symbols(st, deck, seat, squad, ally, sign):
    """Add ``sign`` times the ally's symbols to the squad's ``squad_symbols``: its first
    symbol, and its second if it shows two (R1.2), without a branch on which. Two
    updates where adding its seven ``ally_symbol_counts`` took seven. The squad's
    cards and size are not touched."""
    first, second = deck.ally_symbols[ally, 0], deck.ally_symbols[ally, 1]
    two = second >= 0
    st.squad_symbols[seat, squad, first] += sign
    st.squad_symbols[seat, squad, second if two else first] += sign if two else 0


@inline_kernel
def add_to_squad(st, deck, seat, squad, ally):
    """Put ``ally`` into squad ``squad`` of ``seat``; ``squad == squad_n[seat]`` makes
    a new squad, which comes last (R4.1, R5.1, R5.3). Returns the squad index."""
    if squad == st.squad_n[seat]:
        st.squad_size[seat, squad] = 0
        for sym in range(st.squad_symbols.shape[2]):
            st.squad_symbols[seat, squad, sym] = 0
        for flag in range(st.squad_flags.shape[2]):
            st.squad_flags[seat, squad, flag] = 0
        st.squad_n[seat] += 1
    k = st.squad_size[seat, squad]
    st.squad_cards[seat, squad, k] = ally
    st.squad_size[seat, squad] = k + 1
    add_symbols(st, deck, seat, squad, ally, 1)
    _count_flags(st, deck, seat, squad, ally, 1)
    return squad


@kernel
def delete_squad(st, seat, squad):
    """Remove squad ``squad`` of ``seat``; later squads move up one place (R5.3). Its
    A7 allies leave the seat's ``relocators`` with it."""
    st.relocators[seat] -= st.squad_flags[seat, squad, SF_RELOCATE]
    last = st.squad_n[seat] - 1
    for s in range(squad, last):
        size = st.squad_size[seat, s + 1]
        st.squad_size[seat, s] = size
        for k in range(size):  # element by element: a slice is a view, with reference counts
            st.squad_cards[seat, s, k] = st.squad_cards[seat, s + 1, k]
        for sym in range(st.squad_symbols.shape[2]):
            st.squad_symbols[seat, s, sym] = st.squad_symbols[seat, s + 1, sym]
        for flag in range(st.squad_flags.shape[2]):
            st.squad_flags[seat, s, flag] = st.squad_flags[seat, s + 1, flag]
    st.squad_size[seat, last] = 0
    st.squad_n[seat] = last


@kernel
def take_from_squad(st, deck, seat, squad, pos):
    """Take the ally at ``pos`` out of a squad and return it. A squad whose last ally
    leaves no longer exists (R5.3); the caller must not reuse ``squad`` then."""
    ally = st.squad_cards[seat, squad, pos]
    size = st.squad_size[seat, squad]
    for k in range(pos, size - 1):
        st.squad_cards[seat, squad, k] = st.squad_cards[seat, squad, k + 1]
    st.squad_size[seat, squad] = size - 1
    add_symbols(st, deck, seat, squad, ally, -1)
    _count_flags(st, deck, seat, squad, ally, -1)
    if size == 1:
        delete_squad(st, seat, squad)
    return ally


@kernel
def find_in_squads(st, seat, ally):
    """The (squad, position) of ``ally`` among ``seat``'s squads, or (EMPTY, EMPTY)."""
    for s in range(st.squad_n[seat]):
        for k in range(st.squad_size[seat, s]):
            if st.squad_cards[seat, s, k] == ally:
                return s, k
    return EMPTY, EMPTY


@inline_kernel
def take_from_hand(st, seat, pos):
    """Remove and return the hand card at ``pos`` (hand order is kept)."""
    n = st.hand_n[seat]
    ally = st.hand[seat, pos]
    for k in range(pos, n - 1):
        st.hand[seat, k] = st.hand[seat, k + 1]
    st.hand_n[seat] = n - 1
    return ally


@inline_kernel
def add_to_hand(st, seat, ally):
    """An ally joins ``seat``'s hand (R4.2) and is marked as held."""
    st.hand[seat, st.hand_n[seat]] = ally
    st.hand_n[seat] += 1
    st.held[seat, ally] = True


@inline_kernel
def to_statue_discard(st, card):
    """Put a statue card (ally or morale, statue index) on the statue discard (R3.4)."""
    st.statue_discard[st.g[STATUE_DISCARD_N]] = card
    st.g[STATUE_DISCARD_N] += 1


@inline_kernel
def receive(st, seat, ally):
    """``seat`` receives ``ally`` face down and will score its points (A1, A6, R9.2)."""
    st.received[seat, st.received_n[seat]] = ally
    st.received_n[seat] += 1


@kernel
def squad_mask(st, deck, seat, squad, skip_pos):
    """Bit ``k`` set when some ally of the squad, other than the one at ``skip_pos``
    (EMPTY skips none), shows symbol ``k``."""
    mask = 0
    for k in range(st.squad_size[seat, squad]):
        if k != skip_pos:
            ally = st.squad_cards[seat, squad, k]
            for slot in range(2):
                sym = deck.ally_symbols[ally, slot]
                if sym >= 0:
                    mask |= 1 << sym
    return mask
