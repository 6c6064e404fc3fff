"""Completing tasks (RULES R6) with the abilities that act on completion: A1 borrow,
A2 double, A5 stays, A8 special crown. Option layout: :mod:`sim.decisions`."""

import numpy as np

from sim._numba import hot_kernel, inline_kernel, kernel
from sim.cards import Ability
from sim.decisions import C_BORROWER, C_BORROWS, C_FREE, C_LENDER, C_SQUAD, C_SUBSET
from sim.events import EV_BORROW, EV_COMPLETE, EV_SQUAD_CARD, log_event
from sim.rules.cover import fewest_borrows, shortfall, symbol_count
from sim.rules.squads import (
    BORROW, DOUBLE, SPECIAL_CROWN, add_to_squad, delete_squad, find_in_squads, receive, squad_mask, to_statue_discard,
)  # fmt: skip
from sim.rules.task_row import refill_row
from sim.state import (
    AS_LENT,
    AS_POINTS,
    EMPTY,
    N_PLAYERS,
    NEEDS_ROW,
    N_SUBSETS,
    R_DOUBLE_ANY_SYMBOL,
    R_ONE_SPECIAL_CROWN,
    ROW_SIZE,
    S_TASKS_COMPLETED,
    SF_TOKENS,
    TASK_COMPLETED,
    TASKS_COMPLETED,
    TF_SEAT,
    TF_STATUS,
    TF_TURN,
    TURN,
)

STAYS = int(Ability.STAYS)
NONE_NAMED = np.int64(0)  # fewest_borrows before any lender is named; a numpy int (sim/decisions.py)


@inline_kernel
def _row_unchanged(table, row):
    """Whether ``table[NEEDS_ROW]`` holds ``row``: the row the table was computed for."""
    return table[NEEDS_ROW, 0] == row[0] and table[NEEDS_ROW, 1] == row[1] and table[NEEDS_ROW, 2] == row[2]


@inline_kernel
def _split_subset(row, subset):
    """(task, rest): the task at the lowest position of task subset ``subset`` and the
    subset of the others, which is smaller, so its table rows are filled first."""
    low = subset & -subset
    return row[0 if low == 1 else (1 if low == 2 else 2)], subset ^ low


@hot_kernel
def subset_needs(st, deck):
    """Fill ``st.needs`` and ``st.subset_ok`` for every subset of the face-up tasks
    (bit i = position i + 1): the colours required by all its tasks, and whether all
    its positions hold a task.

    The tables depend on the row only, so they are kept while it stays as it was:
    ``needs[NEEDS_ROW]`` (the empty subset, which no completion names) holds the row
    they were computed for; :func:`sim.rules.setup.reset` clears it for each game.
    Each subset is its lowest position's task plus the subset of the others
    (:func:`_split_subset`); the needs of a subset that is not ``subset_ok`` are not
    defined."""
    needs, subset_ok, row = st.needs, st.subset_ok, st.row
    if _row_unchanged(needs, row):
        return
    task_needs = deck.task_needs
    for subset in range(1, N_SUBSETS):
        task, rest = _split_subset(row, subset)
        subset_ok[subset] = task != EMPTY and (rest == 0 or subset_ok[rest])
        if not subset_ok[subset]:
            continue
        for c in range(6):
            need = task_needs[task, c]
            needs[subset, c] = need if rest == 0 else needs[rest, c] + need
    for pos in range(ROW_SIZE):
        needs[NEEDS_ROW, pos] = row[pos]


@kernel
def special_subset_needs(st, deck):
    """Fill ``st.special_needs``: for every subset of the face-up tasks, the colours
    that its Special Tasks alone require (A8), after :func:`subset_needs` (whose
    ``subset_ok`` it reads). Kept, like ``st.needs``, while the row stays as it was
    (``special_needs[NEEDS_ROW]``). Only a completion with ability tokens reads it, so
    it is a table of its own: a row change costs the others nothing for it."""
    special_needs, subset_ok, row = st.special_needs, st.subset_ok, st.row
    if _row_unchanged(special_needs, row):
        return
    task_needs, task_special = deck.task_needs, deck.task_special
    for subset in range(1, N_SUBSETS):
        if not subset_ok[subset]:
            continue
        task, rest = _split_subset(row, subset)
        special = task_special[task]
        for c in range(6):
            special_need = task_needs[task, c] if special else 0
            special_needs[subset, c] = special_need if rest == 0 else special_needs[rest, c] + special_need
    for pos in range(ROW_SIZE):
        special_needs[NEEDS_ROW, pos] = row[pos]


@inline_kernel
def _add(options, n, squad, subset, free, borrows):
    options[n, C_SQUAD] = squad
    options[n, C_SUBSET] = subset
    options[n, C_FREE] = free
    options[n, C_BORROWS] = borrows
    return n + 1


