"""The ``search`` bot's tree: information-set Monte-Carlo tree search (IS-MCTS) over
every decision the rules give the player in its own turn.

The tree follows single-observer IS-MCTS (Cowling, Powley & Whitehouse, "Information
Set Monte Carlo Tree Search", IEEE Trans. Computational Intelligence and AI in Games
4(2), 2012): one tree shared by all determinisations of the hidden cards, whose
children are keyed by the *content* of the option chosen (different determinisations
offer different rows), and selected by UCB1 (Auer, Cesa-Bianchi & Fischer 2002; UCT,
Kocsis & Szepesvári 2006) with the child's *availability* count (the iterations in
which its option was offered) in place of the parent's visits:

    mean reward + explore * sqrt(ln(availability) / visits),  explore = 0.7 by default

(about 1/sqrt(2), the constant for rewards in [0, 1]), plus a progressive bias towards
the ``planner``'s choice among the rows (Chaslot, Winands, van den Herik, Uiterwijk &
Bouzy, "Progressive Strategies for Monte-Carlo Tree Search", New Mathematics and
Natural Computation 4(3), 2008):

    + bias / (visits + 1)  for the planner's row only,  bias = 3 by default

a heuristic prior that guides the first visits and fades as the child's own mean
takes over. It pays: against ``planner`` at 2 players, seats shuffled, 600 games,
seed 7, 128 iterations, the win rate went from 49.2% (Wilson 95% CI 45.2-53.2%)
without it to 69.7% (65.9-73.2%) with ``bias=3`` (docs/BOTS.md). A node takes a new child only
while its tried rows number fewer than ``1 + widen * sqrt(visits)`` (progressive
widening, Coulom 2007; Chaslot et al. 2008), the ``planner``'s choice first, then
untried rows drawn at random, so that a small budget is not spent trying each of a
placement's many rows once. The tree covers the searching
seat's decisions during its turn, in the order the rules ask them: play or draw
(R4.1, R4.2), which card into which squad (R4.1, R5), A6 swap, A4 extra play, A7
move, which completion (R6) and A1 borrows, and its penalties (R8.3, R8.7) when its
own draw triggers a morale-loss event (R7.2). Chance (the card drawn, the dice)
happens between decisions and is not a node: the rows offered after it are matched
by content. Its penalties during other seats' turns are searched apart, flat
(:mod:`sim.bots.penalty_search`, ``penalty_iterations`` playouts each).

``horizon`` cuts each playout short: 0 (the default) plays it to the game's end;
``h`` above 0 plays at most ``h`` turns after the searched one and backs up the
seat's standing then (:func:`sim.bots.search.standing`), for a cheaper playout.

``kinds`` says which decisions the tree searches, a bit per decision kind
(:mod:`sim.decisions`): 1 play or draw, 2 which card where, 4 A4 extra play, 8 A6
swap, 16 A7 move, 32 which completion, 64 its own-turn penalties, 128 A1 borrows;
255, the default, searches them all. A decision whose bit is off is ``planner``'s,
so ``search:kinds=1`` is ``planner`` but for play or draw: it measures where the
search's skill lies (docs/BOTS.md).

A key is the decision kind and the row's fields in use (``KEY_COLUMNS``), with hand
positions replaced by the ally they hold (a draw changes what a position holds).
The tree lives in the bot's own memory, arrays of :class:`sim.state.State`'s bot-memory
part that a run allocates for the bots it seats (:func:`tree_memory`,
:mod:`sim.bots.memory`), paths of ``MAX_TREE_DEPTH``; each iteration expands one node
at most, so a pool of ``iterations + 1`` nodes holds the budget's whole tree. A
smaller pool stops expanding once full (``TG_FULL`` counts the refusals) and the
search goes on over the nodes it has. Selection and backpropagation are
iterative over ``tree_path`` (no recursion between kernels, docs/ARCHITECTURE.md).

:func:`search_choose` is the bot's policy in :func:`sim.bots.policy.decide`: while
:mod:`sim.bots.search` runs an iteration it selects and expands by UCB1; in the real
turn it takes the offered row whose child has the most visits (ties: the
``planner``'s choice); off the tree (a row
never tried, another seat's turn, after the turn) it plays as ``planner``.
"""

import math

import numpy as np

