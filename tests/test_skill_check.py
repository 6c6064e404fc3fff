"""The skill check (analysis.skill_check, sim.run.skilled): a placebo (one policy under two
labels, on other deals, over 5 seeds), the same policy on the same games, a planted
effect (a rung that never plays Kim Kitsuragi, restricted play), and the rule that
plays it by default; and played until settled (issue 64 item 2): a placebo, the
planted effect, the cap, and the interval of a change against a hand computation."""

import io
import json
import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from rich.console import Console

from analysis.data.runs import Run
from analysis.experiments.check_skill import check_skill
from analysis.report.page import build_report
from analysis.report import document as doc
from analysis.report.brief import findings_blocks
from analysis.report.terminal import print_page
from analysis.report.words.skill import skill_check_sentence, skill_settled_sentence
from analysis.settled import FLAGGED
from analysis.skill_check import (CANNOT_TELL, DEPENDS, HOLDS, SETTLED_KEY, compare_measures, difference_sequence,
                                  games_to_settle, games_to_tell, measures, settled_columns, skill_check, tables)
from analysis.stats.sequential import mixture_rho
from sim.run.runner import simulate
from sim.run.skilled import by_default, play_skilled
from tests.conftest import ROOT

GAMES = 3_000
MEASURES = 40 + 25 + 3  # the default deck's allies and tasks; the first player, length, morale-loss events


def _run(deck, path, seed, games=GAMES, bots="greedy") -> Run:
    return Run.open(simulate(deck, games, path, players=4, bots=bots, seed=seed, n_jobs=2, progress=False))


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_placebo_one_policy_under_two_labels_marks_nothing(tmp_path, default_deck, seed):
    # greedy's w_points is 1 by default: the same policy, on other deals, so that the
    # two runs' estimates are independent and the test is exact, not conservative.
    run, other = _run(default_deck, tmp_path / "a", seed), _run(default_deck, tmp_path / "b", seed + 100,
                                                                bots="greedy:w_points=1")  # fmt: skip
    check = compare_measures(measures(tables([run])), measures(tables([other])).assign(run=run.name),
                             {run.name: "greedy:w_points=1"})  # fmt: skip
    assert len(check) == MEASURES
    assert not check["depends_on_skill"].any()


def test_one_policy_on_the_same_games_differs_by_nothing(tmp_path, default_deck):
    run = _run(default_deck, tmp_path / "run", 3, games=1_000)
    play_skilled(run.path, 2, progress=False, bot="greedy:w_points=1")
    check = skill_check([run.path])  # opened again: the manifest now records the companion
    assert len(check) == MEASURES
    assert (check["skilled_bot"] == "greedy:w_points=1").all()
    # the same games; the companion's chunks of 100 sum the ally model's batches in another order
    assert (check["difference"].abs() < 1e-9).all() and (check["p_value"] > 1 - 1e-9).all()
    assert not check["depends_on_skill"].any()


def test_planted_a_rung_that_never_plays_kim_kitsuragi_marks_him(tmp_path, default_deck):
    # Restricted play (Jaffe et al. 2012): in the companion no seat plays Kim while
    # another play is possible, so holding him is worth less there than under greedy.
    run = _run(default_deck, tmp_path / "run", 7)
    play_skilled(run.path, 2, progress=False, bot="greedy:never=kim_kitsuragi")
    report = build_report(run.path, tmp_path / "report")
    check = report.tables["skill_check"].set_index("subject")
    kim = check.loc["Kim Kitsuragi"]
    assert kim["depends_on_skill"] and kim["difference_high"] < -2.0
    assert check["depends_on_skill"].sum() <= 3  # Kim, and at most what his absence moves
    found = report.findings.set_index("subject").loc["Kim Kitsuragi"]
    assert found["depends_on_skill"] and "depends on skill" in found["sentence"]
    assert found["skilled_value"] == pytest.approx(kim["skilled"])
    # the first screen says it under the findings, in the page and in the terminal
    line = next(text for text in report.path.read_text(encoding="utf-8").split("<p class='answer'>")
                if text.startswith("Skill check — "))  # fmt: skip
    assert "With greedy:never=kim_kitsuragi in every seat" in line and "Kim Kitsuragi -" in line
    console = Console(file=io.StringIO(), width=300)
    print_page(doc.Page("findings", tuple(findings_blocks(report))), console)
    assert console.file.getvalue().splitlines()[-1].startswith("Skill check — With greedy:never=kim_kitsuragi")