@kernel
def _lender_candidates(st, seat):
    """Write the allies in other seats' squads (Dolores Dei's included, A3) to
    ``st.lenders`` and return their count."""
    n = 0
    for q in range(st.g[N_PLAYERS]):
        if q == seat:
            continue
        for s in range(st.squad_n[q]):
            for k in range(st.squad_size[q, s]):
                st.lenders[n] = st.squad_cards[q, s, k]
                n += 1
    return n


@inline_kernel
def has_special(special_needs, subset):
    """Whether task subset ``subset`` holds a Special Task with a requirement (A8)."""
    for c in range(6):
        if special_needs[subset, c] > 0:
            return True
    return False


@hot_kernel
def _free_tokens(st, deck, seat, squad):
    """Write the squad's A2 tokens to ``st.doubles``; return (A2 tokens, A8 extra
    crowns, A1 borrowers) of the squad. A2 doubles a symbol another card has (or any,
    by ``opt_double_any_symbol``); A8 gives one crown per card (or one per squad, by
    ``opt_one_special_crown_per_squad``)."""
    if st.squad_flags[seat, squad, SF_TOKENS] == 0:
        return 0, 0, 0
    double_any = st.rules[R_DOUBLE_ANY_SYMBOL] != 0
    n_double, n_special, n_borrow = 0, 0, 0
    for k in range(st.squad_size[seat, squad]):
        ability = deck.ally_ability[st.squad_cards[seat, squad, k]]
        if ability == DOUBLE:
            st.doubles[n_double] = squad_mask(st, deck, seat, squad, EMPTY if double_any else k)
            n_double += 1
        elif ability == SPECIAL_CROWN:
            n_special += 1
        elif ability == BORROW:
            n_borrow += 1
    if st.rules[R_ONE_SPECIAL_CROWN] != 0:
        n_special = min(n_special, 1)
    return n_double, n_special, n_borrow


@inline_kernel
def _within_reach(row, task_needs, symbols, seat, squad, tokens):
    """The task subset (bit i = position i + 1) of the face-up tasks that the squad
    alone is short of ``tokens`` ability tokens or fewer for (R6.1). The shortfall of a
    subset is at least that of each of its tasks, so only the subsets of this one can
    be within ``tokens``; 0 puts every completion out of reach. A task's needs are
    read from the deck (``deck.task_needs``): this test needs no :func:`subset_needs`
    tables."""
    reach = 0
    for pos in range(ROW_SIZE):
        task = row[pos]
        if task != EMPTY and shortfall(task_needs, symbols, seat, squad, task) <= tokens:
            reach |= 1 << pos
    return reach


@hot_kernel
def completion_options(st, deck, seat):
    """Write every legal completion of ``seat`` to ``st.options`` (row 0: none) and
    return the number of rows (R6.1, R6.2, A1, A2, A8; layout in :mod:`sim.decisions`).
    Rows come in squad order, then subset bitmask order.

    Only the subsets of the tasks that a squad is within reach of one by one
    (:func:`_within_reach`) are weighed, and the subset tables (:func:`subset_needs`)
    are brought up to date only when there is one: after most row changes no squad
    is, and the ability-free ``random`` line of ``revachol bench`` spent about 7% of
    its time recomputing them (issue 14)."""
    options, needs, special_needs = st.options, st.needs, st.special_needs
    symbols = st.squad_symbols
    n = _add(options, 0, EMPTY, EMPTY, EMPTY, EMPTY)
    n_lenders = -1  # computed on first need
    for s in range(st.squad_n[seat]):
        n_double, n_special, n_borrow = _free_tokens(st, deck, seat, s)
        tokens = n_double + n_special + n_borrow  # each covers one symbol at most
        reach = _within_reach(st.row, deck.task_needs, symbols, seat, s, tokens)
        if reach == 0:
            continue
        subset_needs(st, deck)  # returns at once when the tables are up to date
        for subset in range(1, N_SUBSETS):
            if subset & ~reach:
                continue  # it holds a task out of reach; the others' positions all hold tasks (subset_ok)
            short = shortfall(needs, symbols, seat, s, subset)
            if short == 0:
                n = _add(options, n, s, subset, 0, 0)
                continue
            if short > tokens:
                continue  # out of reach even if every token counts
            special_subset_needs(st, deck)
            special = n_special if has_special(special_needs, subset) else 0  # A8: Special Tasks only
            if short > n_double + special + n_borrow:
                continue  # out of reach with the A8 tokens of Special Tasks only
            if n_borrow > 0 and n_lenders < 0:
                n_lenders = _lender_candidates(st, seat)
            lenders = max(n_lenders, 0)
            borrows = fewest_borrows(st, deck, seat, s, subset, n_double, special, lenders, NONE_NAMED, n_borrow)
            if borrows >= 0:
                n = _add(options, n, s, subset, 1 if n_double + special > 0 else 0, borrows)
    return n


