"""Whether a squad's symbols cover a set of tasks (RULES R6.1, A1, A2, A8).

The squad's own symbols are counted per symbol: coloured symbols cover their colour
and each White Crown covers any colour, every symbol at most once (R6.1). Abilities
add *tokens*, one symbol each: A2's second copy of a symbol the squad has (a bit mask
of the colours it may stand for, ``ANY_BIT`` for a crown), A8's extra crown (only for
a symbol a Special Task among the chosen tasks requires), and A1's borrowed symbol of
a lender's ally (each symbol of that ally lent at most once, RULES A1 Reading).

Coverage with tokens is a bipartite assignment of tokens to the missing colour units,
solved as a maximum flow (Edmonds-Karp, unit augmenting paths) on a network of at most
``flow_nodes(deck)`` nodes (:mod:`sim.state`): the row needs at most 12 units, so a
check costs at most a dozen searches of a small dense graph. The lenders' symbols
enter through one arc whose capacity is the number of borrows, which gives the fewest
borrows a completion needs.
"""

import numpy as np

from sim._numba import inline_kernel, kernel

N_COLOURS = 6
CROWN = 6
ANY_BIT = 1 << 6
ALL_COLOURS = (1 << N_COLOURS) - 1


@inline_kernel
def shortfall_with(needs, symbols, seat, squad, subset, base, counts, ally, sign):
    """Coloured symbols of task subset ``subset`` that ``base`` (1, or 0 for a squad
    not made yet) times the symbols of squad ``squad`` of ``seat``, plus ``sign`` (1
    or -1) times those of ``ally`` (``counts[ally]``; none when ``ally`` < 0), lack
    even after their crowns (R6.1); 0 means they cover the subset. A bot weighs a
    placement (sign 1) or an A7 move out of the squad (sign -1) so, without writing
    the squad's symbols, which its seat view shows read-only.

    ``needs`` is ``st.needs`` (colours per task subset, int64), or
    ``deck.task_needs`` (colours per task, int8) with a task for ``subset``; ``symbols`` is
    ``st.squad_symbols`` (int64, players x squads x 7) and ``counts`` is
    ``deck.ally_symbol_counts`` (int64, allies x 7); arrays are passed rather than
    the state because these loops are the hot path.
    """
    extra = ally >= 0
    short = 0
    for c in range(N_COLOURS):
        missing = needs[subset, c] - base * symbols[seat, squad, c] - (sign * counts[ally, c] if extra else 0)
        if missing > 0:
            short += missing
    crowns = base * symbols[seat, squad, CROWN] + (sign * counts[ally, CROWN] if extra else 0)
    return max(0, short - crowns)


@inline_kernel
def shortfall(needs, symbols, seat, squad, subset):
    """:func:`shortfall_with` of the squad's own symbols (R6.1). No ally: the counts
    argument (``symbols[seat]``, any 2-d int array) is never read."""
    return shortfall_with(needs, symbols, seat, squad, subset, 1, symbols[seat], -1, 1)


# Nodes of the flow network (fewest_borrows). Units of missing colour flow from the
# tokens that may cover them to the sink; every arc carries whole units.
SRC = 0
LEND = 1  # source of the lenders' symbols: its capacity is the number of borrows allowed
SINK = 2
NORMAL = 3  # NORMAL + c: missing units of colour c that no Special Task requires
SPECIAL = 9  # SPECIAL + c: missing units of colour c that a Special Task requires (A8)
A8_HUB = 15  # source of A8's extra crowns, which reach SPECIAL nodes only
POOL = 16  # POOL + k: symbol k of the lenders not named yet (k = 6: White Crown)
FIRST_TOKEN = np.int64(23)  # then one node per A2 token, and per named lender its node and two symbol nodes
# (a numpy int, as sim._numba.ZERO: the first node passed to _augment)
BIG = 1 << 30


@inline_kernel
def _symbol_mask(sym):
    return ALL_COLOURS if sym == CROWN else 1 << sym


@inline_kernel
def _link(cap, node, mask):
    """Let ``node`` cover missing units of the colours in ``mask``, Special or not."""
    for c in range(N_COLOURS):
        if (mask >> c) & 1:
            cap[node, NORMAL + c] = BIG
            cap[node, SPECIAL + c] = BIG


@inline_kernel
def symbol_count(deck, ally):
    """Symbols the ally shows, 1 or 2 (R1.2)."""
    n = 0
    for slot in range(2):
        if deck.ally_symbols[ally, slot] >= 0:
            n += 1
    return n


