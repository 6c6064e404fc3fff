"""Completing tasks (RULES R6) with the abilities that act on completion: A1 borrow,
A2 double, A5 stays, A8 special crown. Option layout: :mod:`sim.decisions`."""

from sim._numba import inline_kernel, kernel
from sim.cards import Ability
from sim.decisions import C_BORROWER, C_FREE, C_SQUAD, C_SUBSET, MAX_BORROWERS
from sim.events import EV_BORROW, EV_COMPLETE, EV_SQUAD_CARD, log_event
from sim.rules.cover import ALL_COLOURS, SPECIAL_BIT, covers_with_tokens, shortfall
from sim.rules.squads import add_to_squad, delete_squad, find_in_squads, receive, squad_mask, to_statue_discard
from sim.rules.task_row import refill_row
from sim.state import (
    AS_LENT,
    AS_POINTS,
    EMPTY,
    N_PLAYERS,
    R_DOUBLE_ANY_SYMBOL,
    ROW_SIZE,
    S_TASKS_COMPLETED,
    TASK_COMPLETED,
    TASKS_COMPLETED,
    TF_SEAT,
    TF_STATUS,
    TF_TURN,
    TURN,
)

BORROW = int(Ability.BORROW)
DOUBLE = int(Ability.DOUBLE)
STAYS = int(Ability.STAYS)
SPECIAL_CROWN = int(Ability.SPECIAL_CROWN)
N_SUBSETS = 1 << ROW_SIZE


@kernel
def subset_needs(st, deck):
    """Fill ``st.needs``, ``st.special_needs`` and ``st.subset_ok`` for every subset of
    the face-up tasks (bit i = position i + 1): the colours required by all its tasks,
    by its Special Tasks alone (A8), and whether all its positions hold a task."""
    needs, special_needs, subset_ok, row = st.needs, st.special_needs, st.subset_ok, st.row
    task_needs, task_special = deck.task_needs, deck.task_special
    for subset in range(1, N_SUBSETS):
        for c in range(6):
            needs[subset, c] = 0
            special_needs[subset, c] = 0
        subset_ok[subset] = True
        for pos in range(ROW_SIZE):
            if (subset >> pos) & 1:
                task = row[pos]
                if task == EMPTY:
                    subset_ok[subset] = False
                    break
                for c in range(6):
                    needs[subset, c] += task_needs[task, c]
                    if task_special[task]:
                        special_needs[subset, c] += task_needs[task, c]


@inline_kernel
def _add(options, n, squad, subset, free, b0, l0, b1, l1):
    if n >= options.shape[0]:
        raise RuntimeError("too many completion options for the option buffer")
    options[n, C_SQUAD] = squad
    options[n, C_SUBSET] = subset
    options[n, C_FREE] = free
    options[n, C_BORROWER] = b0
    options[n, C_BORROWER + 1] = l0
    options[n, C_BORROWER + 2] = b1
    options[n, C_BORROWER + 3] = l1
    return n + 1


@kernel
def _lender_candidates(st, deck, seat, allies, masks):
    """Allies in other seats' squads (Dolores Dei's included, A3) and their symbol masks."""
    n = 0
    for q in range(st.g[N_PLAYERS]):
        if q == seat:
            continue
        for s in range(st.squad_n[q]):
            for k in range(st.squad_size[q, s]):
                ally = st.squad_cards[q, s, k]
                mask = 0
                for slot in range(2):
                    sym = deck.ally_symbols[ally, slot]
                    if sym >= 0:
                        mask |= 1 << sym
                allies[n] = ally
                masks[n] = mask
                n += 1
    return n


@inline_kernel
def has_special(special_needs, subset):
    """Whether task subset ``subset`` holds a Special Task with a requirement (A8)."""
    for c in range(6):
        if special_needs[subset, c] > 0:
            return True
    return False


