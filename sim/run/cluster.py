"""A Dask client for work beyond one process: an existing cluster or a local one.

Imports neither numba nor the engine, so that the analysis (which reads runs) and
the runner (which plays them) both open their cluster here. Dask is an optional
dependency (``pip install 'revachol-balance[dask]'``).

A local cluster belongs to the command that started it, and stops with it quietly
(issue 49):

* Its worker processes share the terminal's process group, so a Ctrl-C reaches them
  too, and a worker answered it with a ``KeyboardInterrupt`` traceback (its event
  loop runs under ``asyncio.run``, which cancels its task at SIGINT and then raises)
  and log lines of its nanny. The workers ignore SIGINT (:func:`dask_setup`, Dask's
  preload hook): the command's main process, which sees the signal, closes the
  cluster.
* Dask logs nothing to the terminal but critical messages (LocalCluster's
  ``silence_logs``, in the main process and the workers): closing a cluster whose
  worker is stuck in a compiled batch logs a warning (its nanny kills the worker 4 s
  after asking it to close: ``Nanny.close``'s 5 s times 0.8, distributed's
  ``WorkerProcess.kill``) and, at times, a worker's errors about its heartbeat to the
  closed scheduler. A failed task still fails the command, with its exception.
* Its dashboard takes a free port: two local clusters on one machine no longer warn
  that port 8787 is in use.
"""

from __future__ import annotations

import contextlib
import logging
import signal
from collections.abc import Iterator

from sim.rundir import RunError


@contextlib.contextmanager
def dask_client(scheduler: str | None, dask_local: int | None) -> Iterator[object]:
    """A ``dask.distributed.Client`` while the body runs, closed after it.

    Parameters
    ----------
    scheduler : str, optional
        Address of an existing Dask scheduler, e.g. ``tcp://HOST:8786``; its workers
        must see the same file paths as this process. Closing the client leaves the
        scheduler and its workers running.
    dask_local : int, optional
        Otherwise, start a ``LocalCluster`` of this many single-threaded worker
        processes that ignore SIGINT (module docstring); it is closed after the body.

    Raises
    ------
    sim.rundir.RunError
        When Dask is not installed.
    ValueError
        When neither ``scheduler`` nor ``dask_local`` is given.
    """
    if scheduler is None and dask_local is None:
        raise ValueError("dask_client needs a scheduler address or a number of local workers")
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise RunError("Dask is not installed: pip install 'revachol-balance[dask]'") from None
    with contextlib.ExitStack() as stack:
        if scheduler is not None:
            client = stack.enter_context(Client(scheduler))
        else:
            cluster = stack.enter_context(LocalCluster(
                n_workers=dask_local, threads_per_worker=1, processes=True, preload=[__name__],
                silence_logs=logging.CRITICAL, dashboard_address=":0"))  # fmt: skip
            client = stack.enter_context(Client(cluster))
        yield client


def dask_setup(worker) -> None:
    """Dask's preload hook (``preload=["sim.run.cluster"]``), run in each worker process of
    a local cluster as it starts: the process ignores SIGINT."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
