"""One pass over a run's parts (analysis.data.stream): batches per chunk equal the
whole tables, and parts that disagree are refused."""

import numpy as np
import polars as pl
import pytest

from analysis.data.load import load
from analysis.data.runs import Run
from analysis.data.stream import Columns, batches, reduce_run
from sim.rundir import RunError
from sim.run.runner import simulate


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("stream") / "run"
    return simulate("cards.yaml", 700, out, players=3, bots="random", seed=5, n_jobs=1, chunk_size=300, progress=False)


def test_batches_cover_every_game_once_in_order_with_the_tables_values(run_dir):
    run = Run.open(run_dir)
    got = list(batches(run, Columns(games=("turns",), players=("score", "held"), cards=("task_status",))))
    assert [b.size for b in got] == [300, 300, 100]  # chunks of 300 games: 700 = 300 + 300 + 100
    players, games, cards = (load(run_dir, t) for t in ("players", "games", "cards"))
    assert np.array_equal(np.concatenate([b.game for b in got]), np.arange(700))
    assert np.array_equal(np.concatenate([b.games["turns"] for b in got]), games["turns"].to_numpy())
    assert np.array_equal(np.concatenate([b.players["score"] for b in got]).ravel(), players["score"].to_numpy())
    assert np.concatenate([b.players["held"] for b in got]).shape == (700, 3, 40)
    assert np.array_equal(np.concatenate([b.cards["task_status"] for b in got]), cards["task_status"].to_numpy())


def test_finished_batches_leave_out_exactly_the_stalled_and_truncated_games(run_dir):
    run = Run.open(run_dir)
    games = load(run_dir, "games")
    finished = games.filter((pl.col("stalled") + pl.col("truncated")) == 0)["game"].to_numpy()
    got = np.concatenate([b.game for b in batches(run, Columns(), include_unfinished=False)])
    assert np.array_equal(got, finished)


def test_reduce_run_sums_each_chunks_totals(run_dir):
    run = Run.open(run_dir)
    totals = reduce_run(run, Columns(players=("won",)), lambda b: {"wins": b.players["won"].sum(0), "games": b.size})
    assert totals["games"] == 700
    assert totals["wins"].sum() == load(run_dir, "players")["won"].sum()


def test_a_players_part_out_of_order_is_sorted_and_one_missing_rows_is_refused(run_dir, tmp_path):
    import shutil

    copy = tmp_path / "run"
    shutil.copytree(run_dir, copy)
    part = copy / "players" / "part-00001.parquet"
    frame = pl.read_parquet(part)
    frame.sample(fraction=1.0, shuffle=True, seed=1).write_parquet(part)
    expected = load(run_dir, "players").filter(pl.col("game").is_between(300, 599))["score"].to_numpy()
    run = Run(copy, Run.open(run_dir).manifest, Run.open(run_dir).deck)  # the checksums no longer match: skip open's check
    got = list(batches(run, Columns(players=("score",))))[1]
    assert np.array_equal(got.players["score"].ravel(), expected)
    frame.slice(1).write_parquet(part)
    with pytest.raises(RunError, match="part-00001.parquet does not hold one row per player of every game"):
        list(batches(run, Columns(players=("score",))))


def test_prefetch_reads_each_part_once_and_gives_each_pass_the_totals_of_its_own_pass(run_dir, monkeypatch):
    import analysis.data.stream as stream
    from analysis.data.passes import Pass, prefetch, totals_of

    wins = Pass("wins", Columns(players=("won",)), lambda b: {"wins": b.players["won"].sum(0)}, include_unfinished=False)
    turns = Pass("turns", Columns(games=("turns",)), lambda b: {"turns": b.games["turns"].sum(), "games": b.size})
    alone = {p.key: reduce_run(Run.open(run_dir), p.columns, p.totals, p.include_unfinished) for p in (wins, turns)}
    reads = []
    chunk_batch = stream.chunk_batch
    monkeypatch.setattr(stream, "chunk_batch", lambda run, chunk, columns: reads.append(chunk) or chunk_batch(run, chunk, columns))
    run = Run.open(run_dir)
    prefetch(run, [wins, turns])
    assert reads == [0, 1, 2]  # three parts, each read once for both passes
    for p in (wins, turns):
        got = totals_of(run, p)
        assert got.keys() == alone[p.key].keys()
        for key in got:
            assert np.array_equal(got[key], alone[p.key][key]), (p.key, key)
    assert reads == [0, 1, 2]  # totals_of gave the prefetched totals without reading again


def test_reduce_run_on_two_local_workers_sums_in_chunk_order_as_one_process_does(run_dir):
    import os

    from analysis.data.pool import local_workers

    run, here = Run.open(run_dir), os.getpid()

    def totals(batch):
        return {"first": (int(batch.game[0]),), "pids": (os.getpid(),), "score": batch.players["score"].sum(0)}

    alone = reduce_run(run, Columns(players=("score",)), totals)
    with local_workers(2):
        both = reduce_run(run, Columns(players=("score",)), totals)
    assert both["first"] == (0, 300, 600)  # tuples add up by concatenation: each chunk's first game, in chunk order
    assert here not in both["pids"] and set(alone["pids"]) == {here}
    assert np.array_equal(both["score"], alone["score"])
