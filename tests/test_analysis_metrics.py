"""Report metrics on small hand-made result tables with answers known in advance
(issue: balance reports). Run directories here are written by hand from a
``sim.record.Record`` whose fields are set one by one."""

import json
import math
import warnings
from pathlib import Path

import numpy as np
import pytest

from analysis.cards import ally_strength, task_completers, task_outcomes
from analysis.length import first_event_incidence, game_endings, game_length, length_survival
from analysis.morale import morale_cards, morale_impact, win_rate_by_saves
from analysis.seats import balance, bot_win_rates, seat_balance, seat_differences, seat_win_rates
from analysis.stats.inference import bh_flags, kaplan_meier, mean_interval, wilson
from sim.record import GAME_FIELDS, PLAYER_FIELDS, Record
from sim.rundir.schema import TASK_COMPLETED, TASK_FAILED, TASK_LOST

ROOT = Path(__file__).resolve().parents[1]
Z = 1.959963984540054  # standard normal quantile for 95%


def hand_made_run(path: Path, record: Record, deck, bots: list[str]) -> Path:
    """A run directory holding ``record`` as its only chunk, with the default deck."""
    for table, frame in record.tables().items():
        (path / table).mkdir(parents=True)
        frame.write_parquet(path / table / "part-00000.parquet")
    (path / "cards.yaml").write_text((ROOT / "cards.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    manifest = {"toolkit_version": "test", "rules_version": 1, "deck_hash": deck.content_hash,
                "cards_file": "cards.yaml", "n_games": len(record.games), "n_players": len(bots), "bots": bots,
                "root_seed": 0, "chunk_size": len(record.games), "rule_options": {}, "status": "complete",
                "timings": {}}  # fmt: skip
    (path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return path


def empty_record(deck, n_games: int, players: int) -> Record:
    record = Record.empty(n_games, players, len(deck.allies), len(deck.tasks), len(deck.morale))
    record.games[:, GAME_FIELDS.index("game")] = np.arange(n_games)
    record.games[:, GAME_FIELDS.index("n_players")] = players
    record.players[:, :, PLAYER_FIELDS.index("seat")] = np.arange(players)
    if "bot" in PLAYER_FIELDS:  # runs that record each player's bot: seat s plays bot s
        record.players[:, :, PLAYER_FIELDS.index("bot")] = np.arange(players)
    return record


def set_winners(record: Record, winners) -> None:
    record.games[:, GAME_FIELDS.index("winner")] = winners
    order = np.arange(record.players.shape[1])
    record.players[:, :, PLAYER_FIELDS.index("won")] = order == np.asarray(winners)[:, None]


# --- intervals --------------------------------------------------------------------------


def test_wilson_interval_matches_the_formula_computed_by_hand():
    k, n = 3, 10
    p = k / n
    centre = (p + Z**2 / (2 * n)) / (1 + Z**2 / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z**2 / (4 * n**2)) / (1 + Z**2 / n)
    low, high = wilson([k], [n])
    assert low[0] == pytest.approx(centre - half, abs=1e-12) and high[0] == pytest.approx(centre + half, abs=1e-12)
    assert (low[0], high[0]) == pytest.approx((0.1078, 0.6032), abs=1e-4)
    low, high = wilson([0, 5], [0, 5])  # no data: no interval; all successes: upper bound 1
    assert np.isnan(low[0]) and np.isnan(high[0]) and high[1] == pytest.approx(1.0)


def test_t_interval_of_a_mean_matches_the_formula():
    values = np.array([1.0, 2.0, 3.0, 4.0])
    low, high = mean_interval(values.mean(), values.std(ddof=1), len(values))
    half = 3.182446305284263 * values.std(ddof=1) / 2  # t(0.975, 3) · s / √4
    assert (low, high) == pytest.approx((2.5 - half, 2.5 + half))
    assert mean_interval(7.0, 0.0, 5) == (7.0, 7.0)  # a constant sample: the mean is exact


def test_benjamini_hochberg_flags_the_step_up_set():
    # sorted p: 0.001 0.02 0.04 0.3 against k/m·q = 0.0125 0.025 0.0375 0.05: the first two pass
    flagged, adjusted = bh_flags([0.04, 0.001, 0.3, 0.02, np.nan])
    assert flagged.tolist() == [False, True, False, True, False]
    assert adjusted[:4] == pytest.approx([0.04 * 4 / 3, 0.004, 0.3, 0.04])  # min over j ≥ i of m·p(j)/j
    assert np.isnan(adjusted[4])


def test_kaplan_meier_without_censoring_is_the_empirical_survival():
    curve = kaplan_meier([1, 2, 2, 3], [True] * 4)
    assert curve["time"].tolist() == [1, 2, 3]
    assert curve["survival"].tolist() == pytest.approx([0.75, 0.25, 0.0])
    assert curve["at_risk"].tolist() == [4, 3, 1] and curve["events"].tolist() == [1, 2, 1]
    assert curve["hazard"].tolist() == pytest.approx([1 / 4, 2 / 3, 1.0])
    inside = curve["survival"].between(0, 1, inclusive="neither")
    assert (curve["survival_low"] <= curve["survival"]).all() and (curve["survival"] <= curve["survival_high"]).all()
    assert (curve.loc[inside, "survival_high"] - curve.loc[inside, "survival_low"] > 0).all()


def test_kaplan_meier_with_censoring_shrinks_the_risk_set():
    # censored at 2 and at 3: S(1) = 4/5, S(2) = 4/5 · 3/4, S(3) = S(2) · 1/2
    curve = kaplan_meier([1, 2, 2, 3, 3], [True, True, False, True, False])
    assert curve["survival"].tolist() == pytest.approx([0.8, 0.6, 0.3])
    assert curve["at_risk"].tolist() == [5, 4, 2]


def test_kaplan_meier_of_units_counted_per_time_equals_the_curve_of_the_units():
    """A run's games are counted per turn (issue 31): the curve of the counts, as
    frequency weights, keeps Greenwood's interval of the games themselves."""
    durations, observed = [1, 2, 2, 3, 3, 3, 4], [True, True, False, True, True, False, True]
    whole = kaplan_meier(durations, observed)
    counted = kaplan_meier([1, 2, 2, 3, 3, 4], [True, True, False, True, False, True], weights=[1, 1, 1, 2, 1, 1])
    assert list(counted.columns) == list(whole.columns)
    np.testing.assert_allclose(counted.to_numpy(np.float64), whole.to_numpy(np.float64), rtol=1e-12)


# --- hand-made run directories -------------------------------------------------------------


def test_survival_censors_truncated_games(tmp_path, default_deck):
    record = empty_record(default_deck, 4, 2)
    turns = [1, 2, 2, 3]
    record.games[:, GAME_FIELDS.index("turns")] = turns
    record.games[:, GAME_FIELDS.index("rounds")] = [1, 1, 1, 2]
    record.games[3, GAME_FIELDS.index("truncated")] = 1
    record.games[:, GAME_FIELDS.index("first_event_turn")] = [1, 0, 2, 0]
    run = hand_made_run(tmp_path / "run", record, default_deck, ["random", "random"])
    curve = length_survival(run)
    assert curve["turn"].tolist() == [1, 2] and curve["survival"].tolist() == pytest.approx([0.75, 0.25])
    endings = game_endings(run).set_index("ending")
    assert endings.loc["truncated", "count"] == 1 and endings.loc["truncated", "share"] == 0.25
    length = game_length(run).set_index("measure")
    assert length.loc["turns", "mean"] == 2.0 and length.loc["turns", "median"] == 2.0
    assert length.loc["turns", "games"] == 4 and length.loc["rounds", "mean"] == 1.25


def test_first_morale_loss_event_treats_a_game_over_without_one_as_a_competing_risk(tmp_path, default_deck):
    """Game 0 ends at turn 1 with no event (competing), games 1 and 2 have their first
    event at turns 2 and 3, game 3 is truncated at turn 4 (censored). Aalen–Johansen:
    CIF(2) = 3/4 · 1/3 = 1/4, CIF(3) = 1/4 + 1/2 · 1/2 = 1/2; Kaplan–Meier censoring
    game 0 would say 1/3 and 2/3."""
    record = empty_record(default_deck, 4, 2)
    record.games[:, GAME_FIELDS.index("turns")] = [1, 2, 3, 4]
    record.games[3, GAME_FIELDS.index("truncated")] = 1
    record.games[:, GAME_FIELDS.index("first_event_turn")] = [0, 2, 3, 0]
    curve = first_event_incidence(hand_made_run(tmp_path / "run", record, default_deck, ["random", "random"]))
    assert curve["turn"].tolist() == [1, 2, 3, 4]  # turn 4: game 3 censored, no change
    assert curve["incidence"].tolist() == pytest.approx([0.0, 0.25, 0.5, 0.5])
    assert (curve["incidence_low"] <= curve["incidence"]).all() and (curve["incidence"] <= curve["incidence_high"]).all()


def test_r8_r9_1_a_first_morale_loss_event_tied_with_a_game_over_at_the_same_turn_is_quiet_and_exact(tmp_path, default_deck):
    """Game 0 ends at turn 2 with no event (competing), game 1 has its first event at
    turn 2 too, game 2 at turn 3, game 3 is truncated at turn 4. Whichever way the tie
    at turn 2 is broken, CIF(2) = 1/4 and CIF(3) = 1/4 + 2/4 · 1/2 = 1/2; lifelines'
    warning of the tie stays off the console."""
    record = empty_record(default_deck, 4, 2)
    record.games[:, GAME_FIELDS.index("turns")] = [2, 2, 3, 4]
    record.games[3, GAME_FIELDS.index("truncated")] = 1
    record.games[:, GAME_FIELDS.index("first_event_turn")] = [0, 2, 3, 0]
    run = hand_made_run(tmp_path / "run", record, default_deck, ["random", "random"])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        curve = first_event_incidence(run)
    assert [str(w.message) for w in caught] == []
    assert curve["turn"].tolist() == [2, 3, 4]
    assert curve["incidence"].tolist() == pytest.approx([0.25, 0.5, 0.5])


def test_iwd_and_win_rates_of_an_ally_leave_out_unfinished_games_unless_asked(tmp_path, default_deck):
    record = empty_record(default_deck, 5, 2)
    set_winners(record, [0, 1, 1, 0, 0])
    held, played = record.held[:, :, 0], record.played[:, :, 0]
    held[0, 0] = held[1, 0] = held[2, 1] = True  # held by: a winner, a loser, a winner
    played[0, 0] = True
    held[4, 0] = True  # game 4 is truncated: a win left out by default
    record.games[4, GAME_FIELDS.index("truncated")] = 1
    run = hand_made_run(tmp_path / "run", record, default_deck, ["random", "random"])
    ally = ally_strength(run).iloc[0]
    assert ally["ally"] == default_deck.allies[0].id and ally["player_games"] == 8
    assert (ally["held_n"], ally["held_wr"]) == (3, pytest.approx(2 / 3))
    assert (ally["never_held_n"], ally["never_held_wr"]) == (5, pytest.approx(2 / 5))  # 4 winners, 2 among holders
    assert ally["iwd"] == pytest.approx(2 / 3 - 2 / 5)
    assert ally["iwd_low"] < ally["iwd"] < ally["iwd_high"]
    assert (ally["played_n"], ally["played_wr"], ally["play_rate"]) == (1, 1.0, pytest.approx(1 / 8))
    assert ally["baseline"] == 0.5
    counted = ally_strength(run, include_unfinished=True).iloc[0]
    assert counted["player_games"] == 10 and counted["held_n"] == 4 and counted["held_wr"] == pytest.approx(3 / 4)


def test_verdict_against_the_average_ally_recovers_a_known_conditional_logit_effect(tmp_path, default_deck):
    """Two players; the holder of ally 0 wins 150 of 200 games and the holder of ally
    1 the other 50, each ally held at each turn-order position equally often. The
    conditional logit's MLE is then β0 − β1 = log 3 exactly, centred ±log(3)/2, i.e.
    ±(√3/(√3+1) − 1/2) = ±13.4 pp for an average player of two."""
    n = 200
    record = empty_record(default_deck, n, 2)
    winners = np.arange(n) % 2
    set_winners(record, winners)
    holder = np.where(np.arange(n) < 150, winners, 1 - winners)
    record.held[np.arange(n), holder, 0] = True
    record.held[np.arange(n), 1 - holder, 1] = True
    record.held[np.arange(n), :, 2] = True  # ally 2: held by both players, so it tells no one apart
    run = hand_made_run(tmp_path / "run", record, default_deck, ["random", "random"])
    allies = ally_strength(run)
    expected = 100 * (math.sqrt(3) / (math.sqrt(3) + 1) - 0.5)
    assert allies["effect_pp"].iloc[:2].tolist() == pytest.approx([expected, -expected], rel=1e-4)
    assert allies["verdict"].tolist()[:3] == ["stronger", "weaker", ""]
    assert allies["informative_games"].iloc[2] == 0 and math.isnan(allies["effect_pp"].iloc[2])
    assert (allies["verdict"].iloc[2:] == "").all()  # never or always held: no test, no verdict
    assert allies["held_wr"].iloc[2] == 0.5


def test_ludii_balance_advantage_p1_and_ties(tmp_path, default_deck):
    assert balance([0.3, 0.25, 0.25, 0.2]) == pytest.approx(0.9)
    assert balance([[0.5, 0.5], [1.0, 0.0]]).tolist() == [1.0, 0.0]
    record = empty_record(default_deck, 10, 2)
    set_winners(record, [0] * 7 + [1] * 3)
    score = PLAYER_FIELDS.index("score")
    record.players[:, 0, score] = 5
    record.players[:, 1, score] = [5, 5, 5, 4, 4, 4, 4, 6, 6, 6]  # games 0-2 tied on points
    record.games[:2, GAME_FIELDS.index("tie_broken_by_dice")] = 1  # two of them decided by dice
    run = hand_made_run(tmp_path / "run", record, default_deck, ["random", "greedy"])
    rates = seat_win_rates(run)
    assert rates["position"].tolist() == [1, 2] and rates["win_rate"].tolist() == pytest.approx([0.7, 0.3])
    summary = seat_balance(run).iloc[0]
    assert summary["games"] == 10 and summary["balance"] == pytest.approx(0.6)
    assert "balance_low" not in summary  # a percentile interval of Balance never holds 1 at a fair table
    assert summary["chi2"] == pytest.approx(1.6) and summary["chi2_p_value"] == pytest.approx(0.2059, abs=1e-4)
    assert summary["advantage_p1"] == pytest.approx(0.7) and summary["advantage_p1_ratio"] == pytest.approx(1.4)
    assert summary["tied_on_points_rate"] == pytest.approx(0.3)
    assert summary["decided_by_dice_rate"] == pytest.approx(0.2)
    by_bot = bot_win_rates(run).set_index("bot")  # seat 0 plays random, seat 1 greedy
    assert by_bot.loc["random", "win_rate"] == pytest.approx(0.7) and by_bot.loc["greedy", "player_games"] == 10
    assert by_bot.loc["random", "win_rate_low"] < 0.7 < by_bot.loc["random", "win_rate_high"]
    gaps = seat_differences(run).iloc[0]
    assert (gaps["position"], gaps["other"], gaps["difference"]) == (1, 2, pytest.approx(0.4))
    half = Z * math.sqrt((0.7 + 0.3 - 0.4**2) / 10)  # one pair: Bonferroni leaves z at 1.96
    assert gaps["difference_high"] - gaps["difference"] == pytest.approx(half)


def test_a_bot_in_every_seat_wins_one_in_n_by_construction_and_gets_no_interval(tmp_path, default_deck):
    record = empty_record(default_deck, 10, 2)
    set_winners(record, [0] * 7 + [1] * 3)
    row = bot_win_rates(hand_made_run(tmp_path / "run", record, default_deck, ["greedy", "greedy"])).iloc[0]
    assert row["win_rate"] == 0.5 and row["by_construction"]
    assert math.isnan(row["win_rate_low"]) and math.isnan(row["win_rate_high"])


def test_task_rates_turns_and_completers(tmp_path, default_deck):
    record = empty_record(default_deck, 4, 2)
    record.tasks[:, 0, 0] = [TASK_COMPLETED, TASK_LOST, TASK_FAILED, TASK_COMPLETED]
    record.tasks[:, 0, 1] = [0, 1, -1, 0]
    record.tasks[:, 0, 2] = [10, 20, 5, 30]
    run = hand_made_run(tmp_path / "run", record, default_deck, ["random", "random"])
    task = task_outcomes(run).iloc[0]
    assert task["completion_rate"] == 0.75 and task["failure_rate"] == 0.25 and task["completions"] == 3
    assert task["lost_rate"] == pytest.approx(1 / 3) and task["completion_turn"] == pytest.approx(20.0)
    by = task_completers(run)
    assert by["share"].iloc[:2].tolist() == pytest.approx([2 / 3, 1 / 3])


def test_morale_impact_counts_what_penalties_take_back_and_how_games_are_won(tmp_path, default_deck):
    record = empty_record(default_deck, 4, 2)
    set_winners(record, [0, 1, 1, 0])
    record.tasks[:, 0, 0] = [TASK_COMPLETED, TASK_LOST, TASK_COMPLETED, TASK_FAILED]
    record.tasks[:, 1, 0] = [TASK_LOST, 0, 0, 0]
    score, saves = PLAYER_FIELDS.index("score"), PLAYER_FIELDS.index("saves")
    record.players[:, :, score] = [[3, 1], [0, 2], [1, 4], [0, 0]]  # game 3 is won with 0 points
    record.players[:, :, saves] = [[1, 0], [1, 0], [0, 0], [0, 2]]
    record.games[3, GAME_FIELDS.index("tie_broken_by_dice")] = 1
    run = hand_made_run(tmp_path / "run", record, default_deck, ["random", "random"])
    impact = morale_impact(run).set_index("measure")
    p0, p1 = default_deck.tasks[0].points, default_deck.tasks[1].points
    assert impact.loc["tasks_lost_share", "value"] == pytest.approx(2 / 4) and impact.loc["tasks_lost_share", "n"] == 4
    assert impact.loc["points_lost_share", "value"] == pytest.approx((p0 + p1) / (3 * p0 + p1))
    assert impact.loc["tied_on_points", "value"] == pytest.approx(1 / 4)  # game 3: 0 against 0
    assert impact.loc["decided_by_dice", "value"] == pytest.approx(1 / 4)
    assert impact.loc["won_with_zero_points", "value"] == pytest.approx(1 / 4)
    by_saves = win_rate_by_saves(run).set_index("saves")
    assert by_saves["player_games"].tolist() == [5, 2, 1]
    assert by_saves["win_rate"].tolist() == pytest.approx([3 / 5, 1 / 2, 0.0])


def test_morale_save_rate_counts_every_players_roll(tmp_path, default_deck):
    record = empty_record(default_deck, 2, 3)
    record.morale[:, 0, 0] = [2, 1]  # three events of morale card 0 → 9 rolls
    record.morale[:, 0, 1] = [1, 0]
    run = hand_made_run(tmp_path / "run", record, default_deck, ["random"] * 3)
    card = morale_cards(run).iloc[0]
    assert (card["events"], card["rolls"], card["saves"]) == (3, 9, 1)
    assert card["save_rate"] == pytest.approx(1 / 9) and card["events_per_game"] == pytest.approx(1.5)
    assert card["probability"] == pytest.approx(float(default_deck.morale[0].save.probability))


# --- closeness and drama -----------------------------------------------------------------


def test_closeness_reports_margin_lead_changes_decisiveness_and_comebacks(tmp_path, default_deck):
    from analysis.closeness import closeness, margin_histogram

    record = empty_record(default_deck, 4, 2)
    col = {f: GAME_FIELDS.index(f) for f in ("turns", "margin", "lead_changes", "lead_taken_turn", "winner_behind_at_half", "truncated")}
    record.games[:, col["turns"]] = [10, 20, 40, 30]
    record.games[:, col["margin"]] = [0, 2, 4, 9]
    record.games[:, col["lead_changes"]] = [1, 3, 0, 7]
    record.games[:, col["lead_taken_turn"]] = [5, 10, 0, 3]  # game 2: nobody ever led alone
    record.games[:, col["winner_behind_at_half"]] = [1, 0, 0, 1]
    record.games[3, col["truncated"]] = 1  # left out (R4 Reading)
    table = closeness(hand_made_run(tmp_path / "r", record, default_deck, ["greedy"] * 2)).set_index("measure")
    assert table.loc["margin", "value"] == pytest.approx(2.0) and table.loc["margin", "games"] == 3
    assert table.loc["lead_changes", "value"] == pytest.approx(4 / 3)
    assert table.loc["decisiveness", "value"] == pytest.approx(0.5) and table.loc["decisiveness", "games"] == 2
    low, high = wilson([1], [3])
    assert table.loc["comeback_rate", ["value", "value_low", "value_high"]].tolist() == pytest.approx([1 / 3, low[0], high[0]])
    shares = margin_histogram(tmp_path / "r").set_index("margin")["share"]
    assert shares.to_dict() == pytest.approx({0: 1 / 3, 2: 1 / 3, 4: 1 / 3})
