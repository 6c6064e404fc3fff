"""Every operating-system failure is one line naming the path and what to do (issue
32): a full disk, no permission, a read-only filesystem and too many open files,
faked by a writer that fails, for every command that writes; a run directory whose
manifest could not be written resumes to the same games."""

import errno
import os
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from analysis.data.load import load
from cli import app
from sim.run import runner
from sim.os_errors import ADVICE
from sim.rundir.parts import write_part
from sim.rundir import read_manifest
from sim.run.runner import simulate

ROOT = Path(__file__).resolve().parents[1]
CARDS = str(ROOT / "cards.yaml")
ERRNOS = (errno.ENOSPC, errno.EACCES, errno.EROFS, errno.EMFILE)


def _failing(number: int, at_call: int = 1):
    """A writer ``(path, *args)`` that fails with ``number`` from its ``at_call``-th
    call on (1-based), and otherwise writes as ``runner.write_json`` does."""
    calls = []
    write_json = runner.write_json

    def write(path, *args, **kwargs):
        calls.append(path)
        if len(calls) >= at_call:
            raise OSError(number, os.strerror(number), str(path))
        return write_json(path, *args, **kwargs)

    return write


def _raising(number: int):
    """``Path.write_text`` failing with ``number`` for a CSV (the report's tables, which
    analysis.report.writer writes) and writing any other file."""
    write_text = Path.write_text

    def write(self, *args, **kwargs):
        if self.suffix == ".csv":
            raise OSError(number, os.strerror(number), str(self))
        return write_text(self, *args, **kwargs)

    return write


def _one_line(result) -> str:
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    (line,) = result.output.strip().splitlines()
    return line


def test_polars_reports_a_full_disk_as_an_oserror_naming_the_part(tmp_path, monkeypatch):
    """Issue 32, case 2: polars raised ``ComputeError: ... No space left on device (os error 28)``."""

    def full(self, path, **options):
        Path(path).write_bytes(b"PAR1")  # a torn temporary file
        raise pl.exceptions.ComputeError("parquet: File out of specification: underlying IO error: "
                                         "No space left on device (os error 28)")  # fmt: skip

    monkeypatch.setattr(pl.DataFrame, "write_parquet", full)
    final = tmp_path / "part-00000.parquet"
    with pytest.raises(OSError) as error:
        write_part(pl.DataFrame({"game": [0]}), final)
    assert (error.value.errno, error.value.filename) == (errno.ENOSPC, str(final))
    assert list(tmp_path.iterdir()) == []  # the temporary file is removed


@pytest.mark.parametrize("number", ERRNOS, ids=errno.errorcode.get)
def test_simulate_says_what_failed_in_one_line_and_resume_completes_the_run(tmp_path, monkeypatch, number):
    out = tmp_path / "run"
    command = ["simulate", "-n", "200", "--chunk-size", "100", "--players", "2", "--jobs", "1", "--quiet",
               "--cards", CARDS, "--out", str(out)]  # fmt: skip
    monkeypatch.setattr(runner, "write_json", _failing(number, at_call=2))  # the manifest, once chunk 0 is written
    line = _one_line(CliRunner().invoke(app, command))
    assert line == (f"error: cannot write the run directory {out}: {out / 'manifest.json'}: {os.strerror(number)} "
                    f"({ADVICE[number]}); {runner.RESUME_HINT}")  # fmt: skip
    assert read_manifest(out)["status"] == "running"  # the disk stayed full: not even "failed" could be written
    monkeypatch.undo()
    result = CliRunner().invoke(app, [*command, "--resume"])
    assert result.exit_code == 0, result.output
    assert read_manifest(out)["status"] == "complete" and load(out, "games").height == 200


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    return simulate(CARDS, 200, tmp_path_factory.mktemp("runs") / "run", players=2, seed=1, n_jobs=1, progress=False)


@pytest.mark.parametrize("number", ERRNOS, ids=errno.errorcode.get)
def test_report_says_what_failed_in_one_line(small_run, tmp_path, monkeypatch, number):
    monkeypatch.setattr(Path, "write_text", _raising(number))
    line = _one_line(CliRunner().invoke(app, ["report", str(small_run), "--out", str(tmp_path / "report")]))
    assert line.startswith(f"error: {tmp_path / 'report' / 'tables'}/")
    assert line.endswith(f".csv: {os.strerror(number)} ({ADVICE[number]})")


def test_debug_shows_the_traceback_instead(small_run, tmp_path, monkeypatch):
    monkeypatch.setattr(Path, "write_text", _raising(errno.ENOSPC))
    result = CliRunner().invoke(app, ["--debug", "report", str(small_run), "--out", str(tmp_path / "report")])
    assert isinstance(result.exception, OSError) and result.exception.errno == errno.ENOSPC


@pytest.mark.parametrize("command", [
    ["run", "-n", "50", "--players", "2", "--quiet"],
    ["compare", CARDS, CARDS, "-n", "50", "--players", "2", "--quiet"],
    ["sweep", "--card", "find_your_badge", "--field", "points", "--value", "1", "--value", "2", "-n", "50",
     "--players", "2"],
    ["tune", "--field", "find_your_badge.points=1..3", "--target", "turns=40..60", "-n", "50", "--evaluations", "2",
     "--players", "2"],
    ["card-value", "--ally", "cuno", "-n", "50", "--players", "2"],
    ["skill", "--rung", "random", "--rung", "greedy", "--players", "2", "-n", "50", "--trace-budget", "0", "--quiet"],
], ids=lambda command: command[0])  # fmt: skip
def test_every_command_that_plays_says_a_full_disk_in_one_line(tmp_path, monkeypatch, command):
    monkeypatch.setattr(runner, "write_json", _failing(errno.ENOSPC))
    where = ["--runs", str(tmp_path / "runs")] if command[0] == "run" else ["--out", str(tmp_path / "out")]
    where += [] if command[0] == "compare" else ["--cards", CARDS]
    line = _one_line(CliRunner().invoke(app, [*command, *where, "--jobs", "1"]))
    assert line.startswith(f"error: cannot write the run directory {tmp_path}/")
    assert f"manifest.json: No space left on device ({ADVICE[errno.ENOSPC]}); " in line
