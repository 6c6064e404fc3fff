"""A run always stops when asked (issue 32): ``revachol simulate`` as a real process
group with a real user bot whose loop never ends; SIGINT (Ctrl-C) or SIGTERM ends
every process of the run within 5 s (15 s on a local Dask cluster, whose nanny waits 4 s
for a stuck worker before killing it, issue 49) with one line that names what was kept
and the exact ``--resume`` command, and the watchdog stops a run that no longer finishes
games, on local workers and on Dask's alike."""

import os
import re
import shlex
import signal
import subprocess
import sys
import time
from concurrent.futures import Future
from pathlib import Path

import pytest

from sim.rundir import TABLES, RunError, read_manifest, recorded_parts
from sim.run.supervisor import Supervisor

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = Path(sys.executable).with_name("revachol")
STUCK = '''from sim.bots.user import bot


@bot(params={})
def stuck(obs, deck, seat, kind, n_options):
    i = 1
    while i > 0:
        i = (i * 3 + 1) % 1000003 + 1
    return 0


@bot(params={})
def slow(obs, deck, seat, kind, n_options):
    i = 1
    for _ in range(200_000):
        i = (i * 3 + 1) % 1000003 + 1
    return 0 if i > 0 else 1
'''
PLAYING_CPU_TICKS = 300  # clock ticks (1/100 s) of CPU a worker has used: past its start, into the games
STOP_SECONDS = 5
DASK_STOP_SECONDS = 15
DASK_LOCAL = ("--dask-local", "2")


def _group(pgid: int) -> dict[int, int]:
    """The live (not zombie) processes of process group ``pgid``: pid -> CPU clock ticks."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # it ended meanwhile
        if int(fields[2]) == pgid and fields[0] != "Z":
            found[int(entry)] = int(fields[11]) + int(fields[12])
    return found


def _start(tmp_path: Path, bot: str, jobs: int, *extra: str) -> tuple[subprocess.Popen, list[str]]:
    if not SCRIPT.exists():
        pytest.skip("the revachol console script is not installed")
    (tmp_path / "bots.py").write_text(STUCK)
    command = ["revachol", "simulate", "-n", "40", "--chunk-size", "10", "--players", "2", "--bot",
               f"{tmp_path / 'bots.py'}:{bot}", "--jobs", str(jobs), "--quiet", "--out", str(tmp_path / "run"), *extra]  # fmt: skip
    process = subprocess.Popen([str(SCRIPT), *command[1:]], cwd=ROOT, start_new_session=True, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)  # fmt: skip
    return process, command


def _wait_until_playing(process: subprocess.Popen, run: Path) -> None:
    """Until a worker began a chunk (its heartbeat is in the run directory: the engine
    is compiled, so no compile helper is taken for a worker) and some worker has used
    :data:`PLAYING_CPU_TICKS` of CPU."""
    deadline = time.monotonic() + 300
    while not (any(run.glob("heartbeats-*.tmp/*"))
               and any(pid != process.pid and cpu > PLAYING_CPU_TICKS for pid, cpu in _group(process.pid).items())):  # fmt: skip
        assert process.poll() is None and time.monotonic() < deadline, process.communicate()
        time.sleep(0.1)


def _wait_for_the_end(process: subprocess.Popen) -> str:
    """The run's stderr, once no process of its group is left (SIGKILL to what is left
    after 30 s, so that no test leaves a process behind)."""
    started = time.monotonic()
    try:
        _, stderr = process.communicate(timeout=300)
        while _group(process.pid) and time.monotonic() - started < 30:
            time.sleep(0.05)
        return stderr
    finally:
        if _group(process.pid):
            os.killpg(process.pid, signal.SIGKILL)


def _recorded_chunks(run: Path) -> int:
    """Chunks whose parts the run's manifest records. The run counts these as kept;
    a part file on disk is not yet one of them: its worker wrote it, and the
    supervisor records the chunk's parts when the worker hands the chunk over."""
    try:
        return len(recorded_parts(read_manifest(run))) // len(TABLES)
    except RunError:  # no manifest yet
        return 0


def _stop_and_wait(process: subprocess.Popen, number: signal.Signals) -> tuple[str, float]:
    """Send ``number`` to the run's process group, as a terminal does for Ctrl-C; the
    run's stderr and the seconds until no process of the group was left."""
    os.killpg(process.pid, number)
    sent = time.monotonic()
    stderr = _wait_for_the_end(process)
    return stderr, time.monotonic() - sent


@pytest.mark.parametrize(("jobs", "extra", "limit"), [(1, (), STOP_SECONDS), (2, (), STOP_SECONDS),
                                                     (1, DASK_LOCAL, DASK_STOP_SECONDS)], ids=["1", "2", "dask-local"])  # fmt: skip
def test_ctrl_c_ends_every_process_of_a_run_whose_bot_never_returns(tmp_path, jobs, extra, limit):
    """On a local Dask cluster too: its workers ignore SIGINT, so none prints a
    traceback, and Dask logs nothing of the cluster's close."""
    process, command = _start(tmp_path, "stuck", jobs, *extra)
    _wait_until_playing(process, tmp_path / "run")
    stderr, seconds = _stop_and_wait(process, signal.SIGINT)
    assert seconds < limit and not _group(process.pid)
    assert process.returncode == 128 + signal.SIGINT, stderr
    assert stderr.strip().splitlines() == [(f"error: stopped by SIGINT; 0 of 4 chunks (0 of 40 games) kept in {tmp_path / 'run'}; "
                                           f"continue with: {shlex.join([*command, '--resume'])}")]  # fmt: skip


