"""One pass over a run's parts (analysis.data.stream): batches per chunk equal the
whole tables, and parts that disagree are refused."""

import numpy as np
import polars as pl
import pytest

from analysis.data.load import load
from analysis.data.runs import Run
from analysis.data.stream import Columns, batches, reduce_run
from sim.rundir import RunError
from sim.runner import simulate


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
