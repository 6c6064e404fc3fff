"""Scripted positions for completing tasks: R6 and the abilities that act on
completion (A1, A2, A5, A8), each checked against docs/RULES.md."""

import numpy as np
import pytest

from sim.cards import dump_yaml, parse_deck
from sim.deck_arrays import compile_deck
from sim.decisions import C_BORROWER, C_BORROWS, C_FREE, C_LENDER, C_SQUAD, C_SUBSET
from sim.options import RuleOptions
from sim.rng import stream_keys
from sim.rules.setup import setup_game
from sim.rules.squads import add_to_squad
from sim.rules.turn import take_turn
from sim.rules.completion import borrow_options, complete_tasks, completion_options
from sim.rules.cover import shortfall, shortfall_with
from sim.state import EMPTY, OUTCOME, OUTCOME_FINISHED, OUTCOME_RUNNING, kernel_state, new_state
from tests.table import ALLY, Table, ally_name

pytestmark = pytest.mark.nojit


def options(t: Table, seat: int = 0) -> list[tuple]:
    """The offered completions as (squad, subset, free, borrows) tuples."""
    n = completion_options(t.ref, t.deck, seat)
    rows = t.st.options[:n]
    assert (rows[0, :4] == EMPTY).all(), "row 0 is 'no completion'"
    return [(r[C_SQUAD], r[C_SUBSET], r[C_FREE], r[C_BORROWS]) for r in rows[1:]]


def plain(t: Table, seat: int = 0) -> set[tuple[int, int]]:
    return {(s, sub) for s, sub, free, borrows in options(t, seat) if not free and borrows == 0}


def borrow_rows(t: Table, squad: int, subset: int, chosen: list[tuple[str, str]], left: int, seat: int = 0) -> list:
    """The offered (borrower, lender) pairs after the borrows ``chosen``, ``left`` to come (A1)."""
    for b, (borrower, lender) in enumerate(chosen):
        t.st.borrows[b] = ALLY[borrower], ALLY[lender]
    n = borrow_options(t.ref, t.deck, seat, squad, subset, len(chosen), left)
    return [(ally_name(r[C_BORROWER]), ally_name(r[C_LENDER])) for r in t.st.options[:n]]


def complete(t: Table, seat: int, squad: int, subset: int, borrows: list[tuple[str, str]] = ()):
    choice = np.full(8, EMPTY, np.int64)
    choice[C_SQUAD], choice[C_SUBSET], choice[C_FREE], choice[C_BORROWS] = squad, subset, 0, len(borrows)
    for b, (borrower, lender) in enumerate(borrows):
        t.st.borrows[b] = ALLY[borrower], ALLY[lender]
    complete_tasks(t.ref, t.deck, seat, choice)


def test_r6_1_coloured_symbols_cover_their_colour_each_used_once():
    t = Table().row("t_blue", "t_red", "t_blue_red").squad(0, "blue", "red")
    # {blue, red} covers t_blue, t_red, t_blue_red, and t_blue + t_red together,
    # but not t_blue_red with another task: each symbol is used once.
    assert plain(t) == {(0, 0b001), (0, 0b010), (0, 0b100), (0, 0b011)}


def test_r6_1_a_white_crown_covers_any_colour():
    t = Table().row("t_green2", None, None).squad(0, "green", "crown")
    assert plain(t) == {(0, 0b001)}
    t = Table().row("t_green2", None, None).squad(0, "green")
    assert plain(t) == set()


def test_r6_1_shortfall_with_an_ally_counts_its_colours_and_crown_and_writes_nothing():
    # Subset 1 needs 2 red (colour 0) and 1 blue (colour 1); squad 0 of seat 0 holds
    # one red; the ally brings a red and a White Crown (symbol 6).
    needs = np.zeros((8, 6), np.int64)
    needs[1, 0], needs[1, 1] = 2, 1
    symbols = np.zeros((1, 2, 7), np.int64)
    symbols[0, 0, 0] = 1
    counts = np.zeros((1, 7), np.int8)
    counts[0, 0], counts[0, 6] = 1, 1
    before = symbols.copy()
    assert shortfall(needs, symbols, 0, 0, 1) == 2  # one red and the blue missing
    assert shortfall_with(needs, symbols, 0, 0, 1, 1, counts, -1, 1) == 2  # no ally
    assert shortfall_with(needs, symbols, 0, 0, 1, 1, counts, 0, 1) == 0  # red joins; the crown is the blue
    assert shortfall_with(needs, symbols, 0, 0, 1, 0, counts, 0, 1) == 1  # base 0 (a new squad): its red is not counted
    assert (symbols == before).all()