def test_the_skill_check_plays_by_default_only_when_search_costs_no_more_than_the_run():
    """Issue 64: the skilled bot is search, the reference of skilled play; beside a fast
    bot it never costs as little as the run, so the default run plays no check."""
    assert not by_default(["greedy"], 4, points_blind=True)
    assert not by_default(["planner"], 4, points_blind=False)
    assert not by_default(["search"], 4, points_blind=False)  # the run is skilled play itself
    assert by_default(["greedy", "search", "greedy", "greedy"], 2, points_blind=False)  # its slowest seat: search
    assert not by_default(["mybots.py:cautious"], 4, points_blind=True)  # not measured: asked for only


def test_a_check_on_the_first_games_of_the_run_itself_marks_nothing_and_says_what_it_can_see(tmp_path, default_deck):
    """Placebo on the first K games (issue 64): the run's own policy under another label
    on its first 500 games marks nothing; each measure has its detectable change, and
    with a bot that is not the reference of skilled play no sentence says a verdict
    holds for skilled play."""
    run = _run(default_deck, tmp_path / "run", 11, games=2_000)
    play_skilled(run.path, 2, progress=False, bot="greedy:w_points=1", games=500)
    check = skill_check([run.path])
    assert len(check) == MEASURES and (check["skilled_n"] == 500).all() and (check["n"] == 2_000).all()
    assert not check["depends_on_skill"].any() and not check["skilled_play"].any()
    assert set(check["state"]) <= {HOLDS, CANNOT_TELL} and (check["detectable"] > 0).all()
    held = check[check["state"] == HOLDS]
    assert (held["detectable"] < held["threshold"]).all()  # a measure holds only where its games could see the change
    allies = check[check["kind"] == "ally"]
    assert (allies["state"] == CANNOT_TELL).all()  # 500 games cannot see an ally's 2 pp
    assert (allies["games_to_tell"].dropna() > 500).all()
    sentence = skill_check_sentence(check)
    assert "on the first 500 of the same games" in sentence and "cannot tell yet" in sentence
    assert "hold for skilled play" not in sentence and "holds for skilled play" not in sentence
    assert "hold for greedy:w_points=1's play" in sentence and sentence.endswith("says nothing of skilled play.")


def test_only_a_bot_that_agrees_with_skilled_play_may_say_the_verdicts_hold_for_it():
    """Issue 64 item 1: the same check, every measure within its threshold, says "holds
    for skilled play" under search and only "holds for greedy's play" under greedy."""
    base = pd.DataFrame({"run": "r", "bots": "4 × greedy", "kind": ["ally", "morale"], "subject": ["Kim", "morale-loss events"],
                         "unit": ["pp", "events"], "value": [1.0, 9.0], "low": [0.9, 8.99], "high": [1.1, 9.01],
                         "n": 100_000, "threshold": [2.0, 0.5]})  # fmt: skip
    skilled = base.assign(value=[1.05, 9.02], low=[0.95, 9.0], high=[1.15, 9.04])
    for bot, says in (("search", "Every verdict holds for skilled play"), ("greedy", "Every verdict holds for greedy's play")):
        check = compare_measures(base, skilled, {"r": bot})
        assert (check["state"] == HOLDS).all()
        sentence = skill_check_sentence(check)
        assert says in sentence
        assert ("says nothing of skilled play" in sentence) == (bot != "search")


def test_the_skilled_games_that_would_tell_keep_the_main_runs_error():
    """games_to_tell (analysis.skill_check): a difference of 1 pp against a 2 pp
    threshold, z = 2, the main run's se 0.1 and the skilled run's 1.0 at 100 games:
    the interval 1 ± 2·se clears 2 pp when se ≤ 0.5, so se_s² ≤ 0.25 − 0.01 and
    K = 100 · 1 / 0.24 = 416.7, 500 in whole chunks; with the main run's se 0.6 no K does."""
    assert games_to_tell([100], [1.0], [0.1], [1.0], [2.0], [2.0])[0] == 500
    assert np.isnan(games_to_tell([100], [1.0], [0.6], [1.0], [2.0], [2.0])[0])


