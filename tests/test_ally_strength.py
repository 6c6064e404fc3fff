"""Ally strength you can trust (issue: card strength): the conditional logit against
the average ally agrees with statsmodels, flags nothing when no ally can matter
(labels shuffled within games; a deck of identical allies), and flags a planted
stronger ally."""

import numpy as np
import pytest
from statsmodels.discrete.conditional_models import ConditionalLogit

from analysis.stats.ally_model import MIN_INFORMATIVE_GAMES, effect_pp, fit_softmax
from analysis.cards import DEFAULT_THRESHOLD_PP, ally_strength, verdicts
from analysis.stats.ally_model import ally_effects
from analysis.data.player_games import player_arrays
from analysis.data.runs import Run
from sim.runner import simulate

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
def test_the_within_game_softmax_fit_matches_statsmodels_conditional_logit(default_run):
    data = player_arrays(default_run, "held", "won")
    held, won = data["held"][:1_500], data["won"][:1_500]
    games, n, allies = held.shape
    x = np.concatenate([held.astype(np.float64), np.broadcast_to(np.eye(n)[:, 1:], (games, n, n - 1))], axis=2)
    ours = fit_softmax(lambda part: x[part].astype(np.float32), won.argmax(1))
    theirs = ConditionalLogit(won.reshape(-1).astype(float), x.reshape(games * n, -1),
                              groups=np.repeat(np.arange(games), n)).fit(disp=0)  # fmt: skip
    assert ours.converged
    np.testing.assert_allclose(ours.params, theirs.params, atol=2e-3)
    np.testing.assert_allclose(np.sqrt(np.diag(ours.cov_model)), theirs.bse, rtol=1e-3)


def test_effect_pp_maps_log_odds_to_an_average_players_win_rate():
    assert effect_pp(0.0, 4) == 0.0
    assert effect_pp(np.log(3), 4) == pytest.approx(100 * (0.5 - 0.25))  # odds 3 against 3 average players


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
