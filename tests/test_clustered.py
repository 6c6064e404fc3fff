"""Game-clustered intervals (issue: card strength, item 4): they agree with
statsmodels' cluster-robust standard error and cover at their nominal level on
simulated games whose players share the game, where intervals that treat player
rows as independent do not."""

import functools

import numpy as np
import pytest
import statsmodels.api as sm
from scipy import stats as sps

from analysis.stats.clustered import CountMoments, GameMoments, ratio_columns, ratio_difference_columns, sum_moments
from analysis.stats.inference import mean_interval, wilson

PLAYERS = 4


def _games(rng, games):
    """Penalties per player: each game has its own rate (its morale cards and length),
    shared by its players."""
    rate = rng.gamma(2.0, 1.0, size=(games, 1))
    return rng.poisson(np.repeat(rate, PLAYERS, axis=1))


def _half_width(columns, name):
    return (columns[f"{name}_high"] - columns[f"{name}_low"]) / 2


def test_a_per_player_mean_has_statsmodels_cluster_robust_standard_error():
    y = _games(np.random.default_rng(1), 300)
    columns = ratio_columns("mean", GameMoments.of(np.stack([y.sum(1), np.full(300, PLAYERS)], axis=1)), rate=False)
    groups = np.repeat(np.arange(300), PLAYERS)
    fit = sm.OLS(y.ravel().astype(float), np.ones(y.size)).fit(cov_type="cluster", cov_kwds={"groups": groups})
    assert columns["mean"] == pytest.approx(fit.params[0])
    assert _half_width(columns, "mean") / sps.t.ppf(0.975, 299) == pytest.approx(fit.bse[0], rel=1e-9)


def test_a_clustered_rate_is_wilson_at_the_effective_sample_size_and_stays_in_bounds():
    # Games with independent players (deff = 1 up to noise) give about Wilson's interval;
    # a rate of 1 over one row gives Wilson's exact [0.207, 1], not a zero-width interval.
    columns = ratio_columns("r", GameMoments.of(np.array([[1.0, 1.0], [0.0, 0.0]])))
    low, high = wilson(1, 1)
    assert (columns["r"], columns["r_low"], columns["r_high"]) == (1.0, pytest.approx(low), 1.0)
    rng = np.random.default_rng(5)
    wins = rng.random((5_000, PLAYERS)) < 0.3
    columns = ratio_columns("r", GameMoments.of(np.stack([wins.sum(1), np.full(5_000, PLAYERS)], axis=1)))
    low, high = wilson(wins.sum(), wins.size)
    assert columns["r_low"] == pytest.approx(low, abs=1e-3) and columns["r_high"] == pytest.approx(high, abs=1e-3)


def test_chunked_moments_equal_moments_of_the_whole():
    z = np.random.default_rng(2).random((50, 3, 2))
    whole, parts = GameMoments.of(z), sum_moments([z[:20], z[20:]])
    np.testing.assert_allclose(whole.total, parts.total)
    np.testing.assert_allclose(whole.covariance(), parts.covariance())


def test_count_moments_of_chunks_that_saw_different_largest_counts_equal_the_whole():
    """Wins and players saved 0, 1, 2 … times (R8.2): a chunk whose players were saved
    at most once counts zero players saved twice (issue 31)."""
    saves = np.random.default_rng(4).integers(0, 4, (60, PLAYERS))
    saves[:30] = np.minimum(saves[:30], 1)

    def z(rows):
        seen = rows[..., None] == np.arange(rows.max() + 1)
        return np.stack([seen[:, :1].sum(1), seen.sum(1)], axis=-1)  # (G, values, 2): the first seat's, all

    whole, parts = CountMoments.of(z(saves)), CountMoments.of(z(saves[:30])) + CountMoments.of(z(saves[30:]))
    assert parts.values == whole.values == 4 and parts.games == 60
    np.testing.assert_array_equal(parts.total, whole.total)
    np.testing.assert_array_equal(parts.cross, whole.cross)


def test_clustered_intervals_cover_95_percent_where_row_intervals_do_not():
    rng = np.random.default_rng(3)
    truth = 2.0  # the gamma(2, 1) mean rate
    clustered = independent = 0
    replications, games = 400, 200
    for _ in range(replications):
        y = _games(rng, games)
        columns = ratio_columns("m", GameMoments.of(np.stack([y.sum(1), np.full(games, PLAYERS)], axis=1)), rate=False)
        clustered += columns["m_low"] <= truth <= columns["m_high"]
        low, high = mean_interval(y.mean(), y.std(ddof=1), y.size)
        independent += low <= truth <= high
    assert 0.92 <= clustered / replications <= 0.98
    assert independent / replications < 0.85


def _held_games(rng, games):
    """Each player holds the ally with chance 0.4; a holder's odds of winning are
    twice a non-holder's, and each game has one winner (R9.3)."""
    held = rng.random((games, PLAYERS)) < 0.4
    odds = np.where(held, 2.0, 1.0)
    winner = (rng.random((games, 1)) < np.cumsum(odds / odds.sum(1, keepdims=True), axis=1)).argmax(1)
    return held, np.arange(PLAYERS) == winner[:, None]


@functools.cache
def _population_iwd() -> float:
    """E[holder wins]/E[holders] − E[other wins]/E[others], from two million games."""
    held, won = _held_games(np.random.default_rng(99), 2_000_000)
    return (held & won).sum() / held.sum() - (~held & won).sum() / (~held).sum()


def test_clustered_iwd_interval_covers_a_known_difference_of_rates():
    """Held vs never held (17lands' IWD) when the players of a game share one winner."""
    rng = np.random.default_rng(4)
    covered, replications, games = 0, 300, 400
    for _ in range(replications):
        held, won = _held_games(rng, games)
        z = np.stack([(held & won).sum(1), held.sum(1), (~held & won).sum(1), (~held).sum(1)], axis=1)
        columns = ratio_difference_columns("iwd", GameMoments.of(z))
        covered += columns["iwd_low"] <= _population_iwd() <= columns["iwd_high"]
    assert 0.92 <= covered / replications <= 0.98