@kernel
def _augment(cap, n_nodes, parent, queue):
    """Push one unit along a shortest path with room from SRC to SINK (Edmonds-Karp);
    return whether there was one."""
    for v in range(n_nodes):
        parent[v] = -1
    parent[SRC] = SRC
    queue[0] = SRC
    head, tail = 0, 1
    while head < tail:
        u = queue[head]
        head += 1
        for v in range(n_nodes):
            if parent[v] < 0 and cap[u, v] > 0:
                parent[v] = u
                if v == SINK:
                    while v != SRC:
                        u = parent[v]
                        cap[u, v] -= 1
                        cap[v, u] += 1
                        v = u
                    return True
                queue[tail] = v
                tail += 1
    return False


@kernel
def fewest_borrows(st, deck, seat, squad, subset, n_double, n_special, n_lenders, n_named, limit):
    """Fewest further A1 borrows with which squad ``squad`` of ``seat`` covers task
    subset ``subset`` (R6.1, A1, A2, A8); -1 when more than ``limit`` would be needed.

    Tokens: the squad's own symbols; ``st.doubles[:n_double]`` (A2, symbol masks:
    a crown in the mask makes the token a crown); ``n_special`` extra crowns for the
    Special Tasks' symbols (A8; 0 when the subset holds no Special Task); the lenders
    already named in ``st.borrows[:n_named, 1]``, each naming using one symbol of its
    ally (an ally named twice lends both); and up to the returned number of symbols of
    the candidates ``st.lenders[:n_lenders]`` not used yet, each symbol once.

    Coverage is a maximum flow (module docstring): tokens to the missing colour units
    they may cover. The borrows allowed are raised one at a time; the maximum flow is
    concave in that capacity, so the first raise that adds nothing proves the
    completion out of reach. Needs ``st.flow`` of ``flow_nodes(deck)`` nodes
    (:mod:`sim.state`); ``st.needs`` and ``st.special_needs`` filled for ``subset``.

    Returns
    -------
    int
        0 to ``limit``, or -1.
    """
    cap, parent, queue = st.flow, st.flow_parent, st.flow_queue
    n_nodes = FIRST_TOKEN + n_double + 3 * n_named
    for u in range(n_nodes):
        for v in range(n_nodes):
            cap[u, v] = 0
    crowns = st.squad_symbols[seat, squad, CROWN]
    total = 0
    for c in range(N_COLOURS):
        short = max(0, st.needs[subset, c] - st.squad_symbols[seat, squad, c])
        special = min(short, st.special_needs[subset, c])  # own symbols go to the other units first
        cap[NORMAL + c, SINK] = short - special
        cap[SPECIAL + c, SINK] = special
        cap[A8_HUB, SPECIAL + c] = BIG
        total += short
    cap[SRC, A8_HUB] = n_special
    node = FIRST_TOKEN
    for i in range(n_double):
        if st.doubles[i] & ANY_BIT:
            crowns += 1
        else:
            cap[SRC, node] = 1
            _link(cap, node, st.doubles[i])
            node += 1
    need = total - crowns  # crowns cover whatever the flow leaves
    if need <= 0:
        return 0
    for k in range(CROWN + 1):
        _link(cap, POOL + k, _symbol_mask(k))
    for i in range(n_lenders):
        ally = st.lenders[i]
        named = 0
        for b in range(n_named):
            if st.borrows[b, 1] == ally:
                named += 1
        n_symbols = symbol_count(deck, ally)
        if named == 0:
            for slot in range(n_symbols):
                cap[LEND, POOL + deck.ally_symbols[ally, slot]] += 1
        else:  # used `named` times, either symbol each time; the rest may still be lent
            cap[SRC, node] = named
            cap[LEND, node] = n_symbols - named
            for slot in range(n_symbols):
                cap[node, node + 1 + slot] = 1
                _link(cap, node + 1 + slot, _symbol_mask(deck.ally_symbols[ally, slot]))
            node += 3
    flow = 0
    while flow < need and _augment(cap, node, parent, queue):
        flow += 1
    borrows = 0
    while flow < need:
        if borrows == limit:
            return -1
        borrows += 1
        cap[SRC, LEND] += 1
        if not _augment(cap, node, parent, queue):
            return -1
        flow += 1
    return borrows
