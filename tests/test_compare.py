"""Design comparison with common random numbers (issue: design comparison; issue 11
item 8, issue 12 items 6-7)."""

import os
import random
import subprocess
import sys
from html import escape
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analysis.experiments.compare import (card_diff, changes, changes_skill_check, comparison_tables, pairing_gain,
                                          paired_row, run_comparison)
from analysis.data.load import load
from analysis.report.html import p_text
from analysis.report.words.compare import change_sentence, task_verdict_change_sentence, verdict_change_sentence
from analysis.experiments.compare_verdicts import task_verdict_changes, verdict_changes
from analysis.data.runs import Run
from analysis.workflows import deliver
from sim.cards import dump_yaml
from sim.rundir import RunError
from sim.run.runner import simulate
from tests.conftest import DEFAULT_CARDS


def write_deck(path: Path, data: dict) -> Path:
    path.write_text(dump_yaml(data), encoding="utf-8")
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
    assert row["p_value"] == pytest.approx(0.0917, abs=1e-3)
    assert row["effect_size"] == pytest.approx(1.0 / d.std(ddof=1))  # Cohen's d_z


def test_paired_zero_one_outcomes_use_the_exact_mcnemar_test_of_statsmodels():
    """A hand-made table: 5 pairs 0 under both, 3 won only under B, 12 only under A, 80 under both."""
    from scipy.stats import binomtest
    from statsmodels.stats.contingency_tables import mcnemar

    a = np.array([0] * 5 + [0] * 3 + [1] * 12 + [1] * 80, float)
    b = np.array([0] * 5 + [1] * 3 + [0] * 12 + [1] * 80, float)
    row = paired_row("won", a, b, "share")
    expected = mcnemar([[5, 3], [12, 80]], exact=True).pvalue
    assert row["p_value"] == pytest.approx(expected, rel=1e-12)
    assert row["p_value"] == pytest.approx(binomtest(3, 15, 0.5).pvalue, rel=1e-12)
    assert row["difference"] == pytest.approx(-9 / 100)


def test_a_deck_compared_with_itself_shows_no_difference(tmp_path):
    tables = pair(tmp_path, DEFAULT_CARDS, n_games=500)
    for table in tables.values():
        assert not table["significant"].any()
        assert (table["difference"].fillna(0) == 0).all()  # the very same games
    assert changes(tables).empty


def test_each_quantity_sits_in_one_family_and_none_is_counted_twice(tmp_path):
    """AdvantageP1 (R9.4) is position 1 of the seat family only; tasks failed per game
    (≡ morale-loss events, R8.1) and tasks completed per game (≡ tasks − failed) are gone."""
    tables = pair(tmp_path, DEFAULT_CARDS, n_games=300)
    metrics = [m for table in tables.values() for m in table["metric"]]
    assert sum("AdvantageP1" in m for m in metrics) == 1
    assert tables["seats"]["metric"].iloc[0] == "win rate of turn-order position 1 (AdvantageP1)"
    assert list(tables["games"]["metric"]) == ["turns per game", "rounds per game", "morale-loss events per game",
                                               "games decided by dice"]  # fmt: skip


@pytest.mark.slow
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
    name = default_deck.tasks[task].name
    row = tables["tasks"].set_index("task").loc[name]
    assert row["significant"] and row["difference"] > 0
    assert pairing_gain(tables["games"]) > 2  # pairing narrows the intervals
    moved = changes(tables)
    assert (moved["what"] == f"{name}: completion").sum() == 1  # the planted change is flagged once
    effect = moved["effect_size"].abs().to_numpy()
    assert (effect[:-1] >= effect[1:]).all()  # largest effect first
    diff = card_diff(Run.open(tmp_path / "cmp" / "a"), Run.open(tmp_path / "cmp" / "b"))
    assert diff.to_dict("records") == [{"card": "find_your_badge", "field": "points", "old": "3", "new": "6"}]


