"""Runs that stop when the verdicts are settled (issue 51, deliverable 2):
analysis.stats.sequential's confidence sequence, analysis.settled's rule and
analysis.experiments.until_settled's rounds.

The placebo under continuous monitoring is tested on the boundary itself: 200
simulated normal-mean sequences looked at after every round (numpy, fast), against
the naive 95% interval looked at as often, which does err; 200 end-to-end runs would
take minutes. A few end-to-end runs of a deck of identical allies complete it. The
close call (an effect at exactly the threshold) is tested on hand-built sequences:
an end-to-end plant of exactly 2 pp is not something a card edit gives.
"""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from analysis.data.load import load
from analysis.experiments.until_settled import KEY, play_until_settled, round_plan
from analysis.report.findings import with_stopping
from analysis.settled import BORDERLINE, FLAGGED, NO_VERDICT, NOT_SETTLED, settled_state
from analysis.stats.sequential import Z_975, mixture_boundary, mixture_rho, sequence_interval
from sim.cards import dump_yaml
from sim.rundir import TABLES
from sim.run.runner import simulate
from tests.conftest import ROOT

REPEATS, ROUNDS, PER_ROUND = 200, 40, 250


def _sequences(mean: float, seed: int = 0):
    """REPEATS sequences of ROUNDS rounds of PER_ROUND unit-variance observations
    around ``mean``: (estimates, 95% half-widths, games) after each round."""
    draws = np.random.default_rng(seed).normal(mean, 1.0, (REPEATS, ROUNDS * PER_ROUND))
    games = np.arange(1, ROUNDS + 1) * PER_ROUND
    sums, squares = np.cumsum(draws, 1)[:, games - 1], np.cumsum(draws**2, 1)[:, games - 1]
    value = sums / games
    se = np.sqrt((squares / games - value**2) / games)
    return value, Z_975 * se, games


def _cs(value, half, games, rho):
    """The confidence sequence's bounds after each round."""
    bounds = [sequence_interval(value[:, k], value[:, k] - half[:, k], value[:, k] + half[:, k], g, rho)
              for k, g in enumerate(games)]  # fmt: skip
    return np.stack([b[0] for b in bounds], 1), np.stack([b[1] for b in bounds], 1)


def test_placebo_the_sequence_watched_after_every_round_misses_zero_in_at_most_5_percent():
    value, half, games = _sequences(0.0)
    low, high = _cs(value, half, games, mixture_rho(games[-1] / 2))
    ever_missed = ((low > 0) | (high < 0)).any(1)
    assert ever_missed.mean() <= 0.05
    # the test can fail: the naive 95% interval, looked at as often, misses far more often
    naive = ((value - half > 0) | (value + half < 0)).any(1)
    assert naive.mean() > 0.10


def test_close_call_an_effect_at_exactly_the_threshold_is_not_settled_at_max_games():
    threshold = 0.1  # the effect sits exactly on it
    value, half, games = _sequences(threshold, seed=1)
    low, high = _cs(value, half, games, mixture_rho(games[-1] / 2))
    state = settled_state(low, high, threshold)
    ever_settled = (state != NOT_SETTLED).any(1)
    assert ever_settled.mean() <= 0.05  # so at max games (the last round) it is reported not settled
    assert (state[:, -1] == NOT_SETTLED).mean() >= 0.95


def test_settled_state_flags_beyond_the_threshold_and_clears_inside_it():
    low = [2.0, -5.0, -1.9, -2.5, 1.0, np.nan]
    high = [4.0, -2.0, 1.9, 0.0, 3.0, np.nan]
    assert settled_state(low, high, 2.0).tolist() == [FLAGGED, FLAGGED, NO_VERDICT, NOT_SETTLED, NOT_SETTLED,
                                                      NOT_SETTLED]  # fmt: skip


def test_settled_state_puts_a_sequence_within_the_band_around_either_threshold_at_the_threshold():
    low = [1.6, -2.4, 1.4, 1.6, 1.6]
    high = [2.4, -1.6, 2.4, 2.6, 1.9]
    assert settled_state(low, high, 2.0, 0.5).tolist() == [BORDERLINE, BORDERLINE, NOT_SETTLED, NOT_SETTLED,
                                                           NO_VERDICT]  # fmt: skip
    assert settled_state(low, high, 2.0).tolist()[:2] == [NOT_SETTLED, NOT_SETTLED]  # no band: as before


