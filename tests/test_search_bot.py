"""The search bot (sim.bots.search, sim.bots.search_tree) on scripted positions: it
plans the move that wins, searches the A1 borrow and the R6 completion where planner
does not, keeps to a full node pool, names an offered row off the tree, and splits a
run without changing its games, and with no decision kind searched plays ``planner``'s
games.

Marked slow: the search bot's compile alone takes over a minute of CPU, so the quick
tier (pytest -m "not slow") leaves it to the full suite."""

import numpy as np
import pytest

from sim.bots.search import plan_turn
from sim.bots.search_tree import KEY_WIDTH, MODE_FOLLOW, TG_FULL, TG_MODE, TG_NODES, search_choose
from sim.decisions import ACTION_DRAW, ACTION_PLAY, D_ACTION, D_PLAY
from sim.options import RuleOptions
from sim.play import run_games
from sim.record import PLAYER_FIELDS
from sim.rules.abilities import play_options
from sim.rules.scoring import score_game
from sim.rules.turn import take_turn
from sim.state import WINNER, kernel_state, new_twin
from tests.table import ARRAYS, Table
from tests.test_bots import seat_bots

pytestmark = pytest.mark.slow


def win_at_once(iterations: int) -> Table:
    # The last face-up task is t_blue; seat 0 trails 2-3. Playing blue into a new squad
    # completes it and ends the game 3-3, won on more completed tasks (R9.1, R9.3). Every
    # ally seat 0 cannot see shows blue, so after a draw or playing red, seat 1 completes
    # t_blue on its turn and wins, however the hidden cards are redealt.
    t = seat_bots(Table(), f"search:iterations={iterations}").row(None, None, "t_blue").hand(0, "red", "blue")
    return t.hand(1, "blue2").done(0, "t_red").done(1, "t_blue_red").statue("kim", "measurehead", "blue_red", "m_hand")


def test_search_plans_the_move_that_wins_at_once():
    t = win_at_once(30)
    plan_turn(t.for_search(), t.deck)
    assert t.hand_of(0) == ["red", "blue"] and t.row_names() == [None, None, "t_blue"]  # the position is restored
    assert t.st.tree_g[TG_MODE] == MODE_FOLLOW and 2 < t.st.tree_g[TG_NODES] <= 31  # one node per iteration at most
    take_turn(t.ref, t.deck)  # the real turn follows the tree
    score_game(t.ref, t.deck)
    assert t.hand_of(0) == ["red"] and t.done_of(0) == ["t_red", "t_blue"] and t.st.g[WINNER] == 0


def lend_to_the_trailing_seat(bot: str) -> Table:
    # Three seats; the last face-up task is t_blue2 (blue, blue: 2 points); the statue
    # deck and discard are empty, so seat 0 must play (R4.2, R4.5): Lena (crown, A1, 1
    # point) into a new squad. Her crown covers one blue; she borrows the other (A1)
    # from seat 1's blue or seat 2's blue2 and goes to the lender's owner (R9.2).
    # Completing ends the game (R9.1) with seat 0 at 2 + 2 = 4 points and 2 tasks:
    # lent by seat 1 (4 points, 1 task), seat 1 reaches 5 and wins; lent by seat 2,
    # seat 0 wins the 4-4 tie on tasks (R9.3). planner completes (2 points for a gift
    # of 1) and takes the first of equally cheap borrows: seat 1's.
    t = seat_bots(Table(n_players=3), bot).row(None, None, "t_blue2").hand(0, "lena")
    return t.squad(1, "blue").squad(2, "blue2").done(0, "t_red").done(1, "t_special")


@pytest.mark.parametrize("bot, lender", [("planner", 1), ("search:iterations=64", 2)])
def test_search_chooses_the_a1_lender_that_wins_where_planner_does_not(bot, lender):
    """The tree searches the D_BORROW decision (A1), not only play or draw (R4)."""
    t = lend_to_the_trailing_seat(bot)
    if bot.startswith("search"):
        plan_turn(t.for_search(), t.deck)
    take_turn(t.ref, t.deck)
    score_game(t.ref, t.deck)
    assert t.done_of(0) == ["t_red", "t_blue2"] and t.received_of(lender) == ["lena"]
    assert t.st.g[WINNER] == (1 if lender == 1 else 0)


@pytest.mark.parametrize("bot, task, winner", [("planner", "t_red", 1), ("search:iterations=64", "t_blue_red", 0)])
def test_search_chooses_the_completion_that_wins_where_planner_saves_position_3(bot, task, winner):
    """The tree searches the D_COMPLETE decision (R6), not only play or draw (R4).

    Seat 0 plays red into its blue squad, which can then complete t_blue_red (3 points,
    position 1) or t_red (2, position 3). With two morale cards on the track planner
    saves position 3 (R7.2): t_red. Seat 1 (planner) then plays red2 into its blue2
    squad and completes the last face-up task, ending the game (R9.1): t_red leaves
    it 3-2 for seat 1, t_blue_red 3-2 for seat 0. Seat 0's unseen allies are red2
    alone, so every determinisation agrees."""
    t = seat_bots(Table(), bot, "planner").row("t_blue_red", None, "t_red").track("m_hand", "m_task")
    t.squad(0, "blue").hand(0, "red").squad(1, "blue2").hand(1, "red2").statue("m_squad")
    if bot.startswith("search"):
        plan_turn(t.for_search(), t.deck)
    take_turn(t.ref, t.deck)
    assert t.done_of(0) == [task]
    take_turn(t.ref, t.deck)
    score_game(t.ref, t.deck)
    assert t.row_names() == [None, None, None] and t.st.g[WINNER] == winner


