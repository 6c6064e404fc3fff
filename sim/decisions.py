"""The decisions the rules give a player, and the layout of their legal options.

At each decision the engine writes every legal option as one row of
``State.options`` (int64, ``OPTION_WIDTH`` columns, unused columns ``EMPTY``) and asks
the seat's policy for a row index (:func:`sim.bots.policy.decide`). A policy never
computes legality itself; in debug mode (``R_DEBUG``) the engine asserts that the
index names one of the options it offered. Where a decision is optional, row 0 is
"do nothing".

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
``D_COMPLETE``   row 0 none; ``[squad, task subset, free, borrower 1,       R6, A1,
                 lender 1, borrower 2, lender 2]``                          A2, A8
``D_PENALTY``    ``[penalty type, index]``: squad allies as                 R8.3, R8.7
                 ``squad * 64 + position``, completed tasks as their index
                 in ``done``, hand allies as their hand position
===============  =========================================================  ===========

Completion rows: bit ``i`` of the task subset is the task at position ``i + 1``.
``free`` is 1 when the completion needs A2's doubled symbol or A8's extra crown;
these abilities cost nothing and change nothing but coverage (the squad is discarded
whatever symbols it used, R6.4), so a row uses them exactly when the completion needs
them. A borrower (A1) is an ally of the squad and its lender an ally in another
seat's squad whose symbol it uses; rows list the fewest borrowers that make the
completion possible, with every choice of lender, since a needless borrow only hands
an opponent the borrower's points. At most ``MAX_BORROWERS`` borrowers of one squad
are considered.

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

ACTION_PLAY = 0
ACTION_DRAW = 1

C_SQUAD = 0
C_SUBSET = 1
C_FREE = 2
C_BORROWER = 3  # borrower k at C_BORROWER + 2k, its lender at C_BORROWER + 2k + 1
MAX_BORROWERS = 2
SQUAD_POS_BASE = 64  # D_PENALTY squad allies: squad * SQUAD_POS_BASE + position
