"""The skill check (analysis.skill_check, sim.skilled): a placebo (one policy under two
labels, on other deals, over 5 seeds), the same policy on the same games, a planted
effect (a rung that never plays Kim Kitsuragi, restricted play), and the rule that
plays it by default."""

import io

import pytest
from rich.console import Console

from analysis.data.runs import Run
from analysis.report.page import build_report
from analysis.report.terminal import print_findings
from analysis.skill_check import compare_measures, measures, skill_check, tables
from sim.runner import simulate
from sim.skilled import by_default, play_skilled

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
    assert (check["difference"] == 0).all() and (check["p_value"] == 1).all()
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
    print_findings(report.findings, console, report.tables["skill_check"])
    assert console.file.getvalue().splitlines()[-1].startswith("Skill check — With greedy:never=kim_kitsuragi")


def test_the_skill_check_plays_by_default_when_it_costs_no_more_than_the_run():
    assert by_default(["greedy"], 4, points_blind=True)  # expert ≈ 1.9 greedy games; the run plays 2
    assert not by_default(["greedy"], 4, points_blind=False)
    assert not by_default(["greedy"], 2, points_blind=True)  # expert ≈ 2.9 greedy games at 2 players
    assert by_default(["planner"], 4, points_blind=False)
    assert by_default(["greedy", "search", "greedy", "greedy"], 2, points_blind=False)
    assert not by_default(["mybots.py:cautious"], 4, points_blind=True)  # not measured: asked for only
