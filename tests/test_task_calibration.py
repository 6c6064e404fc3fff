"""Task reward calibration (issue 35): out of line means out of order.

The statistics are tested on synthetic per-game completions drawn with a seeded rng
from the default deck's points-blind completion rates (R6; measured in 100,000
greedy games with every task paying 3 points): decks whose points are a monotone
function of difficulty are fair by construction (placebo), one task given 2 points
more or fewer is not (planted). One small end-to-end test plays real games with
their points-blind companion."""

import json
import os
import shutil

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import logit
from scipy.stats import norm

from analysis.stats.clustered import GameMoments
from analysis.stats import monotone_par as monotone_par_module
from analysis.stats.monotone_par import _refitted, _sides, monotone_par, resampled_rates
from analysis.task_calibration import (AS_PLAYED, POINTS_BLIND, order_verdicts, out_of_order_with, points_text,
                                      task_calibration)
from sim.run.points_blind import blind_points, companion_dir, play_points_blind, points_blind_deck
from sim.run.runner import simulate

# The default deck's tasks, in deck order: completion rate with every task at 3 points, and printed points.
RATES = np.array([0.7977, 0.8076, 0.9980, 0.9966, 0.9966, 0.9964, 0.9977, 0.9967, 0.9979, 0.7100, 0.7920, 0.6696,
                  0.8082, 0.6854, 0.6368, 0.7094, 0.8096, 0.2514, 0.2649, 0.2312, 0.2202, 0.1871, 0.0484, 0.0639,
                  0.0894])  # fmt: skip
POINTS = np.array([3, 3, 2, 1, 1, 1, 2, 1, 1, 3, 2, 2, 2, 2, 2, 2, 3, 4, 4, 4, 3, 5, 6, 6, 5], np.float64)
SHOOTING_POSITION, FIND_THE_ARMOUR = 20, 13
GAMES = 5_000


def completions(seed: int, games: int = GAMES, correlation: float = 0.3):
    """Per-game completions of the 25 tasks at :data:`RATES`, correlated within a game
    (a Gaussian copula with one game-level factor: some games go well for every task).

    Returns the per-game completions ``done`` bool (G, T), their GameMoments and the observed rates (T,)."""
    rng = np.random.default_rng(seed)
    shared = rng.standard_normal((games, 1))
    latent = correlation * shared + np.sqrt(1 - correlation**2) * rng.standard_normal((games, len(RATES)))
    done = norm.cdf(latent) < RATES
    return done, GameMoments.of(done), done.mean(0)


def verdicts(points, seed: int, games: int = GAMES):
    _, moments, rate = completions(seed, games)
    return order_verdicts(points, rate, resampled_rates(moments))


def rescale(x: np.ndarray) -> np.ndarray:
    """1 point for the easiest task up to 6 for the hardest, linear in ``x``, rounded (the engine's points are integers)."""
    return np.rint(1 + 5 * (x.max() - x) / (x.max() - x.min()))


PLACEBOS = {  # every one pays a harder task at least as much as an easier one
    "step": np.digitize(-RATES, np.quantile(-RATES, [1 / 6, 2 / 6, 3 / 6, 4 / 6, 5 / 6])) + 1.0,
    "linear in the rate": rescale(RATES),
    "linear in logit(rate)": rescale(logit(RATES)),
}


@pytest.mark.parametrize("deck", PLACEBOS)
def test_r6_a_deck_paying_in_order_of_points_blind_difficulty_is_flagged_on_at_most_one_task(deck):
    points = PLACEBOS[deck]
    assert all(points[RATES < r].min(initial=9) >= p for r, p in zip(RATES, points))  # fair by construction
    flagged = [int((verdicts(points, seed)[1] != "").sum()) for seed in range(5)]
    assert max(flagged) <= 1, flagged