def test_r6_1_shortfall_without_an_ally_counts_the_squad_as_if_it_had_left():
    # Subset 1 needs 2 red (colour 0); squad 0 of seat 0 holds two reds and a crown,
    # of which the ally leaving (an A7 move out) shows one red and the crown.
    needs = np.zeros((8, 6), np.int64)
    needs[1, 0] = 2
    symbols = np.zeros((1, 2, 7), np.int64)
    symbols[0, 0, 0], symbols[0, 0, 6] = 2, 1
    counts = np.zeros((1, 7), np.int8)
    counts[0, 0], counts[0, 6] = 1, 1
    before = symbols.copy()
    assert shortfall_with(needs, symbols, 0, 0, 1, 1, counts, 0, 1) == 0  # with it: covered
    assert shortfall_with(needs, symbols, 0, 0, 1, 1, counts, 0, -1) == 1  # without it: one red, no crown left
    assert (symbols == before).all()


def test_r6_2_one_squad_completes_tasks_and_squads_never_pool_symbols():
    t = Table().row("t_blue", "t_red", "t_blue_red").squad(0, "blue").squad(0, "red")
    assert plain(t) == {(0, 0b001), (1, 0b010)}  # t_blue_red needs both squads: not offered


def test_r6_3_r6_4_tasks_go_to_the_player_and_the_whole_squad_is_discarded():
    t = Table().row("t_yellow", "t_red", "t_blue").task_deck("t_orange", "t_green2")
    t.squad(0, "blue", "green_yellow").squad(0, "red")
    complete(t, 0, squad=0, subset=0b101)  # t_yellow and t_blue: green is not needed
    assert t.done_of(0) == ["t_yellow", "t_blue"]
    assert sorted(t.statue_discard_names()) == ["blue", "green_yellow"]  # unused symbols are lost
    assert t.squads_of(0) == [["red"]]


def test_r6_5_remaining_tasks_slide_right_and_new_ones_fill_rightmost_first():
    t = Table().row("t_blue", "t_red", "t_yellow").task_deck("t_orange", "t_green2").squad(0, "red", "yellow")
    complete(t, 0, squad=0, subset=0b110)  # positions 2 and 3
    # t_blue slides from 1 to 3; the next task (t_green2) goes to 2, then t_orange to 1.
    assert t.row_names() == ["t_orange", "t_green2", "t_blue"]


def test_r6_5_with_the_task_deck_empty_the_row_stays_right_aligned():
    t = Table().row("t_blue", "t_red", "t_yellow").squad(0, "yellow")
    complete(t, 0, squad=0, subset=0b100)
    assert t.row_names() == [None, "t_blue", "t_red"]
    assert t.st.g[OUTCOME] == OUTCOME_RUNNING


def test_r6_6_morale_cards_stay_in_their_track_positions_when_tasks_slide():
    t = Table().row("t_blue", "t_red", "t_yellow").track("m_hand", "m_task").squad(0, "yellow")
    complete(t, 0, squad=0, subset=0b100)
    assert t.track_names() == ["m_hand", "m_task", None]


def test_r6_worked_example_badge_and_island_together_crown_for_yellow_one_orange_lost():
    """Rulebook p. 9: a squad with a White Crown and two orange crosses completes "Find
    your badge" and "Go to the island" together; one orange is not needed, the crown
    stands in for the yellow triangle; the third task slides right and two new tasks
    are revealed."""
    t = Table().row("find_your_badge", "go_to_the_island", "t_red").task_deck("t_orange", "t_blue")
    t.squad(0, "crown", "orange", "orange2", "blue", "purple")
    assert (0, 0b011) in plain(t)
    complete(t, 0, squad=0, subset=0b011)
    assert t.done_of(0) == ["find_your_badge", "go_to_the_island"]
    assert t.squads_of(0) == []
    assert sorted(t.statue_discard_names()) == ["blue", "crown", "orange", "orange2", "purple"]
    assert t.row_names() == ["t_orange", "t_blue", "t_red"]


