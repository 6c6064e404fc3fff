"""Debug mode's legality check between turns: every card is in exactly one zone
(the zone table of :mod:`sim.state`; R3.1-R3.4, R5, R6.3, R7, R8, A1, A6).

The engine calls :func:`check_zones` after each turn when ``st.rules[R_DEBUG]`` is
set (``revachol simulate --debug``, :class:`sim.options.RuleOptions`). It allocates
three count arrays per turn, so it is for finding engine bugs, not for long runs.
"""

import numpy as np

from sim._numba import kernel
from sim.rules.squads import BORROW, DOUBLE, RELOCATE, SPECIAL_CROWN
from sim.state import (
    EMPTY, N_PLAYERS, PERM_MORALE_N, PERM_TASKS_N, SF_RELOCATE, SF_TOKENS, STATUE_DISCARD_N, STATUE_N, TASK_DECK_N,
)  # fmt: skip


@kernel
def _count(counts, cards, n):
    """Add one to ``counts[c]`` for each of the first ``n`` cards that is not ``EMPTY``;
    False when a card index is outside ``counts``."""
    for i in range(n):
        card = cards[i]
        if card == EMPTY:
            continue
        if not 0 <= card < counts.shape[0]:
            return False
        counts[card] += 1
    return True


@kernel
def _count_statue(allies, morale, pile, n):
    """:func:`_count` for a statue pile: indices below the ally count are allies, the
    rest morale cards (R3.3)."""
    n_allies = allies.shape[0]
    for i in range(n):
        card = pile[i]
        if not 0 <= card < n_allies + morale.shape[0]:
            return False
        if card < n_allies:
            allies[card] += 1
        else:
            morale[card - n_allies] += 1
    return True


@kernel
def check_zones(st, deck):
    """Assert that every ally, task and morale card of ``deck`` is in exactly one zone.

    Raises
    ------
    AssertionError
        Naming the kind of card that is missing, duplicated or not a card.
    """
    allies = np.zeros(deck.ally_points.shape[0], np.int64)
    morale = np.zeros(deck.morale_penalty.shape[0], np.int64)
    tasks = np.zeros(deck.task_points.shape[0], np.int64)
    ok = _count_statue(allies, morale, st.statue, st.g[STATUE_N])
    ok &= _count_statue(allies, morale, st.statue_discard, st.g[STATUE_DISCARD_N])
    for p in range(st.g[N_PLAYERS]):
        ok &= _count(allies, st.hand[p], st.hand_n[p])
        for s in range(st.squad_n[p]):
            ok &= _count(allies, st.squad_cards[p, s], st.squad_size[p, s])
        ok &= _count(allies, st.received[p], st.received_n[p])
        ok &= _count(tasks, st.done[p], st.done_n[p])
    ok &= _count(morale, st.track, st.track.shape[0])
    ok &= _count(morale, st.perm_morale, st.g[PERM_MORALE_N])
    ok &= _count(tasks, st.task_deck, st.g[TASK_DECK_N])
    ok &= _count(tasks, st.row, st.row.shape[0])
    ok &= _count(tasks, st.perm_tasks, st.g[PERM_TASKS_N])
    assert ok, "debug check: a zone holds a card index that is not a card of the deck"
    assert (allies == 1).all(), "debug check (R3.2-R3.4, R5, A1, A6): an ally is in no zone or in two"
    assert (tasks == 1).all(), "debug check (R3.1, R6.3, R8): a task is in no zone or in two"
    assert (morale == 1).all(), "debug check (R3.3, R7, R8): a morale card is in no zone or in two"
    assert _flags_agree(st, deck), "debug check (R5): squad_flags or relocators differ from the allies' abilities"


@kernel
def _flags_agree(st, deck):
    """Whether every squad's ``squad_flags`` count its allies' abilities, and every
    seat's ``relocators`` its A7 allies in squads (:func:`sim.rules.squads.add_to_squad`)."""
    for p in range(st.g[N_PLAYERS]):
        relocators = 0
        for s in range(st.squad_n[p]):
            tokens, relocate = 0, 0
            for k in range(st.squad_size[p, s]):
                ability = deck.ally_ability[st.squad_cards[p, s, k]]
                tokens += ability == BORROW or ability == DOUBLE or ability == SPECIAL_CROWN
                relocate += ability == RELOCATE
            if st.squad_flags[p, s, SF_TOKENS] != tokens or st.squad_flags[p, s, SF_RELOCATE] != relocate:
                return False
            relocators += relocate
        if st.relocators[p] != relocators:
            return False
    return True
