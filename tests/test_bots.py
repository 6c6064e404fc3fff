"""The bots: legal choices, documented behaviour on scripted positions, restricted play,
parameters, seat assignment, and the ladder (issue: bot ladder)."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from statsmodels.stats.proportion import proportion_confint

from sim.bots.policy import decide
from sim.bots.spec import bot_tables, parse_bot
from sim.decisions import ACTION_DRAW, ACTION_PLAY, D_ACTION, D_COMPLETE, D_PLAY
from sim.play import run_games
from sim.options import RuleOptions
from sim.record import PLAYER_FIELDS
from sim import rng
from sim.bots.search_tree import MAX_ITERATIONS
from sim.state import EMPTY
from sim.rules.abilities import play_options
from sim.rules.completion import completion_options
from sim.rules.turn import take_turn
from tests.table import DECK, Table

BOT, WON = PLAYER_FIELDS.index("bot"), PLAYER_FIELDS.index("won")


def seat_bots(t: Table, *specs: str) -> Table:
    bots, params = bot_tables([parse_bot(s, [a.id for a in DECK.allies]) for s in specs])
    t.st.bots[: len(specs)] = bots[: len(specs)]
    t.st.bot_params[: len(specs)] = params[: len(specs)]
    return t


@pytest.mark.parametrize(
    "bot",
    ["random", "uniform", "greedy", "planner",
     pytest.param("search:iterations=4,penalty_iterations=4", marks=pytest.mark.slow),
     "greedy:never=kim_kitsuragi", "planner:always=cuno"],  # search: its compile is slow (tests/test_search_bot.py)
)
@pytest.mark.parametrize("n_players", [2, 4])
def test_every_bot_makes_only_legal_choices(default_arrays, default_deck, bot, n_players):
    """Debug mode asserts every choice is an offered option (sim.bots.policy.decide)."""
    spec = parse_bot(bot, [a.id for a in default_deck.allies])
    record = run_games(default_arrays, n_players, 300, seed=5, bots=[spec] * n_players, options=RuleOptions(debug=True))
    assert record.games.shape[0] == 300 and (record.games[:, 2] > 0).all()


def test_greedy_takes_the_completion_worth_the_most_points():
    t = seat_bots(Table(), "greedy").row("t_blue", "t_red", "t_big").squad(0, "blue").squad(0, "red")
    n = completion_options(t.ref, t.deck, 0)
    assert n == 3  # none, (squad 0, t_blue: 1 pt), (squad 1, t_red: 2 pts)
    choice = decide(t.ref, t.deck, 0, D_COMPLETE, n)
    assert t.options(n)[choice][:2] == [1, 0b010]


def test_greedy_plays_when_a_play_completes_a_task_and_draws_otherwise():
    t = seat_bots(Table(), "greedy").row("t_red", "t_yellow", "t_green2").hand(0, "red", "blue").statue("green")
    t.st.options[0, 0], t.st.options[1, 0] = ACTION_PLAY, ACTION_DRAW
    assert decide(t.ref, t.deck, 0, D_ACTION, 2) == 0  # red completes t_red
    t = seat_bots(Table(), "greedy").row("t_red", "t_yellow", "t_green2").hand(0, "blue", "purple").statue("green")
    t.st.options[0, 0], t.st.options[1, 0] = ACTION_PLAY, ACTION_DRAW
    assert decide(t.ref, t.deck, 0, D_ACTION, 2) == 1  # nothing completes: draw


def test_greedy_places_the_card_where_it_completes_the_most_points():
    t = seat_bots(Table(), "greedy").row("t_red", "t_blue_red", "t_green2").hand(0, "green", "red").squad(0, "blue")
    n = play_options(t.ref, 0, D_PLAY)
    row = t.options(n)[decide(t.ref, t.deck, 0, D_PLAY, n)]
    assert row[:2] == [1, 0]  # red into the blue squad: t_blue_red (3) beats t_red alone (2)


def test_greedy_uses_harry_only_when_the_swap_pays_more_than_his_points():
    # Taking green_yellow lets the green squad complete t_yellow + t_green2 (4 points),
    # more than Harry's 2 points handed to seat 1.
    t = seat_bots(Table(), "greedy").row("t_yellow", "t_blue", "t_green2").hand(0, "harry").squad(0, "green")
    t.squad(1, "green_yellow")
    take_turn(t.ref, t.deck)
    assert t.received_of(1) == ["harry"] and t.done_of(0) == ["t_yellow", "t_green2"]
    # Taking yellow would complete t_yellow only (1 point < 2): no swap.
    t = seat_bots(Table(), "greedy").row("t_yellow", "t_green2", "t_big").hand(0, "harry").squad(0, "blue")
    t.squad(1, "yellow")
    take_turn(t.ref, t.deck)
    assert t.received_of(1) == [] and t.squads_of(1) == [["yellow"]]


def test_planner_saves_the_position_3_task_before_a_third_morale_card_fails_it():
    # Squad [blue, red] can complete t_blue_red (3 points, position 1) or t_red (2
    # points, position 3). With two morale cards on the track, the next one fails
    # position 3: planner saves t_red (2 + w_urgent 2 > 3); greedy takes the 3 points.
    for bot, expected in (("planner", 0b100), ("greedy", 0b001)):
        t = seat_bots(Table(), bot).row("t_blue_red", "t_big", "t_red").squad(0, "blue", "red")
        t.track("m_hand", "m_task")
        n = completion_options(t.ref, t.deck, 0)
        assert t.options(n)[decide(t.ref, t.deck, 0, D_COMPLETE, n)][1] == expected, bot
    t = seat_bots(Table(), "planner").row("t_blue_red", "t_big", "t_red").squad(0, "blue", "red")
    n = completion_options(t.ref, t.deck, 0)
    assert t.options(n)[decide(t.ref, t.deck, 0, D_COMPLETE, n)][1] == 0b001  # no morale threat: the 3 points


def test_planner_avoids_drawing_into_an_event_that_would_fail_its_nearly_complete_task():
    # Track at two cards; squad [red] is one symbol short of t_blue_red at position 3.
    for track, expected in ((("m_hand", "m_task"), ACTION_PLAY), ((), ACTION_DRAW)):
        t = seat_bots(Table(), "planner").row("t_yellow", "t_green2", "t_blue_red").hand(0, "purple").squad(0, "red")
        t.track(*track).statue("green")
        t.st.options[0, 0], t.st.options[1, 0] = ACTION_PLAY, ACTION_DRAW
        assert t.st.options[decide(t.ref, t.deck, 0, D_ACTION, 2), 0] == expected


def test_restricted_play_never_plays_the_ally_while_another_play_is_possible():
    for seed in range(30):
        t = seat_bots(Table(seed=seed), "random:never=kim").hand(0, "kim", "blue", "red")
        t.st.streams[2] = np.uint64(seed * 7919 + 3)
        n = play_options(t.ref, 0, D_PLAY)
        choice = decide(t.ref, t.deck, 0, D_PLAY, n)  # the restriction compacts the options first
        assert t.hand_of(0)[t.st.options[choice, 0]] != "kim"


def test_r4_1_random_plays_the_card_and_squad_its_pick_names_without_option_rows():
    # The random bot picks a play from the number of rows alone, so the turn writes no
    # D_PLAY rows (sim.bots.policy.reads_option_rows): pick i is row i of play_options.
    for seed in range(30):
        t = seat_bots(Table(seed=seed), "random", "random").hand(0, "blue", "red", "green")
        t.squad(0, "yellow").squad(0, "orange")  # no draw is possible: playing is the only action
        t.st.streams[2] = np.uint64(seed * 7919 + 3)
        n = play_options(t.ref, 0, D_PLAY)  # 3 cards into 2 squads or a new one: 9 rows
        pos, target = t.st.options[rng.below(t.st.streams.copy(), rng.BOT, n), :2]
        card = t.hand_of(0)[pos]
        t.st.options[:n] = EMPTY
        take_turn(t.ref, t.deck)
        assert card in t.squads_of(0)[target] and card not in t.hand_of(0)
        assert (t.st.options[1:n] == EMPTY).all()  # row 0 held the play action


def test_restricted_random_never_plays_the_ally_in_a_turn():
    # A restriction filters the D_PLAY rows, so the restricted random bot's turn writes them.
    for seed in range(30):
        t = seat_bots(Table(seed=seed), "random:never=kim", "random").hand(0, "kim", "blue", "red")
        t.st.streams[2] = np.uint64(seed * 7919 + 3)
        take_turn(t.ref, t.deck)
        assert t.hand_of(0).count("kim") == 1 and len(t.hand_of(0)) == 2


def test_restricted_play_never_prefers_drawing_to_playing_its_last_card():
    t = seat_bots(Table(), "random:never=kim").hand(0, "kim").statue("blue")
    t.st.options[0, 0], t.st.options[1, 0] = ACTION_PLAY, ACTION_DRAW
    for seed in range(20):
        t.st.streams[2] = np.uint64(seed + 1)
        assert t.st.options[decide(t.ref, t.deck, 0, D_ACTION, 2), 0] == ACTION_DRAW
        t.st.options[0, 0], t.st.options[1, 0] = ACTION_PLAY, ACTION_DRAW


def test_restricted_play_always_plays_the_ally_when_it_is_in_hand():
    t = seat_bots(Table(), "greedy:always=kim").row("t_red", "t_yellow", "t_green2").hand(0, "red", "kim")
    t.statue("blue")
    take_turn(t.ref, t.deck)
    assert "kim" not in t.hand_of(0) and ["kim"] in t.squads_of(0)  # played, though red would complete t_red


def test_restricted_play_changes_how_often_the_ally_is_played(default_arrays, default_deck):
    ids = [a.id for a in default_deck.allies]
    kim = ids.index("kim_kitsuragi")
    rates = {}
    for mode in ("random", "random:never=kim_kitsuragi", "random:always=kim_kitsuragi"):
        spec = parse_bot(mode, ids)
        record = run_games(default_arrays, 4, 2000, seed=3, bots=[spec, "random", "random", "random"])
        bot0 = record.players[:, :, BOT] == 0
        held = record.held[:, :, kim][bot0]
        rates[mode] = record.played[:, :, kim][bot0][held].mean()
    # "always" cannot reach 1: an ally drawn late may find no turn left, or a hand penalty.
    assert rates["random:never=kim_kitsuragi"] < 0.15 < rates["random"] < 0.9 < rates["random:always=kim_kitsuragi"]


def test_bot_specs_parse_parameters_and_name_what_is_wrong():
    spec = parse_bot("greedy:w_points=2,draw_below=4", [])
    assert spec.policy == "greedy" and spec.params == (2.0, 1.0, 4.0)
    with pytest.raises(ValueError, match="unknown bot 'gready'; valid: random"):
        parse_bot("gready")
    with pytest.raises(ValueError, match="unknown parameter 'speed'; valid for greedy: w_points, w_gift, draw_below"):
        parse_bot("greedy:speed=3")
    with pytest.raises(ValueError, match="w_points must be a number"):
        parse_bot("greedy:w_points=lots")
    assert parse_bot("search:iterations=256,explore=1").params == (256.0, 1.0, 1.0, 3.0, 512.0, 255.0, 0.0)
    with pytest.raises(ValueError, match="iterations must be a whole number from 1 to 65536, got 0"):
        parse_bot("search:iterations=0")
    with pytest.raises(ValueError, match="iterations must be a whole number from 1 to 65536, got 2.5"):
        parse_bot("search:iterations=2.5")
    # The largest budget's tree fits the node pool: the root and a node an iteration.
    assert parse_bot("search:iterations=65536").params[0] == MAX_ITERATIONS
    with pytest.raises(ValueError, match="iterations must be a whole number from 1 to 65536, got 65537"):
        parse_bot("search:iterations=65537")
    with pytest.raises(ValueError, match="explore must be a number from 0 to 10, got -1"):
        parse_bot("search:explore=-1")
    with pytest.raises(ValueError, match="bias must be a number from 0 to 100, got -1"):
        parse_bot("search:bias=-1")
    with pytest.raises(ValueError, match="'kimmy' is not an ally id"):
        parse_bot("random:never=kimmy", ["kim_kitsuragi"])
    with pytest.raises(ValueError, match="'kim_kitsuragy' is not an ally id of the deck; did you mean 'kim_kitsuragi'"):
        parse_bot("random:never=kim_kitsuragy", ["lena", "kim_kitsuragi"])


def test_seats_get_the_bots_in_order_or_shuffled_per_game(default_arrays):
    plain = run_games(default_arrays, 4, 400, seed=1, bots=["greedy", "random", "random", "uniform"])
    seat = plain.players[:, :, PLAYER_FIELDS.index("seat")]
    assert (plain.players[:, :, BOT] == seat).all()
    shuffled = run_games(default_arrays, 4, 4000, seed=1, bots=["greedy", "random", "random", "uniform"],
                         options=RuleOptions(shuffle_seats=True))  # fmt: skip
    greedy_seat = shuffled.players[:, :, PLAYER_FIELDS.index("seat")][shuffled.players[:, :, BOT] == 0]
    counts = np.bincount(greedy_seat, minlength=4)
    assert ((counts > 1000 - 5 * 27) & (counts < 1000 + 5 * 27)).all(), counts  # Binomial(4000, 1/4): sd 27


@pytest.mark.slow
@pytest.mark.parametrize(
    "players, strong, weak, n_games",
    [(4, "greedy", "random", 3000), (4, "planner", "greedy", 8000),
     (4, "search:iterations=32,penalty_iterations=32", "planner", 1500),
     (2, "search:iterations=32,penalty_iterations=32", "planner", 600)],
)  # fmt: skip
def test_ladder_each_rung_beats_the_one_below(default_arrays, players, strong, weak, n_games):
    """One seat of the stronger bot against the weaker in every other seat, seats
    randomised: its win rate's 95% Wilson interval lies above fair, 1 / players."""
    record = run_games(default_arrays, players, n_games, seed=2026, bots=[strong] + [weak] * (players - 1),
                       options=RuleOptions(shuffle_seats=True))  # fmt: skip
    finished = (record.games[:, 9] == 0) & (record.games[:, 10] == 0)
    strong_won = ((record.players[:, :, BOT] == 0) & (record.players[:, :, WON] == 1)).any(axis=1)[finished]
    low, high = proportion_confint(strong_won.sum(), strong_won.size, method="wilson")
    assert low > 1 / players, (strong_won.mean(), low, high)