def test_r9_1_completing_the_last_face_up_task_ends_the_game():
    t = Table().row(None, None, "t_blue").squad(0, "blue")
    complete(t, 0, squad=0, subset=0b100)
    assert t.st.g[OUTCOME] == OUTCOME_FINISHED


def test_a1_borrowed_symbol_sends_the_borrower_to_the_lenders_owner():
    # t_big needs blue, red, green, yellow; the squad has red, green and Lena's crown:
    # one colour short even with the crown, so Lena must borrow blue or yellow.
    t = Table().row(None, None, "t_big").squad(0, "red", "green", "lena").squad(1, "blue2", "dolores")
    assert options(t) == [(0, 0b100, 0, 1)]
    assert borrow_rows(t, 0, 0b100, [], 1) == [("lena", "blue2")]  # Dolores' purple is no use
    complete(t, 0, squad=0, subset=0b100, borrows=[("lena", "blue2")])
    assert t.received_of(1) == ["lena"]  # she scores her 1 point for seat 1
    assert t.squads_of(1) == [["blue2", "dolores"]]  # the lender stays where it is
    assert sorted(t.statue_discard_names()) == ["green", "red"]


def test_a1_borrow_is_offered_only_when_needed_and_may_use_dolores_dei():
    t = Table().row(None, None, "t_special").squad(0, "orange", "lena").squad(1, "dolores")
    # Lena's crown covers purple alone: no borrow needed, none offered.
    assert options(t) == [(0, 0b100, 0, 0)]
    t = Table().row(None, "t_special", "t_red").squad(0, "orange", "lena").squad(1, "dolores")
    # Together they need purple, orange and red: the crown covers one, Dolores lends purple (A3).
    assert (0, 0b110, 0, 1) in options(t)
    assert borrow_rows(t, 0, 0b110, [], 1) == [("lena", "dolores")]


def test_a1_unused_borrower_is_discarded_with_the_squad_and_scores_nothing():
    t = Table().row(None, None, "t_blue").squad(0, "lena").squad(1, "blue")
    complete(t, 0, squad=0, subset=0b100)
    assert t.statue_discard_names() == ["lena"]
    assert t.received_of(1) == []


def test_a2_double_counts_a_symbol_another_card_has_twice():
    t = Table().row(None, None, "t_green2").squad(0, "green", "measurehead")
    assert options(t) == [(0, 0b100, 1, 0)]  # Measurehead doubles the green
    t = Table().row(None, None, "t_green2").squad(0, "blue", "measurehead")
    assert options(t) == []  # no green to double


def test_a2_reading_may_not_double_its_own_symbol_unless_opt_double_any_symbol():
    t = Table().row(None, None, "t_blue2").squad(0, "measurehead", "red")
    assert options(t) == []  # Spanish text: only a symbol another card of the squad has
    t = Table(options=RuleOptions(debug=True, double_any_symbol=True)).row(None, None, "t_blue2")
    t.squad(0, "measurehead", "red")
    assert options(t) == [(0, 0b100, 1, 0)]  # opt_double_any_symbol (Russian text)


def test_a5_kim_stays_as_the_first_card_of_a_new_squad():
    t = Table().row(None, None, "t_blue_red").squad(0, "green").squad(0, "kim", "red")
    complete(t, 0, squad=1, subset=0b100)
    assert t.squads_of(0) == [["green"], ["kim"]]
    assert t.statue_discard_names() == ["red"]
    t.row(None, None, "t_blue")
    t.st.g[OUTCOME] = OUTCOME_RUNNING
    complete(t, 0, squad=1, subset=0b100)  # Reading: after every completion
    assert t.squads_of(0) == [["green"], ["kim"]]


def test_a8_extra_crown_only_for_a_special_tasks_symbol():
    t = Table().row(None, None, "t_special").squad(0, "orange", "ruby")
    assert options(t) == [(0, 0b100, 1, 0)]  # the extra crown stands in for purple
    t = Table().row(None, None, "t_green2").squad(0, "green", "ruby")
    assert options(t) == []  # not a Special Task: no extra crown


def test_a8_extra_crown_once_per_completion_however_many_special_tasks():
    t = Table().row(None, "t_special", "t_special2").squad(0, "orange", "ruby")
    # Both Special Tasks need two purples; the one extra crown covers one of them.
    assert options(t) == [(0, 0b010, 1, 0), (0, 0b100, 1, 0)]


