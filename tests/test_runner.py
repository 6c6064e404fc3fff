"""The batch runner: reproducible, resumable run directories (issue: batch runner)."""

import contextlib
import errno
import functools
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import psutil
import pytest

from analysis.data.load import load, unpacked
from analysis.data.runs import Run
from sim.cards import dump_yaml
from sim.run import runner
from sim.bots.policy import POLICY_PARAMS
from sim.play import run_games
from sim.rundir.parts import temporary_name
from sim.rundir import TABLES, RunError, check_parts, read_manifest
from sim.run.runner import simulate

ROOT = Path(__file__).resolve().parents[1]
CARDS = ROOT / "cards.yaml"
SCRIPT = Path(sys.executable).with_name("revachol")


def tables(run_dir):
    return {table: load(run_dir, table) for table in TABLES}


def assert_same_tables(a, b):
    for table in TABLES:
        assert a[table].equals(b[table]), table


@pytest.mark.slow
def test_same_tables_for_any_number_of_workers_and_chunk_size(tmp_path, default_arrays):
    one = simulate(CARDS, 1500, tmp_path / "one", players=3, seed=11, n_jobs=1, chunk_size=1500, progress=False)
    two = simulate(CARDS, 1500, tmp_path / "two", players=3, seed=11, n_jobs=2, chunk_size=400, progress=False)
    a, b = tables(one), tables(two)
    assert_same_tables(a, b)
    assert a["games"].height == 1500 and a["players"].height == 1500 * 3
    assert len(list((two / "games").glob("part-*.parquet"))) == 4
    direct = run_games(default_arrays, 3, 1500, seed=11).tables()
    direct["players"] = unpacked(direct["players"], default_arrays.n_allies)  # the sets of allies as load() gives them
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


def test_every_default_run_directory_is_named_by_run_name(default_deck):
    """A run's name, and each experiment's (its kind first; a comparison's second deck
    after vs; a sweep names its card and field instead of the card file)."""
    h = default_deck.content_hash[:8]
    assert runner.run_name(CARDS, default_deck, 600, 0, players="2,4", bots=["greedy", "search:iterations=64"]) == \
        f"cards-{h}-2,4p-greedy+search_iterations_64-600g-seed0"
    assert runner.run_name(CARDS, default_deck, 5000, 1, players=4, kind="tune") == f"tune-cards-{h}-4p-5000g-seed1"
    assert runner.run_name(CARDS, default_deck, 2000, 0, kind="skill") == f"skill-cards-{h}-2000g-seed0"
    assert runner.run_name(CARDS, default_deck, 800, 0, players=3, kind="compare", versus=(Path("b.yaml"), default_deck)) \
        == f"compare-cards-{h}-vs-b-{h}-3p-800g-seed0"
    assert runner.run_name(None, default_deck, 300, 5, players=2, kind="sweep-find_your_badge-points") == \
        f"sweep-find_your_badge-points-{h}-2p-300g-seed5"
    assert runner.run_name(CARDS, default_deck, 300, 0, players=4, bots="search-vs-planner", kind="card-value") == \
        f"card-value-cards-{h}-4p-search-vs-planner-300g-seed0"
    assert runner.run_name(CARDS, default_deck, None, 0, players=4, bots="greedy", kind="settled") == \
        f"settled-cards-{h}-4p-greedy-seed0"  # a run played until settled: no games in its name


def test_a_run_directory_is_not_overwritten_and_resume_needs_the_same_settings(tmp_path):
    out = simulate(CARDS, 100, tmp_path / "run", players=2, seed=1, n_jobs=1, chunk_size=50, progress=False)
    with pytest.raises(RunError, match="already holds a run"):
        simulate(CARDS, 100, out, players=2, seed=1, n_jobs=1, chunk_size=50, progress=False)
    with pytest.raises(RunError, match="root_seed differ"):
        simulate(CARDS, 100, out, players=2, seed=2, n_jobs=1, chunk_size=50, progress=False, resume=True)
    with pytest.raises(RunError, match="n_games differ"):  # more games play on (tests/test_settled.py); fewer never
        simulate(CARDS, 50, out, players=2, seed=1, n_jobs=1, chunk_size=50, progress=False, resume=True)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(RunError, match="not a run directory"):
        simulate(CARDS, 100, tmp_path / "other", players=2, progress=False)