@kernel
def borrow_options(st, deck, seat, squad, subset, n_named, left):
    """Write the ``D_BORROW`` rows (borrower, lender) after ``n_named`` borrows of
    ``st.borrows`` were chosen and ``left`` more are to come (A1; :mod:`sim.decisions`),
    and return their count: every A1 ally of the squad that has not borrowed, with
    every lender ally that has a symbol left and after which ``left - 1`` borrows
    still complete task subset ``subset``. Rows come in borrower, then lender order."""
    subset_needs(st, deck)
    special_subset_needs(st, deck)
    n_double, n_special, _ = _free_tokens(st, deck, seat, squad)
    special = n_special if has_special(st.special_needs, subset) else 0
    n_lenders = _lender_candidates(st, seat)
    for i in range(n_lenders):  # whether lending goes on with it; the borrower changes no symbol
        lender = st.lenders[i]
        st.lender_ok[i] = False
        if _named(st.borrows, n_named, 1, lender) < symbol_count(deck, lender):
            st.borrows[n_named, 1] = lender
            left_after = fewest_borrows(st, deck, seat, squad, subset, n_double, special, n_lenders, n_named + 1, left - 1)
            st.lender_ok[i] = left_after >= 0
    n = 0
    for k in range(st.squad_size[seat, squad]):
        borrower = st.squad_cards[seat, squad, k]
        if deck.ally_ability[borrower] != BORROW or _named(st.borrows, n_named, 0, borrower) > 0:
            continue
        for i in range(n_lenders):
            if st.lender_ok[i]:
                st.options[n, C_BORROWER] = borrower
                st.options[n, C_LENDER] = st.lenders[i]
                n += 1
    return n


@inline_kernel
def _named(borrows, n_named, column, ally):
    """How many of the first ``n_named`` borrows name ``ally`` in ``column``."""
    count = 0
    for b in range(n_named):
        if borrows[b, column] == ally:
            count += 1
    return count


@kernel
def _lender_seat(st, ally):
    for q in range(st.g[N_PLAYERS]):
        s, _ = find_in_squads(st, q, ally)
        if s != EMPTY:
            return q
    return EMPTY


@kernel
def complete_tasks(st, deck, seat, choice):
    """Carry out completion option row ``choice`` (a copy, int (OPTION_WIDTH,)), with
    its ``choice[C_BORROWS]`` borrows in ``st.borrows`` (A1: borrower, lender).

    R6.3: the tasks go face down to the player. R6.4: every ally of the squad goes to
    the statue discard, except A5 (stays as the first card of a new squad) and an A1
    that borrowed (face down to the lender's owner, who scores it). R6.5: the row
    slides and refills; R9.1 ends the game when it is empty.
    """
    squad = choice[C_SQUAD]
    subset = choice[C_SUBSET]
    turn = st.g[TURN] + 1
    points = 0
    completed = st.completed
    for pos in range(ROW_SIZE):
        completed[pos] = EMPTY
        if (subset >> pos) & 1:
            task = st.row[pos]
            completed[pos] = task
            points += deck.task_points[task]
            st.done[seat, st.done_n[seat]] = task
            st.done_n[seat] += 1
            st.task_fate[task, TF_STATUS] = TASK_COMPLETED
            st.task_fate[task, TF_SEAT] = seat
            st.task_fate[task, TF_TURN] = turn
            st.row[pos] = EMPTY
    st.seat_stats[seat, S_TASKS_COMPLETED] += subset_count(subset)
    st.g[TASKS_COMPLETED] += subset_count(subset)
    log_event(st, EV_COMPLETE, seat, completed[0], completed[1], completed[2], points)
    size = st.squad_size[seat, squad]
    members = st.members
    for k in range(size):
        members[k] = st.squad_cards[seat, squad, k]
    delete_squad(st, seat, squad)
    for i in range(size):
        ally = members[i]
        st.ally_stats[ally, AS_POINTS] += points
        lender = EMPTY
        for b in range(choice[C_BORROWS]):
            if st.borrows[b, 0] == ally:
                lender = st.borrows[b, 1]
        if lender != EMPTY:
            owner = _lender_seat(st, lender)
            receive(st, owner, ally)
            st.ally_stats[lender, AS_LENT] += 1
            log_event(st, EV_BORROW, ally, lender, owner, 0, 0)
            log_event(st, EV_SQUAD_CARD, ally, 2, owner, squad, 0)
        elif deck.ally_ability[ally] == STAYS:
            add_to_squad(st, deck, seat, st.squad_n[seat], ally)
            log_event(st, EV_SQUAD_CARD, ally, 1, seat, squad, 0)
        else:
            to_statue_discard(st, ally)
            log_event(st, EV_SQUAD_CARD, ally, 0, EMPTY, squad, 0)
    refill_row(st)


@inline_kernel
def subset_count(subset):
    """Number of tasks in a subset bitmask."""
    n = 0
    while subset:
        n += subset & 1
        subset >>= 1
    return n

