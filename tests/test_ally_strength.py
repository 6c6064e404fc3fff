"""Ally strength you can trust (issue: card strength): the conditional logit against
the average ally agrees with statsmodels, flags nothing when no ally can matter
(labels shuffled within games; a deck of identical allies), and flags a planted
stronger ally."""

import numpy as np
import pytest
from statsmodels.discrete.conditional_models import ConditionalLogit

from analysis.cards import DEFAULT_THRESHOLD_PP, ally_strength, verdicts
from analysis.data.player_games import chunks, player_arrays
from analysis.data.spool import AllySpool
from analysis.stats import ally_model
from analysis.stats.ally_model import MIN_INFORMATIVE_GAMES, ally_effects, ally_effects_by_group, effect_pp, fit_softmax
from analysis.data.runs import Run
from sim.run.runner import simulate

GAMES = 20_000


def _run(deck, path, seed=5):
    return simulate(deck, GAMES, path, players=4, bots="greedy", seed=seed, n_jobs=2, progress=False)


def _plain_deck(default_deck, planted: bool = False):
    """Every ally the same plain card (one White Crown, 0 points, no ability), ids kept;
    with ``planted`` the first ally has a second White Crown."""
    plain = [ally.model_copy(update={"symbols": ["crown"], "points": 0, "ability": None}) for ally in default_deck.allies]
    if planted:
        plain[0] = plain[0].model_copy(update={"symbols": ["crown", "crown"]})
    return default_deck.model_copy(update={"allies": plain})


@pytest.fixture(scope="module")
def default_run(tmp_path_factory, default_deck):
    return Run.open(_run(default_deck, tmp_path_factory.mktemp("runs") / "default"))


@pytest.mark.slow
def test_the_out_of_core_softmax_fit_matches_statsmodels_conditional_logit(default_run, monkeypatch):
    """Newton steps on totals summed chunk by chunk reach statsmodels' maximum (its
    Newton run to 1e-12) to 1e-9, in a few passes."""
    monkeypatch.setattr(ally_model, "START_GAMES", 500)  # start on the first chunk only: the passes do the work
    data = player_arrays(default_run, "held", "won")
    held, won = data["held"][:1_500], data["won"][:1_500]
    games, n, allies = held.shape
    x = np.concatenate([held.astype(np.float64), np.broadcast_to(np.eye(n)[:, 1:], (games, n, n - 1))], axis=2)
    chunks = [(x[part].astype(np.float32), won[part].argmax(1)) for part in (slice(0, 700), slice(700, None))]
    ours = fit_softmax(lambda: iter(chunks))
    theirs = ConditionalLogit(won.reshape(-1).astype(float), x.reshape(games * n, -1),
                              groups=np.repeat(np.arange(games), n)).fit(method="newton", tol=1e-12, disp=0)  # fmt: skip
    assert ours.converged and ours.passes <= 5
    np.testing.assert_allclose(ours.params, theirs.params, atol=1e-9)
    np.testing.assert_allclose(np.sqrt(np.diag(ours.cov_model)), theirs.bse, rtol=1e-6)


def test_ally_effects_do_not_depend_on_how_the_games_are_chunked(default_run, monkeypatch):
    """The streamed report (ally_strength: one batch per part) and the in-memory fit
    in chunks of 3,000 games give the same effects to 1e-9 and intervals to 1e-7
    (each is the covariance at its last pass, within STEP_TOL of the maximum)."""
    data = player_arrays(default_run, "held", "won")
    held, winner, group = data["held"], data["won"].argmax(1), np.zeros(data["won"].shape, np.int64)
    streamed = ally_strength(default_run)
    monkeypatch.setattr(ally_model, "START_GAMES", 3_000)
    in_chunks = lambda: ((held[part], winner[part], group[part]) for part in chunks(len(winner), 3_000))  # noqa: E731
    chunked = ally_effects_by_group(in_chunks, held.shape[1], 1)[0][0]
    np.testing.assert_allclose(streamed["effect_pp"], chunked["effect_pp"], rtol=1e-9)
    for key in ("effect_low_pp", "effect_high_pp", "p_value"):
        np.testing.assert_allclose(streamed[key], chunked[key], rtol=1e-7, atol=1e-12)
    np.testing.assert_array_equal(streamed["informative_games"], chunked["informative_games"])


