"""Closeness and drama fields of the game record (sim.lead): scripted leads by turn."""

import numpy as np
import pytest

from sim.play import run_games
from sim.lead import note_leaders, write_closeness
from sim.record import GAME_FIELDS, PLAYER_FIELDS
from sim.state import MORALE_EVENTS, S_SCORE, S_TASKS_LOST, TASKS_COMPLETED, TURN, WINNER, game_view, record_view
from tests.table import ALLY, TASK, Table

pytestmark = pytest.mark.nojit

AT = GAME_FIELDS.index("margin")


def closeness(t: Table, leaders: list[int], scores: list[int], winner: int) -> dict[str, int]:
    """Write the record fields of a game whose lead masks after turns 1.. are ``leaders``."""
    t.st.g[TURN] = len(leaders)
    t.st.leaders[1 : len(leaders) + 1] = leaders
    t.st.seat_stats[: len(scores), S_SCORE] = scores
    t.st.g[WINNER] = winner
    row = np.zeros(len(GAME_FIELDS), np.int32)
    write_closeness(game_view(t.ref), record_view(t.ref), row, AT)
    return dict(zip(GAME_FIELDS[AT:], row[AT:].tolist()))


def test_r9_2_leaders_after_a_turn_are_the_seats_with_the_most_points():
    t = Table(n_players=3).done(0, "t_red").done(1, "t_big").done(2, "t_blue")  # 2, 6, 1 points
    t.st.g[TASKS_COMPLETED] = 3
    t.st.g[TURN] = 5
    note_leaders(t.ref, t.deck)
    assert t.st.leaders[5] == 0b010
    t.st.g[TURN] = 6  # a turn in which nobody completed, lost or received: the lead stands
    note_leaders(t.ref, t.deck)
    assert t.st.leaders[6] == 0b010
    t.done(0, "t_green2", "t_yellow")  # R6.3: seat 0 completes two tasks, 6 points too
    t.st.g[TASKS_COMPLETED] += 2
    t.st.g[TURN] = 7
    note_leaders(t.ref, t.deck)
    assert t.st.leaders[7] == 0b011
    t.st.received[2, 0], t.st.received_n[2] = ALLY["klaasje"], 1  # A1: seat 2 receives 2 points...
    t.st.done_n[1] = 0  # ...and seat 1's task was lost in a morale-loss event (R8.3)
    t.st.g[MORALE_EVENTS] += 1
    t.st.g[TURN] = 8
    note_leaders(t.ref, t.deck)
    assert t.st.leaders[8] == 0b001


def test_r8_3_r6_3_a_task_lost_and_one_completed_in_one_turn_change_the_lead():
    t = Table(n_players=2).done(0, "t_big").done(1, "t_red", "t_blue")  # 6 points against 3
    t.st.g[TASKS_COMPLETED] = 3
    t.st.g[TURN] = 4
    note_leaders(t.ref, t.deck)
    assert t.st.leaders[4] == 0b01
    # A9's draw sets off a morale-loss event: seat 0 gives up t_big (R8.3); it then
    # completes t_yellow (R6.3), 1 point: as many tasks as before, fewer points
    t.st.done[0, 0] = TASK["t_yellow"]
    t.st.seat_stats[0, S_TASKS_LOST] += 1
    t.st.g[MORALE_EVENTS] += 1
    t.st.g[TASKS_COMPLETED] += 1
    t.st.g[TURN] = 5
    note_leaders(t.ref, t.deck)
    assert t.st.leaders[5] == 0b10


def test_a_tie_is_not_a_lead_change_and_the_first_lone_leader_is_not_one():
    t = Table(n_players=2)
    got = closeness(t, leaders=[0b11, 0b01, 0b01, 0b10, 0b11, 0b10], scores=[4, 7], winner=1)
    assert got == {"margin": 3, "lead_changes": 1, "lead_taken_turn": 4, "winner_behind_at_half": 1}


def test_the_lead_going_back_and_forth_counts_each_change():
    t = Table(n_players=3)
    got = closeness(t, leaders=[0b001, 0b010, 0b100, 0b001], scores=[5, 5, 3], winner=0)
    # after turn 2 of 4, seat 1 led: the winner came back
    assert got == {"margin": 0, "lead_changes": 3, "lead_taken_turn": 4, "winner_behind_at_half": 1}


def test_a_game_no_seat_ever_led_alone_has_no_lead_turn():
    t = Table(n_players=2)
    got = closeness(t, leaders=[0b11, 0b11, 0b11], scores=[0, 0], winner=0)
    assert got == {"margin": 0, "lead_changes": 0, "lead_taken_turn": 0, "winner_behind_at_half": 0}


def test_r9_3_margin_is_the_winners_points_over_the_best_other_seat(default_arrays):
    record = run_games(default_arrays, n_players=4, n_games=300, seed=5, bots=["greedy"] * 4)
    col = {f: i for i, f in enumerate(GAME_FIELDS)}
    games = record.games
    scores = record.players[:, :, PLAYER_FIELDS.index("score")]
    winner = games[:, col["winner"]]
    win_score = scores[np.arange(len(games)), winner]
    others = np.where(np.arange(4)[None, :] == winner[:, None], -1, scores).max(axis=1)
    assert (games[:, col["margin"]] == win_score - others).all()
    assert ((0 <= games[:, col["lead_taken_turn"]]) & (games[:, col["lead_taken_turn"]] <= games[:, col["turns"]])).all()
    assert games[:, col["lead_changes"]].max() > 0 and games[:, col["winner_behind_at_half"]].any()
