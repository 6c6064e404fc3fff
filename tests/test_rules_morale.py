"""Scripted positions for the morale track and the morale-loss event (R7, R8)."""

import itertools
from fractions import Fraction

import pytest

from sim.events import EV_RESHUFFLE
from sim.rules.draw import draw_until_ally
from sim.rules.morale import is_saved, place_morale
from sim.state import (
    FIRST_EVENT_TURN,
    MORALE_EVENTS,
    MS_EVENTS,
    MS_SAVES,
    OUTCOME,
    OUTCOME_FINISHED,
    S_PEN_HAND_ALLY,
    S_PENALTY_NOTHING,
    S_SAVES,
    S_TASKS_LOST,
    TASK_FAILED,
    TASK_LOST,
)
from tests.table import ARRAYS, DECK, MORALE_ID, TASK, Table

pytestmark = pytest.mark.nojit

NOT_SAVED = (2, 3)  # a roll that saves against none of the test deck's morale cards


def draw(t: Table, seat: int = 0) -> None:
    draw_until_ally(t.ref, t.deck, seat)


def test_r7_1_a_drawn_morale_card_goes_to_position_1_and_the_others_move_right():
    t = Table().row("t_blue", "t_red", "t_yellow").statue("blue", "m_task", "m_hand")
    place_morale(t.ref, t.deck, 0, MORALE_ID["m_hand"])
    assert t.track_names() == ["m_hand", None, None]
    place_morale(t.ref, t.deck, 0, MORALE_ID["m_task"])
    assert t.track_names() == ["m_task", "m_hand", None]


def test_r4_2_r7_a_draw_resolves_morale_cards_and_goes_on_until_an_ally():
    t = Table().row("t_blue", "t_red", "t_yellow").statue("blue", "m_task", "m_hand")
    draw(t)
    assert t.hand_of(0) == ["blue"]
    assert t.track_names() == ["m_task", "m_hand", None]
    assert t.statue_names() == []


def test_r7_2_r7_3_r8_the_third_morale_card_fails_the_position_3_task_with_the_oldest_card():
    t = Table(n_players=2).row("t_blue", "t_red", "t_yellow").task_deck("t_orange")
    t.track("m_hand", "m_squad").statue("blue", "m_double").hand(0, "red").hand(1, "green")
    t.dice(NOT_SAVED, NOT_SAVED).script(0, 0)  # both lose: the oldest card is m_squad
    t.squad(0, "purple").squad(1, "orange")
    draw(t)
    # R8.1: the task at position 3 failed; R8.5: the others slide, a new one at position 1.
    assert t.perm_tasks() == ["t_yellow"]
    assert t.row_names() == ["t_orange", "t_blue", "t_red"]
    assert t.st.task_fate[TASK["t_yellow"], 0] == TASK_FAILED
    # R7.3: m_squad (drawn first) was used: squad-ally penalties, not hand ones.
    assert t.squads_of(0) == [] and t.squads_of(1) == []
    assert t.hand_of(0) == ["red", "blue"] and t.hand_of(1) == ["green"]
    # R8.5: used card to the permanent discard, the other two to the statue discard.
    assert t.perm_morale() == ["m_squad"]
    assert sorted(t.statue_discard_names()) == ["m_double", "m_hand", "orange", "purple"]
    assert t.track_names() == [None, None, None]
    assert t.st.g[MORALE_EVENTS] == 1 and t.st.g[FIRST_EVENT_TURN] == 1
    assert t.st.morale_stats[MORALE_ID["m_squad"], MS_EVENTS] == 1


def test_r8_2_every_player_rolls_active_first_then_clockwise_and_faces_count_die_by_die():
    t = Table(n_players=3, active=1).row(None, "t_red", "t_yellow").track("m_squad", "m_task")
    t.statue("blue", "m_hand").dice((5, 5), (1, 2), (2, 1))  # m_task saves [3, 4] only
    t.hand(0, "green").hand(1, "orange").hand(2, "purple")
    draw(t, seat=1)
    # m_task requires a 3 and a 4; (1, 2) and (2, 1) sum to 3 but faces are never summed.
    assert [(seat, d1, d2) for seat, d1, d2, _ in t.rolls()] == [(1, 5, 5), (2, 1, 2), (0, 2, 1)]
    assert [saved for *_, saved in t.rolls()] == [0, 0, 0]


def test_r8_2_the_required_faces_in_either_order_save_the_player():
    t = Table(n_players=2).row(None, "t_red", "t_yellow").track("m_squad", "m_task")
    t.statue("blue", "m_hand").dice((4, 3), (3, 4)).done(0, "t_big").done(1, "t_blue")
    draw(t)
    assert [saved for *_, saved in t.rolls()] == [1, 1]
    assert t.done_of(0) == ["t_big"] and t.done_of(1) == ["t_blue"]
    assert t.st.seat_stats[0, S_SAVES] == 1
    assert t.st.morale_stats[MORALE_ID["m_task"], MS_SAVES] == 2


