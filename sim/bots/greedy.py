"""The bot ``greedy``: it maximises the value of what it completes this turn.

Value of a completion = ``w_points`` x its task points - ``w_gift`` x the victory points
it hands to opponents (an A1 borrower goes to the lender's owner; Harry, A6, to his
victim). Squad coverage is judged by the squad's own symbols and crowns (R6.1).

Policy, decision by decision:

* Play or draw: play when placing some hand card in some squad (or a new one) makes
  a completion possible this turn; otherwise draw while the hand holds fewer than
  ``draw_below`` cards and a draw is legal; otherwise play.
* Which card where: the placement that allows the most valuable completion; when none
  does, the one that leaves a squad fewest symbols short of some face-up task (ties:
  the first option, i.e. the first hand card, the first squad).
* Completion: the offered completion of highest value, abilities included (A2 and A8
  cost nothing and are used when needed; A1 costs the borrowers' points, counting
  the squad's cheapest A1 cards); none when no value is positive. Borrows (A1): the
  borrower with the fewest points first, to the first lender offered.
* A4 extra play, A7 move: taken when they make the best completion this turn more
  valuable. A6 swap: taken when the gain exceeds the value of Harry's points given
  away.
* Penalty: a completed task with the fewest points; a hand ally with the fewest
  symbols that the face-up tasks need; a squad ally of the squad furthest from
  completing a task.
"""

import numpy as np

from sim._numba import ZERO, hot_kernel, inline_kernel, kernel
from sim.cards import Ability, Penalty
from sim.decisions import (
    ACTION_PLAY,
    C_BORROWER,
    C_BORROWS,
    C_SQUAD,
    C_SUBSET,
    D_ACTION,
    D_BORROW,
    D_COMPLETE,
    D_EXTRA_PLAY,
    D_PENALTY,
    D_PLAY,
    D_RELOCATE,
    D_SWAP,
    P_INDEX,
    P_TYPE,
)
from sim.rules.cover import CROWN, shortfall_with
from sim.rules.task_row import subset_points
from sim.state import ACTIVE, EMPTY, ROW_SIZE

BORROW = int(Ability.BORROW)

PARAMS = {"w_points": 1.0, "w_gift": 1.0, "draw_below": 5.0}
W_POINTS, W_GIFT, DRAW_BELOW = 0, 1, 2
COMPLETED_TASK = int(Penalty.COMPLETED_TASK)
HAND_ALLY = int(Penalty.HAND_ALLY)
FAR = 1 << 30  # "no task within reach"
# Arguments that are the same at every call are numpy ints, not Python ints: numba
# compiles a kernel again for each Python-int constant passed to it (sim/decisions.py).
NO_ALLY = np.int64(-1)  # _reach: no ally joins
OWN = np.int64(1)  # _reach: the squad's own symbols count
ADD, REMOVE = np.int64(1), np.int64(-1)  # _reach: the ally joins the squad, leaves it
PLAY_ROWS, EXTRA_PLAY_ROWS = np.int64(0), np.int64(1)  # first placement row of D_PLAY, D_EXTRA_PLAY


@hot_kernel
def _reach(st, deck, seat, squad, ally, base, sign):
    """(most task points, fewest symbols lacking for any single face-up task or FAR
    if none) with ``base`` (1, or 0 for a squad not made yet) times the symbols of
    squad ``squad`` plus ``sign`` (ADD or REMOVE) times those of ``ally`` (none when
    ``ally`` < 0), R6.1; the squad's counts are not written. A subset's
    shortfall is at least each of its tasks', so only the subsets of the tasks each
    covered alone are tested, enumerated as the submasks of that set."""
    needs, symbols, counts, subset_ok = st.needs, st.squad_symbols, deck.ally_symbol_counts, st.subset_ok
    covered, missing = ZERO, FAR  # covered: bit of each single task covered
    for pos in range(ROW_SIZE):
        single = 1 << pos
        if subset_ok[single]:
            short = shortfall_with(needs, symbols, seat, squad, single, base, counts, ally, sign)
            missing = min(missing, short)
            if short == 0:
                covered |= single
    best, subset = 0, covered
    while subset:  # the non-empty subsets of covered, whose positions all hold a task
        one_task = subset & (subset - 1) == 0  # covered alone, found above
        if one_task or shortfall_with(needs, symbols, seat, squad, subset, base, counts, ally, sign) == 0:
            best = max(best, subset_points(st, deck, subset))
        subset = (subset - 1) & covered
    return best, missing


@hot_kernel
def _best_points(st, deck, seat, squad):
    """Most task points squad ``squad`` can complete now with its own symbols."""
    return _reach(st, deck, seat, squad, NO_ALLY, OWN, ADD)[0]


@hot_kernel
def _placement(st, deck, seat, squad, ally):
    """(best points, symbols missing) if ``ally`` joined ``squad`` (``squad_n``: a new
    squad, whose row holds no squad yet); the squad's counts are not written."""
    return _reach(st, deck, seat, squad, ally, 0 if squad == st.squad_n[seat] else 1, ADD)


@hot_kernel
def _best_points_without(st, deck, seat, squad, ally):
    """Most task points squad ``squad`` can complete now without its ally ``ally``
    (an A7 move out of it)."""
    return _reach(st, deck, seat, squad, ally, OWN, REMOVE)[0]


@kernel
def _current_best(st, deck, seat):
    best = 0
    for s in range(st.squad_n[seat]):
        best = max(best, _best_points(st, deck, seat, s))
    return best


