"""Scripted positions for the end of the game and scoring (R9)."""

import numpy as np
import pytest

from sim.play import run_games
from sim.record import PLAYER_FIELDS
from sim.rng import DICE
from sim.rules.scoring import score_game
from sim.state import S_SCORE, TIE_DICE, WINNER
from tests.table import ALLY, Table

pytestmark = pytest.mark.nojit


def test_r9_2_score_is_completed_task_points_plus_received_ally_points():
    t = Table().done(0, "t_big", "t_blue").hand(0, "red").squad(0, "blue")
    t.st.received[0, :2] = [ALLY["lena"], ALLY["harry"]]
    t.st.received_n[0] = 2
    score_game(t.ref, t.deck)
    assert t.st.seat_stats[0, S_SCORE] == 6 + 1 + 1 + 2  # hands and squads score nothing


def test_r9_3_a_points_tie_goes_to_the_player_with_more_completed_tasks():
    t = Table().done(0, "t_big").done(1, "t_blue_red", "t_red", "t_blue")  # 6 points each
    score_game(t.ref, t.deck)
    assert t.st.g[WINNER] == 1 and t.st.g[TIE_DICE] == 0


def test_r9_3_a_full_tie_is_decided_by_a_uniform_die_roll():
    winners = []
    for k in range(400):
        t = Table().done(0, "t_green2", "t_blue_red").done(1, "t_special", "t_red")  # 6 points, 2 tasks
        t.st.streams[DICE] = np.uint64(k * 7919 + 1)
        score_game(t.ref, t.deck)
        assert t.st.g[TIE_DICE] == 1
        winners.append(t.st.g[WINNER])
    share = np.mean(winners)
    assert 0.5 - 5 * 0.025 < share < 0.5 + 5 * 0.025  # Binomial(400, 1/2): sd 0.025


def test_r9_4_records_are_indexed_by_turn_order(default_arrays):
    record = run_games(default_arrays, n_players=4, n_games=200, seed=3)
    first, seats = record.games[:, 4], record.players[:, :, 0]
    assert (seats[:, 0] == first).all()
    assert (seats == (first[:, None] + np.arange(4)) % 4).all()
    won = record.players[:, :, PLAYER_FIELDS.index("won")]
    assert (won.sum(axis=1) == 1).all()
    assert (won.argmax(axis=1) == record.games[:, 11]).all()
