"""Worker processes that neither outlive the run nor import the user's files.

* :func:`exit_with_parent`: a loky worker asks the kernel to kill it when the run's
  main process dies (Linux ``prctl(PR_SET_PDEATHSIG)``; elsewhere a daemon thread
  that polls the parent's pid), so ``kill -9`` of the main process leaves no worker
  playing on.
* :func:`no_working_directory_imports`: workers are started with
  ``PYTHONSAFEPATH=1`` (Python 3.11+), so a stray ``joblib.py`` or ``numpy.py`` in
  the working directory is never imported in their place.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator

PR_SET_PDEATHSIG = 1  # linux/prctl.h
POLL_SECONDS = 1.0
_watching: set[int] = set()


def exit_with_parent(parent_pid: int) -> None:
    """Make this process die with ``parent_pid`` when it is its direct child.

    Does nothing in the main process itself (``n_jobs=1``) or under Dask, whose
    workers are children of a nanny and are stopped by it. Idempotent.
    """
    if os.getppid() != parent_pid or parent_pid in _watching:
        return
    _watching.add(parent_pid)
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent_pid:  # the parent died before prctl took effect
            os._exit(1)
        return
    threading.Thread(target=_exit_when_orphaned, args=(parent_pid,), daemon=True).start()


def _exit_when_orphaned(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(POLL_SECONDS)
    os._exit(1)


@contextlib.contextmanager
def no_working_directory_imports() -> Iterator[None]:
    """Start worker processes with ``PYTHONSAFEPATH=1`` inside the block."""
    before = os.environ.get("PYTHONSAFEPATH")
    os.environ["PYTHONSAFEPATH"] = "1"
    try:
        yield
    finally:
        if before is None:
            del os.environ["PYTHONSAFEPATH"]
        else:
            os.environ["PYTHONSAFEPATH"] = before
