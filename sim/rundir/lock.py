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
JOB_LOCK = ".job.lock"  # a whole job's: its games, companions, skill check and report (job_locked)
FILES = (LOCK, HOLDER, JOB_LOCK, JOB_LOCK + ".holder")


class LockedError(Exception):
    """The run directory is being written by another process."""


def _holder(out_dir: Path, holder: str = HOLDER) -> str:
    try:
        who = json.loads((out_dir / holder).read_text(encoding="utf-8"))
        return f"process {int(who['pid'])} on {str(who['host'])[:100]} (since {str(who['since'])[:40]})"
    except (OSError, ValueError, KeyError, TypeError):
        return "another process"


@contextlib.contextmanager
def locked(out_dir: Path, name: str = LOCK, what: str = "is being written by") -> Iterator[None]:
    """Hold ``out_dir``'s lock ``name`` for the duration of the block; ``out_dir`` must exist.

    Raises
    ------
    LockedError
        At once, naming the holder, when another process holds the lock.
    """
    lock, holder = FileLock(out_dir / name, timeout=0), f"{name}.holder" if name != LOCK else HOLDER
    try:
        lock.acquire()
    except Timeout:
        raise LockedError(f"{out_dir} {what} {_holder(out_dir, holder)}; wait for it to finish, or stop it") from None
    try:
        since = datetime.now(timezone.utc).isoformat(timespec="seconds")
        (out_dir / holder).write_text(json.dumps({"pid": os.getpid(), "host": socket.gethostname(), "since": since}))
        yield
    finally:
        (out_dir / holder).unlink(missing_ok=True)
        lock.release()


@contextlib.contextmanager
def job_locked(out_dir: Path) -> Iterator[None]:
    """Hold ``out_dir``'s job lock (:data:`JOB_LOCK`, apart from the writer's lock that
    each run takes inside it) from a job's first game to its last file: the games, the
    companions, the skill check and the report of ``revachol run`` or ``skill-check``.
    Creates ``out_dir``, and removes it again when the job wrote nothing in it.

    Raises
    ------
    LockedError
        At once, naming the holder, when another job holds it.
    """
    created = not out_dir.exists()
    out_dir.mkdir(parents=True, exist_ok=True)
    try:
        with locked(out_dir, JOB_LOCK, "is in use by another revachol job,"):
            yield
    finally:
        if created and all(path.name in FILES for path in out_dir.iterdir()):  # a job refused before its first
            for path in out_dir.iterdir():  # file leaves no directory behind
                path.unlink()
            out_dir.rmdir()
