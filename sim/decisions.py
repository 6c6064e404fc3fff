"""The decisions the rules give a player, and the layout of their legal options.

At each decision the engine writes every legal option as one row of
``State.options`` (int64, ``OPTION_WIDTH`` columns, unused columns ``EMPTY``) and asks
the seat's policy for a row index (:func:`sim.bots.policy.decide`). A policy never
computes legality itself; the engine checks, always, that the index names one of
the options it offered. Where a decision is optional, row 0 is
"do nothing". One exception: a ``D_PLAY`` decision of a bot that picks by the number
of rows alone (``random``, ``uniform``) is asked with its row count only, and the
turn finds the card and squad from the index (:func:`sim.bots.policy.reads_option_rows`).

===============  =========================================================  ===========
kind             option row                                                 rule
===============  =========================================================  ===========
``D_ACTION``     ``[ACTION_PLAY]`` or ``[ACTION_DRAW]``                     R4.1, R4.2
``D_PLAY``       ``[hand position, target squad]``; target ``squad_n`` =    R4.1, R5
                 a new squad
``D_EXTRA_PLAY`` row 0 none; ``[hand position, target squad]``              A4
``D_SWAP``       row 0 none; ``[victim seat, victim squad, position in      A6
                 squad, ally, own target squad, Harry]``
``D_RELOCATE``   row 0 none; ``[from squad, position, to squad, ally]``     A7
``D_COMPLETE``   row 0 none; ``[squad, task subset, free, borrows]``        R6, A1,
                                                                            A2, A8
``D_BORROW``     ``[borrower, lender]``, asked ``borrows`` times after a    A1
                 completion row that needs borrows
``D_PENALTY``    ``[penalty type, index, position]``: a squad ally as       R8.3, R8.7
                 ``[type, squad, position in squad]``, a completed task
                 as ``[type, index in done, EMPTY]``, a hand ally as
                 ``[type, hand position, EMPTY]``
===============  =========================================================  ===========

Completion rows: bit ``i`` of the task subset is the task at position ``i + 1``.
``free`` is 1 when the squad has A2's doubled symbol or A8's extra crown and the
completion needs abilities; these abilities cost nothing and change nothing but
coverage (the squad is discarded whatever symbols it used, R6.4), so a row uses them
whenever they help. ``borrows`` is the fewest A1 borrows that make the completion
possible (0 for none): a needless borrow only hands an opponent the borrower's points
(RULES A1 Reading). Every A1 card of the squad may borrow (no cap).

Borrows are then chosen one at a time (``D_BORROW``, no "none" row): a borrower is an
A1 ally of the squad that has not borrowed yet, its lender an ally in another seat's
squad with a symbol not yet lent in this completion (an ally with two symbols may
lend one to each of two borrowers); only pairs after which the completion stays
possible with the borrows left are offered, so every sequence of choices ends in a
legal completion, and every legal choice of borrowers and lenders is reachable. This
keeps both decisions' row counts within the deck's size (at most ``7 * A + 1`` and
``A * A`` rows for ``A`` allies), whatever the number of borrowers, where listing
every combination at once grows as a power of the number of lenders.

Every field of a row is a plain index (no packed encodings), so no squad size or
card count is limited by the layout; :func:`sim.state.option_rows` bounds each
kind's row count from the deck.

Decision kinds are ``numpy.int64`` constants, not Python ints: numba compiles a
separate copy of a kernel for each Python-int constant passed to it (a literal
type), which multiplied compile time.
"""

import numpy as np

D_ACTION = np.int64(0)
D_PLAY = np.int64(1)
D_EXTRA_PLAY = np.int64(2)
D_SWAP = np.int64(3)
D_RELOCATE = np.int64(4)
D_COMPLETE = np.int64(5)
D_PENALTY = np.int64(6)
D_BORROW = np.int64(7)

ACTION_PLAY = 0
ACTION_DRAW = 1

C_SQUAD = 0
C_SUBSET = 1
C_FREE = 2
C_BORROWS = 3  # D_COMPLETE: the number of borrows (A1) the completion needs
C_BORROWER = 0  # D_BORROW: the borrowing ally
C_LENDER = 1  # D_BORROW: the ally whose symbol it uses
P_TYPE = 0  # D_PENALTY: the penalty type (sim.cards.Penalty)
P_INDEX = 1  # D_PENALTY: the squad, the index in ``done`` or the hand position
P_POS = 2  # D_PENALTY: the position in the squad (squad allies), EMPTY otherwise
