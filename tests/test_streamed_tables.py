"""Report tables read a run chunk by chunk (issue 31): on a run of three chunks their
counts and summaries equal numpy's on the whole tables loaded at once."""

import numpy as np
import polars as pl
import pytest

from analysis.closeness import closeness
from analysis.data.load import load
from analysis.data.runs import Run
from analysis.length import game_length, length_histogram
from analysis.morale import win_rate_by_saves
from analysis.seats import game_counts, score_summary
from analysis.stats.inference import PERCENTILES
from analysis.stats.per_player import summarise_per_player
from sim.run.runner import simulate


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("streamed") / "run"
    return simulate("cards.yaml", 700, out, players=3, bots="random", seed=5, n_jobs=1, chunk_size=300, progress=False)


def _spread(values: np.ndarray) -> dict[str, float]:
    return {"sd": values.std(ddof=1), "median": np.median(values), **{f"p{p}": np.percentile(values, p) for p in PERCENTILES},
            "min": values.min(), "max": values.max()}  # fmt: skip


def test_game_length_and_its_histogram_over_three_chunks_equal_numpy_on_every_game(run_dir):
    turns = load(run_dir, "games")["turns"].to_numpy()
    row = game_length(run_dir).set_index("measure").loc["turns"]
    assert row["games"] == 700 and row["mean"] == pytest.approx(turns.mean(), rel=1e-12)
    assert {key: row[key] for key in _spread(turns)} == pytest.approx(_spread(turns), rel=1e-12)
    histogram = length_histogram(run_dir)
    values, counts = np.unique(turns, return_counts=True)
    assert histogram["turns"].tolist() == values.tolist() and histogram["count"].tolist() == counts.tolist()


def test_per_player_summary_over_three_chunks_equals_numpy_on_the_player_rows(run_dir):
    saves = load(run_dir, "players")["saves"].to_numpy()
    row = summarise_per_player(Run.open(run_dir), {"saves": "saves"}).iloc[0]
    assert (row["player_games"], row["games"]) == (2100, 700) and row["mean"] == pytest.approx(saves.mean(), rel=1e-12)
    assert {key: row[key] for key in _spread(saves)} == pytest.approx(_spread(saves), rel=1e-12)


def test_scores_by_position_leave_out_unfinished_games_as_the_whole_table_does(run_dir):
    games = load(run_dir, "games").filter((pl.col("stalled") + pl.col("truncated")) == 0)["game"]
    players = load(run_dir, "players").filter(pl.col("game").is_in(games.implode()))
    table = score_summary(run_dir).set_index("position")
    for order in range(3):
        scores = players.filter(pl.col("turn_order") == order)["score"].to_numpy()
        assert table.loc[order + 1, "player_games"] == len(games) == len(scores)
        assert table.loc[order + 1, "mean"] == pytest.approx(scores.mean(), rel=1e-12)
        assert table.loc[order + 1, "p95"] == np.percentile(scores, 95)


def test_win_rate_by_saves_counts_every_number_of_saves_seen_in_any_chunk(run_dir):
    games = load(run_dir, "games").filter((pl.col("stalled") + pl.col("truncated")) == 0)["game"]
    players = load(run_dir, "players").filter(pl.col("game").is_in(games.implode()))
    saves, won = players["saves"].to_numpy(), players["won"].to_numpy()
    table = win_rate_by_saves(run_dir)
    assert table["saves"].tolist() == list(range(saves.max() + 1))
    assert table["player_games"].tolist() == np.bincount(saves).tolist()
    assert table["wins"].tolist() == np.bincount(saves, weights=won).astype(int).tolist()


def test_decisiveness_is_the_mean_share_of_turns_over_games_where_a_seat_led_alone(run_dir):
    games = load(run_dir, "games").filter((pl.col("stalled") + pl.col("truncated")) == 0)
    led = games.filter(pl.col("lead_taken_turn") > 0)
    share = (led["lead_taken_turn"] / led["turns"]).to_numpy()
    row = closeness(run_dir).set_index("measure").loc["decisiveness"]
    assert row["games"] == len(share) and row["value"] == pytest.approx(share.mean(), rel=1e-12)
    assert row["median"] == pytest.approx(np.median(share), rel=1e-12)


def test_tables_of_one_opened_run_share_a_pass_and_a_reopened_run_is_read_afresh(run_dir):
    run = Run.open(run_dir)
    assert game_counts(run) is game_counts(run)  # seat_win_rates, seat_balance … read the parts once
    assert game_counts(run, include_unfinished=True) is not game_counts(run)
    again = game_counts(Run.open(run_dir))
    assert again is not game_counts(run) and again["wins"].tolist() == game_counts(run)["wins"].tolist()