def test_a1_reading_three_borrowers_complete_two_tasks_issue_13_example():
    """Lena, Cuno and Jean (three crowns) against tasks needing B, R, G, Y and B, B:
    three short even with the crowns, so all three borrow (A1 Reading: no cap)."""
    t = Table().row(None, "t_big", "t_blue2").squad(0, "lena", "cuno", "jean").squad(1, "blue", "red", "green")
    assert (0, 0b110, 0, 3) in options(t)
    first = borrow_rows(t, 0, 0b110, [], 3)
    assert {b for b, _ in first} == {"lena", "cuno", "jean"} and {l for _, l in first} == {"blue", "red", "green"}
    assert borrow_rows(t, 0, 0b110, [("lena", "blue"), ("jean", "red")], 1) == [("cuno", "green")]
    complete(t, 0, squad=0, subset=0b110, borrows=[("lena", "blue"), ("jean", "red"), ("cuno", "green")])
    assert t.done_of(0) == ["t_big", "t_blue2"]
    assert sorted(t.received_of(1)) == ["cuno", "jean", "lena"]
    assert t.squads_of(1) == [["blue", "red", "green"]]


def test_a1_reading_four_borrowers_each_goes_to_its_own_lenders_owner():
    t = Table(n_players=3).row("t_big", "t_blue2", "t_green2").squad(0, "lena", "cuno", "jean", "klaasje")
    t.squad(1, "blue", "green").squad(2, "red", "yellow")
    # 8 symbols needed, 4 crowns: four borrows; B, R, G, Y lent, the crowns cover B, B, G, G.
    assert (0, 0b111, 0, 4) in options(t)
    assert (0, 0b111) not in {(s, sub) for s, sub, _, borrows in options(t) if borrows < 4}
    borrows = [("lena", "blue"), ("cuno", "red"), ("jean", "green"), ("klaasje", "yellow")]
    assert borrow_rows(t, 0, 0b111, borrows[:3], 1) == [("klaasje", "yellow")]
    complete(t, 0, squad=0, subset=0b111, borrows=borrows)
    assert sorted(t.received_of(1)) == ["jean", "lena"] and sorted(t.received_of(2)) == ["cuno", "klaasje"]


def test_a1_reading_two_borrowers_may_not_use_the_same_symbol_of_one_ally():
    # t_big + t_blue2 need B x3, R, G, Y; the squad has R, G and two crowns: two borrows.
    t = Table().row(None, "t_big", "t_blue2").squad(0, "lena", "cuno", "red", "green").squad(1, "blue")
    assert (0, 0b110) not in {(s, sub) for s, sub, _, _ in options(t)}  # one blue cannot be lent twice
    t.squad(1, "green_yellow")
    assert (0, 0b110, 0, 2) in options(t)
    assert borrow_rows(t, 0, 0b110, [], 2) == [
        ("lena", "blue"), ("lena", "green_yellow"), ("cuno", "blue"), ("cuno", "green_yellow"),
    ]  # fmt: skip
    assert borrow_rows(t, 0, 0b110, [("lena", "blue")], 1) == [("cuno", "green_yellow")]


def test_a1_reading_an_ally_with_two_symbols_lends_one_to_each_of_two_borrowers():
    # t_big + t_green2 need B, R, G x3, Y; the squad has B, R and two crowns: G and Y
    # come from green_yellow, one symbol to each borrower.
    t = Table().row(None, "t_big", "t_green2").squad(0, "lena", "cuno", "blue", "red").squad(1, "green_yellow")
    assert (0, 0b110, 0, 2) in options(t)
    assert borrow_rows(t, 0, 0b110, [("lena", "green_yellow")], 1) == [("cuno", "green_yellow")]
    complete(t, 0, squad=0, subset=0b110, borrows=[("lena", "green_yellow"), ("cuno", "green_yellow")])
    assert sorted(t.received_of(1)) == ["cuno", "lena"]