def test_close_call_an_effect_at_exactly_the_threshold_settles_at_the_threshold_within_the_band():
    """Issue 68 item 6: with a band, the effect on the threshold that never settles
    (the test above) is settled at the threshold by the last round, and is almost
    never called beyond or within it on the way."""
    threshold, band = 0.1, 0.05
    value, half, games = _sequences(threshold, seed=1)
    low, high = _cs(value, half, games, mixture_rho(games[-1] / 2))
    state = settled_state(low, high, threshold, band)
    assert (state[:, -1] == BORDERLINE).mean() >= 0.95
    assert np.isin(state, [FLAGGED, NO_VERDICT]).any(1).mean() <= 0.05


def test_placebo_with_the_band_a_null_effect_is_called_at_the_threshold_or_beyond_in_at_most_5_percent():
    """No effect, watched after every round: the band does not let the rule call it
    at (or beyond) the threshold more often than the sequence's error rate."""
    threshold, band = 0.1, 0.05
    value, half, games = _sequences(0.0, seed=2)
    low, high = _cs(value, half, games, mixture_rho(games[-1] / 2))
    state = settled_state(low, high, threshold, band)
    assert np.isin(state, [FLAGGED, BORDERLINE]).any(1).mean() <= 0.05
    assert (state[:, -1] == NO_VERDICT).mean() >= 0.95  # and it does settle, within the threshold


def test_the_boundary_is_the_normal_mixture_closed_form_and_tightest_where_optimised():
    rho, alpha = 500.0, 0.05
    assert mixture_boundary(1000.0, rho, alpha) == pytest.approx(np.sqrt(1500 * np.log(1500 / (500 * alpha**2))))
    best = mixture_rho(10_000)
    assert mixture_boundary(10_000, best) < min(mixture_boundary(10_000, best * 3), mixture_boundary(10_000, best / 3))
    with pytest.raises(ValueError):
        mixture_boundary(1.0, 0.0)


def test_a_round_is_whole_chunks_and_max_games_at_least_one_round():
    assert round_plan(100_000, 50_000) == 25_000 and round_plan(4000, 2000) == 2000
    with pytest.raises(ValueError, match="at least the round"):
        round_plan(1000, 2000)
    with pytest.raises(ValueError, match="multiple of 25,000"):
        round_plan(100_000, 30_000)


def _deck(default_deck, planted: bool = False):
    """Every ally the same plain card (one White Crown, 0 points, no ability); with
    ``planted`` the first ally has a second White Crown (about +15 pp)."""
    plain = [ally.model_copy(update={"symbols": ["crown"], "points": 0, "ability": None}) for ally in default_deck.allies]
    if planted:
        plain[0] = plain[0].model_copy(update={"symbols": ["crown", "crown"]})
    return default_deck.model_copy(update={"allies": plain})


def _play(deck, out, max_games, round_games=5_000, seed=5, **kw):
    return play_until_settled(deck, out, 4, "greedy", seed, 2, max_games, round_games, progress=False, **kw)


def test_planted_an_extra_crown_is_flagged_and_the_run_stops_before_max_games(tmp_path, default_deck):
    stopping = _play(_deck(default_deck, planted=True), tmp_path / "planted", 200_000)
    assert stopping.reason == "settled" and stopping.games < 200_000 and stopping.unsettled == []
    rows = stopping.sequences.set_index("subject")
    assert rows.loc[default_deck.allies[0].name, "state"] == FLAGGED
    assert (stopping.sequences.loc[stopping.sequences["kind"] == "ally", "state"].iloc[1:] == NO_VERDICT).all()
    record = json.loads((tmp_path / "planted" / "manifest.json").read_text())[KEY]
    assert record["stopped"] == "settled" and record["games"] == stopping.games == record["rounds"] * 5_000
    assert record["threshold_pp"] == 2.0 and record["alpha"] == 0.05 and record["optimised_at_games"] == 100_000


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_placebo_identical_allies_run_until_settled_earn_no_ally_verdict(tmp_path, default_deck, seed):
    stopping = _play(_deck(default_deck), tmp_path / "plain", 200_000, seed=seed)
    allies = stopping.sequences[stopping.sequences["kind"] == "ally"]
    assert (allies["state"] != FLAGGED).all() and stopping.reason == "settled"