@kernel
def _best_play(st, deck, seat, n_options, first):
    """(option index, best points) of the placement rows ``first..n_options-1``:
    most points, else fewest symbols missing."""
    best_i, best_points, best_missing = first, -1, FAR + 1
    for i in range(first, n_options):
        ally = st.own_hand[st.options[i, 0]]
        points, missing = _placement(st, deck, seat, st.options[i, 1], ally)
        if points > best_points or (points == best_points and points == 0 and missing < best_missing):
            best_i, best_points, best_missing = i, points, missing
    return best_i, best_points


@kernel
def _gift(st, deck, seat, squad, borrows):
    """Victory points the ``borrows`` cheapest A1 allies of the squad hand to lenders'
    owners (A1); ties in points broken by position in the squad."""
    gift, last_points, last_k = 0, -1, -1
    for _ in range(borrows):
        best_k, best_points = -1, 0
        for k in range(st.squad_size[seat, squad]):
            ally = st.squad_cards[seat, squad, k]
            points = deck.ally_points[ally]
            after_last = points > last_points or (points == last_points and k > last_k)
            if deck.ally_ability[ally] == BORROW and after_last and (best_k < 0 or points < best_points):
                best_k, best_points = k, points
        gift += best_points
        last_points, last_k = best_points, best_k
    return gift


@kernel
def _completion_value(st, deck, i, params):
    points = subset_points(st, deck, st.options[i, C_SUBSET])
    gift = _gift(st, deck, st.g[ACTIVE], st.options[i, C_SQUAD], st.options[i, C_BORROWS])
    return params[W_POINTS] * points - params[W_GIFT] * gift


@kernel
def cheapest_borrow(st, deck, n_options):
    """Index of the ``D_BORROW`` row whose borrower has the fewest victory points (the
    gift to the lender's owner, A1); the first such row on a tie."""
    best_i = 0
    for i in range(1, n_options):
        if deck.ally_points[st.options[i, C_BORROWER]] < deck.ally_points[st.options[best_i, C_BORROWER]]:
            best_i = i
    return best_i


@kernel
def best_completion(st, deck, n_options, params, bonus_subset, bonus):
    """Index of the offered completion of highest value, plus ``bonus`` for those whose
    task subset meets ``bonus_subset``; 0 ("none") when no value is positive."""
    best_i, best_value = 0, 0.0
    for i in range(1, n_options):
        value = _completion_value(st, deck, i, params)
        if st.options[i, C_SUBSET] & bonus_subset:
            value += bonus
        if value > best_value:
            best_i, best_value = i, value
    return best_i


@kernel
def _symbol_use(st, deck, ally):
    """How many of the ally's symbols the face-up tasks need (a crown always counts)."""
    use = 0
    for slot in range(2):
        sym = deck.ally_symbols[ally, slot]
        if sym == CROWN:
            use += 1
        elif sym >= 0:
            for pos in range(ROW_SIZE):
                if st.row[pos] != EMPTY and deck.task_needs[st.row[pos], sym] > 0:
                    use += 1
                    break
    return use


@kernel
def _penalty_choice(st, deck, seat, n_options):
    best_i, best_cost = 0, FAR + 1
    for i in range(n_options):
        kind, index = st.options[i, P_TYPE], st.options[i, P_INDEX]
        if kind == COMPLETED_TASK:
            cost = deck.task_points[st.done[seat, index]]
        elif kind == HAND_ALLY:
            cost = _symbol_use(st, deck, st.own_hand[index])
        else:
            cost = FAR - _reach(st, deck, seat, index, NO_ALLY, OWN, ADD)[1]  # index: the squad; [1]: missing
        if cost < best_cost:
            best_i, best_cost = i, cost
    return best_i


@inline_kernel
def greedy_choose(st, deck, seat, kind, n_options, params):
    """The ``greedy`` bot's option index (policy: module docstring), with ``st.needs``
    and ``st.subset_ok`` filled for the task row (:mod:`sim.bots.table`)."""
    if kind == D_PENALTY:
        return _penalty_choice(st, deck, seat, n_options)
    if kind == D_COMPLETE:
        return best_completion(st, deck, n_options, params, 0, 0.0)
    if kind == D_BORROW:
        return cheapest_borrow(st, deck, n_options)
    if kind == D_ACTION:
        if n_options == 1:
            return 0
        play = 0 if st.options[0, 0] == ACTION_PLAY else 1
        draw = 1 - play
        if _would_complete(st, deck, seat):
            return play
        return draw if st.hand_n[seat] < params[DRAW_BELOW] else play
    if kind == D_PLAY:
        return _best_play(st, deck, seat, n_options, PLAY_ROWS)[0]
    before = _current_best(st, deck, seat)
    if kind == D_EXTRA_PLAY:
        if n_options == 1:
            return 0
        i, points = _best_play(st, deck, seat, n_options, EXTRA_PLAY_ROWS)
        return i if points > before else 0
    best_i, best_gain = 0, 0.0
    for i in range(1, n_options):
        if kind == D_SWAP:
            ally, target, harry = st.options[i, 3], st.options[i, 4], st.options[i, 5]
            points = _placement(st, deck, seat, target, ally)[0]
            gain = params[W_POINTS] * (points - before) - params[W_GIFT] * deck.ally_points[harry]
        elif kind == D_RELOCATE:
            source, ally, target = st.options[i, 0], st.options[i, 3], st.options[i, 2]  # target != source
            points = max(_placement(st, deck, seat, target, ally)[0], _best_points_without(st, deck, seat, source, ally))
            gain = params[W_POINTS] * (points - before)
        else:
            gain = 0.0
        if gain > best_gain:
            best_i, best_gain = i, gain
    return best_i


@kernel
def _would_complete(st, deck, seat):
    """Whether some hand card, placed somewhere, allows a completion this turn."""
    for h in range(st.hand_n[seat]):
        for target in range(st.squad_n[seat] + 1):
            if _placement(st, deck, seat, target, st.own_hand[h])[0] > 0:
                return True
    return False

