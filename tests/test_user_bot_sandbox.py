"""User bots are sandboxed by their interface (issue 13 items 7, 8, 14): a bad option
index stops the run with one line, the observation is read-only and bounds-checked,
a bot file's import cannot end the process, and the test-only ``scripted`` policy
is not offered. CLI cases run the installed command as a subprocess."""

import json
import re

import pytest

from sim.bots.spec import parse_bot
from sim.bots.user import load_bot
from sim.play import BadChoiceError, run_games
from sim.options import RuleOptions
from sim.rng import stream_keys
from sim.rules.setup import setup_game
from sim.rules.zones import check_zones
from sim.state import kernel_state, new_state
from tests.test_cli import revachol

HEADER = "from sim.bots.user import bot\nfrom sim.decisions import D_PLAY\n\n"


def bot_file(tmp_path, body: str, name: str = "bots.py"):
    """A bot file ``name`` in ``tmp_path`` holding the bot ``b`` with ``body`` (indented)."""
    path = tmp_path / name
    lines = "\n".join(f"    {line}" for line in body.splitlines())
    path.write_text(f"{HEADER}@bot()\ndef b(obs, deck, seat, kind, n_options):\n{lines}\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(("returned", "shown"), [("n_options", "2"), ("-1", "-1"), ("10**9", "1000000000")])
def test_a_user_bot_index_out_of_range_stops_the_run_naming_bot_decision_and_index(default_arrays, tmp_path, returned,
                                                                                   shown):  # fmt: skip
    """The engine checks every index, not only in debug mode; the first D_ACTION offers
    play or draw (R4.1, R4.2), so n_options is 2 there."""
    path = bot_file(tmp_path, f"return {returned}")
    with pytest.raises(BadChoiceError) as caught:
        run_games(default_arrays, 2, 50, seed=1, bots=[f"{path}:b", "random"])
    message = str(caught.value)
    assert message.startswith(f"bot file {path}: bot 'b' returned option index {shown} at a D_ACTION decision (seat ")
    assert message.endswith(", game 0), which offered 2 options (0 to 1)")


@pytest.mark.parametrize(
    ("body", "shown"),
    [
        ("if n_options > 1:\n    return None\nreturn 0", "None"),  # issue 49's bot: None only where it must choose
        ("pass", "None"),
        ("return n_options > 1", "a bool"),
        ("return 0.5 * n_options", "a float"),
        ("if n_options > 1:\n    return 1.0\nreturn 0", "a float"),
        ("return 'draw'", "a string"),
    ],
)
def test_a_user_bot_answer_that_is_not_an_integer_stops_the_run_naming_what_it_returned(default_arrays, tmp_path,
                                                                                         body, shown):  # fmt: skip
    """R4.1, R4.2: the first decision of a game is D_ACTION, play or draw (2 options).
    An answer that is not an integer used to cross into the engine cast (None as 0, a
    float cut, a bool as 0 or 1), so the games were played by a rule nobody chose."""
    path = bot_file(tmp_path, body, name=f"answer{abs(hash(body))}.py")
    with pytest.raises(BadChoiceError) as caught:
        run_games(default_arrays, 2, 20, seed=1, bots=[f"{path}:b", "random"])
    message = str(caught.value)
    assert message.startswith(f"bot file {path}: bot 'b' returned {shown} at a D_ACTION decision (seat ")
    assert message.endswith(", game 0); a bot returns an option index, a Python int or a numpy integer from 0 to 1")


def test_a_user_bot_may_answer_with_a_numpy_integer(default_arrays, tmp_path):
    """numpy integers count as integers: the same games as the plain int 0."""
    (tmp_path / "np_bots.py").write_text(
        "import numpy as np\nfrom sim.bots.user import bot\n\n@bot()\ndef a(obs, deck, seat, kind, n_options):\n"
        "    return np.int32(0)\n\n@bot()\ndef b(obs, deck, seat, kind, n_options):\n    return 0\n",
        encoding="utf-8",
    )  # fmt: skip
    path = tmp_path / "np_bots.py"
    numpy_answer = run_games(default_arrays, 2, 20, seed=1, bots=[f"{path}:a", "random"])
    int_answer = run_games(default_arrays, 2, 20, seed=1, bots=[f"{path}:b", "random"])
    assert (numpy_answer.games == int_answer.games).all()


def test_cli_a_bot_returning_none_is_one_line_naming_bot_file_decision_and_none(tmp_path):
    """Issue 49: this bot used to write 100 games and exit 0."""
    path = bot_file(tmp_path, "if n_options > 1:\n    return None\nreturn 0")
    result = revachol("simulate", "-n", "100", "--players", "2", "--bot", f"{path}:b", "--jobs", "1", "--quiet",
                      "--out", str(tmp_path / "run"))  # fmt: skip
    assert result.returncode == 1 and "Traceback" not in result.stderr and "games written" not in result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert re.fullmatch(rf"error: bot file {re.escape(str(path))}: bot 'b' returned None at a D_ACTION decision "
                        r"\(seat \d, game 0\); a bot returns an option index, a Python int or a numpy integer from 0 "
                        r"to 1", lines[0]), lines[0]  # fmt: skip


def test_a_bot_that_errs_later_stops_at_that_game_and_returns_no_record(default_arrays, tmp_path):
    """A bot that is right in game 0 and wrong at its first D_PLAY of a later game: the
    error names that game and run_games returns nothing (no junk rows)."""
    path = bot_file(tmp_path, "if kind == D_PLAY and obs.g[3] > 30:\n    return n_options\nreturn 0")
    with pytest.raises(BadChoiceError, match=r"bot 'b' returned option index \d+ at a D_PLAY decision .*game \d+\)"):
        run_games(default_arrays, 2, 200, seed=1, bots=[f"{path}:b", "random"])


def test_cli_out_of_range_index_is_one_line_and_non_zero_and_leaves_the_directory_for_the_next_try(tmp_path):
    path = bot_file(tmp_path, "return n_options + 5")
    out = tmp_path / "run"
    command = ("simulate", "-n", "300", "--players", "2", "--bot", f"{path}:b", "--jobs", "1", "--quiet",
               "--chunk-size", "100", "--out", str(out))  # fmt: skip
    result = revachol(*command)
    assert result.returncode == 1, result.stdout
    assert "Traceback" not in result.stderr and "games written" not in result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"error: bot file {path}: bot 'b' returned option index 7 at a D_ACTION decision")
    assert not list((out / "games").glob("*.parquet"))  # no junk games
    assert not (out / "manifest.json").exists()  # no chunk finished: nothing kept, nothing stuck (issue 13 item 11)
    again = revachol(*command)
    assert again.returncode == 1 and again.stderr == result.stderr


