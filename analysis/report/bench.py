"""The report at scale: wall time, peak memory and rows/s of ``revachol report``
on runs of a million games and more (``revachol bench --report`` and
``benchmarks/report_scale.py``). A measurement, not a test.

Each report runs as its own process (``python -m cli report RUN --out TMP --quiet``),
so its peak resident memory is its own, with its worker processes'
(:func:`time_report`). The wall time includes the process's start and imports, as a
user waits for them. Rows are player-game rows (games × players). Runs are reused
from ``runs_dir/g<size>`` (``g1m``, ``g10m``) when complete; otherwise played there
by ``revachol simulate`` in a child process, so that this one never imports numba.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from sim.bots.speed import MAIN_JOB_BOT
from sim.rundir import RunError, read_manifest

DEFAULT_SIZES = (1_000_000, 10_000_000)
DEFAULT_RUNS = Path("runs") / "report-bench"
CLI = (sys.executable, "-P", "-m", "cli")
"""The installed command line in a child process; ``-P`` (Python 3.11) leaves the working
directory off ``sys.path``, so a ``cli.py``, ``sim/`` or ``analysis/`` there never runs."""
SAMPLE_SECONDS = 0.1  # how often the memory of the report's processes is read


@dataclass(frozen=True)
class ReportTiming:
    """One report's measurement."""

    run: str
    games: int
    rows: int  # player-game rows
    seconds: float  # wall time of the report's process (s)
    peak_rss: int  # peak resident memory of the report's process (bytes)

    @property
    def rows_per_second(self) -> float:
        return self.rows / self.seconds


def run_name(games: int) -> str:
    """``g100k``, ``g1m``, ``g10m``: the folder of a run of ``games`` games."""
    for unit, suffix in ((1_000_000, "m"), (1_000, "k")):
        if games % unit == 0:
            return f"g{games // unit}{suffix}"
    return f"g{games}"


def _complete(run_dir: Path, games: int) -> bool:
    try:
        manifest = read_manifest(run_dir)
    except RunError:
        return False
    return int(manifest.get("n_games", -1)) == games and manifest.get("status") == "complete"


def ensure_run(runs_dir: str | Path, games: int, players: int = 4, bot: str = MAIN_JOB_BOT, seed: int = 0) -> Path:
    """The run of ``games`` games in ``runs_dir`` (:func:`run_name`), played (or
    resumed) with ``revachol simulate`` in a child process unless it is complete.

    Raises
    ------
    subprocess.CalledProcessError
        When ``simulate`` fails.
    """
    run_dir = Path(runs_dir) / run_name(games)
    if not _complete(run_dir, games):
        resume = ["--resume"] if (run_dir / "manifest.json").exists() else []
        subprocess.run([*CLI, "simulate", "-n", str(games), "--out", str(run_dir), "--players", str(players),
                        "--bot", bot, "--seed", str(seed), *resume], check=True)  # fmt: skip
    return run_dir


def _tree_rss(process) -> int:
    """Resident memory of ``process`` and every process under it (bytes); 0 once gone."""
    import psutil

    total = 0
    try:
        for member in [process, *process.children(recursive=True)]:
            total += member.memory_info().rss
    except psutil.Error:  # a worker exited between the listing and the reading
        pass
    return total


def time_report(run_dir: str | Path, dask_local: int | None = None, jobs: int | None = None) -> ReportTiming:
    """Write the report of ``run_dir`` to a temporary folder in a child process and
    measure it (module docstring); the run itself is only read.

    The peak memory is the larger of the child's own peak (``ru_maxrss``) and the
    largest sum of the resident memory of the child and its worker processes,
    sampled every :data:`SAMPLE_SECONDS`.

    Raises
    ------
    RuntimeError
        When the report fails (its stderr in the message).
    """
    import psutil

    run_dir = Path(run_dir)
    manifest = read_manifest(run_dir)
    with tempfile.TemporaryDirectory(prefix="report-bench-") as out:
        command = [*CLI, "report", str(run_dir), "--out", out, "--quiet",
                   *(["--dask-local", str(dask_local)] if dask_local else []),
                   *(["--jobs", str(jobs)] if jobs else [])]  # fmt: skip
        start = time.perf_counter()
        child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        process, tree_peak = psutil.Process(child.pid), 0
        while os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None:  # not reaped: wait4's
            tree_peak = max(tree_peak, _tree_rss(process))
            time.sleep(SAMPLE_SECONDS)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        error = child.stderr.read().decode(errors="replace")
        child.stderr.close()
    if child.returncode:
        raise RuntimeError(f"revachol report {run_dir} failed: {error.strip()}")
    games = int(manifest["n_games"])
    return ReportTiming(run_dir.name, games, games * int(manifest["n_players"]), seconds,
                        max(usage.ru_maxrss * 1024, tree_peak))  # fmt: skip


def report_scale(sizes: Sequence[int] = DEFAULT_SIZES, runs_dir: str | Path = DEFAULT_RUNS,
                 dask_local: int | None = None, jobs: int | None = None) -> list[ReportTiming]:  # fmt: skip
    """:func:`time_report` of the run of each size (:func:`ensure_run`)."""
    return [time_report(ensure_run(runs_dir, games), dask_local, jobs) for games in sizes]


def format_timings(lines: Sequence[ReportTiming]) -> str:
    """An aligned text table: run, games, wall seconds, peak RSS (GB), rows/s."""
    import pandas as pd

    table = pd.DataFrame({"run": [x.run for x in lines], "games": [f"{x.games:,}" for x in lines],
                          "report (s)": [f"{x.seconds:.1f}" for x in lines],
                          "peak RSS (GB)": [f"{x.peak_rss / 1e9:.2f}" for x in lines],
                          "rows/s": [f"{x.rows_per_second:,.0f}" for x in lines]})  # fmt: skip
    return table.to_string(index=False)
