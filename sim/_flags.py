"""Compile-time switches of the engine, read once from the environment at import.

Numba freezes a module global into the machine code of every kernel that reads it,
so a switch that is off costs nothing: the branch it guards is not compiled. Each
setting is a build of its own; :func:`sim._cache.package_stamp` includes them, so
that a cached build of one setting is never loaded for another.

``REVACHOL_CHECK_INVARIANTS=1``
    The game loop checks the rules' invariants after setup and after every turn
    (:func:`sim.invariants.check_invariants`); default off.
"""

import os

from sim.switches import INVARIANTS_SWITCH, check_invariants

CHECK_INVARIANTS = check_invariants(os.environ.get(INVARIANTS_SWITCH, ""))  # sim.switches validates it
FLAGS = {"check_invariants": CHECK_INVARIANTS}  # every switch, for the cache stamp
