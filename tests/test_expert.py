"""The shipped ``expert`` bot (issue 52): its weights load, name every parameter, stay
within their ranges, record the command that made them, and play stronger than
``planner`` on a small fixed run, seats shuffled. Training is a command
(``revachol train-expert``), never run here; the golden hash of its games is pinned in
tests/test_golden.py."""

import json

import pytest
from statsmodels.stats.proportion import proportion_confint

from sim.bots.expert import BLOCK, COUNTS, NAMES, WEIGHTS, limits, parameter_names, shipped_weights
from analysis.experiments.expert_training import default_path, win_rate
from sim.bots.spec import parse_bot
from sim.state import MAX_BOT_PARAMS


def test_the_shipped_weights_name_every_parameter_within_its_range_and_the_command_that_made_them():
    data = json.loads(default_path().read_text(encoding="utf-8"))
    assert sorted(data["weights"]) == sorted(data["made_by"]) == [str(n) for n in COUNTS]
    assert all(command.startswith("revachol train-expert --players ") for command in data["made_by"].values())
    assert all(sorted(block) == sorted(NAMES) for block in data["weights"].values())
    weights = shipped_weights()
    assert list(weights) == list(parameter_names()) and len(weights) == len(COUNTS) * BLOCK <= MAX_BOT_PARAMS
    for name, value in weights.items():
        low, high, _ = limits()[name]
        assert low <= value <= high, name


def test_a_parameter_of_one_player_count_is_set_by_name_and_a_bad_one_is_refused():
    spec = parse_bot("expert:decay_3p=0.25")
    assert spec.settings["decay_3p"] == 0.25 and spec.settings["decay_2p"] == shipped_weights()["decay_2p"]
    with pytest.raises(ValueError, match=r"decay_2p must be a number from 0 to 1, got 1.5"):
        parse_bot("expert:decay_2p=1.5")
    with pytest.raises(ValueError, match=r"unknown parameter 'decay'; valid for expert: w_points_2p"):
        parse_bot("expert:decay=0.5")


def test_unknown_weights_in_the_file_are_refused_by_name(tmp_path, monkeypatch):
    """A weights file written for another version of the bot is not read silently."""
    from sim.bots import expert

    (tmp_path / WEIGHTS).write_text(json.dumps({"weights": {"2": {"w_bluff": 1.0}}}), encoding="utf-8")
    monkeypatch.setattr(expert.resources, "files", lambda package: tmp_path)
    with pytest.raises(ValueError, match=r"unknown expert parameter \['w_bluff'\]"):
        shipped_weights()


def test_the_shipped_expert_beats_planner_at_two_players_seats_shuffled(default_arrays):
    """R2.1: one expert seat against planner, 4,000 games of a seed the training never
    played (it plays seeds seed * 1000 + generation, below 100,000 for seed 0); the
    Wilson 95% lower bound lies above fair. At 3 and 4 players the shipped weights are
    no better than planner (docs/BOTS.md), so no such claim is tested there."""
    games = 4000
    rate = win_rate(default_arrays, 2, "expert", games, seed=987_654)
    low, _ = proportion_confint(round(rate * games), games, method="wilson")
    assert low > 0.5, f"expert won {rate:.1%} at 2 players"