@kernel
def completion_options(st, deck, seat):
    """Write every legal completion of ``seat`` to ``st.options`` (row 0: none) and
    return the number of rows (R6.1, R6.2, A1, A2, A8; layout in :mod:`sim.decisions`).
    Rows come in squad order, then subset bitmask order."""
    subset_needs(st, deck)
    options, needs, special_needs, subset_ok = st.options, st.needs, st.special_needs, st.subset_ok
    symbols, cards, sizes, abilities = st.squad_symbols, st.squad_cards, st.squad_size, deck.ally_ability
    tokens, doubles = st.tokens, st.doubles
    n = _add(options, 0, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY)
    double_any = st.rules[R_DOUBLE_ANY_SYMBOL] != 0
    borrower0, borrower1 = EMPTY, EMPTY
    n_lenders = -1  # computed on first need
    for s in range(st.squad_n[seat]):
        n_double, n_special, n_borrow = 0, 0, 0
        for k in range(sizes[seat, s]):
            ability = abilities[cards[seat, s, k]]
            if ability == DOUBLE:  # A2: a symbol another card has (or any, by option)
                doubles[n_double] = squad_mask(st, deck, seat, s, EMPTY if double_any else k)
                n_double += 1
            elif ability == SPECIAL_CROWN:
                n_special += 1
            elif ability == BORROW and n_borrow < MAX_BORROWERS:
                if n_borrow == 0:
                    borrower0 = cards[seat, s, k]
                else:
                    borrower1 = cards[seat, s, k]
                n_borrow += 1
        for subset in range(1, N_SUBSETS):
            if not subset_ok[subset]:
                continue
            short = shortfall(needs, symbols, seat, s, subset)
            if short == 0:
                n = _add(options, n, s, subset, 0, EMPTY, EMPTY, EMPTY, EMPTY)
                continue
            if short > n_double + n_special + n_borrow:
                continue  # each ability token covers one symbol at most: out of reach
            for i in range(n_double):
                tokens[i] = doubles[i]
            n_free = n_double
            if has_special(special_needs, subset):  # A8: only for a Special Task's symbols
                for i in range(n_special):
                    tokens[n_free] = SPECIAL_BIT | ALL_COLOURS
                    n_free += 1
            free = 1 if n_free > 0 else 0
            if n_free > 0 and covers_with_tokens(st, seat, s, subset, n_free):
                n = _add(options, n, s, subset, 1, EMPTY, EMPTY, EMPTY, EMPTY)
                continue
            if n_borrow == 0 or short > n_free + n_borrow:
                continue
            if n_lenders < 0:
                n_lenders = _lender_candidates(st, deck, seat, st.lenders, st.lender_masks)
            lenders, lender_masks = st.lenders, st.lender_masks
            found = False
            for b in range(n_borrow if short <= n_free + 1 else 0):  # one borrower (A1)
                borrower = borrower0 if b == 0 else borrower1
                for c in range(n_lenders):
                    tokens[n_free] = lender_masks[c]
                    if covers_with_tokens(st, seat, s, subset, n_free + 1):
                        n = _add(options, n, s, subset, free, borrower, lenders[c], EMPTY, EMPTY)
                        found = True
            if found or n_borrow < 2:
                continue
            for c0 in range(n_lenders):  # two borrowers
                tokens[n_free] = lender_masks[c0]
                for c1 in range(n_lenders):
                    tokens[n_free + 1] = lender_masks[c1]
                    if covers_with_tokens(st, seat, s, subset, n_free + 2):
                        n = _add(options, n, s, subset, free, borrower0, lenders[c0], borrower1, lenders[c1])
    return n


@kernel
def _lender_seat(st, ally):
    for q in range(st.g[N_PLAYERS]):
        s, _ = find_in_squads(st, q, ally)
        if s != EMPTY:
            return q
    return EMPTY


@kernel
def complete_tasks(st, deck, seat, choice):
    """Carry out completion option row ``choice`` (a copy, int (OPTION_WIDTH,)).

    R6.3: the tasks go face down to the player. R6.4: every ally of the squad goes to
    the statue discard, except A5 (stays as the first card of a new squad) and an A1
    that borrowed (face down to the lender's owner, who scores it). R6.5: the row
    slides and refills; R9.1 ends the game when it is empty.
    """
    squad = choice[C_SQUAD]
    subset = choice[C_SUBSET]
    turn = st.g[TURN] + 1
    points = 0
    completed = st.cover[0]  # scratch: the completed task per position
    completed[:ROW_SIZE] = EMPTY
    for pos in range(ROW_SIZE):
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
    members[:size] = st.squad_cards[seat, squad, :size]
    delete_squad(st, seat, squad)
    for i in range(size):
        ally = members[i]
        st.ally_stats[ally, AS_POINTS] += points
        lender = EMPTY
        for b in range(MAX_BORROWERS):
            if choice[C_BORROWER + 2 * b] == ally:
                lender = choice[C_BORROWER + 2 * b + 1]
        if lender != EMPTY:
            owner = _lender_seat(st, lender)
            receive(st, owner, ally)
            st.ally_stats[lender, AS_LENT] += 1
            log_event(st, EV_BORROW, ally, lender, owner, 0, 0)
            log_event(st, EV_SQUAD_CARD, ally, 2, owner, 0, 0)
        elif deck.ally_ability[ally] == STAYS:
            add_to_squad(st, deck, seat, st.squad_n[seat], ally)
            log_event(st, EV_SQUAD_CARD, ally, 1, seat, 0, 0)
        else:
            to_statue_discard(st, ally)
            log_event(st, EV_SQUAD_CARD, ally, 0, EMPTY, 0, 0)
    refill_row(st)


@inline_kernel
def subset_count(subset):
    """Number of tasks in a subset bitmask."""
    n = 0
    while subset:
        n += subset & 1
        subset >>= 1
    return n

