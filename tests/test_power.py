"""How many games? (issue 51, deliverable 1): the minimum detectable effect against a
hand computation and its 1/√n law, the Benjamini–Hochberg level it uses, undecided
findings (an interval that holds the practical threshold), :func:`analysis.plan.plan_games`
(``revachol plan``, whose command is tested in tests/test_cli.py) and the findings'
``mde`` column."""

import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analysis.plan import parse_effect, plan_games
from analysis.report.findings import findings
from analysis.report.page import build_report
from analysis.report.words.plan import plan_lines
from analysis.seats import seat_balance
from analysis.stats.power import (bh_level, detectable_effect, detectable_from_interval, games_to_decide,
                                  games_to_detect, readable_games, standard_error)
from sim.run.runner import simulate
from tests.test_findings import IMPACT, LENGTH, balance, calibration

ROOT = Path(__file__).resolve().parents[1]
GAMES = 100_000


def test_the_mde_is_the_hand_computed_value_for_a_test_against_zero_and_against_the_threshold():
    se = standard_error(1.0, 3.0)  # 2 / (2 · 1.959964)
    assert se == pytest.approx(0.510213, abs=1e-6)
    # The threshold binds: max(2, 2.575829 · 0.510213) + 0.841621 · 0.510213.
    assert detectable_effect(se, 2.0, 0.01) == pytest.approx(2.0 + 0.841621 * 0.510213, abs=1e-5)
    # The test binds: 1.959964 · 1.5 > 2.
    assert detectable_effect(1.5, 2.0, 0.05) == pytest.approx((1.959964 + 0.841621) * 1.5, abs=1e-5)
    # A task's gap is tested against the threshold: T + (z + z_0.8) · se.
    assert detectable_effect(0.5, 1.0, 0.05, against_threshold=True) == pytest.approx(1 + 2.801585 * 0.5, abs=1e-5)
    assert detectable_from_interval(1.0, 3.0, 2.0, 0.01) == pytest.approx(2.429406, abs=1e-5)


def test_the_bh_level_is_q_times_the_rejections_over_the_family():
    assert bh_level([0.001, 0.02, 0.04, 0.5]) == pytest.approx(0.05 * 2 / 4)  # BH keeps the first two
    assert bh_level([0.5, 0.9, np.nan]) == pytest.approx(0.05 / 2)  # none kept: the first step; NaN left out
    assert np.isnan(bh_level([np.nan]))


def test_the_mde_shrinks_as_one_over_root_n_and_games_to_detect_inverts_it():
    se = np.array([0.4, 0.8, 1.6])
    for n, factor in ((4, 0.5), (100, 0.1)):
        assert detectable_effect(se / np.sqrt(n), 0.0, 0.05) == pytest.approx(factor * detectable_effect(se, 0.0, 0.05))
    for effect, against in ((2.2, False), (6.0, False), (1.7, True)):  # threshold binds; test binds; a task
        games = games_to_detect(10_000, se, effect, 2.0 if not against else 1.0, 0.01, against)
        assert (games > 0).all()
        at = detectable_effect(se * np.sqrt(10_000 / games), 2.0 if not against else 1.0, 0.01, against)
        assert at == pytest.approx(np.full(3, effect))
    # In the range where the test binds it is the textbook n·((z + z_0.8)·se / effect)².
    assert games_to_detect(1000, 1.0, 6.0, 2.0, 0.05) == pytest.approx(1000 * (2.801585 / 6.0) ** 2, rel=1e-5)
    assert np.isinf(games_to_detect(1000, se, 1.5, 2.0)).all()  # below the threshold: never


def test_an_interval_holding_the_threshold_needs_more_games_and_one_clear_of_it_none():
    needed = games_to_decide(GAMES, [2.0, 1.9, 8.0, -1.9, 0.0], [1.4, 1.3, 7.0, -2.5, -3.0], [2.6, 2.5, 9.0, -1.3, 3.0],
                             2.0)  # fmt: skip
    assert needed[0] == pytest.approx(9 * GAMES)  # on the threshold: a tenth of it, 0.2 pp, against a reach of 0.6
    assert needed[1] == pytest.approx(9 * GAMES)  # 0.1 pp from it: within the resolution, taken as 0.2 pp
    assert np.isnan(needed[2])
    assert needed[3] == needed[1]  # −2 pp is a threshold too
    assert needed[4] == pytest.approx(GAMES * (3 / 2) ** 2)  # holds both: each 2 pp away, reach 3
    assert readable_games(387_412) == 390_000 and readable_games(95) == 95 and readable_games(900_000) == 900_000


def strength(*allies) -> pd.DataFrame:
    """Allies as (name, effect_pp, low, high, verdict), with their p-values and MDE."""
    rows = [{"run": "r", "players": 4, "bots": "greedy", "name": name, "effect_pp": e, "effect_low_pp": low,
             "effect_high_pp": high, "verdict": v, "games": GAMES, "threshold_pp": 2.0, "mde_pp": 2.4}
            for name, e, low, high, v in allies]  # fmt: skip
    return pd.DataFrame(rows)


