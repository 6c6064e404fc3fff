"""Numba's on-disk cache, keyed for this package's kernels by all of its sources.

Numba keys a cached kernel by the modification time and size of the one file that
defines it (``numba.core.caching``, ``_SourceFileBackedLocatorMixin``). A kernel's
machine code, though, holds the kernels it calls, inlined or linked, which live in
other files: after an edit to ``sim/rules/turn.py``, the game loop of
``sim/engine.py``, whose file had not changed, came from the cache and still played
the old turn, while a test that called the turn's kernel directly saw the new one.

For a kernel defined under the ``sim`` package, the locators below give numba a
stamp of every Python source of the package (:func:`package_stamp`) instead, so an
edit anywhere in the package compiles the engine again, once. Kernels of other
files (a user bot's, say) keep numba's own locators. :func:`install` registers them
(the ``cache`` patch of :mod:`sim._patches`), else :func:`stamped_cache_dir` keys the
whole cache directory by the stamp.
"""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path

from numba.core import caching, config

from sim._flags import FLAGS

ROOT = Path(__file__).resolve().parent


@functools.cache
def package_stamp(root: Path = ROOT) -> str:
    """A SHA-256 hex digest of the path, modification time (ns) and size of every
    ``.py`` file under ``root`` (numba's own stamp uses modification time and size),
    and of the compile-time switches (:data:`sim._flags.FLAGS`)."""
    digest = hashlib.sha256(repr(sorted(FLAGS.items())).encode())
    for path in sorted(root.rglob("*.py")):
        stat = path.stat()
        digest.update(f"{path.relative_to(root).as_posix()}\0{stat.st_mtime_ns}\0{stat.st_size}\n".encode())
    return digest.hexdigest()


class _PackageStamped:
    """Locator mixin: for a kernel defined under :data:`ROOT`, the package's stamp;
    for any other, no locator (numba's own then serve it)."""

    @classmethod
    def from_function(cls, py_func, py_file):
        if not Path(py_file).resolve().is_relative_to(ROOT):
            return None
        return super().from_function(py_func, py_file)

    def get_source_stamp(self):
        return package_stamp()


class PackageUserProvidedLocator(_PackageStamped, caching.UserProvidedCacheLocator):
    """``NUMBA_CACHE_DIR`` set: numba's locator, with the package's stamp."""


class PackageInTreeLocator(_PackageStamped, caching.InTreeCacheLocator):
    """The package's ``__pycache__`` directories, with the package's stamp."""


class PackageUserWideLocator(_PackageStamped, caching.UserWideCacheLocator):
    """A read-only install: the user-wide cache directory, with the package's stamp."""


def stamped_cache_dir() -> None:
    """Without the locators (the ``cache`` patch off, :mod:`sim._patches`): numba's own
    locators, under a cache directory named by :func:`package_stamp` (numba's public
    ``CACHE_DIR``: ``NUMBA_CACHE_DIR``, else the user-wide cache), so that an edit to
    any source of the package still compiles the engine again. Idempotent."""
    name = f"revachol-{package_stamp()[:16]}"
    base = Path(config.CACHE_DIR or Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "numba")
    if base.name != name:
        config.CACHE_DIR = str(base / name)


LOCATORS = (PackageUserProvidedLocator, PackageInTreeLocator, PackageUserWideLocator)  # numba's order


def install() -> None:
    """Put :data:`LOCATORS` first in numba's list of cache locators. Idempotent."""
    classes = caching.CacheImpl._locator_classes
    for locator in reversed(LOCATORS):
        if locator not in classes:
            classes.insert(0, locator)
