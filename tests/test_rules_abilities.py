"""Scripted positions for the abilities that act on placement or during the turn:
A3, A4, A6, A7, A9 (A1, A2, A5, A8: tests/test_rules_completion.py)."""

import pytest

from sim.decisions import D_EXTRA_PLAY
from sim.options import RuleOptions
from sim.rules.abilities import play_options, relocate_options, swap_options
from sim.rules.turn import take_turn
from tests.table import ALLY, Table

pytestmark = pytest.mark.nojit


def turn(t: Table) -> None:
    take_turn(t.ref, t.deck)


def test_a4_after_cindy_the_player_may_place_one_more_card():
    t = Table().row("t_red", "t_green2", "t_big").hand(0, "cindy", "blue")
    # play (the only action: nothing to draw); (cindy, new squad); extra: (blue, squad 0)
    t.script(0, 0, 1)
    turn(t)
    assert t.squads_of(0) == [["cindy", "blue"]] and t.hand_of(0) == []


def test_a4_the_extra_play_is_optional():
    t = Table().row("t_red", "t_green2", "t_big").hand(0, "cindy", "blue").script(0, 0, 0)
    turn(t)
    assert t.squads_of(0) == [["cindy"]] and t.hand_of(0) == ["blue"]


def test_a4_reading_the_extra_cards_own_ability_acts():
    t = Table().row("t_red", "t_green2", "t_big").hand(0, "cindy", "evrart").statue("green")
    # play; (cindy, new); extra (evrart, squad 0); A9 then draws green at once.
    t.script(0, 0, 1)
    turn(t)
    assert t.squads_of(0) == [["cindy", "evrart"]] and t.hand_of(0) == ["green"]


def test_a6_harry_takes_an_ally_from_another_squad_and_goes_to_its_owner():
    t = Table().row("t_yellow", "t_green2", "t_big").hand(0, "harry").squad(0, "blue").squad(1, "red", "dolores")
    # play; (harry, squad 0); swap row 1: seat 1's red (Dolores is not offered, A3) into squad 0.
    t.script(0, 0, 1)
    turn(t)
    assert t.squads_of(0) == [["blue", "red"]]
    assert t.squads_of(1) == [["dolores"]]
    assert t.received_of(1) == ["harry"]  # seat 1 scores Harry's 2 points


def test_a6_reading_harry_unused_stays_in_the_squad_and_nobody_scores_him():
    t = Table().row("t_yellow", "t_green2", "t_big").hand(0, "harry").squad(1, "red").script(0, 0, 0)
    turn(t)
    assert t.squads_of(0) == [["harry"]] and t.received_of(1) == []


def test_a3_dolores_dei_cannot_be_taken_by_harry():
    t = Table().squad(0, "harry").squad(1, "dolores")
    assert swap_options(t.ref, t.deck, 0, ALLY["harry"]) == 1  # only 'none'
    t = Table().squad(0, "harry").squad(1, "dolores", "red")
    assert swap_options(t.ref, t.deck, 0, ALLY["harry"]) == 2
    assert t.options(2)[1][:6] == [1, 0, 1, ALLY["red"], 0, ALLY["harry"]]


def test_a7_garte_moves_before_completing_on_a_play_turn():
    t = Table().row("t_red", "t_yellow", "t_green2").hand(0, "blue").squad(0, "garte").squad(0, "green")
    # play; (blue, new squad) = row 2; relocate row 1: Garte to squad 1 (his old squad
    # ceases to exist); completion row 1: the green squad completes t_green2.
    t.script(0, 2, 1, 1)
    turn(t)
    assert t.done_of(0) == ["t_green2"]
    assert t.squads_of(0) == [["blue"]]


def test_a7_garte_moves_after_the_draw_on_a_draw_turn():
    t = Table().row("t_red", "t_yellow", "t_big").hand(0, "red").squad(0, "garte").squad(0, "green")
    t.statue("blue").script(1, 1)  # draw; relocate Garte to the green squad
    turn(t)
    assert t.hand_of(0) == ["red", "blue"]
    assert t.squads_of(0) == [["green", "garte"]]


