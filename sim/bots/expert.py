"""The bot ``expert``: ``planner``'s potential with weights tuned per player count.

It reads only its seat's view, plays no game ahead and searches no tree: each decision
is a handful of weighted features of the position, as ``planner``'s are, so it plays
about as fast. Its weights are a block of :data:`BLOCK` numbers for each player count
(2, 3, 4), shipped as ``sim/bots/expert_weights.json`` and made by
:mod:`analysis.experiments.expert_training` (``revachol train-expert``, docs/BOTS.md). A block
starts with ``planner``'s six parameters in ``planner``'s order (:mod:`sim.bots.planner`),
so every decision it does not weigh differently is ``planner``'s with that block.

Policy, beyond ``planner``'s:

* A completion's worth: its points less what it spends (R6.4: the squad's allies all
  leave), ``w_cards`` per ally and ``w_crowns`` more per White Crown among them, the
  joker that any task can use (R6.1).
* Play or draw (R4.1, R4.2): play when a placement allows a completion worth at least
  ``min_complete`` this turn. Otherwise, with two morale cards on the track
  (the next one drawn sets off a morale-loss event that fails the task at position 3,
  R7.2, R8.1): play when one of its squads is within one symbol of that task
  (``cautious``), and draw when an opponent's squad is and none of its own is
  (``deny``). Otherwise draw while the hand holds fewer than ``draw_below``,
  ``draw_below_1`` or ``draw_below_2`` cards, by the morale cards on the track
  (0, 1, 2), else play.
* Which card where: the placement of highest completion worth plus ``w_gain`` times
  its potential gain.
* Completion (R6): the offered completion of highest worth (``planner``'s bonus for
  saving the task at position 3 included), unless none is worth more than nothing, or
  ``keep`` times the squad's best completion not yet in reach (its points times
  ``decay`` per missing symbol) is worth more: then it completes nothing and keeps
  building.
* Penalty (R8.3): the card of least cost, where a completed task costs its points, a
  hand ally ``pen_hand`` per symbol the face-up tasks need, and a squad ally
  ``pen_squad`` times the squad's potential.
"""

import json
from importlib import resources

from sim._numba import kernel
from sim.bots.greedy import ADD, COMPLETED_TASK, HAND_ALLY, NO_ALLY, OWN, _completion_value, _placement, _symbol_use
from sim.bots.planner import LAST, _potential, _would_lose_last, planner_choose
from sim.bots.planner import PARAMS as PLANNER_PARAMS
from sim.decisions import ACTION_PLAY, C_SQUAD, C_SUBSET, D_ACTION, D_COMPLETE, D_PENALTY, D_PLAY, P_INDEX, P_TYPE
from sim.rules.cover import CROWN, shortfall
from sim.rules.task_row import subset_points
from sim.state import N_PLAYERS, ROW_SIZE, TRACK_N

EXTRA = {"draw_below_1": 5.0, "draw_below_2": 5.0, "min_complete": 1.0, "keep": 0.0, "pen_hand": 1.0,
         "pen_squad": 5.0, "deny": 0.0, "w_gain": 0.01, "w_cards": 0.0, "w_crowns": 0.0}  # fmt: skip
"""The parameters beyond ``planner``'s, with values that play as ``planner`` plays."""
NAMES = (*PLANNER_PARAMS, *EXTRA)
BLOCK = len(NAMES)  # parameters per player count
COUNTS = (2, 3, 4)  # R2.1
W_POINTS, W_GIFT, DRAW_BELOW, DECAY, W_URGENT, CAUTIOUS = range(6)  # planner's order
DRAW_BELOW_1, DRAW_BELOW_2, MIN_COMPLETE, KEEP, PEN_HAND, PEN_SQUAD, DENY, W_GAIN, W_CARDS, W_CROWNS = range(6, BLOCK)
WEIGHTS = "expert_weights.json"


def parameter_names() -> tuple[str, ...]:
    """The bot's parameter names in ``State.bot_params`` order: each of :data:`NAMES`
    suffixed by its player count, ``decay_2p`` … ``w_gain_4p``."""
    return tuple(f"{name}_{n}p" for n in COUNTS for name in NAMES)