def test_resume_refuses_a_run_whose_bot_has_new_defaults_since(tmp_path, monkeypatch):
    """``greedy`` in the manifest means greedy's defaults when the run was played; resuming
    it after they changed would mix two bots, so the resolved parameters are compared."""
    out = simulate(CARDS, 100, tmp_path / "run", players=2, bots="greedy", seed=1, n_jobs=1, chunk_size=50,
                   progress=False)  # fmt: skip
    assert read_manifest(out)["bot_params"] == [{"w_points": 1.0, "w_gift": 1.0, "draw_below": 5.0}] * 2
    (out / "games" / "part-00001.parquet").unlink()
    monkeypatch.setitem(POLICY_PARAMS, "greedy", {"w_points": 1.0, "w_gift": 1.0, "draw_below": 4.0})
    with pytest.raises(RunError, match="seat 0's greedy was played with draw_below=5.0 and now means draw_below=4.0"):
        simulate(CARDS, 100, out, players=2, bots="greedy", seed=1, n_jobs=1, chunk_size=50, progress=False,
                 resume=True)  # fmt: skip
    monkeypatch.undo()
    manifest = read_manifest(out)  # as an earlier version wrote it: compared by the bots' labels
    del manifest["bot_params"]
    (out / "manifest.json").write_text(json.dumps(manifest))
    simulate(CARDS, 100, out, players=2, bots="greedy", seed=1, n_jobs=1, chunk_size=50, progress=False, resume=True)
    assert read_manifest(out)["status"] == "complete" and len(read_manifest(out)["bot_params"]) == 2


def test_resume_takes_a_parameter_added_since_at_its_default_as_the_bot_of_then(tmp_path, monkeypatch):
    """A parameter added to a bot after a run was played (search's ``kinds``), at its
    default, plays as the bot did before it: the run resumes. The same parameter away
    from its default would be another label, which the bots' labels refuse."""
    out = simulate(CARDS, 100, tmp_path / "run", players=2, bots="greedy", seed=1, n_jobs=1, chunk_size=50,
                   progress=False)  # fmt: skip
    (out / "games" / "part-00001.parquet").unlink()
    monkeypatch.setitem(POLICY_PARAMS, "greedy", {**POLICY_PARAMS["greedy"], "w_new": 0.0})
    simulate(CARDS, 100, out, players=2, bots="greedy", seed=1, n_jobs=1, chunk_size=50, progress=False, resume=True)
    assert read_manifest(out)["status"] == "complete"
    assert read_manifest(out)["bot_params"][0] == {"w_points": 1.0, "w_gift": 1.0, "draw_below": 5.0, "w_new": 0.0}


def test_resume_redoes_only_missing_or_partial_chunks(tmp_path):
    out = simulate(CARDS, 400, tmp_path / "run", players=4, seed=3, n_jobs=1, chunk_size=100, progress=False)
    before = tables(out)
    (out / "players" / "part-00002.parquet").unlink()  # as if killed between two renames
    (out / "games" / "part-00003.parquet").rename(out / "games" / "part-00003.parquet.tmp")  # a half-written part
    (out / "heartbeats-killed.tmp").mkdir()  # the heartbeats of a run killed with SIGKILL (sim.run.supervisor)
    (out / "heartbeats-killed.tmp" / "1").touch()
    simulate(CARDS, 400, out, players=4, seed=3, n_jobs=1, chunk_size=100, progress=False, resume=True)
    manifest = json.loads((out / "manifest.json").read_text())
    assert [r["chunks"] for r in manifest["timings"]["runs"]] == [4, 2]
    assert not [*out.glob("*.tmp"), *out.glob("*/*.tmp")]
    assert_same_tables(before, tables(out))


@pytest.mark.slow
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


@pytest.mark.slow
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
    changed.write_text(dump_yaml(data))
    runs = [
        simulate(CARDS, 200, tmp_path / "a", players=4, bots="random", seed=8, n_jobs=1, progress=False),
        simulate(CARDS, 200, tmp_path / "b", players=4, bots="uniform", seed=8, n_jobs=1, progress=False),
        simulate(changed, 200, tmp_path / "c", players=4, bots="random", seed=8, n_jobs=1, progress=False),
    ]
    first = [load(run, "games")["first_player"] for run in runs]
    assert first[0].equals(first[1]) and first[0].equals(first[2])
    assert not load(runs[0], "games")["turns"].equals(load(runs[1], "games")["turns"])  # the bots did differ