def test_holders_win_rate_difference_is_the_ratio_over_the_players_table(tmp_path, default_deck):
    """The ally family compares wins/holders under B with wins/holders under A, over
    the player rows of the games both runs finished, with a game-clustered interval."""
    data = default_deck.to_yaml_data()
    data["tasks"][0]["points"] += 2
    tables = pair(tmp_path, write_deck(tmp_path / "b.yaml", data), n_games=400, bots="greedy")
    row = tables["allies"].iloc[0]
    rates = []
    for side in ("a", "b"):
        run = Run.open(tmp_path / "cmp" / side)
        players = load(run.path, "players").select("game", "won", "held").to_pandas()
        games = run.scan("games", "game", "stalled", "truncated").collect().to_pandas()
        assert not (games["stalled"].any() or games["truncated"].any())  # every game counts
        holds = players["held"].map(lambda held: bool(held[0]))
        rates.append(players.loc[holds, "won"].mean())
    assert row["a"] == pytest.approx(rates[0]) and row["b"] == pytest.approx(rates[1])
    assert row["difference"] == pytest.approx(rates[1] - rates[0])
    assert row["difference_low"] < row["difference"] < row["difference_high"]
    assert row["n"] == 400 and row["unit"] == "share"


def test_cards_are_paired_by_id_not_by_position_R1_1(tmp_path, default_deck):
    """Issue 68 item 1 (placebo): the same cards with the allies and the tasks in
    another order, and one ally under a new display name, flag no ally and no task;
    each ally's A figure is its own holders' win rate in A's players table, and the
    renamed ally keeps its row under its new name."""
    data = default_deck.to_yaml_data()
    random.Random(3).shuffle(data["allies"])
    random.Random(4).shuffle(data["tasks"])
    renamed = next(ally for ally in data["allies"] if ally["id"] == "evrart_claire")
    renamed["name"] = "Evrart, the union boss"
    tables = pair(tmp_path, write_deck(tmp_path / "reordered.yaml", data), n_games=1000, bots="greedy")
    assert not tables["allies"]["significant"].any() and not tables["tasks"]["significant"].any()
    assert len(tables["allies"]) == len(default_deck.allies) and len(tables["tasks"]) == len(default_deck.tasks)
    a, b = Run.open(tmp_path / "cmp" / "a"), Run.open(tmp_path / "cmp" / "b")
    verdicts = verdict_changes(a, b, set(card_diff(a, b)["card"]), set())
    assert list(verdicts["ally"]) == ["evrart_claire"]  # only the renamed card; no verdict flip of the noise
    assert task_verdict_changes(a, b, set(card_diff(a, b)["card"]), set()).empty  # no task edited, none flips (R6)
    allies = tables["allies"].set_index("ally")
    assert "Evrart, the union boss" in allies.index and "Evrart Claire" not in allies.index
    players = load(tmp_path / "cmp" / "a", "players").select("won", "held").to_pandas()
    held = np.stack(players["held"].to_numpy())
    for k, ally in enumerate(default_deck.allies):
        name = "Evrart, the union boss" if ally.id == "evrart_claire" else ally.name
        assert allies.loc[name, "a"] == pytest.approx(players.loc[held[:, k], "won"].mean()), ally.id


def test_cards_in_one_deck_only_are_named_as_added_or_removed(tmp_path, default_deck):
    """A card whose id changed has no paired row: the comparison names it as removed
    from A and added in B, and pairs every other card by id."""
    data = default_deck.to_yaml_data()
    data["allies"][0]["id"] = "a_new_ally"
    deliver(run_comparison(DEFAULT_CARDS, write_deck(tmp_path / "b.yaml", data), 200, tmp_path / "cmp", players=2,
                           bots="random", n_jobs=1, progress=False))  # fmt: skip
    tables = comparison_tables(tmp_path / "cmp" / "a", tmp_path / "cmp" / "b")
    assert len(tables["allies"]) == len(default_deck.allies) - 1
    page = (tmp_path / "cmp" / "compare.html").read_text(encoding="utf-8")
    first = default_deck.allies[0]
    assert escape(f"added in B: {first.name} (a_new_ally); removed from A: {first.name} ({first.id})") in page