def shipped_weights() -> dict[str, float]:
    """The shipped weights (``sim/bots/expert_weights.json``: ``{"2": {name: value},
    …}``) as the bot's parameters, by :func:`parameter_names`; a name the file lacks
    takes its ``planner`` value (:data:`EXTRA` for the others).

    Raises
    ------
    ValueError
        When the file names a parameter the bot does not have.
    """
    data = json.loads(resources.files("sim.bots").joinpath(WEIGHTS).read_text(encoding="utf-8"))
    defaults = {**PLANNER_PARAMS, **EXTRA}
    values = {}
    for n in COUNTS:
        block = data["weights"].get(str(n), {})
        unknown = set(block) - set(NAMES)
        if unknown:
            raise ValueError(f"{WEIGHTS}: unknown expert parameter {sorted(unknown)}; valid: {', '.join(NAMES)}")
        values.update({f"{name}_{n}p": float(block.get(name, defaults[name])) for name in NAMES})
    return values


def limits() -> dict[str, tuple[float, float, bool]]:
    """Valid ranges of the parameters a user may set (``expert:decay_2p=0.5``,
    :mod:`sim.bots.spec`): ``decay`` in [0, 1], the potential's factor per missing
    symbol; the weights and thresholds non-negative."""
    return {name: (0.0, 1.0 if name.startswith("decay_") else 1e6, False) for name in parameter_names()}


@kernel
def _spent(st, deck, seat, squad, ally, w):
    """What a completion by squad ``squad`` (``squad_n``: a new one) spends, with
    ``ally`` joining it first (none when ``ally`` < 0): ``w_cards`` per ally and
    ``w_crowns`` per White Crown (R6.4)."""
    cards, crowns = 0, 0
    if squad < st.squad_n[seat]:
        cards, crowns = st.squad_size[seat, squad], st.squad_symbols[seat, squad, CROWN]
    if ally >= 0:
        cards, crowns = cards + 1, crowns + deck.ally_symbol_counts[ally, CROWN]
    return w[W_CARDS] * cards + w[W_CROWNS] * crowns


@kernel
def _placement_worth(st, deck, seat, squad, ally, w):
    """(completion points, worth) if ``ally`` joined ``squad``: the best completion's
    points, less what it spends when there is one."""
    points = _placement(st, deck, seat, squad, ally)[0]
    return points, (w[W_POINTS] * points - _spent(st, deck, seat, squad, ally, w)) if points > 0 else 0.0


@kernel
def _best_reach(st, deck, seat, w):
    """The most a completion could be worth this turn after placing one hand card
    (0.0 when none is in reach)."""
    best = 0.0
    for h in range(st.hand_n[seat]):
        for target in range(st.squad_n[seat] + 1):
            points, worth = _placement_worth(st, deck, seat, target, st.own_hand[h], w)
            if points > 0:
                best = max(best, worth)
    return best


@kernel
def _opponent_near_last(st, seat):
    """Whether another seat's squad is within one symbol of the task at position 3,
    the task the next morale-loss event fails (R7.2, R8.1)."""
    if not st.subset_ok[LAST]:
        return False
    for other in range(st.g[N_PLAYERS]):
        if other != seat:
            for s in range(st.squad_n[other]):
                if shortfall(st.needs, st.squad_symbols, other, s, LAST) <= 1:
                    return True
    return False


@kernel
def _waiting_value(st, deck, seat, squad, decay):
    """The squad's best completion not yet in reach: max over task subsets it lacks
    symbols for of points x decay**(symbols missing), 0 if it lacks none."""
    best = 0.0
    for subset in range(1, 1 << ROW_SIZE):
        if st.subset_ok[subset]:
            short = shortfall(st.needs, st.squad_symbols, seat, squad, subset)
            if short > 0:
                best = max(best, subset_points(st, deck, subset) * decay**short)
    return best


