"""Worker processes start with the environment of sim.run.workers.worker_environment."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
from joblib.externals.loky import get_reusable_executor

from sim.run.workers import KEEP_FREED_MEMORY, await_workers, executor, kill_workers, start_workers, worker_environment

VARIABLES = ["PYTHONSAFEPATH", *KEEP_FREED_MEMORY]


def _environment_at_start() -> dict[str, str]:
    """The environment this process was started with (what the C allocator read)."""
    entries = Path("/proc/self/environ").read_bytes().split(b"\0")
    return dict(entry.decode().split("=", 1) for entry in entries if b"=" in entry)


def test_worker_environment_sets_the_variables_keeps_the_users_own_and_restores(monkeypatch):
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("_RJEM_MALLOC_CONF", "narenas:1")
    monkeypatch.setenv("PYTHONWARNINGS", "error::DeprecationWarning")
    with worker_environment():
        assert os.environ["PYTHONSAFEPATH"] == "1"
        assert os.environ["MALLOC_MMAP_THRESHOLD_"] == str(32 * 2**20)
        assert os.environ["MALLOC_TRIM_THRESHOLD_"] == str(2**30)
        assert os.environ["_RJEM_MALLOC_CONF"] == "narenas:1"  # the user's setting
        assert os.environ["PYTHONWARNINGS"] == "error::DeprecationWarning,ignore:resource_tracker:UserWarning"
    assert os.environ["_RJEM_MALLOC_CONF"] == "narenas:1"
    assert os.environ["PYTHONWARNINGS"] == "error::DeprecationWarning"
    assert not {"PYTHONSAFEPATH", "MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_"} & set(os.environ)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/environ")
def test_a_worker_started_in_the_block_has_the_allocator_settings_from_its_start(monkeypatch):
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
    executor = get_reusable_executor(max_workers=1, kill_workers=True, reuse=False)
    try:
        with worker_environment():  # loky starts the worker at the first task
            seen = executor.submit(_environment_at_start).result(timeout=120)
    finally:
        executor.shutdown(kill_workers=True)
    assert {name: seen.get(name) for name in VARIABLES} == {"PYTHONSAFEPATH": "1", **KEEP_FREED_MEMORY}


LEFT_REGISTERED = """
import sys
from joblib.externals.loky.backend import resource_tracker
from sim.run.workers import executor

if sys.argv[1] == "run":
    executor(1)  # a run's pool: its resource tracker starts with it
resource_tracker.register("/revachol-test-left-registered", "semlock")
"""


@pytest.mark.parametrize("started_by", ["run", "plain loky"])
def test_the_resource_tracker_of_a_run_does_not_warn_of_a_semaphore_left_registered(started_by):
    """Issue 32, a stop prints one line: a semaphore whose unregistration was lost in a
    stop (here one never unregistered, and never created) made loky's resource tracker,
    which shares the run's stderr, add two warnings at its end. The tracker of a run's
    pool is quiet about it; one started by plain loky shows that it would have warned."""
    finished = subprocess.run([sys.executable, "-c", LEFT_REGISTERED, started_by], capture_output=True, text=True,
                              timeout=120, env={k: v for k, v in os.environ.items() if k != "PYTHONWARNINGS"})  # fmt: skip
    assert finished.returncode == 0
    if started_by == "run":
        assert finished.stderr == ""
    else:
        assert "leaked semlock objects" in finished.stderr and "FileNotFoundError" in finished.stderr


def _runner_imported(rendezvous: str) -> tuple[int, bool]:
    """This worker's pid and whether it has imported :mod:`sim.run.runner`, after every
    worker of the pool has taken one such task (a file per worker in ``rendezvous``):
    a task waits for the other, so two tasks are answered by two distinct workers."""
    Path(rendezvous, str(os.getpid())).touch()
    deadline = time.monotonic() + 120
    while len(list(Path(rendezvous).iterdir())) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    return os.getpid(), "sim.run.runner" in sys.modules


def test_start_workers_starts_workers_that_import_the_runner_before_any_chunk(tmp_path):
    """Both workers of a 2-job run, not just one, have imported sim.run.runner before any
    chunk: start_workers gives each worker one start task, and the run's pool is the
    one it started."""
    kill_workers()  # no worker of an earlier test, and no start_workers pending
    start_workers(2, "sim.run.runner")
    await_workers()
    pool = executor(2)  # the run's pool, which start_workers started
    answers = [future.result(timeout=180) for future in [pool.submit(_runner_imported, str(tmp_path)) for _ in range(2)]]
    assert len({pid for pid, _ in answers}) == 2, f"two tasks, one worker: {answers}"
    assert [imported for _, imported in answers] == [True, True], answers


def test_a_worker_of_a_run_ignores_sigint_which_the_main_process_handles():
    """Issue 32: Ctrl-C reaches every process of the run; only the main process acts on it."""
    kill_workers()  # a new pool: its worker runs the initializer
    assert executor(1).submit(signal.getsignal, signal.SIGINT).result(timeout=120) == signal.SIG_IGN


def test_kill_workers_ends_a_busy_worker_at_once_and_the_next_pool_works():
    """A worker busy with a task that does not return (an hour's ``time.sleep`` stands
    in for a compiled loop) is gone within seconds; the next pool has a new worker."""
    pool = executor(1)
    worker = psutil.Process(pool.submit(os.getpid).result(timeout=120))
    pool.submit(time.sleep, 3600)
    kill_workers()
    _, alive = psutil.wait_procs([worker], timeout=5)
    assert not alive
    assert executor(1).submit(os.getpid).result(timeout=120) != worker.pid