def test_a_measure_whose_games_could_not_see_its_threshold_does_not_hold():
    """Issue 64 item 2: no change (0 pp), its interval ±1.66 pp within the 2 pp
    threshold, but 80% power only for a change of 2.4 pp: "cannot tell yet", not "holds"."""
    main = pd.DataFrame({"run": ["r"], "bots": "4 × greedy", "kind": "ally", "subject": "Kim", "unit": "pp",
                         "value": [1.0], "low": [1.0 - 1.176], "high": [1.0 + 1.176], "n": 100_000, "threshold": 2.0})  # fmt: skip
    (row,) = compare_measures(main, main.copy(), {"r": "search"}).itertuples()
    assert abs(row.difference) < 1e-12 and row.difference_high < 2.0 and row.detectable > 2.0
    assert row.state == CANNOT_TELL


# played until settled (issue 64 item 2)


def _settled(run: Run, games: int, bot: str):
    return check_skill(run.path, games=games, bot=bot, n_jobs=2, progress=False, until_settled=True)


@pytest.mark.parametrize("seed", [1, 2])
def test_until_settled_placebo_one_policy_under_two_labels_marks_nothing(tmp_path, default_deck, seed):
    """greedy checked by greedy:w_points=1 (the same policy) on the run's first 2,000 of
    3,000 games, looked at after every round of 200: no change is surely beyond its
    threshold, and the game's length and morale-loss events, whose thresholds are wide
    beside their errors, are surely within theirs."""
    run = _run(default_deck, tmp_path / "run", seed)
    done = _settled(run, 2_000, "greedy:w_points=1")
    (stopping,) = done.stopping
    assert not (stopping.sequences["state"] == FLAGGED).any()
    check = done.report.tables["skill_check"].set_index("subject")
    assert len(check) == MEASURES and check["until_settled"].all() and (check["skilled_n"] == stopping.games).all()
    assert not check["depends_on_skill"].any() and (check["state"] != DEPENDS).all()
    assert (check.loc[["game length", "morale-loss events"], "state"] == HOLDS).all()


def test_until_settled_planted_a_rung_that_never_plays_kim_kitsuragi_marks_him_and_says_why_it_ran_to_the_cap(
        tmp_path, default_deck):  # fmt: skip
    """The planted effect of the fixed check, played until settled on all 3,000 games:
    Kim's change is surely beyond −2 pp; the 40 allies' ±2 pp cannot all settle on a
    run of 3,000 games, so it stops at the cap and says how many are not settled."""
    run = _run(default_deck, tmp_path / "run", 7)
    done = _settled(run, 3_000, "greedy:never=kim_kitsuragi")
    (stopping,) = done.stopping
    check = done.report.tables["skill_check"].set_index("subject")
    kim = check.loc["Kim Kitsuragi"]
    assert kim["state"] == DEPENDS and kim["depends_on_skill"] and kim["difference_high"] < -2.0
    assert check["depends_on_skill"].sum() <= 3  # Kim, and at most what his absence moves
    assert stopping.reason == "max-games" and stopping.games == 3_000 and "Kim Kitsuragi" not in stopping.unsettled
    sentence = skill_settled_sentence(stopping)
    assert sentence.startswith("Until settled: 3,000 skilled games of at most 3,000 in 10 rounds, stopped at the most "
                               f"games with {len(stopping.unsettled)} of {MEASURES} measures not settled (")  # fmt: skip
    assert "anytime-valid 95% interval wholly beyond" in skill_check_sentence(done.report.tables["skill_check"])


def test_until_settled_a_tiny_cap_stops_at_max_games_records_it_and_a_larger_one_continues(tmp_path, default_deck):
    """A cap of 200 games plays rounds of 100 (a chunk, the tenth of 200 being less) and
    stops at it, not settled, recorded in the companion's manifest; a cap of 400
    continues the same games under the same boundary."""
    run = _run(default_deck, tmp_path / "run", 3, games=1_000)
    (first,) = _settled(run, 200, "greedy:w_points=1").stopping
    manifest = run.path / "skilled" / "manifest.json"
    record = json.loads(manifest.read_text())[SETTLED_KEY]
    assert (first.games, first.rounds, first.reason) == (200, 2, "max-games") and first.unsettled
    assert (record["games"], record["max_games"], record["rounds"], record["stopped"]) == (200, 200, 2, "max-games")
    assert record["not_settled"] == first.unsettled and record["rho_games"] == pytest.approx(mixture_rho(100))
    (again,) = _settled(run, 400, "greedy:w_points=1").stopping
    after = json.loads(manifest.read_text())
    assert (again.games, again.reason) == (400, "max-games") and after["n_games"] == 400
    assert after[SETTLED_KEY]["rho_games"] == record["rho_games"] and after[SETTLED_KEY]["max_games"] == 400


