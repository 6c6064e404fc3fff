"""The bot ``planner``: a heuristic that plans beyond this turn.

It values a squad by its *potential*: over the subsets of face-up tasks, the points
they are worth times ``decay`` to the power of the symbols still missing (after the
squad's crowns), so a squad one symbol short of a 5-point task is worth more than one
three symbols short. Policy:

* Play or draw: play when a placement allows a completion this turn. Otherwise, when
  the morale track holds two cards (the next morale card drawn fails the task at
  position 3, R7.2) and one of its squads is within one symbol of that task, play
  (towards it) rather than draw (``cautious``). Otherwise draw while the hand holds
  fewer than ``draw_below`` cards, else play.
* Which card where: the placement allowing the most valuable completion; if none, the
  one that raises a squad's potential most (building towards the tasks' deficits).
* Completion: the most valuable, as ``greedy``, plus ``w_urgent`` points for saving the
  task at position 3 while the track holds two morale cards.
* A4 extra play and A7 move: taken when they raise the best completion or the
  potential. A6 swap: taken when the completion gain, or half the potential gain,
  exceeds Harry's points given away. A1, A2, A8: as ``greedy``.
* Penalty: as ``greedy`` (the least valuable card).
"""

from sim._numba import kernel
from sim.bots.greedy import (
    ADD,
    DRAW_BELOW,
    NO_ALLY,
    OWN,
    REMOVE,
    W_GIFT,
    W_POINTS,
    _best_points_without,
    _current_best,
    _penalty_choice,
    _placement,
    _would_complete,
    best_completion,
    cheapest_borrow,
)
from sim.decisions import ACTION_PLAY, D_ACTION, D_BORROW, D_COMPLETE, D_EXTRA_PLAY, D_PENALTY, D_PLAY, D_SWAP
from sim.rules.cover import shortfall, shortfall_with
from sim.state import ROW_SIZE, TRACK_N

PARAMS = {"w_points": 1.0, "w_gift": 1.0, "draw_below": 5.0, "decay": 0.4, "w_urgent": 2.0, "cautious": 1.0}
DECAY, W_URGENT, CAUTIOUS = 3, 4, 5
LAST = 1 << (ROW_SIZE - 1)  # subset bit of the task at position 3


@kernel
def _potential(st, deck, seat, squad, ally, base, sign, decay):
    """Max over task subsets of points x decay**(symbols missing after crowns), for
    ``base`` (1, or 0 for a squad not made yet) times the squad's symbols plus
    ``sign`` (ADD or REMOVE) times those of ``ally`` (none when ``ally`` < 0), as
    :func:`sim.bots.greedy._reach` counts them."""
    best, counts = 0.0, deck.ally_symbol_counts
    for subset in range(1, 1 << ROW_SIZE):
        if not st.subset_ok[subset]:
            continue
        short = shortfall_with(st.needs, st.squad_symbols, seat, squad, subset, base, counts, ally, sign)
        points = 0
        for pos in range(ROW_SIZE):
            if (subset >> pos) & 1:
                points += deck.task_points[st.row[pos]]
        best = max(best, points * decay**short)
    return best


@kernel
def _gain(st, deck, seat, squad, ally, decay):
    """(best completion points, potential gain) if ``ally`` joined ``squad``
    (``squad_n``: a new squad); the squad's counts are not written."""
    new = squad == st.squad_n[seat]
    before = 0.0 if new else _potential(st, deck, seat, squad, NO_ALLY, OWN, ADD, decay)
    after = _potential(st, deck, seat, squad, ally, 0 if new else 1, ADD, decay)
    return _placement(st, deck, seat, squad, ally)[0], after - before


@kernel
def _best_placement(st, deck, seat, n_options, first, decay):
    """(option, completion points, potential gain) of the best placement row."""
    best_i, best_points, best_gain = first, -1, -1e18
    for i in range(first, n_options):
        points, gain = _gain(st, deck, seat, st.options[i, 1], st.own_hand[st.options[i, 0]], decay)
        if points > best_points or (points == best_points and gain > best_gain):
            best_i, best_points, best_gain = i, points, gain
    return best_i, best_points, best_gain


@kernel
def _would_lose_last(st, seat):
    """Whether one of the player's squads is within one symbol of the task at position
    3, the task the next morale-loss event would fail (R7.2, R8.1)."""
    if not st.subset_ok[LAST]:
        return False
    for s in range(st.squad_n[seat]):
        if shortfall(st.needs, st.squad_symbols, seat, s, LAST) <= 1:
            return True
    return False


@kernel
def planner_choose(st, deck, seat, kind, n_options, params):
    """The ``planner`` bot's option index (policy: module docstring), with ``st.needs``
    and ``st.subset_ok`` filled for the task row (:mod:`sim.bots.table`)."""
    decay = params[DECAY]
    if kind == D_PENALTY:
        return _penalty_choice(st, deck, seat, n_options)
    if kind == D_COMPLETE:
        urgent = st.g[TRACK_N] == ROW_SIZE - 1  # the next morale card fails position 3 (R7.2)
        return best_completion(st, deck, n_options, params, LAST if urgent else 0, params[W_URGENT])
    if kind == D_BORROW:
        return cheapest_borrow(st, deck, n_options)
    if kind == D_ACTION:
        if n_options == 1:
            return 0
        play = 0 if st.options[0, 0] == ACTION_PLAY else 1
        if _would_complete(st, deck, seat):
            return play
        if params[CAUTIOUS] > 0 and st.g[TRACK_N] == ROW_SIZE - 1 and _would_lose_last(st, seat):
            return play
        return 1 - play if st.hand_n[seat] < params[DRAW_BELOW] else play
    if kind == D_PLAY:
        return _best_placement(st, deck, seat, n_options, 0, decay)[0]
    before = _current_best(st, deck, seat)
    if kind == D_EXTRA_PLAY:
        if n_options == 1:
            return 0
        i, points, gain = _best_placement(st, deck, seat, n_options, 1, decay)
        return i if points > before or gain > 0 else 0
    best_i, best_value = 0, 0.0
    for i in range(1, n_options):
        if kind == D_SWAP:
            ally, target, harry = st.options[i, 3], st.options[i, 4], st.options[i, 5]
            points, gain = _gain(st, deck, seat, target, ally, decay)
            value = params[W_POINTS] * max(points - before, 0.5 * gain) - params[W_GIFT] * deck.ally_points[harry]
        else:  # D_RELOCATE: [from squad, position, to squad, ally]
            source, target, ally = st.options[i, 0], st.options[i, 2], st.options[i, 3]
            loss = _potential(st, deck, seat, source, NO_ALLY, OWN, ADD, decay)
            loss -= _potential(st, deck, seat, source, ally, OWN, REMOVE, decay)
            points, gain = _gain(st, deck, seat, target, ally, decay)  # target != source
            points = max(points, _best_points_without(st, deck, seat, source, ally))
            value = params[W_POINTS] * max(points - before, gain - loss)
        if value > best_value:
            best_i, best_value = i, value
    return best_i
