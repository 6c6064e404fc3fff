"""The search bot's R8.3 penalties on other seats' turns (sim.bots.penalty_search):
played out from the turn in progress, in the linked twin, with planner everywhere."""

import pytest

from sim.bots.memory import with_bot_memory
from sim.bots.policy import decide
from sim.bots.spec import bot_tables, parse_bot
from sim.cards import Penalty
from sim.decisions import ACTION_DRAW, D_PENALTY
from sim.rules.morale import penalty_options
from sim.play import bad_choice_message
from sim.state import (
    BAD_INDEX, BAD_KIND, BAD_N_OPTIONS, BAD_SEAT, BOT_ADDRESS, PERM_TASKS_N, RAISED, TURN_ACTION, kernel_state, new_twin,
)  # fmt: skip
from tests.table import ARRAYS, TASK, Table

# The search bot's policy set compiles the engine twice (its own and the playouts'):
# the full suite's, not the quick tier's.
pytestmark = pytest.mark.slow

BLUE, BIG = 0, 1  # seat 1's penalty rows: its completed tasks in order


def last_event(bot: str) -> Table:
    """Seat 0's draw has set off a morale-loss event (R7.2) with m_task (a completed
    task, R8.3) that failed the last face-up task (R8.1): once the event ends, so
    does the game (R8.6, R9.1). Seat 0 rolled and kept ``t_blue_red`` (3 points);
    seat 1, playing ``bot``, rolls last, lost, and gives up ``t_blue`` (1 point) or
    ``t_big`` (6). Giving up ``t_blue`` wins 6 to 3; giving up ``t_big`` loses 1 to 3
    (R9.2, R9.3)."""
    t = Table(n_players=2, active=0).track("m_hand", "m_squad", "m_task").statue("blue")
    t.done(0, "t_blue_red").done(1, "t_blue", "t_big")
    t.st.perm_tasks[0], t.st.g[PERM_TASKS_N] = TASK["t_yellow"], 1
    t.st.g[TURN_ACTION] = ACTION_DRAW
    t.st.bots[:], t.st.bot_params[:] = bot_tables([parse_bot("planner"), parse_bot(bot)])
    t.st = with_bot_memory(t.st, ARRAYS)  # as a run gives it (sim.bots.memory)
    return t


def penalty(t: Table, linked: bool) -> int:
    """Seat 1's choice, decided through the policy dispatch on seat 0's turn."""
    ref = kernel_state(t.st, new_twin(t.st, ARRAYS)) if linked else kernel_state(t.st)
    n_options = penalty_options(ref, t.deck, 1, int(Penalty.COMPLETED_TASK))
    assert n_options == 2
    return decide(ref, t.deck, 1, D_PENALTY, n_options)


def test_r8_3_r9_2_each_row_is_played_out_to_the_game_end_and_scored():
    """Every playout of ``t_blue``'s row wins and every one of ``t_big``'s loses; the
    bandit tries both and keeps to the winner, which it gives up."""
    t = last_event("search:penalty_iterations=40,bias=0")
    assert penalty(t, linked=True) == BLUE
    (blue_plays, blue_wins), (big_plays, big_wins) = t.st.penalty_stats[:2].tolist()
    assert blue_plays + big_plays == 40
    assert blue_wins == blue_plays > big_plays >= 1
    assert big_wins == 0


def test_r8_3_the_position_is_left_as_it_was():
    """The playouts run in the twin: seat 1 still holds both tasks, the event is still
    on the track, and the offered rows are unchanged for the rules to carry out."""
    t = last_event("search:penalty_iterations=16")
    penalty(t, linked=True)
    assert t.done_of(1) == ["t_blue", "t_big"] and t.track_names() == ["m_hand", "m_squad", "m_task"]
    assert [row[:3] for row in t.options(2)] == [[int(Penalty.COMPLETED_TASK), index, -1] for index in (0, 1)]


@pytest.mark.parametrize("bot, linked", [("search:penalty_iterations=0", True), ("search", False)])
def test_r8_7_without_a_budget_or_a_twin_planner_decides(bot, linked):
    """``penalty_iterations=0``, or a state without a linked twin (the turn tree's
    own playouts), plays no playout: ``planner``'s choice, the cheaper task."""
    t = last_event(bot)
    t.st.penalty_stats[:] = -1.0
    assert penalty(t, linked) == BLUE
    assert (t.st.penalty_stats == -1.0).all()


def test_r8_7_a_search_row_without_its_callback_takes_planners_choice():
    """The dispatch reaches the search through the C callback in the bot's
    ``BOT_ADDRESS`` (sim.bots.spec.bot_tables); a bots table written without it plays
    no playout and takes ``planner``'s choice instead of calling address 0."""
    t = last_event("search:penalty_iterations=16")
    assert t.st.bots[1, BOT_ADDRESS] != 0
    t.st.bots[1, BOT_ADDRESS] = 0
    t.st.penalty_stats[:] = -1.0
    assert penalty(t, linked=True) == BLUE
    assert (t.st.penalty_stats == -1.0).all()


def test_a_penalty_search_that_raised_is_named_in_one_line():
    """The callback returns RAISED when its playouts raise (a C callback passes no
    exception on); the run stops with one line naming the bot, the decision and where
    to see the error."""
    t = last_event("search")
    t.st.seat_bot[1] = 1
    for index, value in ((BAD_SEAT, 1), (BAD_KIND, D_PENALTY), (BAD_INDEX, RAISED), (BAD_N_OPTIONS, 2)):
        t.st.g[index] = value
    message = bad_choice_message(t.st, [parse_bot("planner"), parse_bot("search")], 7)
    assert message.startswith("bot 'search' raised an error at a ") and "(seat 1, game 7)" in message
    assert message.endswith("NUMBA_DISABLE_JIT=1 runs it as Python and shows the error")