@pytest.mark.slow
def test_cli_skill_check_until_settled_says_where_it_stopped(tmp_path, default_deck):
    run = _run(default_deck, tmp_path / "run", 5, games=600)
    result = subprocess.run([sys.executable, "-c", "import cli; cli.app()", "skill-check", str(run.path),
                             "--until-settled", "--games", "200", "--bot", "greedy:w_points=1", "--jobs", "2", "--quiet"],
                            cwd=ROOT, capture_output=True, text=True, timeout=600,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})  # fmt: skip
    assert result.returncode == 0, result.stderr
    line = result.stdout.splitlines()[-2]
    assert line.startswith("Until settled: 200 skilled games of at most 200 in 2 rounds, stopped at the most games "
                           "with "), result.stdout  # fmt: skip
    assert json.loads((run.path / "skilled" / "manifest.json").read_text())[SETTLED_KEY]["stopped"] == "max-games"


def _change(value, se_main, skilled, se_skilled, games, threshold=2.0) -> pd.DataFrame:
    z = 1.959964
    return pd.DataFrame({"value": value, "low": np.subtract(value, z * np.asarray(se_main)),
                         "high": np.add(value, z * np.asarray(se_main)), "skilled": skilled,
                         "skilled_low": np.subtract(skilled, z * np.asarray(se_skilled)),
                         "skilled_high": np.add(skilled, z * np.asarray(se_skilled)), "skilled_n": games,
                         "difference": np.subtract(skilled, value), "threshold": threshold})  # fmt: skip


def test_the_change_interval_is_the_skilled_sequence_at_half_alpha_less_the_main_interval_at_half_alpha():
    """By hand, alpha 0.05 and rho 100 games: the skilled estimate 3.0 (se 1.0 at 100
    games) has the sequence half-width 1.0 · u(100) / sqrt(100), u(100) =
    sqrt(200 · ln(200 / (100 · 0.025²))) = sqrt(200 · ln 3200) = 40.1769, so 4.0177;
    the main estimate 1.0 (se 0.5) its fixed half-width z_0.9875 · 0.5 = 2.2414 · 0.5 =
    1.1207. The change 2.0 lies in [3 − 4.0177 − 2.1207, 3 + 4.0177 − (1 − 1.1207)] =
    [−3.1384, 7.1384]: it holds the 2 pp threshold, cannot tell yet. At 9.0 the low end is 2.8616:
    depends on skill. Both se 0.1 at 0: ±(0.40177 + 0.22414) = ±0.6259, holds."""
    rows = _change([1.0, 1.0, 0.0], [0.5, 0.5, 0.1], [3.0, 9.0, 0.0], [1.0, 1.0, 0.1], 100)
    low, high = difference_sequence(rows, rho=100.0, alpha=0.05)
    assert low == pytest.approx([-3.1384, 2.8616, -0.6259], abs=1e-4)
    assert high == pytest.approx([7.1384, 13.1384, 0.6259], abs=1e-4)
    assert settled_columns(rows, 100.0)["state"].tolist() == [CANNOT_TELL, DEPENDS, HOLDS]


def test_the_games_to_settle_are_the_first_chunk_at_which_the_change_interval_clears_its_threshold():
    """A change of 1 pp against 2 pp, the main se 0.1, the skilled sd per game 10 (se 1.0
    at 100 games): at the games returned the interval, with the skilled se shrunk as
    1/sqrt(games), lies within ±2 pp, and a chunk fewer it does not; with the main
    se 0.6 its own interval (±1.34 at alpha/2) leaves no room: NaN."""
    rho = mixture_rho(500)
    games = games_to_settle(_change([0.0, 0.0], [0.1, 0.6], [1.0, 1.0], [1.0, 1.0], 100), rho)
    assert np.isnan(games[1]) and games[0] % 100 == 0

    def high(at):
        return difference_sequence(_change([0.0], [0.1], [1.0], [10 / np.sqrt(at)], int(at)), rho)[1][0]

    assert high(games[0]) < 2.0 <= high(games[0] - 100)