@pytest.mark.slow
@pytest.mark.parametrize("edit, expected", [
    ({"symbols": ["yellow"]}, "stronger than the average ally, +11.5 pp (95% CI 9.8–13.1) → no verdict, -0.4 pp (95% CI -1.7 to 1.0): fixed."),
    ({"symbols": ["orange"], "ability": None}, "→ weaker than the average ally, -2.6 pp (95% CI -3.9 to -1.3): overshot, now weaker."),
    ({"task_points": 2}, None),
])  # fmt: skip
def test_compare_leads_with_each_edited_allys_verdict_before_and_after(tmp_path, default_deck, edit, expected):
    """Issue 68 item 2, planted: Evrart Claire (+11.5 pp under greedy, 4 players, 4,000
    games) without his purple symbol (R1.2) is fixed; with one orange symbol and no
    ability (his A-ability gone) he overshoots to weaker; a task's points doubled edits
    no ally, and Evrart, still stronger, has no line."""
    data = default_deck.to_yaml_data()
    if "task_points" in edit:
        data["tasks"][0]["points"] *= edit["task_points"]
    else:
        evrart = next(ally for ally in data["allies"] if ally["id"] == "evrart_claire")
        evrart.update({k: v for k, v in edit.items() if v is not None})
        if "ability" in edit:
            evrart.pop("ability")
    comparison = deliver(run_comparison(DEFAULT_CARDS, write_deck(tmp_path / "b.yaml", data), 4000, tmp_path / "cmp",
                                        players=4, bots="greedy", n_jobs=2, progress=False)).value  # fmt: skip
    first = comparison.verdicts.iloc[0] if len(comparison.verdicts) else None
    page = comparison.page.read_text(encoding="utf-8")
    assert page.index("Did the edit work?") < page.index("The change") < page.index("What moved")
    if expected is None:  # no ally edited: Evrart keeps his verdict and has no line
        assert "evrart_claire" not in set(comparison.verdicts["ally"])
        assert not comparison.verdicts["edited"].any()
        task = comparison.task_verdicts.iloc[0]
        assert (task["task"], task["edited"], task["verdict_a"], task["verdict_b"]) == (
            "find_your_badge", True, "", "overpays")
        line = task_verdict_change_sentence(task)
        assert line.startswith("Find your badge: no verdict, gap from par 0.7 points")
        assert line.endswith("→ pays more than tasks as hard or harder, 3.7 points (95% CI 3.7–3.7), completed in "
                             "83.3% of games (95% CI 82.1–84.4%): a new verdict.")  # fmt: skip
        assert escape(line) in page
        return
    assert first["ally"] == "evrart_claire" and first["edited"]
    assert verdict_change_sentence(first).startswith("Evrart Claire: stronger than the average ally, +11.5 pp")
    assert verdict_change_sentence(first).endswith(expected)
    assert escape(verdict_change_sentence(first)) in page and "p = 0," not in page


def test_a_p_value_below_a_floats_precision_is_never_shown_as_zero():
    """Issue 68 item 2: a z-test far in its tail underflows to p = 0.0."""
    assert p_text(0.0) == "< 1e-300" and p_text(3.1e-14) == "3.1e-14" and p_text(0.05) == "0.05"
    row = pd.Series({"what": "Evrart Claire: holders' win rate", "unit": "share", "a": 0.31, "b": 0.23,
                     "difference": -0.08, "difference_low": -0.09, "difference_high": -0.07, "p_value": 0.0})  # fmt: skip
    assert change_sentence(row).endswith("p = < 1e-300") and "p = 0" not in change_sentence(row)


def test_runs_that_did_not_play_the_same_games_are_refused(tmp_path):
    a = simulate(DEFAULT_CARDS, 100, tmp_path / "a", players=4, seed=1, n_jobs=1, progress=False)
    b = simulate(DEFAULT_CARDS, 100, tmp_path / "b", players=4, seed=2, n_jobs=1, progress=False)
    with pytest.raises(RunError, match="root_seed differ"):
        comparison_tables(a, b)


