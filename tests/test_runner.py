"""The batch runner: reproducible, resumable run directories (issue: batch runner)."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from analysis.data.load import load
from sim.engine import run_games
from sim.runner import TABLES, RunError, simulate

ROOT = Path(__file__).resolve().parents[1]
CARDS = ROOT / "cards.yaml"
SCRIPT = Path(sys.executable).with_name("revachol")


def tables(run_dir):
    return {table: load(run_dir, table) for table in TABLES}


def assert_same_tables(a, b):
    for table in TABLES:
        assert a[table].equals(b[table]), table


def test_same_tables_for_any_number_of_workers_and_chunk_size(tmp_path, default_arrays):
    one = simulate(CARDS, 1500, tmp_path / "one", players=3, seed=11, n_jobs=1, chunk_size=1500, progress=False)
    two = simulate(CARDS, 1500, tmp_path / "two", players=3, seed=11, n_jobs=2, chunk_size=400, progress=False)
    a, b = tables(one), tables(two)
    assert_same_tables(a, b)
    assert a["games"].height == 1500 and a["players"].height == 1500 * 3
    assert len(list((two / "games").glob("part-*.parquet"))) == 4
    direct = run_games(default_arrays, 3, 1500, seed=11).tables()
    assert_same_tables(a, direct)


def test_manifest_records_what_was_run(tmp_path, default_deck):
    out = simulate(CARDS, 300, tmp_path / "run", players=2, bots=["random", "uniform"], seed=5, n_jobs=1,
                   chunk_size=100, progress=False)  # fmt: skip
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "complete"
    assert manifest["deck_hash"] == default_deck.content_hash
    assert manifest["n_games"] == 300 and manifest["n_players"] == 2 and manifest["chunk_size"] == 100
    assert manifest["bots"] == ["random", "uniform"] and manifest["root_seed"] == 5
    assert manifest["rule_options"] == {
        "double_any_symbol": False, "one_special_crown_per_squad": False, "extra_play_existing_squad": False,
        "turn_cap": 1000, "debug": False, "shuffle_seats": False,
    }  # fmt: skip
    assert manifest["toolkit_version"] and manifest["rules_version"] >= 1
    assert manifest["timings"]["runs"][0]["chunks"] == 3 and manifest["timings"]["chunk_seconds"] > 0
    assert (out / "cards.yaml").read_text() == CARDS.read_text()


def test_a_run_directory_is_not_overwritten_and_resume_needs_the_same_settings(tmp_path):
    out = simulate(CARDS, 100, tmp_path / "run", players=2, seed=1, n_jobs=1, chunk_size=50, progress=False)
    with pytest.raises(RunError, match="already holds a run"):
        simulate(CARDS, 100, out, players=2, seed=1, n_jobs=1, chunk_size=50, progress=False)
    with pytest.raises(RunError, match="root_seed differ"):
        simulate(CARDS, 100, out, players=2, seed=2, n_jobs=1, chunk_size=50, progress=False, resume=True)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(RunError, match="not a run directory"):
        simulate(CARDS, 100, tmp_path / "other", players=2, progress=False)


def test_resume_redoes_only_missing_or_partial_chunks(tmp_path):
    out = simulate(CARDS, 400, tmp_path / "run", players=4, seed=3, n_jobs=1, chunk_size=100, progress=False)
    before = tables(out)
    (out / "players" / "part-00002.parquet").unlink()  # as if killed between two renames
    (out / "games" / "part-00003.parquet").rename(out / "games" / "part-00003.parquet.tmp")  # a half-written part
    simulate(CARDS, 400, out, players=4, seed=3, n_jobs=1, chunk_size=100, progress=False, resume=True)
    manifest = json.loads((out / "manifest.json").read_text())
    assert [r["chunks"] for r in manifest["timings"]["runs"]] == [4, 2]
    assert not list(out.glob("*/*.tmp"))
    assert_same_tables(before, tables(out))


def test_a_run_killed_mid_way_resumes_to_identical_tables(tmp_path):
    if not SCRIPT.exists():
        pytest.skip("the revachol console script is not installed")
    out = tmp_path / "killed"
    command = [str(SCRIPT), "simulate", "-n", "6000", "--players", "4", "--seed", "9", "--jobs", "1",
               "--chunk-size", "300", "--quiet", "--bot", "random", "--out", str(out)]  # fmt: skip
    process = subprocess.Popen(command, cwd=ROOT, start_new_session=True, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while len(list((out / "games").glob("part-*.parquet"))) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)  # kill -9, workers included
    process.wait()
    done = len(list((out / "games").glob("part-*.parquet")))
    assert 3 <= done < 20, "the run should have been stopped part-way"
    assert json.loads((out / "manifest.json").read_text())["status"] == "running"
    resumed = subprocess.run([*command, "--resume"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    whole = simulate(CARDS, 6000, tmp_path / "whole", players=4, seed=9, n_jobs=2, chunk_size=1000, progress=False)
    assert_same_tables(tables(out), tables(whole))


def test_a_dask_local_cluster_gives_the_same_tables_as_a_local_run(tmp_path):
    pytest.importorskip("distributed")
    local = simulate(CARDS, 800, tmp_path / "local", players=3, seed=4, n_jobs=1, chunk_size=200, progress=False)
    on_dask = simulate(CARDS, 800, tmp_path / "dask", players=3, seed=4, chunk_size=200, progress=False, dask_local=2)
    assert json.loads((on_dask / "manifest.json").read_text())["backend"].startswith("dask")
    assert_same_tables(tables(local), tables(on_dask))


def test_common_random_numbers_across_bots_and_decks_of_equal_size(tmp_path, default_deck):
    """Same seed: the same first player (DICE stream) whatever the bots or the card
    values; the deal itself is checked at setup in tests/test_determinism.py."""
    data = default_deck.to_yaml_data()
    data["tasks"][0]["points"] += 5
    changed = tmp_path / "changed.yaml"
    changed.write_text(yaml.safe_dump(data, sort_keys=False))
    runs = [
        simulate(CARDS, 200, tmp_path / "a", players=4, bots="random", seed=8, n_jobs=1, progress=False),
        simulate(CARDS, 200, tmp_path / "b", players=4, bots="uniform", seed=8, n_jobs=1, progress=False),
        simulate(changed, 200, tmp_path / "c", players=4, bots="random", seed=8, n_jobs=1, progress=False),
    ]
    first = [load(run, "games")["first_player"] for run in runs]
    assert first[0].equals(first[1]) and first[0].equals(first[2])
    assert not load(runs[0], "games")["turns"].equals(load(runs[1], "games")["turns"])  # the bots did differ