def test_resume_with_max_games_raised_continues_the_same_games(tmp_path, default_deck):
    """Threshold 0 pp: no confidence sequence fits inside (0, 0), so the run plays to
    max games; raised, it plays on, and its tables are a one-shot run's of that n."""
    deck, out = _deck(default_deck), tmp_path / "rounds"
    first = _play(deck, out, 4000, 2000, threshold_pp=0.0)
    assert (first.games, first.rounds, first.reason) == (4000, 2, "max-games") and first.unsettled
    rule = json.loads((out / "manifest.json").read_text())[KEY]
    again = _play(deck, out, 6000, 2000, threshold_pp=0.0)
    assert (again.games, again.reason) == (6000, "max-games")
    after = json.loads((out / "manifest.json").read_text())[KEY]
    assert after["rho_games"] == rule["rho_games"] and after["max_games"] == 6000  # the same boundary
    whole = simulate(deck, 6000, tmp_path / "whole", players=4, bots="greedy", seed=5, n_jobs=2, chunk_size=2000,
                     progress=False)  # fmt: skip
    for table in TABLES:
        assert load(out, table).equals(load(whole, table)), table
    with pytest.raises(ValueError, match="threshold 0.0 pp"):
        _play(deck, out, 8000, 2000)  # another rule would not be the sequences watched so far


def test_findings_say_where_the_run_stopped_and_mark_what_is_not_settled():
    import pandas as pd

    from analysis.report.findings import COLUMNS

    class FakeRun:
        label = "r"
        manifest = {KEY: {"games": 40_000, "max_games": 40_000, "threshold_pp": 2.0, "stopped": "max-games",
                          "not_settled": ["Kim", "Cuno"]}}  # fmt: skip

    found = pd.DataFrame([dict(zip(COLUMNS, ["r", "ally", "Kim", "Kim is stronger.", 3.0, 1.0, 5.0, 40_000, "pp",
                                             1.5, "Card strength", np.nan, np.nan]))])  # fmt: skip
    out = with_stopping(found, [FakeRun()])
    assert out["kind"].tolist() == ["stopping", "ally", "not_settled"]
    assert out["sentence"][0].startswith("The run reached its most games (40,000)")
    assert out["sentence"][1] == "Kim is stronger. Not settled at 40,000 games: its confidence sequence still holds the threshold."
    assert out["sentence"][2].startswith("Cuno: its effect against the average ally is not settled.")
    near = {KEY: {**FakeRun.manifest[KEY], "not_settled": ["Cuno"], "borderline": ["Kim"], "borderline_pp": 0.5}}
    marked = with_stopping(found, [type("R", (), {"label": "r", "manifest": near})()])
    assert marked["sentence"][0].endswith("1 not settled; 1 at the threshold, within ±0.5 pp of it.")
    assert marked["sentence"][1] == ("Kim is stronger. At the threshold: at 40,000 games its confidence sequence lies "
                                     "within ±0.5 pp of it, too near for its side to matter.")  # fmt: skip
    settled = {KEY: {**FakeRun.manifest[KEY], "games": 20_000, "stopped": "settled", "not_settled": []}}
    first = with_stopping(found, [type("R", (), {"label": "r", "manifest": settled})()])["sentence"][0]
    assert first.startswith("The run was stopped when every verdict was settled, at 20,000 games (of at most 40,000)")


