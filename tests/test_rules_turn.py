"""Scripted positions for setup and the turn: R2, R3, R4 (with its Reading) and R5."""

import numpy as np
import pytest

from sim.decisions import ACTION_DRAW, ACTION_PLAY, D_ACTION
from sim.play import run_games
from sim.options import RuleOptions
from sim.rng import stream_keys
from sim.rules.setup import setup_game
from sim.rules.squads import take_from_squad
from sim.rules.turn import resume_turn, take_turn
from sim.state import (
    ACTIVE,
    BAD_CHOICE,
    BAD_INDEX,
    BAD_KIND,
    BAD_N_OPTIONS,
    BAD_SEAT,
    OUTCOME,
    OUTCOME_FINISHED,
    OUTCOME_RUNNING,
    OUTCOME_STALLED,
    OUTCOME_TRUNCATED,
    STATUE_DISCARD_N,
    STATUE_N,
    STUCK_TURNS,
    TASK_DECK_N,
    PERM_TASKS_N,
    TURN,
    TURN_ACTION,
)
from tests.table import ALLY, ARRAYS, TASK, Table

pytestmark = pytest.mark.nojit


def turn(t: Table) -> None:
    take_turn(t.ref, t.deck)


def test_r2_2_first_seat_is_uniform_over_the_seats(default_arrays):
    record = run_games(default_arrays, n_players=3, n_games=1200, seed=7)
    counts = np.bincount(record.games[:, 4], minlength=3)
    # Binomial(1200, 1/3): sd 16.3; 5 sd either side.
    assert ((counts > 400 - 82) & (counts < 400 + 82)).all(), counts


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_r3_setup_reveals_right_to_left_deals_three_and_builds_the_statue_deck(n_players):
    t = Table(n_players=n_players)
    setup_game(t.ref, t.deck, n_players, stream_keys(5), 11)
    st, n_tasks, n_allies, n_morale = t.st, ARRAYS.n_tasks, ARRAYS.n_allies, ARRAYS.n_morale
    # R3.1: the first task revealed goes to position 3, the second to 2, the third to 1.
    assert st.g[TASK_DECK_N] == n_tasks - 3
    assert list(st.row) == list(st.task_deck[n_tasks - 3 :])
    # R3.2: three allies to each seat.
    assert list(st.hand_n[:n_players]) == [3] * n_players
    hands = st.hand[:n_players, :3].ravel()
    # R3.3: the other allies and all morale cards form the statue deck.
    statue = st.statue[: st.g[STATUE_N]]
    assert sorted([*hands, *statue]) == list(range(n_allies + n_morale))
    assert (statue >= n_allies).sum() == n_morale
    # R3.4: both discards empty; the first seat is on turn (R2.2).
    assert st.g[STATUE_DISCARD_N] == 0 and st.g[ACTIVE] == st.g[2]


def test_r4_1_play_places_a_hand_card_in_a_new_squad_then_may_complete():
    t = Table().row("t_red", "t_yellow", "t_blue").hand(0, "red", "blue").statue("green")
    # action: play; play option rows are (hand card, target): (red,new)=0 (blue,new)=1;
    # completion rows: none, then (squad 0, t_blue) -> pick 1.
    t.script(0, 1, 1)
    turn(t)
    assert t.done_of(0) == ["t_blue"]
    assert t.hand_of(0) == ["red"] and t.squads_of(0) == []
    assert t.st.g[ACTIVE] == 1 and t.st.g[TURN] == 1


def test_r4_1_r5_1_a_card_may_join_an_existing_squad_and_squads_keep_their_order():
    t = Table().row("t_big", "t_green2", "t_blue2").hand(0, "red").squad(0, "blue").squad(0, "green")
    t.script(0, 1)  # play; (red, squad 1)
    turn(t)
    assert t.squads_of(0) == [["blue"], ["green", "red"]]


def test_r4_2_draw_takes_an_ally_into_the_hand_and_ends_the_turn():
    t = Table().row("t_red", "t_yellow", "t_blue").hand(0, "red").statue("green", "blue")
    t.script(1)  # options: play, draw -> draw
    turn(t)
    assert t.hand_of(0) == ["red", "blue"] and t.squads_of(0) == []
    assert t.st.g[ACTIVE] == 1