@pytest.mark.slow
def test_compare_from_the_command_line(tmp_path, default_deck):
    script = Path(sys.executable).with_name("revachol")
    if not script.exists():
        pytest.skip("the revachol console script is not installed")
    data = default_deck.to_yaml_data()
    data["tasks"][0]["points"] += 3
    b = write_deck(tmp_path / "b.yaml", data)
    result = subprocess.run([str(script), "compare", str(DEFAULT_CARDS), str(b), "-n", "800", "--jobs", "1", "--quiet",
                             "--out", str(tmp_path / "out")], capture_output=True, text=True, timeout=300,
                            env={**os.environ, "COLUMNS": "200"})  # fmt: skip
    assert result.returncode == 0, result.stderr
    html = (tmp_path / "out" / "compare.html").read_text()
    assert f"What changed from {DEFAULT_CARDS} (A) to {b} (B)" in html and "paired 95% CIs" in html
    assert f"<td>{data['tasks'][0]['id']}</td>" in html and "<td>points</td>" in html  # the card diff
    assert (tmp_path / "out" / "tables" / "compare_allies.csv").exists()
    moved = (tmp_path / "out" / "tables" / "compare_changes.csv").read_text().strip().splitlines()
    assert len(moved) > 1  # three more points for the first task: its completion moves
    assert "significant changes, largest effect first" in result.stdout and " pp" in result.stdout
    assert "forest plot of the significant changes" in html


def _seat0_wins(run_dir: Path) -> np.ndarray:
    players = Run.open(run_dir).scan("players", "game", "seat", "won").filter(seat=0).sort("game").collect()
    return players["won"].to_numpy().astype(float)


def test_card_value_is_measured_against_the_plain_ally_nearest_the_average(tmp_path, default_deck):
    """Forbidding a plain ally costs win rate too: Lena's value is the win rate of seat 0
    forbidden the reference plain ally (the one whose effect against the average ally is
    nearest zero in the baseline) minus forbidden Lena, on the same deals."""
    from analysis.experiments.card_value import card_values, nearest_plain_ally
    from analysis.cards import ally_strength

    out = tmp_path / "cv"
    table = card_values(DEFAULT_CARDS, 3000, out, allies=["lena"], n_jobs=1, progress=False)
    (row,) = table.to_dict("records")
    strength = ally_strength(out / "baseline").set_index("ally")
    plain = {a.id: a for a in default_deck.allies if not a.ability}
    reference = row["reference_id"]
    assert reference == nearest_plain_ally([default_deck], [strength.reset_index()])
    assert row["reference"] == plain[reference].name
    assert abs(strength.loc[reference, "effect_pp"]) == strength.loc[list(plain), "effect_pp"].abs().min()
    never_lena, never_reference = _seat0_wins(out / "never-lena"), _seat0_wins(out / f"never-{reference}")
    assert row["win_rate_value"] == pytest.approx(never_reference.mean() - never_lena.mean())
    assert row["value_vs_baseline"] == pytest.approx(_seat0_wins(out / "baseline").mean() - never_lena.mean())
    assert row["value_vs_baseline_low"] > 0  # forbidding Lena's crown costs seat 0 wins
    # Per held game: the same total over the games in which seat 0 held Lena, fewer than all games.
    assert 0 < row["held_games"] < 3000
    assert row["value_per_held_game"] == pytest.approx(row["value_vs_baseline"] * 3000 / row["held_games"])
    assert row["value_per_held_game_low"] < row["value_per_held_game"] < row["value_per_held_game_high"]