def test_sigterm_keeps_the_finished_chunks_and_names_them(tmp_path):
    """A slow bot: some chunks finish before SIGTERM; the manifest records exactly those.
    SIGTERM goes once the manifest records a chunk: sent when the chunk's last part
    file appeared, it could come before the chunk was recorded (0 kept)."""
    process, _ = _start(tmp_path, "slow", 1)
    deadline = time.monotonic() + 300
    while not _recorded_chunks(tmp_path / "run") and time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        time.sleep(0.05)
    stderr, seconds = _stop_and_wait(process, signal.SIGTERM)
    assert seconds < STOP_SECONDS and process.returncode == 128 + signal.SIGTERM
    (line,) = stderr.strip().splitlines()
    kept = int(re.search(r"stopped by SIGTERM; (\d) of 4 chunks \((\d+) of 40 games\) kept in ", line)[1])
    manifest = read_manifest(tmp_path / "run")
    assert 1 <= kept < 4 and manifest["status"] == "failed" and len(manifest["parts"]) == 3 * kept


@pytest.mark.parametrize("extra", [(), DASK_LOCAL], ids=["local", "dask-local"])
def test_the_watchdog_stops_a_run_and_names_the_bot_that_does_not_return(tmp_path, extra):
    process, _ = _start(tmp_path, "stuck", 1, "--stall-timeout", "3", *extra)
    stderr = _wait_for_the_end(process)
    assert process.returncode == 1 and not _group(process.pid)
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    (line,) = lines
    # 3 s and up: the supervisor looks every 0.5 s, later on a loaded machine
    assert re.fullmatch(rf"error: stopped: no game finished for ([3-9]|1[0-9]) s, most likely a bot that does not return "
                        rf"\({re.escape(str(tmp_path / 'bots.py'))}:stuck\); 0 of 4 chunks \(0 of 40 games\) kept in "
                        rf"{re.escape(str(tmp_path / 'run'))}; continue with: .* --resume", line), line  # fmt: skip


def test_chunks_that_finished_beside_a_failed_one_are_handed_over_before_its_error(tmp_path):
    """``wait`` returns the finished calls as a set: the supervisor yields every result
    of it before raising a failure among them, so a run that fails mid-way still
    records the chunks finished meanwhile (tests/test_runner.py's full disk)."""
    supervisor = Supervisor.__new__(Supervisor)  # no worker pool: the calls are done already
    supervisor.stall_timeout, supervisor.heartbeats = 60.0, tmp_path
    finished = [Future() for _ in range(16)]
    for chunk, future in enumerate(finished):
        future.set_result(chunk)
    failed = Future()
    failed.set_exception(OSError(28, "No space left on device"))
    supervisor.pending = {*finished, failed}
    supervisor.order = {future: i for i, future in enumerate([*finished, failed])}
    results = supervisor.results()
    assert sorted(next(results) for _ in finished) == list(range(16))
    with pytest.raises(OSError, match="No space left on device"):
        next(results)


def test_of_failures_finished_together_the_first_submitted_is_raised(tmp_path):
    """A user bot that breaks every chunk fails chunk 0 and chunk 1 within one poll at
    ``--jobs 1``: the run names chunk 0's failure every time, not the set's pick."""
    supervisor = Supervisor.__new__(Supervisor)
    supervisor.stall_timeout, supervisor.heartbeats = 60.0, tmp_path
    failures = [Future() for _ in range(8)]
    for chunk, future in enumerate(failures):
        future.set_exception(ValueError(f"chunk {chunk}"))
    supervisor.pending = set(failures)
    supervisor.order = {future: chunk for chunk, future in enumerate(failures)}
    with pytest.raises(ValueError, match="chunk 0"):
        next(supervisor.results())


@pytest.mark.slow
def test_sigterm_stops_a_report_read_by_workers_in_one_line_with_nothing_leaked(tmp_path):
    """Issue 66 item 4: `revachol report --jobs 2` ended by SIGTERM printed loky's
    "resource_tracker: There appear to be 8 leaked semlock objects"; now its workers
    are ended first and it stops in one line, exit 143, with no process left."""
    from sim.run.runner import simulate

    run = simulate(ROOT / "cards.yaml", 400_000, tmp_path / "run", players=4, bots="greedy", seed=1, n_jobs=2,
                   progress=False)  # fmt: skip
    process = subprocess.Popen([str(SCRIPT), "report", str(run), "--jobs", "2", "--quiet"], cwd=ROOT, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)  # fmt: skip
    time.sleep(4)  # the workers are reading the parts
    assert process.poll() is None, "the report ended before it could be stopped"
    stderr, seconds = _stop_and_wait(process, signal.SIGTERM)
    assert process.returncode == 128 + signal.SIGTERM and seconds < STOP_SECONDS, stderr
    assert stderr.splitlines() == ["error: stopped by SIGTERM; run the same command again to continue"]