def test_a1_a_completion_turn_chooses_its_borrows_one_by_one():
    """R4.1 then R6 with A1 through the turn: the completion row, then each borrow."""
    probe = Table().row(None, "t_big", "t_blue2").squad(0, "lena", "cuno", "jean").squad(1, "blue", "red", "green")
    complete_row = 1 + options(probe).index((0, 0b110, 0, 3))
    t = Table().row(None, "t_big", "t_blue2").squad(0, "lena", "cuno").squad(1, "blue", "red", "green")
    t.hand(0, "jean")
    # play; (jean, squad 0); the completion; then three borrows, the first row each time.
    t.script(0, 0, complete_row, 0, 0, 0)
    take_turn(t.ref, t.deck)
    assert t.done_of(0) == ["t_big", "t_blue2"] and len(t.received_of(1)) == 3


def test_a8_reading_two_special_crowns_one_per_card_unless_opt_one_special_crown_per_squad():
    # t_special + t_special3 need purple x3 and orange; the squad has orange.
    t = Table().row(None, "t_special", "t_special3").squad(0, "orange", "ruby", "titus")
    # Titus's own crown covers one purple; each A8 card's extra crown covers one more.
    assert (0, 0b110, 1, 0) in options(t)
    t = Table(options=RuleOptions(debug=True, one_special_crown_per_squad=True))
    t.row(None, "t_special", "t_special3").squad(0, "orange", "ruby", "titus")
    assert (0, 0b110) not in {(s, sub) for s, sub, _, _ in options(t)}
    assert (0, 0b100, 1, 0) in options(t)  # t_special3 alone: the crown and one extra crown


def test_a1_two_squads_of_two_borrowers_against_38_lenders_fit_the_option_buffer():
    """Issue 13, item 5: listing every (borrower, lender) combination at once overflowed
    the option buffer ("too many completion options"); now a completion row names the
    number of borrows and each borrow is a row of at most A1 cards x allies."""
    names = [f"lender_{i}" for i in range(38)]
    allies = [{"id": f"a1_{i}", "name": f"A1 {i}", "symbols": ["crown"], "points": 1, "ability": "borrow"} for i in range(4)]
    allies += [{"id": n, "name": n, "symbols": ["blue", "red"], "points": 0} for n in names]
    tasks = [{"id": f"t_{i}", "name": f"T {i}", "points": 1, "requires": ["blue", "red", "blue", "red"]} for i in range(3)]
    deck = compile_deck(parse_deck(dump_yaml({"format": 1, "allies": allies, "tasks": tasks, "morale": []})))
    st = new_state(deck, RuleOptions(debug=True).to_array())
    ref, deck_ref = kernel_state(st), deck.kernel_ref()
    setup_game(ref, deck_ref, 4, stream_keys(0), 0)
    st.hand_n[:] = st.squad_n[:] = st.squad_size[:] = st.squad_symbols[:] = 0
    st.row[:] = [0, 1, 2]
    for squad, (a, b) in enumerate([(0, 1), (2, 3)]):
        add_to_squad(ref, deck_ref, 0, squad, a)
        add_to_squad(ref, deck_ref, 0, squad, b)
    for i in range(38):
        add_to_squad(ref, deck_ref, 1 + i % 3, 0, 4 + i)
    n = completion_options(ref, deck_ref, 0)
    rows = {(int(r[C_SQUAD]), int(r[C_SUBSET]), int(r[C_BORROWS])) for r in st.options[1:n]}
    assert rows == {(s, subset, 2) for s in (0, 1) for subset in (0b001, 0b010, 0b100)}  # 2 crowns + 2 borrows each
    n = borrow_options(ref, deck_ref, 0, 1, 0b001, 0, 2)
    assert n == 2 * 38  # either borrower of squad 1, any lender
    st.borrows[0] = 2, 4 + 7
    n = borrow_options(ref, deck_ref, 0, 1, 0b001, 1, 1)
    assert n == 38 and set(st.options[:n, C_BORROWER]) == {3}  # lender_7 may lend its other symbol too


def test_r6_1_r6_5_completions_follow_the_row_after_it_changes_in_the_same_state():
    # The need tables are kept while the row is unchanged (sim.rules.completion.subset_needs):
    # a completion slides and refills the row (R6.5), and the next offer must be the new row's.
    t = Table().row("t_blue", "t_red", "t_blue_red").squad(0, "blue")
    assert plain(t) == {(0, 0b001)}
    t.row("t_red", "t_blue_red", "t_blue")
    assert plain(t) == {(0, 0b100)}
    t.row(None, None, "t_red")
    assert plain(t) == set()