def test_the_reference_rule_picks_one_ally_average_in_a_deck_and_its_edit_in_either_order(tmp_path, default_deck):
    """Before and after: the edit takes a symbol from (or gives a crown to, R1.2) the
    ally that cards.yaml alone would choose, so that it is no average ally in the edited
    deck. Each deck, valued with the other as reference_deck, is measured against the
    same other ally: the plain ally whose larger |effect| over the two baselines is
    smallest, computed here from the two baselines' effects."""
    from analysis.cards import ally_strength
    from analysis.experiments.card_value import card_values
    from sim.cards import with_values

    alone = card_values(DEFAULT_CARDS, 2000, tmp_path / "alone", allies=["lena"], n_jobs=1, progress=False)
    chosen = alone["reference_id"].iloc[0]
    index = next(i for i, a in enumerate(default_deck.allies) if a.id == chosen)
    symbols = default_deck.allies[index].symbols
    edited = tmp_path / "edited.yaml"
    edited.write_text(with_values(DEFAULT_CARDS.read_text(encoding="utf-8"), {
        ("allies", index, "symbols"): symbols[:1] if len(symbols) == 2 else [*symbols, "crown"]}))  # fmt: skip
    before = card_values(DEFAULT_CARDS, 2000, tmp_path / "before", allies=["lena"], n_jobs=1, progress=False,
                         reference_deck=edited)  # fmt: skip
    after = card_values(edited, 2000, tmp_path / "after", allies=["lena"], n_jobs=1, progress=False,
                        reference_deck=DEFAULT_CARDS)  # fmt: skip
    reference = before["reference_id"].iloc[0]
    assert after["reference_id"].iloc[0] == reference != chosen
    plain = sorted(a.id for a in default_deck.allies if not a.ability)
    larger = {a: max(abs(ally_strength(tmp_path / run / "baseline").set_index("ally").loc[a, "effect_pp"])
                     for run in ("before", "after")) for a in plain}  # fmt: skip
    assert larger[reference] == min(larger.values())
    assert larger[chosen] > larger[reference]


def test_the_reference_is_the_plain_ally_whose_larger_effect_over_both_decks_is_smallest(default_deck):
    """Hand-made effects against the average ally (pp): a is nearest zero in the first
    deck alone (+0.1) but at -1.5 in the second; b's larger effect (0.5) beats c's
    (0.6) and a's, in either order. Two decks with no ally plain in both are one line."""
    import pandas as pd

    from analysis.experiments.card_value import nearest_plain_ally

    a, b, c = sorted(ally.id for ally in default_deck.allies if not ally.ability)[:3]

    def baseline(effects: dict[str, float]) -> pd.DataFrame:
        return pd.DataFrame({"ally": [x.id for x in default_deck.allies],
                             "effect_pp": [effects.get(x.id, 5.0) for x in default_deck.allies]})  # fmt: skip

    first, second = baseline({a: 0.1, b: 0.5, c: -0.3}), baseline({a: -1.5, b: -0.4, c: 0.6})
    assert nearest_plain_ally([default_deck], [first]) == a
    assert nearest_plain_ally([default_deck, default_deck], [first, second]) == b
    assert nearest_plain_ally([default_deck, default_deck], [second, first]) == b
    ability = next(ally.ability for ally in default_deck.allies if ally.ability)
    gifted = default_deck.model_copy(update={"allies": [ally.model_copy(update={"ability": ally.ability or ability})
                                                        for ally in default_deck.allies]})  # fmt: skip
    with pytest.raises(ValueError, match=r"^the decks have no ally plain in both \(one without an ability\) to "
                                         r"measure against; name one with --against$"):  # fmt: skip
        nearest_plain_ally([default_deck, gifted], [first, second])


def test_an_ally_valued_against_itself_is_worth_nothing(tmp_path):
    from analysis.experiments.card_value import card_values

    table = card_values(DEFAULT_CARDS, 300, tmp_path / "cv", allies=["lena"], against="lena", n_jobs=1, progress=False)
    (row,) = table.to_dict("records")
    assert row["win_rate_value"] == 0 and row["p_value"] == 1 and not row["significant"]


def test_card_value_names_an_unknown_ally(tmp_path):
    from analysis.experiments.card_value import card_values

    with pytest.raises(ValueError, match="'lenna' is not an ally id"):
        card_values(DEFAULT_CARDS, 10, tmp_path / "cv", allies=["lenna"], n_jobs=1, progress=False)
    with pytest.raises(ValueError, match="'kim' is not an ally id"):
        card_values(DEFAULT_CARDS, 10, tmp_path / "cv", allies=["lena"], against="kim", n_jobs=1, progress=False)