@pytest.mark.parametrize("planted, verdict, partner", [(2.0, "overpays", "underpays"), (-2.0, "underpays", "overpays")])
def test_r6_a_task_paid_two_points_out_of_order_is_flagged_in_its_direction(planted, verdict, partner):
    points = PLACEBOS["step"].copy()
    task = FIND_THE_ARMOUR  # 68.5%: inside the step's 4-point band, between Search the Commercial Area and Wild Pines
    points[task] += planted
    side = np.sign(planted) * (RATES[task] - RATES)  # > 0: on the side of the tasks it is out of order with
    partners = set(np.flatnonzero((side > 0) & (np.sign(planted) * (points[task] - points) >= 1)))
    for seed in range(2):
        par, verdicts_, _ = verdicts(points, seed, games=20_000)
        assert verdicts_[task] == verdict and abs(par["gap_points"][task]) == 2, seed
        assert par["par_points_low"][task] <= par["par_points"][task] <= par["par_points_high"][task]
        # Any other flag is a task the planted one is out of order with, flagged the other way.
        others = set(np.flatnonzero(verdicts_ != "")) - {task}
        assert others <= partners and all(verdicts_[j] == partner for j in others), (seed, others)


def test_r6_the_default_deck_underpays_find_the_shooters_position_against_easier_four_point_tasks():
    par, verdict, q_value = verdicts(POINTS, seed=0, games=100_000)
    assert verdict[SHOOTING_POSITION] == "underpays" and q_value[SHOOTING_POSITION] <= 0.05
    assert par["pays_easier"][SHOOTING_POSITION] == 4 and par["gap_points"][SHOOTING_POSITION] == -1


def test_no_par_is_extrapolated_beyond_the_hardest_or_easiest_other_task():
    rates = np.array([0.9, 0.7, 0.5, 0.3, 0.1])
    par = monotone_par(np.array([9.0, 2.0, 3.0, 4.0, 1.0]), rates, rates[None, :], 1.0)
    assert np.isnan(par["pays_easier"][0]) and np.isnan(par["pays_harder"][-1])
    # The easiest task paying 9 is set against the others' monotone fit at the task next to it (2 points); the
    # hardest, paying 1, against the fit at its easier neighbour, which pools 4, 3, 2 and 9 into 4.5.
    assert par["gap_points"][0] == 9 - 2 and par["gap_points"][-1] == 1 - 4.5


def test_ties_in_difficulty_are_pooled_and_count_as_both_as_hard_and_as_easy():
    rates = np.array([0.8, 0.5, 0.5, 0.2])
    par = monotone_par(np.array([1.0, 2.0, 4.0, 5.0]), rates, rates[None, :], 1.0)
    assert par["pays_harder"][1] == par["pays_easier"][1] == 4  # its tied twin
    assert par["gap_points"][1] == -2


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 6), st.integers(0, 8)), min_size=2, max_size=30))
def test_the_min_max_fits_equal_pool_adjacent_violators_refitted_without_each_task(tasks):
    """Oracle: every leave-one-out fit of the array formula, ties and all, equals
    scipy's isotonic regression (pool adjacent violators) refitted without that task,
    the path of decks of many tasks."""
    points = np.array([p for p, _ in tasks], np.float64)
    rank = np.sort(np.array([r for _, r in tasks], np.float64))  # in order of difficulty; equal ranks are ties
    for got, want in zip(_sides(points[None], rank[None]), _refitted(points[None], rank[None])):
        assert np.allclose(got, want, rtol=0, atol=1e-12, equal_nan=True)


def test_a_deck_of_many_tasks_is_fitted_in_memory_that_does_not_grow_with_their_square(monkeypatch):
    """Past BUDGET for one sequence, the fits are scipy's, one task left out at a time:
    the same pars (here forced at 25 tasks, where the array formula would hold
    25 x 26 x 25 = 16,250 elements a sequence)."""
    rates = RATES + np.linspace(0, 1e-4, len(RATES))  # no ties
    replicates = rates + np.random.default_rng(3).normal(0, 0.01, (50, len(RATES)))
    fast = monotone_par(POINTS, rates, replicates, 1.0)
    monkeypatch.setattr(monotone_par_module, "BUDGET", 16_249)
    slow = monotone_par(POINTS, rates, replicates, 1.0)
    for key, value in fast.items():
        assert np.allclose(value, slow[key], rtol=0, atol=1e-12, equal_nan=True), key


def test_resampled_rates_keep_games_whole_and_are_reproducible():
    done, moments, rate = completions(seed=4, games=2_000, correlation=0.8)
    first, again = resampled_rates(moments, 1_000, seed=1), resampled_rates(moments, 1_000, seed=1)
    assert np.array_equal(first, again) and first.shape == (1_000, 25)
    assert np.allclose(first.mean(0), rate, atol=0.005)
    # Games stay whole: two tasks' rates co-vary across resamples as their completions do across games.
    per_game = np.corrcoef(done[:, 9], done[:, 11])[0, 1]
    assert per_game > 0.3 and abs(np.corrcoef(first[:, 9], first[:, 11])[0, 1] - per_game) < 0.1