EXAMPLE_BOTS = Path(__file__).resolve().parents[1] / "examples" / "mybots.py"


def test_a_bot_written_in_its_own_file_is_loaded_by_path_and_plays_full_games(default_arrays):
    spec = parse_bot(f"{EXAMPLE_BOTS}:careful:draw_bias=0.3")
    assert spec.source == str(EXAMPLE_BOTS) and spec.params == (0.3,)
    record = run_games(default_arrays, 4, 500, seed=2, bots=[spec, "random", "random", "random"],
                       options=RuleOptions(debug=True))  # fmt: skip
    finished = (record.games[:, 9] == 0) & (record.games[:, 10] == 0)
    assert finished.all()
    careful_won = ((record.players[:, :, BOT] == 0) & (record.players[:, :, WON] == 1)).any(axis=1)
    assert careful_won.mean() > 0.25  # it always takes the most valuable completion


def test_a_user_bot_plays_from_the_command_line(tmp_path):
    script = Path(sys.executable).with_name("revachol")
    if not script.exists():
        pytest.skip("the revachol console script is not installed")
    result = subprocess.run(
        [str(script), "simulate", "-n", "200", "--players", "3", "--bot", f"{EXAMPLE_BOTS}:careful",
         "--jobs", "1", "--quiet", "--out", str(tmp_path / "run")],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert json.loads((tmp_path / "run" / "manifest.json").read_text())["bots"] == [f"{EXAMPLE_BOTS}:careful"] * 3


def test_a_user_bot_cannot_read_other_players_hands(tmp_path):
    cheat = tmp_path / "cheat.py"
    cheat.write_text(
        "from sim.bots.user import bot\n\n@bot()\ndef peek(obs, deck, seat, kind, n_options):\n"
        "    return obs.hand[(seat + 1) % 2, 0] * 0\n"
    )
    with pytest.raises(ValueError, match=r"cheat.py: TypingError.*hand"):
        parse_bot(f"{cheat}:peek")


def test_a_missing_user_bot_names_the_bots_of_the_file():
    with pytest.raises(ValueError, match="has no bot 'carefull' made with @bot; bots there: careful"):
        parse_bot(f"{EXAMPLE_BOTS}:carefull")