def test_cli_user_bot_reading_past_the_hand_stops_the_run_with_one_line(tmp_path):
    """Bounds-checked reads: own_hand holds HAND_LIMIT (5) entries, index 5 is past its end."""
    path = bot_file(tmp_path, "return obs.own_hand[5] * 0")
    result = revachol("simulate", "-n", "20", "--players", "2", "--bot", f"{path}:b", "--jobs", "1", "--quiet",
                      "--out", str(tmp_path / "run"))  # fmt: skip
    assert result.returncode == 1 and "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and re.fullmatch(
        rf"error: bot file {re.escape(str(path))}: bot 'b' raised an error at a D_ACTION decision \(seat \d, game 0\): "
        r"an index past the end of an array, a division by zero, or an exception it raises", lines[0]
    ), result.stderr


def test_the_hand_past_its_count_reads_empty_never_another_seats_cards(default_arrays, tmp_path):
    """own_hand[hand_n[seat]:] is EMPTY (-1): a bot cannot see the hand another user
    bot's seat left there. The bot returns a bad index if it ever sees a card there."""
    path = bot_file(tmp_path, "for k in range(obs.hand_n[seat], 5):\n    if obs.own_hand[k] != -1:\n"
                              "        return -7\nreturn 0")  # fmt: skip
    record = run_games(default_arrays, 4, 30, seed=3, bots=[f"{path}:b"] * 4)
    assert record.games.shape[0] == 30


@pytest.mark.parametrize(
    ("statement", "line"),
    [
        ("obs.done_n[(seat + 1) % 2] = 0", "obs.done_n[(seat + 1) % 2] = 0"),
        ("rows = obs.options[1:]\nrows[0, 0] = 3", "rows[0, 0] = 3"),
        ("obs.row.fill(0)", "obs.row.fill(0)"),
        ("deck.task_points[0] = 100", "deck.task_points[0] = 100"),
    ],
)
def test_a_bot_that_writes_to_its_observation_or_the_deck_is_refused_when_loaded(tmp_path, statement, line):
    """R9.2 scores rest on done_n: a bot that zeroes another seat's completed tasks
    won 59.1% instead of 19.0% before; now the file does not load."""
    path = bot_file(tmp_path, f"{statement}\nreturn 0", name=f"writer{abs(hash(statement))}.py")
    with pytest.raises(ValueError) as caught:
        parse_bot(f"{path}:b")
    message = str(caught.value)
    assert message.startswith(f"bot file {path}: TypingError: ") and "\n" not in message
    if "fill" not in statement:
        assert f": {line}: " in message
    assert message.endswith("a bot may not change its observation (obs is read-only)")