def _revachol(*args):
    return subprocess.run([sys.executable, "-c", "import cli; cli.app()", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=600, env={**os.environ, "PYTHONPATH": str(ROOT)})  # fmt: skip


@pytest.mark.slow
def test_cli_until_settled_without_max_games_or_below_a_round_is_one_line(tmp_path):
    for args in (["--until-settled"], ["--until-settled", "--max-games", "1000", "--round-games", "2000"]):
        result = _revachol("run", *args, "--runs", str(tmp_path))
        assert result.returncode == 1 and result.stderr.count("\n") == 1, result.stderr
    assert not any(tmp_path.iterdir())


@pytest.mark.slow
def test_cli_run_until_settled_reports_where_it_stopped(tmp_path, default_deck):
    cards = tmp_path / "planted.yaml"
    cards.write_text(dump_yaml(_deck(default_deck, planted=True).to_yaml_data()))
    result = _revachol("run", "--cards", str(cards), "--until-settled", "--max-games", "100000", "--round-games",
                       "10000", "--runs", str(tmp_path / "runs"), "--no-points-blind", "--no-skill-check",
                       "--jobs", "2")  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "until settled: 20,000 of at most 100,000 games (settled, 2 rounds checked)" in result.stdout
    assert "The run was stopped when every verdict was settled, at 20,000 games" in result.stdout
    (run_dir,) = (tmp_path / "runs").iterdir()
    assert run_dir.name.startswith("settled-planted-") and "g-seed0" not in run_dir.name


# compare --until-settled (issue 51, item 3)


def _compare(tmp_path, cards_a, cards_b, name, max_games, round_games=5_000):
    from analysis.experiments.compare import run_comparison
    from analysis.workflows import deliver

    return deliver(run_comparison(cards_a, cards_b, 0, tmp_path / name, 4, "greedy", 5, 2, progress=False,
                                  max_games=max_games, round_games=round_games)).value  # fmt: skip


def test_compare_placebo_a_deck_against_itself_is_settled_inside_after_one_round(tmp_path):
    """Identical decks play identical games: every paired difference is exactly 0, its
    sequence the point 0, wholly inside every threshold, which more games cannot
    change. So the correct outcome is to stop after the first round, "settled", with
    no change flagged (not to run to max games)."""
    from analysis.experiments.compare import SETTLED_KEY

    comparison = _compare(tmp_path, ROOT / "cards.yaml", ROOT / "cards.yaml", "placebo", 20_000, 2_000)
    stopping = comparison.stopping
    assert (stopping.games, stopping.rounds, stopping.reason) == (2_000, 1, "settled")
    assert (stopping.sequences["state"] == NO_VERDICT).all() and comparison.changes.empty
    for run in ("a", "b"):
        record = json.loads((tmp_path / "placebo" / run / "manifest.json").read_text())[SETTLED_KEY]
        assert record["stopped"] == "settled" and record["games"] == 2_000 and record["not_settled"] == []
        assert KEY not in json.loads((tmp_path / "placebo" / run / "manifest.json").read_text())


def test_compare_planted_a_white_crown_is_flagged_and_stops_before_max_games(tmp_path, default_deck):
    """Dolores Dei (one purple symbol) given a White Crown too: her holders' win rate
    rises about 6.6 pp, flagged, and every change settles (at 40,000 games on seed 5)."""
    from analysis.experiments.compare import SETTLED_KEY

    allies = list(default_deck.allies)
    dolores = next(i for i, ally in enumerate(allies) if ally.name == "Dolores Dei")
    allies[dolores] = allies[dolores].model_copy(update={"symbols": [*allies[dolores].symbols, "crown"]})
    planted = tmp_path / "planted.yaml"
    planted.write_text(dump_yaml(default_deck.model_copy(update={"allies": allies}).to_yaml_data()))
    comparison = _compare(tmp_path, ROOT / "cards.yaml", planted, "planted", 100_000, 10_000)
    stopping = comparison.stopping
    assert stopping.reason == "settled" and stopping.games < 100_000 and stopping.unsettled == []
    rows = stopping.sequences.set_index("subject")
    assert rows.loc["Dolores Dei: holders' win rate", "state"] == FLAGGED
    assert "Dolores Dei: holders' win rate" in set(comparison.changes["what"])
    record = json.loads((tmp_path / "planted" / "b" / "manifest.json").read_text())[SETTLED_KEY]
    assert record["games"] == stopping.games == 10_000 * record["rounds"] and record["stopped"] == "settled"
    assert record["threshold_pp"] == 2.0 and record["alpha"] == 0.05 and record["optimised_at_games"] == 50_000
    assert record["thresholds"] == {"share": 2.0, "turns": 5.0, "events": 0.5, "rounds": 1.25}
    assert "until settled: " in (tmp_path / "planted" / "compare.html").read_text()


@pytest.mark.slow
def test_cli_compare_until_settled_bad_input_is_one_line(tmp_path):
    cards = str(ROOT / "cards.yaml")
    for args in (["--until-settled"], ["--max-games", "1000"],
                 ["--until-settled", "--max-games", "1000", "--round-games", "2000"]):  # fmt: skip
        result = _revachol("compare", cards, cards, *args, "--out", str(tmp_path / "c"))
        assert result.returncode == 1 and result.stderr.count("\n") == 1, result.stderr
    assert not (tmp_path / "c").exists()


def test_advise_rounds_default_to_a_tenth_of_its_games_in_whole_chunks():
    """advise --until-settled without --round-games: 5,000 of the default 50,000 games;
    30,000 of 300,000 rounded down to one chunk of 25,000 (a round must be whole chunks),
    and every default is one round_plan accepts."""
    from analysis.experiments.until_settled import default_round, round_plan

    assert [default_round(n) for n in (50_000, 100, 12_345, 300_000, 1_000_000)] == [5_000, 10, 1_234, 25_000,
                                                                                      100_000]  # fmt: skip
    for n in (100, 12_345, 50_000, 300_000, 1_000_000):
        assert round_plan(n, default_round(n), "--games") == min(default_round(n), 25_000)