def test_r8_3_completed_task_penalty_discards_a_chosen_task_to_the_permanent_discard():
    t = Table(n_players=2).row(None, "t_red", "t_yellow").track("m_squad", "m_task")
    t.statue("blue", "m_hand").dice(NOT_SAVED, NOT_SAVED).done(0, "t_big", "t_blue")
    t.script(1)  # R8.7: seat 0's policy gives up its second task; seat 1 has none
    draw(t)
    assert t.done_of(0) == ["t_big"]
    assert t.perm_tasks() == ["t_yellow", "t_blue"]
    assert t.st.task_fate[TASK["t_blue"], 0] == TASK_LOST
    assert t.st.seat_stats[0, S_TASKS_LOST] == 1
    assert t.st.seat_stats[1, S_PENALTY_NOTHING] == 1  # R8.3: nothing to lose, nothing lost


def test_r8_3_hand_ally_penalty_discards_a_chosen_hand_card_to_the_statue_discard():
    t = Table(n_players=2).row(None, "t_red", "t_yellow").track("m_squad", "m_hand")
    t.statue("blue", "m_task").dice(NOT_SAVED, NOT_SAVED).hand(0, "red", "green").hand(1, "orange")
    t.script(0, 0)
    draw(t)
    assert t.hand_of(0) == ["green", "blue"] and t.hand_of(1) == []
    assert sorted(t.statue_discard_names()) == ["m_squad", "m_task", "orange", "red"]
    assert t.st.seat_stats[0, S_PEN_HAND_ALLY] == 1


def test_r8_4_dolores_dei_is_never_removed_by_a_penalty():
    t = Table(n_players=2).row(None, "t_red", "t_yellow").track("m_hand", "m_squad")
    t.statue("blue", "m_task").dice(NOT_SAVED, NOT_SAVED).squad(0, "dolores", "red").squad(1, "orange")
    t.script(0, 0)  # seat 0 is offered only 'red'; seat 1 only 'orange'
    draw(t)
    assert t.squads_of(0) == [["dolores"]]
    assert t.squads_of(1) == []


def test_r8_6_if_the_failed_task_was_the_last_face_up_the_game_ends_at_once():
    t = Table(n_players=2).row(None, None, "t_yellow").track("m_hand", "m_task")
    t.statue("blue", "m_squad").dice(NOT_SAVED, NOT_SAVED)
    draw(t)
    assert t.st.g[OUTCOME] == OUTCOME_FINISHED
    assert t.hand_of(0) == []  # the draw stopped: no ally was drawn
    assert t.statue_names() == ["blue"]


def test_r8_reading_save_probabilities_match_the_kernel_exactly():
    """The kernel's save test over all 36 dice outcomes gives each form's exact
    probability (R8 Reading: 2/36, 1/36, 11/36, 6/36)."""
    for m, card in enumerate(DECK.morale):
        hits = sum(is_saved(ARRAYS.kernel_ref(), m, a, b) for a, b in itertools.product(range(1, 7), repeat=2))
        assert Fraction(hits, 36) == card.save.probability, card.id


def test_a5_kim_is_removed_by_a_squad_ally_penalty():
    t = Table(n_players=2).row(None, "t_red", "t_yellow").track("m_hand", "m_squad")
    t.statue("blue", "m_task").dice(NOT_SAVED, NOT_SAVED).squad(0, "kim", "red")
    t.script(0)  # seat 0 gives up Kim (row 0: squad 0, position 0); seat 1 has no squad
    draw(t)
    assert t.squads_of(0) == [["red"]]
    assert "kim" in t.statue_discard_names()


def test_r4_5_r8_6_a_reshuffle_in_the_middle_of_the_draw_that_goes_on_after_an_event():
    """The drawn m_task makes the third morale card: an event (m_squad, nobody has a
    squad); the draw goes on (R8.6) with the statue deck empty, so the discard, now
    holding blue and the two unused morale cards (R8.5), is shuffled into a new deck
    (R4.5) and the draw ends at blue."""
    t = Table(n_players=2).row("t_blue", "t_red", "t_yellow").task_deck("t_orange").track("m_hand", "m_squad")
    t.statue("m_task").statue_discard("blue").dice(NOT_SAVED, NOT_SAVED)
    draw(t)
    assert t.st.g[MORALE_EVENTS] == 1 and t.perm_morale() == ["m_squad"]
    assert [r[1] for r in t.events(EV_RESHUFFLE)] == [3]  # blue, m_task, m_hand
    assert t.hand_of(0) == ["blue"]
    on_track = [m for m in t.track_names() if m is not None]
    assert sorted(on_track + t.statue_names()) == ["m_hand", "m_task"]  # drawn before blue, or still in the deck
    assert t.statue_discard_names() == []
