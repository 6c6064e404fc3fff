"""A Dask client for work beyond one process: an existing cluster or a local one.

Imports neither numba nor the engine, so that the analysis (which reads runs) and
the runner (which plays them) both open their cluster here. Dask is an optional
dependency (``pip install 'revachol-balance[dask]'``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from sim.rundir import RunError


@contextlib.contextmanager
def dask_client(scheduler: str | None, dask_local: int | None) -> Iterator[object]:
    """A ``dask.distributed.Client`` while the body runs, closed after it.

    Parameters
    ----------
    scheduler : str, optional
        Address of an existing Dask scheduler, e.g. ``tcp://HOST:8786``; its workers
        must see the same file paths as this process.
    dask_local : int, optional
        Otherwise, start a ``LocalCluster`` of this many single-threaded worker
        processes.

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
            cluster = stack.enter_context(LocalCluster(n_workers=dask_local, threads_per_worker=1, processes=True))
            client = stack.enter_context(Client(cluster))
        yield client
