"""An operating-system failure as one line that names the path and says what to do.

A full disk, no permission, a read-only filesystem or too many open files can stop
any command that writes; :func:`explain` turns the :class:`OSError` into
``PATH: No space left on device (the disk is full: free space, or write elsewhere)``.
:func:`from_polars` recovers the :class:`OSError` that polars reports as a
``ComputeError`` ending in ``(os error 28)``.
"""

from __future__ import annotations

import errno
import os
import re

_FREE = "free space, or write elsewhere"
_PERMISSION = "choose a directory you may write to, or change its permissions"
_FILES = "raise the limit (ulimit -n), or use fewer --jobs"
ADVICE = {
    errno.ENOSPC: f"the disk is full: {_FREE}",
    errno.EDQUOT: f"the disk quota is used up: {_FREE}",
    errno.EACCES: f"no permission to write there: {_PERMISSION}",
    errno.EPERM: f"no permission to write there: {_PERMISSION}",
    errno.EROFS: "the filesystem is read-only: write elsewhere",
    errno.EMFILE: f"this process has too many open files: {_FILES}",
    errno.ENFILE: f"the system has too many open files: {_FILES}",
}
"""What to do, by ``errno``."""
_OS_ERROR = re.compile(r"\(os error (\d+)\)")


def explain(exc: OSError) -> str:
    """``exc`` in one line: the path it names (if any), the system's reason, and what
    to do for the errors of :data:`ADVICE`."""
    reason = exc.strerror or (str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
    advice = ADVICE.get(exc.errno)
    where = f"{exc.filename}: " if exc.filename else ""
    return f"{where}{reason}" + (f" ({advice})" if advice else "")


def from_polars(exc: Exception, path: os.PathLike | str) -> OSError | None:
    """The :class:`OSError` behind a polars error about ``path`` (its message ends in
    ``(os error N)``), or None when it names no OS error."""
    found = _OS_ERROR.search(str(exc))
    if found is None:
        return None
    number = int(found[1])
    return OSError(number, os.strerror(number), str(path))