# Issue 13 items 9-12: run directories are safe under concurrency and damage.


def test_a_second_writer_is_refused_at_once_naming_the_holder(tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys; from pathlib import Path; from sim.rundir.lock import locked\n"
         f"with locked(Path({str(out)!r})):\n    print('held', flush=True); sys.stdin.read()"],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(RunError, match=rf"being written by process {holder.pid} on "):
            simulate(CARDS, 100, out, players=2, seed=7, n_jobs=1, chunk_size=50, progress=False)
        with pytest.raises(RunError, match=rf"process {holder.pid}"):
            simulate(CARDS, 100, out, players=2, seed=8, n_jobs=1, chunk_size=50, progress=False, resume=True)
    finally:
        holder.communicate("")
    assert not (out / "manifest.json").exists() and not (out / "games").exists()
    simulate(CARDS, 100, out, players=2, seed=7, n_jobs=1, chunk_size=50, progress=False)  # released on exit


def test_temporary_part_names_are_unique_per_process_and_call(tmp_path):
    final = tmp_path / "part-00000.parquet"
    first, second = temporary_name(final), temporary_name(final)
    assert first != second and f".{os.getpid()}-" in first.name and first.name.endswith(".tmp")
    assert first.parent == final.parent and first.name.startswith(final.name)


