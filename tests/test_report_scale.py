"""The report beyond one process (issue 31): the parts-read display, a Dask
map-reduce that gives the same tables as the local pass, and runs read in step."""

import numpy as np
import pandas as pd
import pytest

from analysis.data.runs import Run
from analysis.data.stream import Columns, batches, in_step, reading, reduce_run
from analysis.report.page import build_report
from sim.rundir import RunError
from sim.run.runner import simulate


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    """3,000 three-player games in six parts of 500 (named as the report benchmark names them)."""
    out = tmp_path_factory.mktemp("scale") / "g3k"
    return simulate("cards.yaml", 3_000, out, players=3, bots="random", seed=11, n_jobs=1, chunk_size=500,
                    progress=False)  # fmt: skip


def test_the_display_counts_every_part_and_row_of_every_pass(run_dir, capsys):
    run = Run.open(run_dir)
    with reading([run], progress=True):
        reduce_run(run, Columns(players=("won",)), lambda b: {"wins": b.players["won"].sum(0)})
        list(batches(run, Columns()))
    # two passes over 6 parts of 500 games × 3 players: 2 × 3,000 × 3 rows
    assert "read 12 parts, 18,000 rows" in capsys.readouterr().err


def test_the_display_is_silent_when_not_asked_for(run_dir, capsys):
    run = Run.open(run_dir)
    with reading([run], progress=None):  # 3,000 games: under a million, and stderr is no terminal
        reduce_run(run, Columns(), lambda b: {"games": b.size})
    assert capsys.readouterr().err == ""


def test_runs_of_other_chunk_sizes_are_read_in_step_game_by_game(run_dir, tmp_path):
    other = simulate("cards.yaml", 3_000, tmp_path / "other", players=3, bots="random", seed=11, n_jobs=1,
                     chunk_size=700, progress=False)  # fmt: skip
    a, b = Run.open(run_dir), Run.open(other)
    steps = list(in_step(batches(a, Columns(players=("score",))), batches(b, Columns(players=("score",)))))
    assert [x.size for x, _ in steps] == [500, 200, 300, 400, 100, 500, 100, 400, 300, 200]  # cut at 500s and 700s
    for x, y in steps:  # the same seed and deck: the same games, whatever the chunking
        assert np.array_equal(x.game, y.game) and np.array_equal(x.players["score"], y.players["score"])


def test_runs_of_different_games_are_refused_in_step(run_dir, tmp_path):
    shorter = simulate("cards.yaml", 1_000, tmp_path / "short", players=3, bots="random", seed=11, n_jobs=1,
                       chunk_size=500, progress=False)  # fmt: skip
    with pytest.raises(RunError, match="do not hold the same games"):
        list(in_step(batches(Run.open(run_dir), Columns()), batches(Run.open(shorter), Columns())))


@pytest.mark.slow
@pytest.mark.parametrize("where", [{"dask_local": 2}, {"workers": 2}], ids=["dask-local", "local-workers"])
def test_a_report_read_on_two_workers_equals_the_one_read_here(run_dir, tmp_path, where):
    if "dask_local" in where:
        pytest.importorskip("dask.distributed")
    local = build_report(run_dir, tmp_path / "local", progress=False, workers=1).path.parent / "tables"
    dask = build_report(run_dir, tmp_path / "dask", progress=False, **where).path.parent / "tables"
    names = sorted(p.name for p in local.glob("*.csv"))
    assert names == sorted(p.name for p in dask.glob("*.csv")) and "ally_strength.csv" in names
    for name in names:
        x, y = pd.read_csv(local / name), pd.read_csv(dask / name)
        assert list(x.columns) == list(y.columns) and len(x) == len(y), name
        for column in x.columns:
            if x[column].dtype.kind == "f":  # totals are sums: only their order could change the round-off
                np.testing.assert_allclose(y[column], x[column], rtol=1e-9, err_msg=f"{name}: {column}")
            else:
                assert x[column].equals(y[column]), f"{name}: {column}"