def test_r4_3_play_is_the_only_action_offered_with_five_cards():
    t = Table().row("t_red", "t_yellow", "t_blue").hand(0, "red", "red2", "green", "yellow", "purple")
    t.statue("blue").script(1, 0, 0, 0)  # index 1 does not exist: only 'play' is offered
    turn(t)
    g = t.st.g  # the engine refused index 1, recorded it, and played option 0 (sim.bots.policy.refuse_choice)
    assert (g[BAD_CHOICE], g[BAD_SEAT], g[BAD_KIND], g[BAD_INDEX], g[BAD_N_OPTIONS]) == (1, 0, D_ACTION, 1, 1)
    assert len(t.hand_of(0)) == 4


def test_r4_4_tasks_are_not_completed_on_a_draw_turn():
    t = Table().row("t_red", "t_yellow", "t_blue").hand(0, "red").squad(0, "blue").statue("green")
    t.script(1)  # draw; no completion decision follows
    turn(t)
    assert t.done_of(0) == [] and t.squads_of(0) == [["blue"]]


def test_r4_5_an_empty_statue_deck_is_replaced_by_the_shuffled_discard():
    t = Table().row("t_red", "t_yellow", "t_blue").statue_discard("green", "blue")
    t.script(0)
    turn(t)
    assert len(t.hand_of(0)) == 1 and t.hand_of(0)[0] in {"green", "blue"}
    assert t.st.g[STATUE_DISCARD_N] == 0 and len(t.statue_names()) == 1


def test_r4_reading_a_draw_of_only_morale_cards_resolves_them_and_ends_without_an_ally():
    t = Table().row("t_red", "t_yellow", "t_blue").statue("m_hand", "m_task").script(0)
    turn(t)
    assert t.hand_of(0) == [] and t.track_names() == ["m_hand", "m_task", None]
    assert t.st.g[OUTCOME] == OUTCOME_RUNNING


def test_r4_reading_an_empty_hand_with_nothing_to_draw_is_a_stuck_turn_and_n_in_a_row_stall():
    t = Table(n_players=2).row("t_red", "t_yellow", "t_blue")
    turn(t)
    assert t.st.g[STUCK_TURNS] == 1 and t.st.g[OUTCOME] == OUTCOME_RUNNING
    turn(t)
    assert t.st.g[STUCK_TURNS] == 2 and t.st.g[OUTCOME] == OUTCOME_STALLED


def test_r4_reading_the_turn_cap_truncates_a_game():
    t = Table(options=RuleOptions(debug=True, turn_cap=2)).row("t_red", "t_yellow", "t_big")
    t.hand(0, "blue").hand(1, "green").script(0, 0, 0, 0)
    turn(t)
    assert t.st.g[OUTCOME] == OUTCOME_RUNNING
    turn(t)
    assert t.st.g[OUTCOME] == OUTCOME_TRUNCATED


def test_r5_2_r5_3_a_squad_whose_last_ally_leaves_no_longer_exists_and_later_squads_move_up():
    t = Table().squad(0, "blue").squad(0, "red").squad(0, "green")
    assert take_from_squad(t.ref, t.deck, 0, 1, 0) == ALLY["red"]
    assert t.squads_of(0) == [["blue"], ["green"]]
    assert list(t.st.squad_symbols[0, 1, :3]) == [0, 0, 1]  # green now at index 1


NOT_SAVED = (2, 3)  # a roll that saves against none of the test deck's morale cards


def at_seat_1_penalty(t: Table) -> Table:
    """Seats 1 and 2 hold hand allies; seat 0's draw comes to m_task, the third morale
    card (R7.2): m_hand, the oldest, costs every seat a hand ally, then ``blue`` is
    drawn (R8.6). The position is laid out before the draw."""
    t.row("t_blue", "t_red", "t_yellow").task_deck("t_orange").statue("blue", "m_task")
    t.track("m_squad", "m_hand").hand(0, "red").hand(1, "green", "orange").hand(2, "purple")
    return t.dice(NOT_SAVED, NOT_SAVED, NOT_SAVED)


def zones(t: Table) -> dict:
    return {"hands": [t.hand_of(seat) for seat in range(3)], "row": t.row_names(), "track": t.track_names(),
            "perm tasks": t.perm_tasks(), "perm morale": t.perm_morale(), "statue": t.statue_names(),
            "statue discard": sorted(t.statue_discard_names()),
            "g": [int(t.st.g[k]) for k in (TURN, ACTIVE, OUTCOME)]}  # fmt: skip


