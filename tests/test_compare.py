"""Design comparison with common random numbers (issue: design comparison)."""

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml

from analysis.compare import comparison_tables, pairing_gain, paired_row
from sim.runner import RunError, simulate
from tests.conftest import DEFAULT_CARDS


def write_deck(path: Path, data: dict) -> Path:
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def pair(tmp_path, b_cards, n_games=2000, seed=0, bots="random", name="cmp"):
    runs = []
    for cards, side in ((DEFAULT_CARDS, "a"), (b_cards, "b")):
        runs.append(simulate(cards, n_games, tmp_path / name / side, players=4, bots=bots, seed=seed, n_jobs=1,
                             progress=False))  # fmt: skip
    return comparison_tables(*runs)


def test_paired_row_matches_a_hand_computed_paired_t_interval():
    row = paired_row("x", np.array([1.0, 2.0, 3.0, 4.0]), np.array([2.0, 2.0, 5.0, 5.0]), "turns")
    d = np.array([1.0, 0.0, 2.0, 1.0])  # mean 1, sd 0.8165, se 0.4082, t(3, 0.975) = 3.1824
    assert row["difference"] == pytest.approx(1.0)
    assert row["difference_low"] == pytest.approx(1.0 - 3.182446 * d.std(ddof=1) / 2, rel=1e-5)
    assert row["p"] == pytest.approx(0.0917, abs=1e-3)


def test_a_deck_compared_with_itself_shows_no_difference(tmp_path):
    tables = pair(tmp_path, DEFAULT_CARDS, n_games=500)
    for table in tables.values():
        assert not table["significant"].any()
        assert (table["difference"].fillna(0) == 0).all()  # the very same games


def test_false_positive_rate_stays_at_the_nominal_level_over_repeated_seeds(tmp_path, default_deck):
    """The same cards listed in another order deal other games (a true null with
    noise): over 20 seeds, the game-metric family is flagged in at most 4 (P < 2% if
    the family-wise rate is 5%)."""
    data = default_deck.to_yaml_data()
    random.Random(1).shuffle(data["allies"])
    shuffled = write_deck(tmp_path / "shuffled.yaml", data)
    flagged = sum(pair(tmp_path, shuffled, 600, seed, name=f"s{seed}")["games"]["significant"].any() for seed in range(20))
    assert flagged <= 4, flagged


def test_doubling_one_tasks_points_changes_how_often_it_is_completed(tmp_path, default_deck):
    data = default_deck.to_yaml_data()
    task = next(i for i, t in enumerate(data["tasks"]) if t["id"] == "find_your_badge")
    data["tasks"][task]["points"] *= 2
    tables = pair(tmp_path, write_deck(tmp_path / "b.yaml", data), n_games=4000, bots="greedy")
    row = tables["tasks"].set_index("task").loc[default_deck.tasks[task].name]
    assert row["significant"] and row["difference"] > 0
    assert pairing_gain(tables["games"]) > 2  # pairing narrows the intervals


def test_runs_that_did_not_play_the_same_games_are_refused(tmp_path):
    a = simulate(DEFAULT_CARDS, 100, tmp_path / "a", players=4, seed=1, n_jobs=1, progress=False)
    b = simulate(DEFAULT_CARDS, 100, tmp_path / "b", players=4, seed=2, n_jobs=1, progress=False)
    with pytest.raises(RunError, match="root_seed differ"):
        comparison_tables(a, b)


def test_compare_from_the_command_line(tmp_path, default_deck):
    script = Path(sys.executable).with_name("revachol")
    if not script.exists():
        pytest.skip("the revachol console script is not installed")
    data = default_deck.to_yaml_data()
    data["tasks"][0]["points"] += 3
    b = write_deck(tmp_path / "b.yaml", data)
    result = subprocess.run([str(script), "compare", str(DEFAULT_CARDS), str(b), "-n", "800", "--jobs", "1", "--quiet",
                             "--out", str(tmp_path / "out")], capture_output=True, text=True, timeout=300)  # fmt: skip
    assert result.returncode == 0, result.stderr
    html = (tmp_path / "out" / "compare.html").read_text()
    assert "What changed from a to b" in html and "paired 95% CIs" in html
    assert (tmp_path / "out" / "tables" / "compare_allies.csv").exists()


def test_card_value_forbidding_a_crown_carrying_ally_lowers_its_players_win_rate(tmp_path):
    from analysis.card_value import card_values

    table = card_values(DEFAULT_CARDS, 4000, tmp_path / "cv", allies=["lena"], n_jobs=1, progress=False)
    (row,) = table.to_dict("records")
    assert row["ally"].startswith("Lena") and row["n"] == 4000
    assert row["win_rate_value_low"] > 0 and row["significant"]  # the baseline wins more than the restricted seat
    assert row["score_value"] > 0


def test_card_value_names_an_unknown_ally(tmp_path):
    from analysis.card_value import card_values

    with pytest.raises(ValueError, match="'lenna' is not an ally id"):
        card_values(DEFAULT_CARDS, 10, tmp_path / "cv", allies=["lenna"], n_jobs=1, progress=False)