def test_a_full_node_pool_stops_expanding_and_the_turn_still_follows_the_tree():
    # A pool of 3 nodes: the root and its two children (play, draw) fill it.
    t = win_at_once(20)
    t.for_search()
    st = t.st._replace(tree_key=np.zeros((3, KEY_WIDTH), np.int64), tree_child=np.full((3, 2), -1, np.int64),
                       tree_stats=np.zeros((3, 3)))  # fmt: skip
    ref = kernel_state(st, new_twin(st, ARRAYS))
    plan_turn(ref, t.deck)
    assert st.tree_g[TG_NODES] == 3 and st.tree_g[TG_FULL] > 0
    assert st.tree_stats[1:3, 0].sum() == 20  # every iteration went through one of the two children
    take_turn(ref, t.deck)
    score_game(ref, t.deck)
    assert t.done_of(0) == ["t_red", "t_blue"] and t.st.g[WINNER] == 0


def test_the_tree_names_an_offered_row_when_the_offers_differ_from_the_search():
    # After searching the position, the real turn's placement offers rows the tree never
    # saw (another hand): search_choose falls back to planner, inside [0, n).
    t = win_at_once(30)
    plan_turn(t.for_search(), t.deck)
    t.st.hand_n[0] = 0
    t.hand(0, "yellow", "green", "orange").squad(0, "purple")
    t.st.options[0, 0], t.st.options[1, 0] = ACTION_PLAY, ACTION_DRAW
    assert 0 <= search_choose(t.ref, t.deck, 0, D_ACTION, 2, t.st.bot_params[0]) < 2
    n = play_options(t.ref, 0, D_PLAY)
    assert 0 <= search_choose(t.ref, t.deck, 0, D_PLAY, n, t.st.bot_params[0]) < n == 6


def test_two_search_seats_give_the_same_games_whether_the_run_is_split_or_not(default_arrays):
    """The tree lives in the reused state across games and is shared by both search
    seats; each turn's search starts from a cleared tree, so splitting changes nothing."""
    bots = ["search:iterations=16", "planner", "search:iterations=8", "planner"]
    options = RuleOptions(shuffle_seats=True, debug=True)
    whole = run_games(default_arrays, 4, 12, seed=5, bots=bots, options=options)
    first = run_games(default_arrays, 4, 5, seed=5, bots=bots, options=options)
    rest = run_games(default_arrays, 4, 7, seed=5, bots=bots, options=options, first_game=5)
    assert (whole.games == np.concatenate([first.games, rest.games])).all()
    assert (whole.players == np.concatenate([first.players, rest.players])).all()


def test_search_with_no_decision_kind_searched_plays_planners_games(default_arrays):
    """kinds=0 (sim.bots.search_tree): every decision is planner's; the playouts draw
    only on the bot stream, never on the game's deal or dice (sim.rng), so the games
    are planner's to the last field."""
    options = RuleOptions(shuffle_seats=True)
    searched = run_games(default_arrays, 3, 6, seed=8, bots=["search:iterations=16,kinds=0,penalty_iterations=0",
                                                             "planner", "planner"], options=options)  # fmt: skip
    planner = run_games(default_arrays, 3, 6, seed=8, bots=["planner"] * 3, options=options)
    assert (searched.games == planner.games).all()
    fields = [f for f in range(searched.players.shape[-1]) if f != PLAYER_FIELDS.index("bot")]
    assert (searched.players[..., fields] == planner.players[..., fields]).all()


def test_a_search_seat_without_its_memory_or_playout_state_raises_instead_of_writing_past_an_array():
    """The search bot's tree is its own memory, allocated by the run (sim.bots.memory):
    a state built without it, or a handle that links no twin, raises at the turn's
    start, never writes into an empty array."""
    t = win_at_once(8)
    with pytest.raises(RuntimeError, match="no playout state or no memory"):
        plan_turn(kernel_state(t.st, new_twin(t.st, ARRAYS)), t.deck)  # a twin, no memory
    t.for_search()
    with pytest.raises(RuntimeError, match="no playout state or no memory"):
        plan_turn(kernel_state(t.st), t.deck)  # memory, no twin


@pytest.mark.parametrize("done, expected", [
    ({0: ["t_red"], 1: ["t_blue"], 2: []}, [1.0, 0.0, 0.0]),  # 2 points against 1 and 0 (R9.2)
    ({0: ["t_red"], 1: ["t_blue", "t_blue_red"], 2: []}, [0.0, 1.0, 0.0]),
    ({0: ["t_blue_red"], 1: ["t_red", "t_blue"], 2: []}, [0.0, 1.0, 0.0]),  # 3 points each: more tasks held (R9.3)
    ({0: ["t_red"], 1: ["t_blue2"], 2: ["t_yellow"]}, [0.5, 0.5, 0.0]),  # 2 points and 1 task each: the die's share
])
def test_r9_2_r9_3_a_playout_cut_short_is_worth_the_seats_share_of_the_win_were_the_game_to_end(done, expected):
    """``horizon`` (issue 65): the standing backed up is 1 for the seat alone ahead by
    R9.2's points, then R9.3's completed tasks held, ``1/k`` for k seats tied on both,
    else 0."""
    from sim.bots.search import standing

    t = Table(n_players=3)
    for seat, tasks in done.items():
        if tasks:
            t.done(seat, *tasks)
    assert [standing(t.ref, t.deck, seat) for seat in range(3)] == expected