def test_r8_3_r8_5_r8_6_a_turn_resumed_at_a_penalty_ends_as_the_turn_played_through():
    """The turn played through: seat 0 draws (R4.2), the event costs seat 0 ``red``,
    seat 1 ``orange`` (its second row) and seat 2 ``purple`` (R8.3), then seat 0 draws
    on to ``blue`` (R8.6). The same turn laid out by hand at seat 1's decision (R8.1
    done, seat 0's card given up, seat 2 still to roll) and resumed with row 1 ends
    in the same zones, turn count and active seat."""
    through = at_seat_1_penalty(Table(n_players=3)).script(1, 0, 1, 0)  # draw; seat 0, 1, 2's penalties
    turn(through)
    resumed = Table(n_players=3).row("t_blue", "t_red", None).task_deck("t_orange").statue("blue")
    resumed.statue_discard("red").track("m_task", "m_squad", "m_hand").hand(1, "green", "orange").hand(2, "purple")
    resumed.st.perm_tasks[0], resumed.st.g[PERM_TASKS_N] = TASK["t_yellow"], 1
    resumed.st.g[TURN_ACTION] = ACTION_DRAW
    resumed.dice(NOT_SAVED).script(0)  # seat 2's roll and penalty
    resume_turn(resumed.ref, resumed.deck, 1, 1)
    assert zones(through) == zones(resumed)
    assert zones(resumed)["hands"] == [["blue"], ["green"], []]
    assert zones(resumed)["row"] == ["t_orange", "t_blue", "t_red"]
    assert zones(resumed)["g"] == [1, 1, OUTCOME_RUNNING]


def test_r8_6_a_turn_resumed_at_a_penalty_of_the_last_face_up_task_ends_the_game_without_a_draw():
    """R8.6, R9.1: the failed task was the last one face up, so after the event the
    game is over: the active seat draws nothing more, and the turn still ends."""
    t = Table(n_players=3).row(None, None, None).statue("blue").statue_discard("red")
    t.track("m_task", "m_squad", "m_hand").hand(1, "green", "orange").hand(2, "purple")
    t.st.perm_tasks[0], t.st.g[PERM_TASKS_N] = TASK["t_yellow"], 1
    t.st.g[TURN_ACTION] = ACTION_DRAW
    t.dice(NOT_SAVED).script(0)
    resume_turn(t.ref, t.deck, 1, 0)
    assert t.hand_of(0) == [] and t.hand_of(1) == ["orange"] and t.statue_names() == ["blue"]
    assert [int(t.st.g[k]) for k in (TURN, OUTCOME)] == [1, OUTCOME_FINISHED]


def test_a9_r8_3_r4_1_a_play_turn_resumed_at_a_penalty_completes_as_the_turn_played_through():
    """Seat 0 plays ``evrart`` (A9): its forced draw comes to m_task and the event costs
    seat 1 ``orange`` and seat 2 ``purple`` (seat 0's hand is empty: nothing lost,
    R8.3); the draw goes on to ``blue`` (R8.6), then the squad completes ``t_orange``,
    revealed by the clean-up (R8.5, R4.1). Resumed by hand at seat 1's decision, the
    turn ends in the same zones."""
    through = at_seat_1_penalty(Table(n_players=3))
    through.st.hand_n[0] = 0
    through.hand(0, "evrart").script(0, 0, 1, 0, 1)  # play; evrart's row; seat 1, 2's penalties; complete
    turn(through)
    resumed = Table(n_players=3).row("t_blue", "t_red", None).task_deck("t_orange").statue("blue")
    resumed.squad(0, "evrart").track("m_task", "m_squad", "m_hand").hand(1, "green", "orange").hand(2, "purple")
    resumed.st.perm_tasks[0], resumed.st.g[PERM_TASKS_N] = TASK["t_yellow"], 1
    resumed.st.g[TURN_ACTION] = ACTION_PLAY
    resumed.dice(NOT_SAVED).script(0, 1)  # seat 2's penalty; complete
    resume_turn(resumed.ref, resumed.deck, 1, 1)
    assert zones(through) == zones(resumed)
    assert resumed.done_of(0) == ["t_orange"] and resumed.hand_of(0) == ["blue"]