@kernel
def _action(st, deck, seat, n_options, w):
    """Play (option of ACTION_PLAY) or draw (module docstring)."""
    if n_options == 1:
        return 0
    play = 0 if st.options[0, 0] == ACTION_PLAY else 1
    if _best_reach(st, deck, seat, w) >= w[MIN_COMPLETE]:
        return play
    track = st.g[TRACK_N]
    if track == ROW_SIZE - 1:
        if w[CAUTIOUS] > 0.5 and _would_lose_last(st, seat):
            return play
        if w[DENY] > 0.5 and _opponent_near_last(st, seat):
            return 1 - play
    below = w[DRAW_BELOW] if track == 0 else (w[DRAW_BELOW_1] if track == 1 else w[DRAW_BELOW_2])
    return 1 - play if st.hand_n[seat] < below else play


@kernel
def _placement_choice(st, deck, seat, n_options, w):
    """The placement row of most completion worth plus ``w_gain`` x potential gain;
    ties: most points, then the first row."""
    best_i, best_score, best_points = 0, -1e18, -1
    for i in range(n_options):
        ally, squad = st.own_hand[st.options[i, 0]], st.options[i, 1]
        new = squad == st.squad_n[seat]
        before = 0.0 if new else _potential(st, deck, seat, squad, NO_ALLY, OWN, ADD, w[DECAY])
        gain = _potential(st, deck, seat, squad, ally, 0 if new else 1, ADD, w[DECAY]) - before
        points, worth = _placement_worth(st, deck, seat, squad, ally, w)
        score = worth + w[W_GAIN] * gain
        if score > best_score or (score == best_score and points > best_points):
            best_i, best_score, best_points = i, score, points
    return best_i


@kernel
def _completion(st, deck, seat, n_options, w):
    """The completion of highest worth, or none (module docstring)."""
    urgent = st.g[TRACK_N] == ROW_SIZE - 1
    best_i, best_worth = 0, 0.0
    for i in range(1, n_options):
        worth = _completion_value(st, deck, i, w) - _spent(st, deck, seat, st.options[i, C_SQUAD], NO_ALLY, w)
        if urgent and st.options[i, C_SUBSET] & LAST:
            worth += w[W_URGENT]
        if worth > best_worth:
            best_i, best_worth = i, worth
    if best_i == 0 or w[KEEP] <= 0:
        return best_i
    if w[KEEP] * _waiting_value(st, deck, seat, st.options[best_i, C_SQUAD], w[DECAY]) > best_worth:
        return 0
    return best_i


@kernel
def _penalty(st, deck, seat, n_options, w):
    """The offered card of least cost (module docstring)."""
    best_i, best_cost = 0, 1e18
    for i in range(n_options):
        kind, index = st.options[i, P_TYPE], st.options[i, P_INDEX]
        if kind == COMPLETED_TASK:
            cost = float(deck.task_points[st.done[seat, index]])
        elif kind == HAND_ALLY:
            cost = w[PEN_HAND] * _symbol_use(st, deck, st.own_hand[index])
        else:  # a squad ally; index: the squad
            cost = w[PEN_SQUAD] * _potential(st, deck, seat, index, NO_ALLY, OWN, ADD, w[DECAY])
        if cost < best_cost:
            best_i, best_cost = i, cost
    return best_i


@kernel
def expert_choose(st, deck, seat, kind, n_options, params):
    """The ``expert`` bot's option index (policy: module docstring), with the block of
    ``params`` (float64, ``3 * BLOCK``) for this game's player count, and ``st.needs``
    and ``st.subset_ok`` filled for the task row (:mod:`sim.bots.table`)."""
    n = st.g[N_PLAYERS]
    w = params[(n - 2) * BLOCK : (n - 1) * BLOCK]
    if kind == D_ACTION:
        return _action(st, deck, seat, n_options, w)
    if kind == D_PLAY:
        return _placement_choice(st, deck, seat, n_options, w)
    if kind == D_COMPLETE:
        return _completion(st, deck, seat, n_options, w)
    if kind == D_PENALTY:
        return _penalty(st, deck, seat, n_options, w)
    return planner_choose(st, deck, seat, kind, n_options, w)
