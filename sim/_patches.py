"""The one gate for every change this package makes to numba, or use of its internals.

Numba's public API (``njit``, ``numba.extending``, ``numba.core.event``) is used
everywhere; numba's *internals* (private attributes, pass names, classes replaced at
run time) only through a patch named in :data:`PATCHES`, each in its own module:

=============  ===================================================================
inline         :mod:`sim._inline`: numba's IR inliner without its two deep copies
               (``InlineWorker.inline_function``, ``ir.Block``).
split          :mod:`sim.split_compile`: the first compilation split over two
               processes (the pass name ``nopython_type_inference``,
               ``FunctionCache.save_overload``).
engine_index   :mod:`sim._numba`: element access without negative-index wraparound
               on the engine's arrays (``numba.np.arrayobj``'s private helpers).
               Off: numba's own indexing, with wraparound.
=============  ===================================================================

Three earlier patches were removed because each saved under 2 s of the cold compile
(``revachol bench --cold --bot greedy``; issue 33): numba's compile flags compared
in one dict merge (``TargetConfig.values``, about 0.4 s), kernels compiled
without numba's wrappers for calls from Python (a ``CPUDispatcher`` subclass, about
0.6 s), and the package's kernels cached by numba's private locators under a stamp
of all its sources (``CacheImpl._locator_classes``, about 0 s: :mod:`sim._cache`
now keys a public ``CACHE_DIR`` by that stamp instead).

All are on for the numba minor versions of :data:`TESTED` (the range that
``pyproject.toml`` pins), and all off for any other. ``REVACHOL_NUMBA_PATCHES=0``
turns them all off; a comma-separated list of names (``inline,split``) turns on only
those (to measure each one). With every patch off the engine plays the same games
(tests/test_golden.py), only its first compilation is slower. A view's payload copies
the layout of numba's array struct (:class:`sim._numba.View`), which is part of the
engine's design, not a patch: it is checked against numba's layout on every view.
"""

from __future__ import annotations

import os

import numba

from sim.switches import PATCHES, PATCHES_SWITCH, numba_patches

TESTED = ("0.61", "0.62", "0.63", "0.64", "0.65", "0.66", "0.67", "0.68")
SWITCH = PATCHES_SWITCH


def numba_minor(version: str = numba.__version__) -> str:
    """``"0.68"`` for numba ``0.68.1``."""
    return ".".join(version.split(".")[:2])


def active(setting: str | None = None, version: str = numba.__version__) -> frozenset[str]:
    """The patches in use: every one of :data:`PATCHES` for a numba of :data:`TESTED`
    and the switch unset (or ``1``), none for ``0`` or another numba, the listed ones
    for a list.

    Parameters
    ----------
    setting : str, optional
        The switch's value; default: the environment's :data:`SWITCH`.

    Raises
    ------
    sim.switches.SwitchError
        For a list naming a patch not in :data:`PATCHES`.
    """
    names = numba_patches(os.environ.get(SWITCH, "") if setting is None else setting)
    return names if numba_minor(version) in TESTED else frozenset()


ACTIVE = active()


def on(name: str) -> bool:
    """Whether patch ``name`` (one of :data:`PATCHES`) is in use in this process."""
    return name in ACTIVE


def install() -> None:
    """Install the active patches that change numba at import (``inline``); the
    others act where they are used. Idempotent."""
    from sim import _inline

    if on("inline"):
        _inline.install()