def test_a7_r6_4_garte_completing_with_his_squad_leaves_no_move_to_offer():
    t = Table().row("t_red", "t_yellow", "t_green2").hand(0, "green").squad(0, "garte").squad(0, "red")
    assert relocate_options(t.ref, t.deck, 0) == 2  # none, Garte to the red squad
    # play; (green, squad 0); no move; completion row 1: Garte's squad completes t_green2
    t.script(0, 0, 0, 1)
    turn(t)
    assert t.done_of(0) == ["t_green2"] and t.squads_of(0) == [["red"]]
    assert relocate_options(t.ref, t.deck, 0) == 1  # R6.4: Garte went to the statue discard
    assert t.st.relocators[0] == 0  # the seat's count of A7 allies in squads went with him


def test_a7_r5_3_garte_moved_out_of_his_squad_is_offered_a_move_again():
    t = Table().row("t_red", "t_yellow", "t_big").hand(0, "red").squad(0, "garte").squad(0, "green").squad(0, "blue")
    t.statue("yellow").script(1, 1)  # draw; relocate row 1: Garte to the green squad
    turn(t)
    assert t.squads_of(0) == [["green", "garte"], ["blue"]]  # R5.3: his old squad ceased
    assert relocate_options(t.ref, t.deck, 0) == 2  # none, Garte to the blue squad


def test_a9_evrart_forces_a_draw_and_the_player_may_still_complete():
    t = Table().row("t_red", "t_yellow", "t_orange").hand(0, "evrart").statue("m_hand", "blue")
    # play; (evrart, new): the forced draw takes blue; completion row 1: t_orange.
    t.script(0, 0, 1)
    turn(t)
    assert t.hand_of(0) == ["blue"]
    assert t.done_of(0) == ["t_orange"]
    assert t.statue_names() == ["m_hand"]


def test_a9_without_any_card_to_draw_nothing_happens():
    t = Table().row("t_red", "t_yellow", "t_big").hand(0, "evrart").script(0, 0)
    turn(t)
    assert t.hand_of(0) == [] and t.squads_of(0) == [["evrart"]]


def test_a4_reading_the_extra_card_may_start_a_new_squad_unless_opt_extra_play_existing_squad():
    t = Table().row("t_red", "t_green2", "t_big").hand(0, "cindy", "blue")
    # play; (cindy, new squad); extra rows: none, (blue, squad 0), (blue, a new squad)
    t.script(0, 0, 2)
    turn(t)
    assert t.squads_of(0) == [["cindy"], ["blue"]] and t.hand_of(0) == []
    t = Table(options=RuleOptions(debug=True, extra_play_existing_squad=True)).hand(0, "blue").squad(0, "cindy")
    assert play_options(t.ref, 0, D_EXTRA_PLAY) == 2  # none, (blue, squad 0): no new squad
    assert t.options(2)[1][:2] == [0, 0]


def test_a6_harry_alone_in_a_new_squad_takes_an_ally_into_his_own_squad():
    t = Table().row("t_yellow", "t_green2", "t_big").hand(0, "harry").squad(1, "red")
    # play; (harry, new squad); swap row 1: seat 1's red into squad 0, Harry's own.
    t.script(0, 0, 1)
    turn(t)
    assert t.squads_of(0) == [["red"]]  # Harry left; the squad lives on with red
    assert t.squads_of(1) == []  # R5.3: seat 1's squad lost its last ally
    assert t.received_of(1) == ["harry"]


def test_a6_harry_alone_in_a_new_squad_takes_an_ally_into_another_squad_and_his_squad_ends():
    t = Table().row("t_yellow", "t_green2", "t_big").hand(0, "harry").squad(0, "blue").squad(1, "red", "green")
    # play; (harry, new squad = row 1); swap rows: red into squad 0 (row 1) or into Harry's squad 1 (row 2)
    t.script(0, 1, 1)
    turn(t)
    assert t.squads_of(0) == [["blue", "red"]]  # R5.3: Harry's one-card squad no longer exists
    assert t.squads_of(1) == [["green"]] and t.received_of(1) == ["harry"]
