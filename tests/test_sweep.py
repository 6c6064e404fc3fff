"""Sweeps of one card field (issue: design comparison, item 3)."""

import pytest

from analysis.sweep import plot_sweep, sweep
from sim.cards import DeckError
from tests.conftest import DEFAULT_CARDS


def test_sweeping_a_tasks_points_from_1_to_5_raises_how_often_greedy_completes_it(tmp_path):
    table = sweep(DEFAULT_CARDS, "find_your_badge", "points", [1, 3, 5], 3000, tmp_path, bots="greedy", n_jobs=1,
                  progress=False)  # fmt: skip
    completion = table[table["metric"] == "completion_rate"].set_index("value")
    assert completion.loc[5, "low"] > completion.loc[1, "high"]  # separated 95% CIs
    assert completion.loc[1, "estimate"] < completion.loc[3, "estimate"] < completion.loc[5, "estimate"]
    assert (completion["n"] == 3000).all()
    figure = plot_sweep(table, "find_your_badge", "points")
    assert len(figure.axes) == 3 and figure.axes[0].get_xlabel() == "find_your_badge.points"


def test_a_sweep_value_the_schema_refuses_names_the_card_and_field(tmp_path):
    with pytest.raises(DeckError) as info:
        sweep(DEFAULT_CARDS, "find_your_badge", "requires", [["pink"]], 10, tmp_path, n_jobs=1, progress=False)
    assert "task 'find_your_badge'" in str(info.value) and "requires[0]" in str(info.value)


def test_a_metric_that_does_not_apply_to_the_card_is_refused(tmp_path):
    with pytest.raises(ValueError, match="metric 'save_rate' does not apply to find_your_badge"):
        sweep(DEFAULT_CARDS, "find_your_badge", "points", [1], 10, tmp_path, metrics=["save_rate"], progress=False)
    with pytest.raises(ValueError, match="no card with id 'badge'"):
        sweep(DEFAULT_CARDS, "badge", "points", [1], 10, tmp_path, progress=False)
