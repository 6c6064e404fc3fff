"""Tuning card fields towards targets (issue: design comparison, item 4; issue 11 item 7)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from analysis.workflows import deliver
from analysis.experiments.tune import FieldRange, Target, holdout_seed, miss, tune
from tests.conftest import DEFAULT_CARDS


def test_field_and_target_specs_parse_and_name_the_expected_form():
    assert FieldRange.parse("find_your_badge.points=1..6") == FieldRange("find_your_badge", "points", 1, 6)
    assert Target.parse("advantage_p1=0.25") == Target("advantage_p1", 0.25, 0.25)
    assert Target.parse("completion:find_your_badge=0.6..0.7").high == 0.7
    with pytest.raises(ValueError, match="CARD.FIELD=LO..HI"):
        FieldRange.parse("points=1..6")
    with pytest.raises(ValueError, match="turns=LO..HI, advantage_p1=X"):
        Target.parse("speed=3")


@pytest.mark.parametrize("text", ["completion:find_your_badge=85..95", "advantage_p1=25", "turns=-5..10",
                                  "completion:find_your_badge=0.9..0.8"])  # fmt: skip
def test_a_target_outside_its_metrics_range_is_refused(text):
    with pytest.raises(ValueError, match=r"a rate lies in \[0, 1\]|turns per game need 0 <= LO <= HI") as info:
        Target.parse(text)
    assert text in str(info.value) and "\n" not in str(info.value)


def test_the_command_line_refuses_a_completion_target_in_percent_with_one_line():
    script = Path(sys.executable).with_name("revachol")
    if not script.exists():
        pytest.skip("the revachol console script is not installed")
    result = subprocess.run([str(script), "tune", "--field", "find_your_badge.points=1..6", "--target",
                             "completion:find_your_badge=85..95", "-n", "10"], capture_output=True, text=True,
                            timeout=120, cwd=DEFAULT_CARDS.parent, env={**os.environ, "COLUMNS": "200"})  # fmt: skip
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        "error: target 'completion:find_your_badge=85..95': a rate lies in [0, 1] with LO <= HI, "
        "e.g. completion:find_your_badge=0.85..0.95"]


@pytest.mark.slow
def test_tune_moves_a_task_towards_its_completion_target_and_measures_it_on_a_hold_out_seed(tmp_path):
    result = deliver(tune(DEFAULT_CARDS, [FieldRange.parse("find_your_badge.points=1..8")],
                          [Target.parse("completion:find_your_badge=0.9..1.0")], 1000, tmp_path, n_jobs=1,
                          max_evaluations=10)).value  # fmt: skip
    assert result["values"]["find_your_badge.points"] > 3  # more points: greedy completes it more often
    assert result["miss"] < result["miss_original"]
    changed = [line for line in result["diff"].splitlines() if line.startswith(("+ ", "- ", "+  ", "-  "))]
    assert changed == ["-    points: 3", f"+    points: {result['values']['find_your_badge.points']}"]
    assert miss(result["proposal_run"], [Target.parse("completion:find_your_badge=0.9..1.0")]) == result["miss"]
    # The hold-out games: another seed than the search's, the same for both decks.
    assert result["holdout_seed"] == holdout_seed(0) != 0
    for run in (result["holdout_original"], result["holdout_proposal"]):
        assert json.loads((run / "manifest.json").read_text())["root_seed"] == result["holdout_seed"]
    targets = result["targets"]
    assert list(targets["sample"].drop_duplicates()) == ["in-sample (seed 0)", f"hold-out (seed {holdout_seed(0)})"]
    holdout = targets[targets["sample"].str.startswith("hold-out")].set_index("deck")
    assert holdout.loc["proposal", "estimate"] > holdout.loc["original", "estimate"]  # the values reached
    assert (holdout["games"] == 1000).all() and (holdout["unit"] == "share").all()


def test_tune_refuses_a_field_that_is_not_an_integer_field_or_an_unknown_task(tmp_path):
    with pytest.raises(ValueError, match="find_your_badge.requires is not an integer field"):
        tune(DEFAULT_CARDS, [FieldRange.parse("find_your_badge.requires=1..2")], [Target.parse("turns=50..60")], 10,
             tmp_path)  # fmt: skip
    with pytest.raises(ValueError, match="'badge' is not a task id"):
        tune(DEFAULT_CARDS, [FieldRange.parse("find_your_badge.points=1..2")],
             [Target.parse("completion:badge=0.5..0.6")], 10, tmp_path)  # fmt: skip