def test_resume_replays_torn_empty_misplaced_and_altered_parts(tmp_path):
    out = simulate(CARDS, 500, tmp_path / "run", players=3, seed=3, n_jobs=1, chunk_size=100, progress=False)
    before = tables(out)
    torn = out / "games" / "part-00001.parquet"
    torn.write_bytes(torn.read_bytes()[: torn.stat().st_size // 2])
    (out / "players" / "part-00002.parquet").write_bytes(b"")
    shutil.copy(out / "cards" / "part-00000.parquet", out / "cards" / "part-00003.parquet")  # games 0..99, not 300..399
    altered = before["games"].filter(pl.col("game") < 100).with_columns(pl.col("turns") + 1)
    altered.write_parquet(out / "games" / "part-00000.parquet")  # right rows and games; only the checksum tells
    with pytest.raises(RunError, match=r"part games/part-00000.parquet: its checksum differs"):
        check_parts(out, read_manifest(out))
    simulate(CARDS, 500, out, players=3, seed=3, n_jobs=1, chunk_size=100, progress=False, resume=True)
    manifest = read_manifest(out)
    assert [r["chunks"] for r in manifest["timings"]["runs"]] == [5, 4]
    assert_same_tables(before, tables(out))
    check_parts(out, manifest)


def test_report_on_a_damaged_part_is_one_clear_line(tmp_path):
    if not SCRIPT.exists():
        pytest.skip("the revachol console script is not installed")
    out = simulate(CARDS, 200, tmp_path / "run", players=2, seed=1, n_jobs=1, chunk_size=100, progress=False)
    torn = out / "players" / "part-00001.parquet"
    torn.write_bytes(torn.read_bytes()[:100])
    result = subprocess.run([str(SCRIPT), "report", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    (line,) = result.stderr.strip().splitlines()
    assert "part players/part-00001.parquet: not readable Parquet" in line and "--resume" in line


@pytest.mark.parametrize("how", ["dev_zero", "moved_out", "fifo"])
def test_a_part_that_is_not_a_regular_file_is_refused_unread_and_resume_replays_it(tmp_path, how):
    """Issue 66 item 5: a part replaced by a link to /dev/zero (reading it never ends),
    moved out and linked back, or replaced by a FIFO (opening it blocks) is refused
    before it is opened, in one line naming it; resume plays its chunk again."""
    out = simulate(CARDS, 300, tmp_path / "run", players=2, seed=1, n_jobs=1, chunk_size=100, progress=False)
    before = tables(out)
    part = out / "games" / "part-00001.parquet"
    if how == "moved_out":
        part.rename(tmp_path / "elsewhere.parquet")
        part.symlink_to(tmp_path / "elsewhere.parquet")
    else:
        part.unlink()
        part.symlink_to("/dev/zero") if how == "dev_zero" else os.mkfifo(part)
    with pytest.raises(RunError, match=r"part games/part-00001.parquet: not a regular file inside the run directory"):
        check_parts(out, read_manifest(out))
    simulate(CARDS, 300, out, players=2, seed=1, n_jobs=1, chunk_size=100, progress=False, resume=True)
    assert not part.is_symlink() and part.is_file()
    assert_same_tables(before, tables(out))


def test_a_run_of_a_bot_file_edited_since_is_refused_not_resumed_as_its_bot(tmp_path):
    """Issue 66 item 3: the run records each user bot file's SHA-256; a rerun or resume
    after the file changed is refused in one line naming the file, never reported as
    the edited bot's games; the same file, to the byte, resumes."""
    bot_file = tmp_path / "mine.py"
    bot_file.write_text((ROOT / "examples" / "mybots.py").read_text(encoding="utf-8"), encoding="utf-8")
    spec = f"{bot_file}:careful"
    out = simulate(CARDS, 100, tmp_path / "run", players=2, bots=spec, seed=1, n_jobs=1, progress=False)
    assert read_manifest(out)["bot_files"] == {str(bot_file): hashlib.sha256(bot_file.read_bytes()).hexdigest()}
    simulate(CARDS, 200, out, players=2, bots=spec, seed=1, n_jobs=1, progress=False, resume=True)  # the same file
    bot_file.write_text(bot_file.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    with pytest.raises(RunError, match=f"bot file {re.escape(str(bot_file))} \\(changed since this run was played"):
        simulate(CARDS, 200, out, players=2, bots=spec, seed=1, n_jobs=1, progress=False, resume=True)


def test_bad_jobs_or_seed_leave_the_directory_usable_by_the_corrected_command(tmp_path):
    out = tmp_path / "run"
    with pytest.raises(ValueError, match="n_jobs"):
        simulate(CARDS, 100, out, players=2, n_jobs=0, progress=False)
    with pytest.raises(ValueError, match="root seed"):
        simulate(CARDS, 100, out, players=2, seed=-1, n_jobs=1, progress=False)
    simulate(CARDS, 100, out, players=2, seed=1, n_jobs=1, progress=False)
    assert read_manifest(out)["status"] == "complete"


def _chunk_on_full_disk(failing: int, *args, **kwargs):
    """:func:`sim.run.runner.run_chunk`, in its worker, with the part writes of chunks from
    ``failing`` on failing as on a full disk."""
    from sim.run import runner as worker_runner

    def write(frame, final):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(final))

    original = worker_runner.write_part
    worker_runner.write_part = write if args[4] >= failing else original
    try:
        return worker_runner.run_chunk(*args, **kwargs)  # the worker's own, never patched
    finally:
        worker_runner.write_part = original


def _disk_full_at(monkeypatch, chunk: int):
    """Make the part writes of chunk ``chunk`` and later fail as on a full disk, in the
    worker process that plays them (this module is sent to it by value)."""
    cloudpickle = pytest.importorskip("cloudpickle")  # loky's pickler for the tasks it sends
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    monkeypatch.setattr(runner, "run_chunk", functools.partial(_chunk_on_full_disk, chunk))


def test_a_full_disk_is_one_line_and_a_fresh_directory_is_left_empty(tmp_path, monkeypatch):
    _disk_full_at(monkeypatch, 0)
    out = tmp_path / "run"
    with pytest.raises(RunError) as error:
        simulate(CARDS, 200, out, players=2, seed=1, n_jobs=1, chunk_size=100, progress=False)
    message = str(error.value)
    assert "\n" not in message and "No space left on device" in message and "--resume" in message
    assert sorted(p.name for p in out.iterdir()) == [".lock"]  # nothing of the failed run is left
    monkeypatch.undo()
    simulate(CARDS, 200, out, players=2, seed=1, n_jobs=1, chunk_size=100, progress=False)  # no "already holds a run"


def test_a_full_disk_mid_run_leaves_a_failed_resumable_run(tmp_path, monkeypatch):
    _disk_full_at(monkeypatch, 1)  # the second chunk
    out = tmp_path / "run"
    with pytest.raises(RunError, match="No space left on device"):
        simulate(CARDS, 300, out, players=2, seed=1, n_jobs=1, chunk_size=100, progress=False)
    manifest = read_manifest(out)
    assert manifest["status"] == "failed" and sorted(manifest["parts"]) == [
        "cards/part-00000.parquet", "games/part-00000.parquet", "players/part-00000.parquet"]  # fmt: skip
    monkeypatch.undo()
    simulate(CARDS, 300, out, players=2, seed=1, n_jobs=1, chunk_size=100, progress=False, resume=True)
    manifest = read_manifest(out)
    assert manifest["status"] == "complete" and [r["chunks"] for r in manifest["timings"]["runs"]] == [2]
    assert load(out, "games").height == 300


def test_an_output_path_that_is_a_file_is_one_line(tmp_path):
    target = tmp_path / "taken"
    target.write_text("mine")
    with pytest.raises(RunError, match=r"cannot make the run directory .*taken: File exists"):
        simulate(CARDS, 100, target, players=2, n_jobs=1, progress=False)
    with pytest.raises(RunError, match=r"cannot make the run directory .*Not a directory"):
        simulate(CARDS, 100, target / "run", players=2, n_jobs=1, progress=False)
    assert target.read_text() == "mine"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only directories")
def test_a_read_only_output_path_is_one_line(tmp_path):
    tmp_path.chmod(0o555)
    try:
        with pytest.raises(RunError, match="Permission denied"):
            simulate(CARDS, 100, tmp_path / "run", players=2, n_jobs=1, progress=False)
    finally:
        tmp_path.chmod(0o755)


def test_a_manifest_that_is_not_an_object_is_one_line(tmp_path):
    out = simulate(CARDS, 100, tmp_path / "run", players=2, seed=1, n_jobs=1, progress=False)
    (out / "manifest.json").write_text("[1, 2]")
    with pytest.raises(RunError, match="a run manifest is a JSON object, this is a list"):
        simulate(CARDS, 100, out, players=2, seed=1, n_jobs=1, progress=False, resume=True)
    with pytest.raises(RunError, match="JSON object"):
        Run.open(out)


def _loky_workers(main: psutil.Process) -> list[psutil.Process]:
    return [p for p in main.children(recursive=True) if "popen_loky_posix" in " ".join(p.cmdline())]


def _simulate_in_background(out: Path, games: int, chunk_size: int) -> subprocess.Popen:
    """``revachol simulate --jobs 2`` in its own session, returned once three parts exist."""
    if not SCRIPT.exists():
        pytest.skip("the revachol console script is not installed")
    command = [str(SCRIPT), "simulate", "-n", str(games), "--players", "4", "--seed", "9", "--jobs", "2",
               "--chunk-size", str(chunk_size), "--quiet", "--out", str(out)]  # fmt: skip
    process = subprocess.Popen(command, cwd=ROOT, start_new_session=True, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)  # fmt: skip
    deadline = time.monotonic() + 300
    while len(list((out / "games").glob("part-*.parquet"))) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    return process


@pytest.mark.slow
def test_kill_9_of_the_main_process_takes_its_workers_with_it(tmp_path):
    process = _simulate_in_background(tmp_path / "run", 400_000, 1000)
    try:
        workers = _loky_workers(psutil.Process(process.pid))
        assert workers, "the run should be playing on loky workers"
        os.kill(process.pid, signal.SIGKILL)  # the main process only
        process.wait()
        _, alive = psutil.wait_procs(workers, timeout=10)
        assert not alive, f"workers outlived the main process: {[p.pid for p in alive]}"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)


def test_a_killed_worker_is_one_line_with_the_resume_hint(tmp_path):
    process = _simulate_in_background(tmp_path / "run", 400_000, 1000)
    try:
        workers = _loky_workers(psutil.Process(process.pid))
        assert workers, "the run should be playing on loky workers"
        workers[0].kill()
        _, stderr = process.communicate(timeout=300)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 1 and "Traceback" not in stderr
    (line,) = stderr.strip().splitlines()
    assert line.startswith("error: a worker process died") and "--resume" in line
    assert read_manifest(tmp_path / "run")["status"] == "failed"


def test_a_stray_joblib_py_in_the_working_directory_is_not_imported_by_workers(tmp_path):
    if not SCRIPT.exists():
        pytest.skip("the revachol console script is not installed")
    marker = tmp_path / "imported"
    (tmp_path / "joblib.py").write_text(f"open({str(marker)!r}, 'w').close()\nraise ImportError('stray joblib.py')\n")
    out = tmp_path / "run"
    result = subprocess.run([str(SCRIPT), "simulate", "-n", "200", "--chunk-size", "50", "--jobs", "2", "--quiet",
                             "--cards", str(CARDS), "--out", str(out)], cwd=tmp_path, capture_output=True, text=True,
                            timeout=600)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert not marker.exists()
    assert load(out, "games").height == 200
