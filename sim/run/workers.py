"""Worker processes that neither outlive the run nor import the user's files, that keep
the memory they free for their next chunk, and that start while the main process is
still getting ready.

* :func:`exit_with_parent`: a loky worker asks the kernel to kill it when the run's
  main process dies (Linux ``prctl(PR_SET_PDEATHSIG)``; elsewhere a daemon thread
  that polls the parent's pid), so ``kill -9`` of the main process leaves no worker
  playing on.
* :func:`worker_environment`: workers are started with ``PYTHONSAFEPATH=1`` (Python
  3.11+), so a stray ``joblib.py`` or ``numpy.py`` in the working directory is never
  imported in their place; with :data:`KEEP_FREED_MEMORY`; and, like loky's resource
  tracker, with :data:`QUIET_RESOURCE_TRACKER`.
* :func:`start_workers` and :func:`await_workers`: the loky workers of a run start,
  and import what a chunk needs, while the main process imports, reads the deck and
  compiles or loads the engine; :func:`executor` is the run's pool of them, at
  ``n_jobs=1`` too, and :func:`kill_workers` ends them at once (SIGKILL to each
  worker's process tree), whatever they are running.
* :func:`skip_last_collection`: workers and the command line exit without a last
  garbage collection.
* :func:`ignore_sigint`: a worker ignores SIGINT, as a Dask worker does
  (:mod:`sim.run.cluster`): Ctrl-C goes to the run's whole process group, the main process
  stops the run and kills its workers, and a worker busy compiling printed the
  ``KeyboardInterrupt`` of a numba callback under the stop's one line (issue 32; seen
  once in 14 stops with both cores busy).
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import gc
import importlib
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator

PR_SET_PDEATHSIG = 1  # linux/prctl.h
POLL_SECONDS = 1.0
IDLE_SECONDS = 300  # an idle worker exits after this long (joblib's default for loky)
KEEP_FREED_MEMORY = {
    # glibc (mallopt(3)): blocks up to 32 MiB, the largest allowed, come from the heap,
    # and the heap's free top is not given back to the kernel below 1 GiB.
    "MALLOC_MMAP_THRESHOLD_": str(32 << 20),
    "MALLOC_TRIM_THRESHOLD_": str(1 << 30),
    # jemalloc in polars (tikv-jemallocator's prefix): freed pages are never purged.
    "_RJEM_MALLOC_CONF": "dirty_decay_ms:-1,muzzy_decay_ms:-1",
}
"""Allocator settings of a worker, unless the user set them: a chunk frees about 64 MB
(its record arrays, tables and Parquet buffers), which each allocator hands back to
the kernel by default, so the next chunk faulted in 16,000 fresh zeroed pages, 0.04
CPU-s of a 0.56 CPU-s chunk of 25,000 ``greedy`` games. A worker keeps the memory of
its peak (about 325 MB for such chunks, which it reaches anyway) until it exits."""
QUIET_RESOURCE_TRACKER = "ignore:resource_tracker:UserWarning"
"""A warning filter (``PYTHONWARNINGS``) for the processes a run starts, loky's resource
tracker above all. The tracker outlives the run's main process, shares its stderr, and
cleans up the semaphores of the run's queues that no process unregistered. When a run
is stopped (SIGINT or SIGTERM to its process group, issue 32), the unregistration of a
semaphore already unlinked can be lost in the stop, and the tracker then warned of
"1 leaked semlock objects" and of the ``FileNotFoundError`` of unlinking it again: two
lines under the stop's one line, about a semaphore that no longer existed (seen twice in
50 stops with both cores busy). The tracker's clean-up is unchanged; only its warnings,
whose text all begins with ``resource_tracker:``, are silenced."""
_watching: set[int] = set()
_starting: list | None = None  # start_workers' futures, until await_workers


def exit_with_parent(parent_pid: int) -> None:
    """Make this process die with ``parent_pid`` when it is its direct child.

    Does nothing in the main process itself or on a Dask cluster elsewhere, whose
    workers are children of their nanny's process; a local Dask cluster's nannies run
    in the main process, so its workers die with it too. Idempotent.
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
def worker_environment() -> Iterator[None]:
    """Start worker processes, and loky's resource tracker, with ``PYTHONSAFEPATH=1``,
    the :data:`KEEP_FREED_MEMORY` variables where the user has not set them, and
    :data:`QUIET_RESOURCE_TRACKER` after the user's own warning filters, inside the block."""
    filters = [f for f in os.environ.get("PYTHONWARNINGS", "").split(",") if f and f != QUIET_RESOURCE_TRACKER]
    wanted = {"PYTHONSAFEPATH": "1", "PYTHONWARNINGS": ",".join([*filters, QUIET_RESOURCE_TRACKER])} | {
        name: os.environ.get(name, value) for name, value in KEEP_FREED_MEMORY.items()
    }
    before = {name: os.environ.get(name) for name in wanted}
    os.environ.update(wanted)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                del os.environ[name]
            else:
                os.environ[name] = value