from sim._numba import kernel
from sim.bots import planner
from sim.bots.planner import planner_choose
from sim.cards import Penalty
from sim.decisions import D_EXTRA_PLAY, D_PENALTY, D_PLAY, P_INDEX, P_TYPE
from sim.bots.observation import BOT_STREAM
from sim.rng import below
from sim.deck_arrays import DeckArrays
from sim.state import ACTIVE, EMPTY, OPTION_WIDTH, TURN, option_rows

# --- tree_g: the tree's scalars, int64 (TREE_G_LEN,) ------------------------------------
TG_NODES = 0  # nodes in use, the root included
TG_FULL = 1  # expansions refused because the node pool was full
TG_SEAT = 2  # the seat whose turn the tree searches
TG_TURN = 3  # that turn (g[TURN] when it began)
TG_MODE = 4  # off, searching, or followed by the real turn (MODE_*)
TG_NODE = 5  # the node the turn stands at, EMPTY off the tree
TG_PATH_N = 6  # nodes in tree_path
TG_EXPANDED = 7  # 1 once this iteration added its node
TREE_G_LEN = 8
MAX_ITERATIONS = 65_536  # the largest budget (LIMITS)
MAX_TREE_DEPTH = 64  # decisions of one turn followed down the tree at most
KEY_WIDTH = 1 + OPTION_WIDTH  # a node's key: decision kind and option row

# 192 iterations by default: at 4 players one search seat still plays 12 games/s on one
# core and wins 47.9% against planner, where 128 won 45.2%; 512 playouts a penalty on
# another seat's turn (sim.bots.penalty_search) raise that to 51.6% at 18.6 games/s
# (docs/BOTS.md, issue 37).
PARAMS = {"iterations": 192.0, "explore": 0.7, "widen": 1.0, "bias": 3.0, "penalty_iterations": 512.0, "kinds": 255.0,
          "horizon": 0.0}
ITERATIONS, EXPLORE, WIDEN, BIAS, PENALTY_ITERATIONS, KINDS, HORIZON = 0, 1, 2, 3, 4, 5, 6
# Valid values (sim.bots.spec): low, high, whole numbers only. The node pool holds a
# node for every iteration up to the cap, so a budget's tree is never cut short by it;
# the cap keeps a typo from running for days.
LIMITS = {"iterations": (1.0, float(MAX_ITERATIONS), True), "explore": (0.0, 10.0, False), "widen": (0.0, 100.0, False),
          "bias": (0.0, 100.0, False), "penalty_iterations": (0.0, 100_000.0, True), "kinds": (0.0, 255.0, True),
          "horizon": (0.0, float(30_000), True)}
PLANNER_DEFAULTS = np.array(list(planner.PARAMS.values()), np.float64)
MODE_OFF, MODE_SEARCH, MODE_FOLLOW = np.int64(0), np.int64(1), np.int64(2)  # numpy ints: sim/decisions.py
VISITS, REWARD, AVAILABLE = 0, 1, 2  # columns of tree_stats
FIRST_CHILD, NEXT_SIBLING = 0, 1  # columns of tree_child
# Fields of a row that identify it, by decision kind (sim.decisions): D_ACTION,
# D_PLAY, D_EXTRA_PLAY, D_SWAP, D_RELOCATE, D_COMPLETE, D_PENALTY, D_BORROW.
KEY_COLUMNS = np.array([1, 2, 2, 6, 4, 2, 3, 2], np.int64)
HAND_ALLY = np.int64(int(Penalty.HAND_ALLY))


def tree_memory(deck: DeckArrays, params: np.ndarray) -> dict[str, np.ndarray]:
    """The bot's own memory for ``deck`` and its parameters ``params`` (float64,
    ``PARAMS``' order): the arrays of the state's bot-memory part that the tree and
    the penalty search use (:class:`sim.state.State`, ``tree_*`` and
    ``penalty_stats``). The node pool holds ``iterations + 1`` nodes, the root and
    one an iteration at most (module docstring), so the tree of the budget is never
    cut short: 112 bytes a node, 21.6 kB at the default 192 iterations."""
    nodes, rows = int(params[ITERATIONS]) + 1, option_rows(deck)
    return {
        "tree_g": np.zeros(TREE_G_LEN, np.int64),
        "tree_key": np.zeros((nodes, KEY_WIDTH), np.int64),
        "tree_child": np.full((nodes, 2), EMPTY, np.int64),
        "tree_stats": np.zeros((nodes, 3), np.float64),
        "tree_path": np.zeros(MAX_TREE_DEPTH, np.int64),
        "tree_match": np.zeros(rows, np.int64),
        "penalty_stats": np.zeros((rows, 2), np.float64),
    }


