"""Sweeps of one card field (issue: design comparison, item 3; issue 11 item 9)."""

import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from analysis.experiments.sweep import plot_sweep, run_label, sweep
from sim.cards import DeckError
from tests.conftest import DEFAULT_CARDS


def test_sweeping_a_tasks_points_from_1_to_5_raises_how_often_greedy_completes_it(tmp_path):
    table, differences = sweep(DEFAULT_CARDS, "find_your_badge", "points", [1, 3, 5], 2000, tmp_path, bots="greedy",
                               n_jobs=1, progress=False)  # fmt: skip
    completion = table[table["metric"] == "completion_rate"].set_index("value")
    assert completion.loc[5, "low"] > completion.loc[1, "high"]  # separated 95% CIs
    assert completion.loc[1, "estimate"] < completion.loc[3, "estimate"] < completion.loc[5, "estimate"]
    assert (completion["n"] == 2000).all() and (completion["n_of"] == "games").all()
    figure = plot_sweep(table, "find_your_badge", "points")
    assert len(figure.axes) == 3 and figure.axes[0].get_xlabel() == "find_your_badge.points"
    # Paired differences between neighbours: one per (step, metric), the difference of the two points.
    step = differences[(differences["metric"] == "completion_rate") & (differences["from"] == 1)].iloc[0]
    assert step["to"] == 3 and step["n"] == 2000
    assert step["difference"] == pytest.approx(completion.loc[3, "estimate"] - completion.loc[1, "estimate"])
    assert 0 < step["difference_low"] < step["difference"] < step["difference_high"]
    # Common random numbers: the paired interval is narrower than the two points' own intervals combined.
    own = ((completion.loc[3, "high"] - completion.loc[3, "low"]) ** 2
           + (completion.loc[1, "high"] - completion.loc[1, "low"]) ** 2) ** 0.5 / 2
    assert (step["difference_high"] - step["difference_low"]) / 2 < own
    assert list(differences["metric"].drop_duplicates()) == ["completion_rate", "failure_rate", "turns"]


def test_held_win_rate_and_save_rate_count_holders_and_rolls(tmp_path):
    allies, _ = sweep(DEFAULT_CARDS, "lena", "points", [1, 2], 300, tmp_path / "a", metrics=["held_wr"], n_jobs=1,
                      progress=False)  # fmt: skip
    assert (allies["n_of"] == "holders").all() and (allies["n"] < 300 * 4).all() and (allies["n"] > 0).all()
    cards, steps = sweep(DEFAULT_CARDS, "logic", "save", [[3, 5], [6, 6]], 300, tmp_path / "m",
                         metrics=["save_rate"], n_jobs=1, progress=False)  # fmt: skip
    assert (cards["n_of"] == "rolls").all() and (steps["n_of"] == "rolls").all()


def test_run_folders_hold_no_glob_characters():
    assert run_label(2, "symbols", ["red", "blue"]) == "02-symbols=red-blue"
    assert run_label(1, "points", 3) == "01-points=3"


def test_a_sweep_value_the_schema_refuses_names_the_card_and_field(tmp_path):
    with pytest.raises(DeckError) as info:
        sweep(DEFAULT_CARDS, "find_your_badge", "requires", [["pink"]], 10, tmp_path, n_jobs=1, progress=False)
    assert "task 'find_your_badge'" in str(info.value) and "requires[0]" in str(info.value)


def test_a_metric_that_does_not_apply_to_the_card_is_refused(tmp_path):
    with pytest.raises(ValueError, match="metric 'save_rate' does not apply to find_your_badge"):
        sweep(DEFAULT_CARDS, "find_your_badge", "points", [1], 10, tmp_path, metrics=["save_rate"], progress=False)
    with pytest.raises(ValueError, match="no card with id 'badge'"):
        sweep(DEFAULT_CARDS, "badge", "points", [1], 10, tmp_path, progress=False)


def test_a_list_value_as_written_in_the_readme_sweeps_from_the_command_line(tmp_path):
    """``--value '[red, blue]'``: the run folder held ``[``, which polars read as a glob."""
    script = Path(sys.executable).with_name("revachol")
    if not script.exists():
        pytest.skip("the revachol console script is not installed")
    result = subprocess.run([str(script), "sweep", "--card", "find_your_badge", "--field", "requires",
                             "--value", "[red, blue]", "--value", "[red, blue, green]", "-n", "200", "--jobs", "1",
                             "--metric", "completion_rate", "--out", str(tmp_path / "out")],
                            capture_output=True, text=True, timeout=300, env={**os.environ, "COLUMNS": "200"})  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out" / "01-requires=red-blue").is_dir()
    steps = pd.read_csv(tmp_path / "out" / "sweep_differences.csv")
    assert list(steps["metric"]) == ["completion_rate"] and steps["n"].iloc[0] == 200
    assert "Paired difference between neighbouring values" in result.stdout and " pp" in result.stdout
    assert "[red, blue] → [red, blue, green]" in result.stdout
