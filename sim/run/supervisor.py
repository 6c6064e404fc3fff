"""Chunks of a run played in supervised worker processes: a run stops when asked, and
when it stalls.

The main process of a run plays no game: it submits every chunk to the run's workers,
loky's (:func:`sim.run.workers.executor`, one worker at ``n_jobs=1`` too) or a Dask
cluster's (``Client.get_executor``), and waits for them, so it always sees a signal. A
worker inside a compiled batch never returns to Python (a user bot whose loop never
ends, say), so it cannot see one: the main process ends it.

* SIGINT (Ctrl-C) or SIGTERM while chunks are played raises :class:`Stopped` in the
  main process.
* The watchdog: a worker touches its heartbeat file whenever it finishes a piece of
  its chunk (:func:`beat`, :func:`sim.run.runner.run_chunk`); when no heartbeat changed and
  no chunk came for ``stall_timeout`` seconds, :class:`Stalled` is raised.
* Whatever ends the block early (these two, an OS error, a worker's error), the
  caller's ``end`` stops the run's workers (:func:`sim.run.workers.kill_workers`, or a
  Dask run's cancel) before the exception goes on; the chunks that finished are the
  caller's to keep.
"""

from __future__ import annotations

import contextlib
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from pathlib import Path

from sim.run.workers import worker_environment

DEFAULT_STALL_SECONDS = 60.0
POLL_SECONDS = 0.5  # how often the main process looks at the heartbeats


class Stopped(Exception):
    """The run was asked to stop (SIGINT or SIGTERM); ``signal`` names the signal."""

    def __init__(self, signal_name: str):
        super().__init__(signal_name)
        self.signal = signal_name


class Stalled(Exception):
    """No game finished for ``seconds`` seconds (the watchdog)."""

    def __init__(self, seconds: float):
        super().__init__(f"no game finished for {seconds:.0f} s")
        self.seconds = seconds


def beat(heartbeat: Path | None) -> None:
    """Touch ``heartbeat`` (a worker's file; None: nothing): games were finished just now."""
    if heartbeat is not None:
        heartbeat.touch()


@contextlib.contextmanager
def _stop_on_signals() -> Iterator[None]:
    """Inside the block, SIGINT and SIGTERM raise :class:`Stopped` (main thread only:
    Python takes signals there alone)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame):
        raise Stopped(signal.Signals(signum).name)

    previous = {number: signal.signal(number, stop) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


class Supervisor:
    """The chunks of one run in flight: :meth:`submit` them, then iterate
    :meth:`results` (see :func:`supervised`)."""

    def __init__(self, pool: Executor, stall_timeout: float, heartbeats: Path):
        self.pool, self.stall_timeout, self.heartbeats = pool, stall_timeout, heartbeats
        self.pending: set[Future] = set()
        self.order: dict[Future, int] = {}  # submission order: failures are raised in it
        self.submitted = 0

    def submit(self, function: Callable, *args) -> None:
        """Run ``function(*args, heartbeat=PATH)`` in a worker; it calls :func:`beat` on PATH."""
        self.submitted += 1
        future = self.pool.submit(function, *args, heartbeat=self.heartbeats / str(self.submitted))
        self.pending.add(future)
        self.order[future] = self.submitted

    def _newest_beat(self) -> float:
        """The newest modification time of a heartbeat file (0.0 before the first beat).
        Only its changes count: on a Dask cluster, the file system that stamps it may
        keep another clock than this process's."""
        stamps = [0.0]
        for path in self.heartbeats.iterdir():
            with contextlib.suppress(OSError):
                stamps.append(path.stat().st_mtime)
        return max(stamps)

    def results(self) -> Iterator:
        """The results of the submitted calls as they finish.

        Raises
        ------
        Stalled
            When no heartbeat changed and no result came for ``stall_timeout`` seconds.
        Exception
            A call's own exception, as the worker raised it, once every call that
            finished with it has been yielded: ``wait`` hands over a *set* of finished
            calls, and a failure taken first lost the chunks finished beside it. Of
            several failures finished together, the first submitted is raised, so the
            same run fails with the same message however the calls were timed.
        """
        alive, beaten = time.monotonic(), self._newest_beat()
        while self.pending:
            done, self.pending = wait(self.pending, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=lambda f: (f.exception() is not None, self.order[f])):  # failures last
                alive = time.monotonic()
                yield future.result()
            if (newest := self._newest_beat()) != beaten:
                alive, beaten = time.monotonic(), newest
            silent = time.monotonic() - alive
            if silent > self.stall_timeout:
                raise Stalled(silent)


@contextlib.contextmanager
def supervised(pool: Executor, end: Callable[[], None], heartbeats_in: Path,
               stall_timeout: float = DEFAULT_STALL_SECONDS) -> Iterator[Supervisor]:  # fmt: skip
    """A :class:`Supervisor` of the run's workers for the block, which turns SIGINT
    and SIGTERM into :class:`Stopped` and calls ``end`` when it ends early.

    Parameters
    ----------
    pool : concurrent.futures.Executor
        The run's workers: :func:`sim.run.workers.executor`, or a Dask client's
        ``get_executor()``.
    end : callable
        Stops what the workers still play: :func:`sim.run.workers.kill_workers`, or the
        Dask executor's ``shutdown(wait=False)``, which cancels this run's futures.
    heartbeats_in : path
        The run directory, which every worker sees: the heartbeat files go to a
        folder ``heartbeats-*.tmp`` there, removed after the block (a stopped chunk's
        next :func:`beat` then fails, so a cancelled Dask task ends at its next piece).
    stall_timeout : float
        Seconds without a finished game after which :meth:`Supervisor.results`
        raises :class:`Stalled` (s).

    Raises
    ------
    OSError
        When the heartbeat folder cannot be made in ``heartbeats_in`` (read-only, full).
    """
    heartbeats = Path(tempfile.mkdtemp(prefix="heartbeats-", suffix=".tmp", dir=heartbeats_in))
    try:
        with _stop_on_signals(), worker_environment():  # loky may start a worker at any task
            yield Supervisor(pool, stall_timeout, heartbeats)
    except BaseException:
        end()
        raise
    finally:
        shutil.rmtree(heartbeats, ignore_errors=True)