@kernel
def reset_tree(st, seat):
    """Clear the tree to its root, for ``seat``'s turn now (``st.g[TURN]``)."""
    st.tree_g[TG_NODES] = 1
    st.tree_g[TG_FULL] = 0
    st.tree_g[TG_SEAT] = seat
    st.tree_g[TG_TURN] = st.g[TURN]
    st.tree_child[0, :] = EMPTY
    st.tree_stats[0, :] = 0.0


@kernel
def enter_tree(st, mode):
    """Stand at the root in ``mode`` (an iteration's start, or the real turn)."""
    st.tree_g[TG_MODE] = mode
    st.tree_g[TG_NODE] = 0
    st.tree_g[TG_PATH_N] = 1
    st.tree_path[0] = 0
    st.tree_g[TG_EXPANDED] = 0


@kernel
def leave_tree(st):
    """Stop using the tree until :func:`enter_tree` (the turn is over)."""
    st.tree_g[TG_NODE] = EMPTY


@kernel
def backpropagate(st, reward):
    """Add one visit and ``reward`` to every node of the iteration's path."""
    for d in range(st.tree_g[TG_PATH_N]):
        node = st.tree_path[d]
        st.tree_stats[node, VISITS] += 1.0
        st.tree_stats[node, REWARD] += reward


@kernel
def _key_field(st, seat, kind, i, c):
    """Field ``c`` of option row ``i``'s key (module docstring)."""
    if c == 0:
        return kind
    if c > KEY_COLUMNS[kind]:
        return EMPTY
    value = st.options[i, c - 1]
    if value == EMPTY:
        return value
    if c == 1 and (kind == D_PLAY or kind == D_EXTRA_PLAY):
        return st.own_hand[value]
    if c == P_INDEX + 1 and kind == D_PENALTY and st.options[i, P_TYPE] == HAND_ALLY:
        return st.own_hand[value]
    return value


@kernel
def _match_children(st, seat, kind, n_options, node):
    """Write to ``tree_match[i]`` the child of ``node`` keyed as row ``i``, or EMPTY.
    Returns the number of rows matched."""
    matched = 0
    for i in range(n_options):
        st.tree_match[i] = EMPTY
        child = st.tree_child[node, FIRST_CHILD]
        while child != EMPTY:
            same = True
            for c in range(KEY_WIDTH):
                if st.tree_key[child, c] != _key_field(st, seat, kind, i, c):
                    same = False
                    break
            if same:
                st.tree_match[i] = child
                matched += 1
                break
            child = st.tree_child[child, NEXT_SIBLING]
    return matched


@kernel
def _descend(st, child):
    """Move to ``child``; leave the tree when the path is full."""
    depth = st.tree_g[TG_PATH_N]
    if depth == MAX_TREE_DEPTH:
        leave_tree(st)
        return
    st.tree_path[depth] = child
    st.tree_g[TG_PATH_N] = depth + 1
    st.tree_g[TG_NODE] = child


@kernel
def _expand(st, seat, kind, node, i):
    """Add row ``i`` as a child of ``node``; returns False when the pool is full."""
    new = st.tree_g[TG_NODES]
    if new == st.tree_key.shape[0]:
        st.tree_g[TG_FULL] += 1
        return False
    st.tree_g[TG_NODES] = new + 1
    for c in range(KEY_WIDTH):
        st.tree_key[new, c] = _key_field(st, seat, kind, i, c)
    st.tree_stats[new, VISITS] = 0.0
    st.tree_stats[new, REWARD] = 0.0
    st.tree_stats[new, AVAILABLE] = 1.0  # offered in this iteration
    st.tree_child[new, FIRST_CHILD] = EMPTY
    st.tree_child[new, NEXT_SIBLING] = st.tree_child[node, FIRST_CHILD]
    st.tree_child[node, FIRST_CHILD] = new
    return True


