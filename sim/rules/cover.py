"""Whether a squad's symbols cover a set of tasks (RULES R6.1, A1, A2, A8).

The squad's own symbols are counted per symbol: coloured symbols cover their colour
and each White Crown covers any colour, every symbol at most once (R6.1). Abilities
add *tokens*, one symbol each, described by a bit mask:

* bits 0-5: the colours the token may stand for;
* ``ANY_BIT`` (bit 6): the token is a White Crown, so it covers any colour;
* ``SPECIAL_BIT`` (bit 7): A8's extra crown, usable only for a symbol required by a
  Special Task among the chosen tasks.

A token from A2 is a second copy of a symbol the squad already has; a token from A1
is one symbol of the lender's ally. Coverage with tokens is an assignment problem;
the kernel below searches the assignments exhaustively, which is exact and cheap for
the handful of tokens one squad can hold.
"""

from sim._numba import inline_kernel, kernel

N_COLOURS = 6
CROWN = 6
ANY_BIT = 1 << 6
SPECIAL_BIT = 1 << 7
ALL_COLOURS = (1 << N_COLOURS) - 1


@inline_kernel
def shortfall(needs, symbols, seat, squad, subset):
    """Coloured symbols of task subset ``subset`` that squad ``squad`` of ``seat``
    lacks even after its crowns (R6.1); 0 means the squad covers the subset.

    ``needs`` is ``st.needs`` (colours per task subset), ``symbols`` is
    ``st.squad_symbols``; arrays are passed rather than the state because these
    loops are the hot path.
    """
    short = 0
    for c in range(N_COLOURS):
        missing = needs[subset, c] - symbols[seat, squad, c]
        if missing > 0:
            short += missing
    return max(0, short - symbols[seat, squad, CROWN])


@inline_kernel
def covers_plain(needs, symbols, seat, squad, subset):
    """R6.1 without abilities: the squad's crowns make up every missing colour."""
    return shortfall(needs, symbols, seat, squad, subset) == 0


@kernel
def covers_with_tokens(st, seat, squad, subset, n_tokens):
    """R6.1 with the ability tokens ``st.tokens[:n_tokens]`` (module docstring).

    Squad ``squad`` of ``seat`` against task subset ``subset``, whose colour needs are
    in ``st.needs`` and, for Special Tasks alone, ``st.special_needs``; ``st.cover``
    is scratch. Returns a bool.
    """
    tokens = st.tokens
    work = st.cover
    crowns = st.squad_symbols[seat, squad, CROWN]
    total = 0
    for c in range(N_COLOURS):
        short = max(0, st.needs[subset, c] - st.squad_symbols[seat, squad, c])
        work[0, c] = short  # colour units still missing
        work[0, N_COLOURS + c] = min(short, st.special_needs[subset, c])  # of which A8 may cover
        total += short
    k = 0  # coloured tokens go to work[2, :k]
    for t in range(n_tokens):
        mask = tokens[t]
        if mask & ANY_BIT and not mask & SPECIAL_BIT:
            crowns += 1
        else:
            work[2, k] = mask
            k += 1
    if total <= crowns:
        return True
    if total - k > crowns:
        return False
    # Odometer over the coloured tokens (digits in work[3, :k]): digit c < 6 assigns
    # the token to colour c, digit 6 leaves it unused; work[1] counts the uses.
    for i in range(k):
        work[3, i] = 0
    while True:
        for c in range(2 * N_COLOURS):
            work[1, c] = 0
        covered = 0
        ok = True
        for i in range(k):
            c = work[3, i]
            if c == N_COLOURS:
                continue
            mask = work[2, i]
            if mask & SPECIAL_BIT:
                if work[1, N_COLOURS + c] >= work[0, N_COLOURS + c]:
                    ok = False
                    break
                work[1, N_COLOURS + c] += 1
            elif not (mask >> c) & 1:
                ok = False
                break
            if work[1, c] >= work[0, c]:
                ok = False
                break
            work[1, c] += 1
            covered += 1
        if ok and total - covered <= crowns:
            return True
        i = 0
        while i < k and work[3, i] == N_COLOURS:
            work[3, i] = 0
            i += 1
        if i == k:
            return False
        work[3, i] += 1
