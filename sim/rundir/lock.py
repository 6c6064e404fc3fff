"""One writer per run directory: an exclusive lock held while a run writes it.

The lock is an OS file lock (:mod:`filelock`) on ``<run>/.lock``, released by the
OS when its holder exits, even by ``kill -9``. The holder writes who it is
(process id, host, start time) to ``<run>/.lock.holder`` so that a refused second
writer can name it.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

from filelock import FileLock, Timeout

LOCK = ".lock"
HOLDER = ".lock.holder"
FILES = (LOCK, HOLDER)


class LockedError(Exception):
    """The run directory is being written by another process."""


def _holder(out_dir: Path) -> str:
    try:
        who = json.loads((out_dir / HOLDER).read_text(encoding="utf-8"))
        return f"process {int(who['pid'])} on {str(who['host'])[:100]} (since {str(who['since'])[:40]})"
    except (OSError, ValueError, KeyError, TypeError):
        return "another process"


@contextlib.contextmanager
def locked(out_dir: Path) -> Iterator[None]:
    """Hold ``out_dir``'s lock for the duration of the block; ``out_dir`` must exist.

    Raises
    ------
    LockedError
        At once, naming the holder, when another process holds the lock.
    """
    lock = FileLock(out_dir / LOCK, timeout=0)
    try:
        lock.acquire()
    except Timeout:
        raise LockedError(f"{out_dir} is being written by {_holder(out_dir)}; wait for it to finish, or stop it") from None
    try:
        since = datetime.now(timezone.utc).isoformat(timespec="seconds")
        (out_dir / HOLDER).write_text(json.dumps({"pid": os.getpid(), "host": socket.gethostname(), "since": since}))
        yield
    finally:
        (out_dir / HOLDER).unlink(missing_ok=True)
        lock.release()