def executor(n_jobs: int):
    """The loky executor of a run of ``n_jobs`` worker processes (joblib's count: -1
    = every core), one worker at ``n_jobs=1`` too: started by :func:`start_workers`,
    or at its first task. It is made inside :func:`worker_environment` (its resource
    tracker starts then); submit tasks inside it too: loky starts workers as tasks come."""
    import joblib
    from joblib.externals.loky import get_reusable_executor

    with worker_environment():
        return get_reusable_executor(max_workers=joblib.effective_n_jobs(n_jobs), timeout=IDLE_SECONDS,
                                     initializer=ignore_sigint)  # fmt: skip


def ignore_sigint() -> None:
    """Ignore SIGINT in this process: the initializer of every worker :func:`executor`
    starts, whenever loky starts it (module docstring)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def start_workers(n_jobs: int, imports: str) -> None:
    """Start the local workers of a run of ``n_jobs`` now: the :func:`executor` the run
    then uses, with one task per worker that ties the worker's life to this process
    (:func:`exit_with_parent`), has it exit without a last garbage collection
    (:func:`skip_last_collection`: the main process waited 0.29 s for its workers to
    exit, now 0.04 s) and imports the module ``imports`` (the caller's,
    :mod:`sim.run.runner`: everything a chunk needs, about 0.6 s of a worker's start).
    The tasks compile nothing, so the main process still compiles the engine
    alone (an empty numba cache). Does nothing for ``n_jobs=0`` (the run refuses it)
    and when workers are starting already. A process that exits without
    :func:`await_workers` (a bad card file, say) waits for the tasks first, quietly.
    Measured: ``revachol simulate -n 1000000 --players 4 --bot greedy --jobs 2`` took
    12.5 instead of 13.2 s whole-process."""
    global _starting
    import joblib

    if _starting is not None or n_jobs == 0:
        return
    pool = executor(n_jobs)
    with worker_environment():
        _starting = [pool.submit(_get_ready, os.getpid(), imports) for _ in range(joblib.effective_n_jobs(n_jobs))]
    atexit.unregister(_await_quietly)  # registered once, and after loky's own exit hook
    atexit.register(_await_quietly)


def await_workers() -> None:
    """Wait for the tasks of :func:`start_workers`, if any.

    Raises
    ------
    concurrent.futures.BrokenExecutor
        When a worker died while starting.
    """
    global _starting
    starting, _starting = _starting, None
    for future in starting or ():
        future.result()


def kill_workers() -> None:
    """End every worker of the run's executor at once with SIGKILL to its process tree
    (a worker inside a compiled loop never returns to Python to see a signal), and
    shut the executor down; the next :func:`executor` starts new workers."""
    from joblib.externals.loky import reusable_executor
    from joblib.externals.loky.backend.utils import kill_process_tree

    global _starting
    _starting = None
    pool = reusable_executor._executor  # a shut-down pool is replaced at the next get_reusable_executor
    if pool is None:
        return
    for process in list((pool._processes or {}).values()):  # loky lists its workers there only
        with contextlib.suppress(OSError):
            kill_process_tree(process)
    pool.shutdown(wait=False, kill_workers=True)


def _await_quietly() -> None:
    """At exit: no joblib warning about tasks left, no traceback of a dead worker."""
    with contextlib.suppress(Exception):
        await_workers()


def skip_last_collection() -> None:
    """Exit this process without Python's last garbage collections, which walk every
    object of numba, polars and the engine (about 0.25 s): ``gc.freeze`` at exit, so
    that they skip them and the operating system frees them. Objects still run their
    finalizers when their modules are torn down. Idempotent. Whole process of a
    2,000-game ``revachol simulate --jobs 2``: 2.5 -> 1.8 s."""
    atexit.unregister(gc.freeze)
    atexit.register(gc.freeze)


def _get_ready(parent_pid: int, imports: str) -> None:
    exit_with_parent(parent_pid)
    skip_last_collection()
    importlib.import_module(imports)  # a worker's imports for its chunks