def test_an_ally_planted_at_the_threshold_is_undecided_with_the_games_that_would_decide_it():
    allies = strength(("Kim Kitsuragi", 2.0, 1.4, 2.6, "stronger"), ("Evrart Claire", 8.0, 7.0, 9.0, "stronger"),
                      ("Lena", 1.9, 1.4, 2.4, ""))  # fmt: skip
    table = findings(allies, calibration(), balance(0.25), LENGTH, IMPACT)
    # Kim has a verdict of his own: his finding says it is not settled, with no second finding
    kim = table[table["subject"] == "Kim Kitsuragi"]
    assert list(kim["kind"]) == ["ally"] and kim["games_to_decide"].iloc[0] == 900_000 > kim["n"].iloc[0] == GAMES
    assert kim["sentence"].iloc[0].endswith("Its CI holds the ±2 pp threshold: about 900,000 games would settle it.")
    # Lena has none: an undecided finding of her own, ranked last
    undecided = table[table["kind"] == "undecided"]
    assert list(undecided["subject"]) == ["Lena"]
    row = undecided.iloc[0]
    assert row["section"] == "Card strength" and row["distance"] == 0 and row.name == len(table) - 1  # ranked last
    assert row["sentence"] == ("Lena: its effect against the average ally, +1.9 pp (95% CI 1.4–2.4), cannot be told "
                               "from the ±2 pp threshold at this n (100,000 games): about "
                               f"{row['games_to_decide']:,.0f} games would decide it.")  # fmt: skip
    assert row["games_to_decide"] > GAMES
    clear = table[(table["kind"] == "ally") & (table["subject"] == "Evrart Claire")].iloc[0]
    assert clear["mde"] == 2.4 and np.isnan(clear["games_to_decide"])


@pytest.fixture(scope="module")
def small_run(tmp_path_factory, default_deck):
    return simulate(default_deck, 2_000, tmp_path_factory.mktemp("runs") / "small", players=4, seed=5, n_jobs=1,
                    progress=False, cards_file=ROOT / "cards.yaml")  # fmt: skip


def test_plan_gives_games_per_section_and_says_an_effect_below_the_threshold_is_never_flagged(small_run):
    found = plan_games(small_run, effect_pp=4.0, effect_points=1.5, effect_turns=6.0)
    table = found.table.set_index("section")
    assert found.source is None  # no report yet: computed from the games
    assert list(table.index) == ["Card strength", "Task rewards", "Seat advantage", "Game length"]
    assert table["games_needed"].notna().all() and table["games_needed_every"].notna().all()
    assert not table["never"].any()
    assert table.loc["Seat advantage", "level"] == 0.05 and table.loc["Card strength", "level"] < 0.05
    # The first player's edge: its standard error from seat_balance's interval, 4 pp against the 2 pp threshold.
    seat = seat_balance(small_run).iloc[0]
    se = standard_error(100 * seat["advantage_p1_low"], 100 * seat["advantage_p1_high"])
    assert table.loc["Seat advantage", "games_needed"] == readable_games(games_to_detect(2_000, se, 4.0, 2.0))
    assert table.loc["Seat advantage", "mde"] == pytest.approx(float(detectable_effect(se, 2.0)))
    below = plan_games(small_run, effect_pp=1.0).table.set_index("section")
    assert below.loc["Card strength", "never"] and below.loc["Seat advantage", "never"]
    assert np.isnan(below.loc["Card strength", "games_needed"]) and np.isnan(below.loc["Task rewards", "effect"])
    _, lines = plan_lines(below.reset_index(), None)
    assert ("Card strength: an effect of 1 pp can never be flagged, whatever the games: a verdict needs at least the "
            "2 pp threshold.") in lines  # fmt: skip


def test_plan_reads_the_report_tables_and_findings_csv_has_the_mde_column(small_run):
    shutil.rmtree(small_run / "report", ignore_errors=True)
    computed = plan_games(small_run, effect_pp=4.0, effect_points=1.5)
    report = build_report(small_run)
    header = (report.path.parent / "tables" / "findings.csv").read_text(encoding="utf-8").splitlines()[0].split(",")
    assert "mde" in header and "games_to_decide" in header
    assert report.findings.loc[report.findings["kind"] == "first_player", "mde"].iloc[0] == pytest.approx(
        report.tables["seat_balance"]["mde_pp"].iloc[0])
    assert "mde_pp" in report.tables["ally_strength"] and "mde_points" in report.tables["task_calibration"]
    read = plan_games(small_run, effect_pp=4.0, effect_points=1.5)
    assert read.source == small_run / "report" / "tables"
    pd.testing.assert_frame_equal(read.table, computed.table, rtol=1e-9)


def test_parse_effect_takes_the_unit_or_a_bare_number_and_refuses_another():
    assert parse_effect("1pp", "pp") == 1.0 and parse_effect("1", "pp") == 1.0 and parse_effect(" 2.5 pp", "pp") == 2.5
    assert parse_effect("1.5points", "points") == 1.5 and parse_effect("3 turns", "turns") == 3.0
    for text in ("1points", "x", "0", "-1pp"):
        with pytest.raises(ValueError):
            parse_effect(text, "pp")
