"""Findings (issue 12 item 1, issue 35 item 5) on hand-made tables: a planted strong ally comes first,
an ally without a verdict gets no sentence, the first player's edge (R9.4) and the
dice (R9.3) are stated with their CI and n, and a length target ranks length."""

import numpy as np
import pandas as pd

from analysis.report.findings import findings

KEYS = {"run": "r", "players": 4, "bots": "greedy"}
GAMES = 100_000


def strength(*allies) -> pd.DataFrame:
    """Allies as (name, effect_pp, half-width, verdict)."""
    return pd.DataFrame([{**KEYS, "name": name, "effect_pp": e, "effect_low_pp": e - h, "effect_high_pp": e + h,
                          "verdict": v, "games": GAMES, "threshold_pp": 2.0} for name, e, h, v in allies], columns=[*KEYS, "name", "effect_pp", "effect_low_pp",
                        "effect_high_pp", "verdict", "games", "threshold_pp"])  # fmt: skip


def calibration(*tasks) -> pd.DataFrame:
    """Tasks as (name, points, par, verdict), their difficulty measured points-blind."""
    return pd.DataFrame([{**KEYS, "name": name, "points": p, "par_points": par, "par_points_low": par - 0.5,
                          "par_points_high": par + 0.5, "gap_points": p - par, "verdict": v, "games": GAMES,
                          "difficulty_games": GAMES, "difficulty": "points-blind",
                          "out_of_order_with": f"{name} pays {p:g} points; Go to the island, completed more often "
                                               f"(81.0% against 8.0% when all tasks pay alike), pays {par:g}." if v else "",
                          "threshold_points": 1.0} for name, p, par, v in tasks],
                        columns=[*KEYS, "name", "points", "par_points", "par_points_low", "par_points_high", "gap_points",
                                 "verdict", "games", "difficulty_games", "difficulty", "out_of_order_with",
                                 "threshold_points"])  # fmt: skip


def balance(advantage_p1=0.25, dice=0.01) -> pd.DataFrame:
    return pd.DataFrame([{**KEYS, "games": GAMES, "advantage_p1": advantage_p1, "advantage_p1_low": advantage_p1 - 0.003,
                          "advantage_p1_high": advantage_p1 + 0.003, "decided_by_dice_rate": dice,
                          "decided_by_dice_rate_low": dice - 0.001, "decided_by_dice_rate_high": dice + 0.001}])  # fmt: skip


LENGTH = pd.DataFrame([{**KEYS, "measure": m, "games": GAMES, "mean": v, "mean_low": v - 0.1, "mean_high": v + 0.1}
                       for m, v in (("turns", 85.6), ("rounds", 21.4))])  # fmt: skip
IMPACT = pd.DataFrame([{**KEYS, "measure": "points_lost_share", "n": 500_000.0, "value": 0.12, "value_low": 0.11,
                        "value_high": 0.13},
                       {**KEYS, "measure": "tasks_lost_share", "n": 200_000.0, "value": 0.1, "value_low": 0.09,
                        "value_high": 0.11}])  # fmt: skip


def test_a_planted_strong_ally_comes_first_with_its_number_ci_and_n():
    allies = strength(("Kim Kitsuragi", 3.0, 0.5, "stronger"), ("Evrart Claire", 12.0, 0.3, "stronger"),
                      ("Cuno", -4.0, 0.6, "weaker"), ("Lena", 0.4, 0.5, ""))  # fmt: skip
    table = findings(allies, calibration(), balance(0.262), LENGTH, IMPACT)
    first = table.iloc[0]
    assert first["kind"] == "ally" and first["subject"] == "Evrart Claire" and first["distance"] == 6.0
    assert first["sentence"] == ("Evrart Claire is stronger than the average ally: +12.0 pp win rate "
                                 "(95% CI 11.7–12.3, n = 100,000 games).")  # fmt: skip
    assert list(table["subject"][:3]) == ["Evrart Claire", "Cuno", "Kim Kitsuragi"]
    assert table.iloc[3]["kind"] == "first_player" and "+1.2 pp" in table.iloc[3]["sentence"]
    assert table["section"].iloc[0] == "Card strength"


def test_an_ally_without_a_verdict_gets_no_sentence_of_its_own_only_one_saying_this_n_cannot_decide_it():
    table = findings(strength(("Lena", 1.9, 0.5, ""), ("Cuno", -1.5, 0.5, "")), calibration(), balance(), LENGTH,
                     IMPACT)  # fmt: skip
    assert "ally" not in set(table["kind"])
    assert not table["sentence"].str.contains("Cuno").any()  # its interval, −2.0 to −1.0, stops at −2 pp
    # Lena's interval, 1.4–2.4 pp, holds the 2 pp threshold (issue 51): last, the games that would decide it.
    assert list(table["kind"]) == ["first_player", "length", "penalties", "dice", "undecided"]
    assert table["sentence"].iloc[-1].startswith("Lena: its effect against the average ally, +1.9 pp (95% CI 1.4–2.4)")


def test_an_underpaying_task_is_a_finding_naming_the_tasks_it_is_out_of_order_with_ranked_by_its_gap():
    tasks = calibration(("Find the Insulindian Phasmid", 3.0, 6.5, "underpays"), ("Find your gun", 2.0, 2.1, ""))
    table = findings(strength(), tasks, balance(), LENGTH, IMPACT)
    first = table.iloc[0]
    assert first["kind"] == "task" and first["distance"] == 3.5 and first["section"] == "Task rewards"
    assert first["sentence"] == (
        "Find the Insulindian Phasmid pays 3 points; Go to the island, completed more often (81.0% against 8.0% when "
        "all tasks pay alike), pays 6.5. It pays 3.5 points less than tasks as easy or easier: a par of 6.5 points "
        "(95% CI 6.0–7.0, n = 100,000 games, difficulty points-blind).")
    assert "Find your gun" not in " ".join(table["sentence"])


def test_r9_3_dice_and_r8_3_penalties_are_stated_with_ci_and_n():
    table = findings(strength(), calibration(), balance(dice=0.031), LENGTH, IMPACT).set_index("kind")
    assert table.loc["dice", "sentence"] == ("3.1% of games (95% CI 3.0–3.2%, n = 100,000 games) are decided by the "
                                             "die roll after a tie (R9.3).")  # fmt: skip
    assert "12.0% of the task points completed (95% CI 11.0–13.0%, n = 500,000 task points)" in table.loc["penalties", "sentence"]
    assert np.isclose(table.loc["penalties", "value"], 0.12)


def test_a_missed_length_target_ranks_length_by_its_miss():
    table = findings(strength(("Cuno", -4.0, 0.6, "weaker")), calibration(), balance(), LENGTH, IMPACT,
                     target_turns=(50, 60))  # fmt: skip
    assert table.iloc[0]["kind"] == "length" and np.isclose(table.iloc[0]["distance"], 25.6 / 5)
    assert "against a target of 50–60 turns" in table.iloc[0]["sentence"]