@pytest.mark.slow
def test_reduce_run_on_a_dask_local_cluster_maps_the_parts_on_the_workers_and_sums_in_chunk_order(run_dir):
    pytest.importorskip("dask.distributed")
    import os

    from analysis.stats.clustered import GameMoments

    run, here = Run.open(run_dir), os.getpid()

    def totals(batch):
        return {"score": GameMoments.of(batch.players["score"]), "remote": int(os.getpid() != here)}

    local = reduce_run(run, Columns(players=("score",)), totals)
    with reading([run], progress=False, dask_local=2):
        dask = reduce_run(run, Columns(players=("score",)), totals)
    assert local["remote"] == 0 and dask["remote"] == 6  # every one of the 6 parts read on a worker
    assert np.array_equal(dask["score"].total, local["score"].total)
    assert np.array_equal(dask["score"].cross, local["score"].cross)  # the same sums in the same order


@pytest.mark.slow
def test_the_report_benchmark_reuses_a_complete_run_and_measures_its_report_in_a_child(run_dir):
    from analysis.report.bench import ensure_run, format_timings, run_name, time_report

    assert [run_name(n) for n in (100_000, 1_000_000, 10_000_000, 1_500)] == ["g100k", "g1m", "g10m", "g1500"]
    before = sorted(p.relative_to(run_dir) for p in run_dir.rglob("*"))
    timing = time_report(ensure_run(run_dir.parent, 3_000))  # complete: reused, not played again
    assert sorted(p.relative_to(run_dir) for p in run_dir.rglob("*")) == before  # the report went elsewhere
    assert (timing.run, timing.games, timing.rows) == ("g3k", 3_000, 9_000)
    assert timing.peak_rss > 50e6 and timing.seconds > 0  # a child that imported polars and matplotlib
    assert format_timings([timing]).splitlines()[1].split()[:2] == ["g3k", "3,000"]


def test_revachol_bench_report_prints_the_table_without_importing_numba(run_dir):
    import subprocess
    import sys

    code = ("import sys; from cli import app; sys.argv = ['revachol', *sys.argv[1:]]\n"
            "try:\n    app()\nexcept SystemExit as exit:\n    status = exit.code\nelse:\n    status = 0\n"
            "assert 'numba' not in sys.modules, 'numba was imported'\nsys.exit(status)")  # fmt: skip
    result = subprocess.run([sys.executable, "-c", code, "bench", "--report", "--runs", str(run_dir.parent),
                             "--report-games", "3000"], capture_output=True, text=True, timeout=600)  # fmt: skip
    assert result.returncode == 0, result.stderr
    header, line = result.stdout.strip().splitlines()
    assert header.split()[:2] == ["run", "games"] and line.split()[:2] == ["g3k", "3,000"]


@pytest.mark.slow
def test_the_report_benchmark_runs_no_code_from_the_working_directory(run_dir, tmp_path):
    """Issue 66 item 8: ``revachol bench --report`` starts ``python -P -m cli`` children,
    so a ``cli.py``, ``sim/`` and ``analysis/`` in the folder it is run from never run."""
    import subprocess
    import sys
    from pathlib import Path

    hostile = tmp_path / "hostile"
    marker = tmp_path / "ran"
    for name in ("cli.py", "sim/__init__.py", "analysis/__init__.py"):
        (hostile / name).parent.mkdir(parents=True, exist_ok=True)
        (hostile / name).write_text(f"open({str(marker)!r}, 'a').write({name!r})\nraise SystemExit(3)\n")
    script = Path(sys.executable).with_name("revachol")
    if not script.exists():
        pytest.skip("the revachol console script is not installed")
    result = subprocess.run([str(script), "bench", "--report", "--runs", str(run_dir.parent), "--report-games", "3000"],
                            cwd=hostile, capture_output=True, text=True, timeout=600)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert not marker.exists(), marker.read_text()