def test_a_covariate_that_separates_winners_from_losers_is_reported_as_not_converged():
    """The likelihood has no maximum when the holder always wins: the fit stops
    after MAX_EVALUATIONS passes and says so (ally_effects_by_group then leaves the
    groups' effects empty)."""
    rng = np.random.default_rng(1)
    x = np.zeros((400, 2, 2))
    x[:, 0, 0] = 1.0  # the first player holds the ally in every game, and wins every game
    x[:, :, 1] = rng.integers(0, 2, (400, 2))  # noise
    fit = fit_softmax(lambda: [(x[:200], np.zeros(200, np.int64)), (x[200:], np.zeros(200, np.int64))])
    assert not fit.converged
    assert fit.passes <= ally_model.MAX_EVALUATIONS + 1


def test_the_spool_gives_back_every_chunk_on_every_pass():
    rng = np.random.default_rng(0)
    chunks = [(rng.random((g, 3, 13)) < 0.3, rng.integers(0, 3, g), rng.integers(0, 2, (g, 3))) for g in (5, 1, 8)]
    with AllySpool.of(iter(chunks)) as spool:
        for _ in range(2):
            replayed = list(spool())
            assert len(replayed) == len(chunks)
            for got, want in zip(replayed, chunks):
                for a, b in zip(got, want):
                    np.testing.assert_array_equal(a, b)
                assert got[0].dtype == bool and got[0].shape == want[0].shape


def test_effect_pp_maps_log_odds_to_an_average_players_win_rate():
    assert effect_pp(0.0, 4) == 0.0
    assert effect_pp(np.log(3), 4) == pytest.approx(100 * (0.5 - 0.25))  # odds 3 against 3 average players
    with np.errstate(all="raise"):  # an extreme effect (an ally only winners held) is not NaN
        assert effect_pp(1000.0, 4) == pytest.approx(75.0) and effect_pp(-1000.0, 2) == pytest.approx(-50.0)


def test_placebo_ally_labels_shuffled_within_games_flag_at_most_five_percent(default_run):
    data = player_arrays(default_run, "held", "won")
    held, winner = data["held"], data["won"].argmax(1)
    games, n, allies = held.shape
    flagged = []
    for seed in range(5):
        labels = np.argsort(np.random.default_rng(seed).random((games, allies)), axis=1)
        shuffled = np.take_along_axis(held, np.repeat(labels[:, None, :], n, axis=1), axis=2)
        effects = ally_effects(shuffled, winner)
        verdict, _ = verdicts(effects["effect_pp"], effects["p_value"], threshold_pp=0.0)  # significance alone
        flagged.append(np.mean(verdict != ""))
        assert np.nanmax(np.abs(effects["effect_pp"])) < DEFAULT_THRESHOLD_PP
    assert np.mean(flagged) <= 0.05


def test_on_the_real_deck_the_same_held_data_does_flag_allies(default_run):
    """The placebo's null result is not a test that cannot reject: unshuffled, the
    default deck's strong allies (Kim, A5) are found."""
    allies = ally_strength(default_run).set_index("ally")
    assert allies.loc["kim_kitsuragi", "verdict"] == "stronger"
    assert allies["effect_pp"].mean() == pytest.approx(effect_pp(0.0, 4), abs=1.0)


def test_identical_allies_are_not_flagged_even_without_a_threshold(tmp_path, default_deck):
    allies = ally_strength(_run(_plain_deck(default_deck), tmp_path / "plain"), threshold_pp=0.0)
    assert (allies["informative_games"] >= MIN_INFORMATIVE_GAMES).all()
    assert (allies["verdict"] != "").sum() <= 1
    assert allies["effect_pp"].abs().max() < DEFAULT_THRESHOLD_PP


def test_planted_an_ally_with_an_extra_white_crown_is_flagged_stronger(tmp_path, default_deck):
    allies = ally_strength(_run(_plain_deck(default_deck, planted=True), tmp_path / "planted"))
    assert allies["verdict"].iloc[0] == "stronger"
    assert allies["effect_low_pp"].iloc[0] > DEFAULT_THRESHOLD_PP
    assert (allies["verdict"].iloc[1:] != "stronger").all()


def test_verdicts_need_both_significance_and_the_practical_threshold():
    verdict, q_value = verdicts([5.0, -5.0, 1.0, 5.0, np.nan], [1e-9, 1e-9, 1e-9, 0.5, np.nan], threshold_pp=2.0)
    assert verdict.tolist() == ["stronger", "weaker", "", "", ""]
    assert np.isnan(q_value[4]) and q_value[3] == pytest.approx(0.5)
