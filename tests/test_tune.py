"""Tuning card fields towards targets (issue: design comparison, item 4)."""

import pytest

from analysis.tune import FieldRange, Target, miss, tune
from tests.conftest import DEFAULT_CARDS


def test_field_and_target_specs_parse_and_name_the_expected_form():
    assert FieldRange.parse("find_your_badge.points=1..6") == FieldRange("find_your_badge", "points", 1, 6)
    assert Target.parse("advantage_p1=0.25") == Target("advantage_p1", 0.25, 0.25)
    assert Target.parse("completion:find_your_badge=0.6..0.7").high == 0.7
    with pytest.raises(ValueError, match="CARD.FIELD=LO..HI"):
        FieldRange.parse("points=1..6")
    with pytest.raises(ValueError, match="turns=LO..HI, advantage_p1=X"):
        Target.parse("speed=3")


def test_tune_moves_a_task_towards_its_completion_target_with_a_minimal_diff(tmp_path):
    result = tune(DEFAULT_CARDS, [FieldRange.parse("find_your_badge.points=1..8")],
                  [Target.parse("completion:find_your_badge=0.9..1.0")], 1500, tmp_path, n_jobs=1,
                  max_evaluations=10)  # fmt: skip
    assert result["values"]["find_your_badge.points"] > 3  # more points: greedy completes it more often
    assert result["miss"] < result["miss_original"]
    changed = [line for line in result["diff"].splitlines() if line.startswith(("+ ", "- ", "+  ", "-  "))]
    assert changed == ["-    points: 3", f"+    points: {result['values']['find_your_badge.points']}"]
    assert miss(result["proposal_run"], [Target.parse("completion:find_your_badge=0.9..1.0")]) == result["miss"]


def test_tune_refuses_a_field_that_is_not_an_integer_field(tmp_path):
    with pytest.raises(ValueError, match="find_your_badge.requires is not an integer field"):
        tune(DEFAULT_CARDS, [FieldRange.parse("find_your_badge.requires=1..2")], [Target.parse("turns=50..60")], 10,
             tmp_path)  # fmt: skip