def test_the_terminal_shows_rates_in_percent_differences_in_pp_and_other_units_as_they_are():
    """Issue 12 item 7: the shared rich rendering (analysis/report/terminal.py) speaks the report's language."""
    import pandas as pd
    from rich.console import Console

    from analysis.report.terminal import rich_table

    table = pd.DataFrame({
        "what": ["[red, blue]: completion", "turns per game"], "unit": ["share", "turns"], "a": [0.25, 80.0],
        "b": [0.30, 82.5], "difference": [0.05, 2.5], "difference_low": [0.03, 2.0], "difference_high": [0.07, 3.0],
        "p_value": [0.00012, 0.04], "miss": [1.75, 0.5],
    })  # fmt: skip
    console = Console(record=True, width=250)
    console.print(rich_table(table, "changes"))
    text = console.export_text()
    assert "[red, blue]: completion" in text  # a card value is not read as rich markup
    assert "25.0%" in text and "+5.0 pp (95% CI 3.0–7.0)" in text
    assert "+2.5 (95% CI 2.0–3.0)" in text or "2.5 (95% CI 2.0–3.0)" in text
    assert "0.00012" in text and "1.75" in text and "175" not in text


def _changes(value: float, half: float) -> dict:
    """A comparison's tables (one family of allies) whose every change is ``value`` ± ``half`` pp."""
    allies = pd.DataFrame({"ally": [f"ally {i}" for i in range(10)], "metric": "holders' win rate", "unit": "share",
                           "n": 20_000, "difference": value / 100, "difference_low": (value - half) / 100,
                           "difference_high": (value + half) / 100})  # fmt: skip
    return {"allies": allies}


def test_placebo_a_change_the_same_under_both_bots_does_not_depend_on_skill():
    check = changes_skill_check(_changes(3.0, 0.8), _changes(3.0, 0.8), "expert", players=4)
    assert len(check) == 10 and (check["difference"] == 0).all() and not check["depends_on_skill"].any()


def test_planted_a_change_three_times_as_large_under_expert_depends_on_skill():
    # +1 pp under the run's bots, +4 pp under expert: a gap of 3 pp, z = 3 / (0.8·√2 / 1.96) ≈ 5.2
    check = changes_skill_check(_changes(1.0, 0.8), _changes(4.0, 0.8), "expert", players=4)
    assert check["depends_on_skill"].all()
    assert check["difference"].iloc[0] == pytest.approx(3.0) and check["unit"].iloc[0] == "pp"
    small = changes_skill_check(_changes(1.0, 0.2), _changes(2.5, 0.2), "expert", players=4)  # significant, under 2 pp
    assert not small["depends_on_skill"].any()


def test_compare_with_the_skill_check_plays_both_decks_with_the_skilled_bot(tmp_path, default_deck):
    data = default_deck.to_yaml_data()
    data["tasks"][0]["points"] = 2 * data["tasks"][0]["points"]
    b = write_deck(tmp_path / "b.yaml", data)
    # greedy:w_points=1 is greedy itself: its changes are the run's, to the game.
    comparison = deliver(run_comparison(DEFAULT_CARDS, b, 400, tmp_path / "cmp", players=2, bots="greedy", n_jobs=1,
                                        progress=False, skill_check="greedy:w_points=1")).value  # fmt: skip
    check = comparison.skill_check
    assert check is not None and (check["skilled_bot"] == "greedy:w_points=1").all()
    # the same games; the companions' chunks of 100 sum the holders' rates in another order
    assert (check["difference"].abs() < 1e-9).all() and not check["depends_on_skill"].any()
    page = comparison.page.read_text(encoding="utf-8")
    assert "Does the change hold for skilled players?" in page and "greedy:w_points=1&#x27;s play" in page
    assert "for skilled play" not in page.replace("for skilled players", "")  # issue 64: greedy is not skilled play
    assert (tmp_path / "cmp" / "tables" / "compare_skill_check.csv").exists()
    plain = run_comparison(DEFAULT_CARDS, b, 400, tmp_path / "plain", players=2, bots="greedy", n_jobs=1,
                           progress=False).value  # fmt: skip
    assert plain.skill_check is None and not (tmp_path / "plain" / "a" / "skilled").exists()