@pytest.mark.parametrize(("body", "line", "reason"), [
    ("return 1180591620717411303424", "line 10: return 1180591620717411303424", "Int value is too large"),
    ("return len([1, 2]) + helper(n_options)", "line 10: return len([1, 2]) + helper(n_options)",
     "Untyped global name 'helper'"),
])  # fmt: skip
def test_a_bot_that_does_not_compile_is_refused_naming_its_line_and_numbas_reason(tmp_path, body, line, reason):
    """Issue 66 item 2: an integer no int64 holds, or a call of a plain Python helper,
    was refused with "Failed in nopython mode pipeline (step: nopython frontend)" alone;
    now the line numba points to and its own reason, in one line."""
    path = bot_file(tmp_path, body, name=f"untyped{abs(hash(body))}.py")
    helper = "def helper(n):  # plain Python, not compiled\n    return n - 1\n\n\n@bot()"
    path.write_text(path.read_text(encoding="utf-8").replace("@bot()", helper), encoding="utf-8")
    with pytest.raises(ValueError) as caught:
        parse_bot(f"{path}:b")
    message = str(caught.value)
    assert message.startswith(f"bot file {path}: TypingError: {line}: {reason}") and "\n" not in message


def test_cli_debug_shows_numbas_whole_message_above_the_one_line(tmp_path):
    """Issue 66 item 2: --debug shows what the one line leaves out."""
    path = bot_file(tmp_path, "return 1180591620717411303424", name="huge.py")
    args = ("simulate", "-n", "10", "--bot", f"{path}:b", "--out", str(tmp_path / "run"), "--quiet")
    plain, debug = revachol(*args), revachol("--debug", *args)
    assert plain.returncode == debug.returncode == 1
    assert len(plain.stderr.splitlines()) == 1 and "Traceback" not in plain.stderr
    assert "Traceback" in debug.stderr and "Failed in nopython mode pipeline" in debug.stderr
    assert debug.stderr.splitlines()[-1] == plain.stderr.splitlines()[0]


def test_cli_a_bot_file_that_calls_sys_exit_at_import_is_one_clear_error(tmp_path):
    """Before, ``sys.exit(0)`` in the bot file ended simulate silently with exit code 0."""
    path = tmp_path / "quitter.py"
    path.write_text("import sys\nsys.exit(0)\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"quitter.py: SystemExit: the file calls sys.exit\(0\) when imported"):
        load_bot(str(path), "b")
    result = revachol("simulate", "-n", "5", "--bot", f"{path}:b", "--jobs", "1", "--quiet", "--out",
                      str(tmp_path / "run"))  # fmt: skip
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.strip() == f"error: bot file {path}: SystemExit: the file calls sys.exit(0) when imported; a bot file only defines bots"


def test_cli_scripted_is_not_offered(tmp_path):
    """``scripted`` replays ``State.script`` in tests; as a user's bot it ran out of
    choices with a traceback. Now it is an unknown bot."""
    result = revachol("simulate", "-n", "5", "--bot", "scripted", "--jobs", "1", "--quiet", "--out", str(tmp_path / "r"))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.strip() == (
        "error: unknown bot 'scripted'; valid: random, uniform, greedy, planner, expert, search, or FILE.py:NAME for your own"
    )


@pytest.mark.slow
def test_cli_simulate_and_run_take_debug_and_record_it_in_the_manifest(tmp_path):
    out = tmp_path / "run"
    result = revachol("simulate", "-n", "10", "--players", "2", "--debug", "--jobs", "1", "--quiet", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert json.loads((out / "manifest.json").read_text())["rule_options"]["debug"] is True
    result = revachol("run", "-n", "200", "--players", "2", "--debug", "--jobs", "1", "--quiet", "--runs",
                      str(tmp_path / "runs"), "--name", "r")  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert json.loads((tmp_path / "runs" / "r" / "manifest.json").read_text())["rule_options"]["debug"] is True


def test_debug_zone_check_passes_a_fresh_deal_and_names_a_duplicated_ally(default_arrays):
    """R3.2-R3.4: after the deal every card is in one zone; an ally copied into a second
    hand slot is caught by sim.rules.zones.check_zones, the check --debug adds per turn."""
    st = new_state(default_arrays, RuleOptions(debug=True).to_array())
    ref, deck = kernel_state(st), default_arrays.kernel_ref()
    setup_game(ref, deck, 3, stream_keys(4), 0)
    check_zones(ref, deck)
    st.hand[1, 1] = st.hand[1, 0]
    with pytest.raises(AssertionError, match=r"an ally is in no zone or in two"):
        check_zones(ref, deck)
    st.hand[1, 1] = 10_000
    with pytest.raises(AssertionError, match=r"a card index that is not a card of the deck"):
        check_zones(ref, deck)
