"""Task reward calibration (issue 12 item 3) on hand-made task tables: a planted
outlier is flagged, tasks on the line are not, expected points follow R6 and R8.3."""

import numpy as np
import pandas as pd
import pytest

from analysis.task_calibration import difficulty, task_calibration

GAMES = 10_000


def outcomes(points, rates, lost_rate=0.0, specials=None) -> pd.DataFrame:
    """A task_outcomes-like table of one run: completions = rate × games."""
    n = len(points)
    completions = np.rint(np.asarray(rates) * GAMES).astype(np.int64)
    return pd.DataFrame({
        "run": "r", "players": 4, "bots": "greedy",
        "task": [f"t{i}" for i in range(n)], "name": [f"Task {i}" for i in range(n)],
        "points": points, "requires": ["red, red, blue"] * n, "special": specials or [False] * n,
        "games": GAMES, "completion_rate": completions / GAMES,
        "completion_rate_low": completions / GAMES - 0.01, "completion_rate_high": completions / GAMES + 0.01,
        "completions": completions, "lost_rate": lost_rate,
    })  # fmt: skip


def on_the_line(rates):
    """Points that fall on a line in logit(rate), with a little scatter: harder pays more."""
    x = difficulty(rates, np.full(len(rates), GAMES))
    scatter = np.tile([0.15, -0.15, 0.0], len(rates))[: len(rates)]
    return np.round(3.0 - 0.8 * x + scatter, 2)


RATES = np.array([0.99, 0.97, 0.95, 0.9, 0.85, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.15, 0.1])


def test_r6_a_hard_task_paying_like_an_easy_one_is_flagged_underpays():
    points = on_the_line(RATES)
    points[-1] = 1.0  # the hardest task (10% completed) pays what the easiest tasks pay
    table = task_calibration(outcomes(points, RATES))
    assert list(table.loc[table["verdict"] != "", "task"]) == ["t13"]
    row = table.iloc[-1]
    assert row["verdict"] == "underpays" and row["gap_points"] < -3
    assert row["par_points_low"] < row["par_points"] < row["par_points_high"]
    assert row["par_points_low"] > 2.5  # its peers at 10% pay well above its 1 point


def test_r6_tasks_on_the_line_get_no_verdict():
    table = task_calibration(outcomes(on_the_line(RATES), RATES))
    assert (table["verdict"] == "").all()
    assert (table["gap_points"].abs() < 0.5).all()


def test_a_gap_below_the_practical_threshold_gets_no_verdict_however_significant():
    points = on_the_line(RATES)
    points[-1] += 0.9  # far outside the tiny scatter, but less than 1 point
    table = task_calibration(outcomes(points, RATES))
    assert table.iloc[-1]["q_value"] < 0.05 and table.iloc[-1]["verdict"] == ""
    assert task_calibration(outcomes(points, RATES), threshold_points=0.5).iloc[-1]["verdict"] == "overpays"


def test_r8_3_expected_points_count_only_completions_kept_after_penalties():
    table = task_calibration(outcomes(on_the_line(RATES), RATES, lost_rate=0.25))
    row = table.iloc[3]  # completed in 90% of games, a quarter of completions lost
    assert row["expected_points"] == pytest.approx(row["points"] * 0.9 * 0.75)
    assert row["expected_points_low"] < row["expected_points"] < row["expected_points_high"]
    assert row["symbols"] == 3 and row["colours"] == 2


def test_too_few_tasks_for_a_line_give_no_verdict():
    table = task_calibration(outcomes([1.0, 2.0, 9.0], [0.9, 0.5, 0.1]))
    assert table["par_points"].isna().all() and (table["verdict"] == "").all()
