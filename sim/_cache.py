"""Numba's on-disk cache, keyed for this package's kernels by all of its sources.

Numba keys a cached kernel by the modification time and size of the one file that
defines it (``numba.core.caching``, ``_SourceFileBackedLocatorMixin``). A kernel's
machine code, though, holds the kernels it calls, inlined or linked, which live in
other files: after an edit to ``sim/rules/turn.py``, the game loop of
``sim/engine.py``, whose file had not changed, came from the cache and still played
the old turn, while a test that called the turn's kernel directly saw the new one.

So the package points numba's public cache directory (``numba.config.CACHE_DIR``)
at a folder named by a stamp of every Python source of the package
(:func:`package_stamp`): an edit anywhere in the package compiles the engine again,
once, in a new folder. :func:`use_stamped_cache_dir` removes the checkout's folders
of earlier stamps that no process has written to for :data:`STALE_AFTER_S` (a run
of the earlier sources may still be starting workers that load from one). A patch
of numba's private cache locators did the same inside the package's
``__pycache__``; it saved no compile time and was removed (issue 33).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import shutil
import time
from pathlib import Path

import numba

from sim import _patches
from sim._flags import FLAGS

ROOT = Path(__file__).resolve().parent
STALE_AFTER_S = 3600.0  # a directory of an earlier stamp unchanged this long is removed (seconds)


@functools.cache
def package_stamp(root: Path = ROOT) -> str:
    """A SHA-256 hex digest of the path, modification time (ns) and size of every
    ``.py`` file under ``root`` (numba's own stamp uses modification time and size),
    and of what else changes the machine code: the compile-time switches
    (:data:`sim._flags.FLAGS`), the numba patches in use (:data:`sim._patches.ACTIVE`)
    and ``NUMBA_BOUNDSCHECK``."""
    switches = (sorted(FLAGS.items()), sorted(_patches.ACTIVE), numba.config.BOUNDSCHECK)
    digest = hashlib.sha256(repr(switches).encode())
    for path in sorted(root.rglob("*.py")):
        stat = path.stat()
        digest.update(f"{path.relative_to(root).as_posix()}\0{stat.st_mtime_ns}\0{stat.st_size}\n".encode())
    return digest.hexdigest()


def checkout_prefix(root: Path = ROOT) -> str:
    """``revachol-<checkout>-``: 12 hex digits of the SHA-256 of ``root``'s path, so
    that two checkouts or installs keep a folder each."""
    return f"revachol-{hashlib.sha256(str(root).encode()).hexdigest()[:12]}-"


def cache_dir_name(root: Path = ROOT) -> str:
    """:func:`checkout_prefix`, then 16 hex digits of :func:`package_stamp`."""
    return checkout_prefix(root) + package_stamp(root)[:16]


def use_stamped_cache_dir() -> Path:
    """Point numba's ``CACHE_DIR`` at :func:`cache_dir_name` under the cache base
    (``NUMBA_CACHE_DIR``, else ``$XDG_CACHE_HOME/numba``, else ``~/.cache/numba``),
    and remove this checkout's directories of other stamps there unchanged for
    :data:`STALE_AFTER_S`: only a run of earlier sources can load them. Idempotent. Call it before any kernel is defined: numba picks a
    kernel's cache directory when the kernel is decorated.

    Returns the directory."""
    name = cache_dir_name()
    base = Path(numba.config.CACHE_DIR or Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "numba")
    if base.name == name:
        return base
    if base.is_dir():
        now = time.time()
        for stale in base.glob(f"{checkout_prefix()}*"):
            with contextlib.suppress(OSError):  # another process may be removing it too
                if stale.name != name and now - max(q.stat().st_mtime for q in [stale, *stale.rglob("*")]) > STALE_AFTER_S:
                    shutil.rmtree(stale)
    numba.config.CACHE_DIR = str(base / name)
    return base / name