@kernel
def _untried(st, deck, seat, kind, n_options, matched):
    """The row to expand: the planner's choice if untried, else an untried row drawn
    uniformly (BOT stream)."""
    pick = planner_choose(st, deck, seat, kind, n_options, PLANNER_DEFAULTS)
    if st.tree_match[pick] == EMPTY:
        return pick
    k = below(st.bot_stream, BOT_STREAM, n_options - matched)
    for i in range(n_options):
        if st.tree_match[i] == EMPTY:
            if k == 0:
                return i
            k -= 1
    return EMPTY


@kernel
def _ucb_choice(st, n_options, explore, bias, favourite):
    """The tried row of highest UCB1 value plus progressive bias (module docstring):
    ``bias / (visits + 1)`` added to row ``favourite``, the ``planner``'s choice, or
    EMPTY if no row is tried."""
    best, best_value = EMPTY, -1.0
    for i in range(n_options):
        child = st.tree_match[i]
        if child == EMPTY:
            continue
        visits = st.tree_stats[child, VISITS]
        if visits == 0.0:
            return i  # an unvisited child first (UCB1)
        value = st.tree_stats[child, REWARD] / visits
        value += explore * math.sqrt(math.log(st.tree_stats[child, AVAILABLE]) / visits)
        if i == favourite:
            value += bias / (visits + 1.0)
        if value > best_value:
            best, best_value = i, value
    return best


@kernel
def _most_visited(st, n_options, first):
    """The tried row whose child has the most visits (ties: row ``first``, the
    planner's choice, then the higher mean), or EMPTY."""
    best, best_visits, best_mean = EMPTY, 0.0, -1.0
    if st.tree_match[first] != EMPTY:
        best, best_visits = first, st.tree_stats[st.tree_match[first], VISITS]
        best_mean = 2.0  # above any mean: only more visits displace it
    for i in range(n_options):
        child = st.tree_match[i]
        if child == EMPTY:
            continue
        visits = st.tree_stats[child, VISITS]
        mean = st.tree_stats[child, REWARD] / visits if visits > 0.0 else 0.0
        if visits > best_visits or (visits == best_visits and mean > best_mean):
            best, best_visits, best_mean = i, visits, mean
    return best


@kernel
def search_choose(st, deck, seat, kind, n_options, params):
    """The ``search`` bot's option index (module docstring): by the tree while it is
    the tree's seat's turn and the tree is in use, else ``planner``'s.

    Returns an index in ``[0, n_options)``.
    """
    node = st.tree_g[TG_NODE]
    in_tree = (st.tree_g[TG_MODE] != MODE_OFF and node != EMPTY and seat == st.tree_g[TG_SEAT]
               and seat == st.g[ACTIVE] and st.g[TURN] == st.tree_g[TG_TURN])  # fmt: skip
    searched = (int(params[KINDS]) >> kind) & 1
    if not in_tree or not searched:
        return planner_choose(st, deck, seat, kind, n_options, PLANNER_DEFAULTS)
    matched = _match_children(st, seat, kind, n_options, node)
    if st.tree_g[TG_MODE] == MODE_FOLLOW:
        pick = _most_visited(st, n_options, planner_choose(st, deck, seat, kind, n_options, PLANNER_DEFAULTS))
    else:
        for i in range(n_options):
            if st.tree_match[i] != EMPTY:
                st.tree_stats[st.tree_match[i], AVAILABLE] += 1.0
        pick = EMPTY
        widen = matched < 1 + params[WIDEN] * math.sqrt(st.tree_stats[node, VISITS])
        if matched < n_options and widen and st.tree_g[TG_EXPANDED] == 0:
            pick = _untried(st, deck, seat, kind, n_options, matched)
            if _expand(st, seat, kind, node, pick):
                st.tree_g[TG_EXPANDED] = 1
                _descend(st, st.tree_g[TG_NODES] - 1)
                leave_tree(st)  # the default policy plays on from the new node (its path is kept)
                return pick
            pick = EMPTY
        if pick == EMPTY:
            favourite = EMPTY
            if params[BIAS] > 0.0:
                favourite = planner_choose(st, deck, seat, kind, n_options, PLANNER_DEFAULTS)
            pick = _ucb_choice(st, n_options, params[EXPLORE], params[BIAS], favourite)
    if pick == EMPTY:
        leave_tree(st)
        return planner_choose(st, deck, seat, kind, n_options, PLANNER_DEFAULTS)
    _descend(st, st.tree_match[pick])
    return pick