@pytest.fixture(scope="module")
def small_run(tmp_path_factory, default_deck):
    """3,000 greedy games of the default deck, and their points-blind companion."""
    run = simulate(default_deck, 3_000, tmp_path_factory.mktemp("runs") / "run", players=4, bots="greedy", seed=2,
                   n_jobs=2, chunk_size=1_000, progress=False)  # fmt: skip
    play_points_blind(run, n_jobs=2, progress=False)
    return run


def test_the_points_blind_companion_replays_the_games_with_every_task_paying_the_mean(small_run, default_deck):
    manifest = json.loads((small_run / "manifest.json").read_text())
    assert manifest["companions"]["points_blind"] == {"dir": "points_blind", "task_points": 3}
    blind = json.loads((companion_dir(small_run) / "manifest.json").read_text())
    assert [blind[k] for k in ("n_games", "root_seed", "bots", "chunk_size")] == \
        [manifest[k] for k in ("n_games", "root_seed", "bots", "chunk_size")]  # fmt: skip
    assert blind_points(default_deck) == 3  # 70 points over 25 tasks, 2.8, rounded
    assert {task.points for task in points_blind_deck(default_deck).tasks} == {3}
    assert blind["deck_hash"] == points_blind_deck(default_deck).content_hash


def test_resuming_the_run_keeps_its_companion_on_record(small_run, default_deck):
    simulate(default_deck, 3_000, small_run, players=4, bots="greedy", seed=2, n_jobs=1, chunk_size=1_000,
             progress=False, resume=True)  # fmt: skip
    assert "points_blind" in json.loads((small_run / "manifest.json").read_text())["companions"]


def test_the_calibration_reads_difficulty_from_the_companion_and_falls_back_to_as_played(small_run, tmp_path):
    table = task_calibration(small_run, resamples=499)
    assert (table["difficulty"] == POINTS_BLIND).all() and table["points_blind_rate"].notna().all()
    assert not np.allclose(table["points_blind_rate"], table["completion_rate"])  # the bots chase points
    manifest = json.loads((small_run / "manifest.json").read_text())
    bare = tmp_path / "bare"
    bare.mkdir()
    for table in ("games", "players", "cards"):  # hard links: a run's parts are regular files in it, never links
        shutil.copytree(small_run / table, bare / table, copy_function=os.link)
    shutil.copy(small_run / "cards.yaml", bare / "cards.yaml")
    (bare / "manifest.json").write_text(json.dumps({k: v for k, v in manifest.items() if k != "companions"}))
    fallback = task_calibration(bare, resamples=499)
    assert (fallback["difficulty"] == AS_PLAYED).all() and fallback["points_blind_rate"].isna().all()
    assert "no points-blind companion" in fallback["difficulty_note"].iloc[0]


def test_a_gap_of_one_point_is_written_in_the_singular_whatever_its_number_type():
    assert [points_text(v) for v in (np.float64(-1.0), np.int64(2), 0.8333)] == ["1 point", "2 points", "0.83 points"]


def test_r6_a_verdict_names_the_tasks_it_is_out_of_order_with_and_a_pair_out_of_order_is_named_without_one():
    rows = pd.DataFrame({"name": ["Recover the bullet", "Find your badge", "Find your gun"], "points": [2, 3, 1]})
    rate = np.array([0.635, 0.799, 0.99])
    harder_share = (rate[None, :] <= rate[:, None]).astype(float)  # [i, j]: j as hard as i or harder
    text = out_of_order_with(rows, rate, harder_share, np.array(["underpays", "", ""]), 1.0, "when all tasks pay alike")
    assert text == [
        "Recover the bullet pays 2 points; Find your badge, completed more often (79.9% against 63.5% when all tasks "
        "pay alike), pays 3.",
        "Find your badge pays 3 points; Recover the bullet, completed less often (63.5% against 79.9% when all tasks "
        "pay alike), pays 2.",
        "",  # the easiest task paying least is in order with both
    ]
