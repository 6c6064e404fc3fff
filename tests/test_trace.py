"""The readable game log (sim.trace): a whole short game against a golden file, and
an event buffer that never cuts a game short."""

import os
from pathlib import Path

from sim import trace
from sim.cards import load_deck

GOLDEN = Path(__file__).resolve().parent / "golden"
SHORT_DECK = GOLDEN / "short_game_cards.yaml"
SHORT_GAME = GOLDEN / "short_game_seed3.txt"
SHORT_ARGS = {"n_players": 2, "seed": 3, "bots": ["uniform", "greedy"]}
UPDATE = "REVACHOL_UPDATE_GOLDEN"


def test_r2_to_r9_a_whole_short_game_reads_as_the_golden_file():
    """Game 0 of seed 3 on a four-task deck, `uniform` against `greedy`: the first
    seat (R2.2), the deal (R3.1, R3.2), completions with the symbols used and lost
    (R6.1, R6.4), Kim staying (A5), the task row sliding (R6.5), three morale cards
    and the event with dice and penalties (R7, R8.2, R8.3), the end and the scores
    (R9.1, R9.2). Any change to the engine's play or to the log's wording shows here
    line by line. After an intended change, write the file again with
    ``REVACHOL_UPDATE_GOLDEN=1 pytest tests/test_trace.py`` and read its diff."""
    text = trace.replay(load_deck(SHORT_DECK), **SHORT_ARGS)
    if os.environ.get(UPDATE) == "1":
        SHORT_GAME.write_text(text, encoding="utf-8")
    golden = SHORT_GAME.read_text(encoding="utf-8")
    assert text.splitlines() == golden.splitlines()


def test_replay_gives_the_whole_game_when_its_events_overflow_the_first_log(default_deck, monkeypatch):
    """Issue 13 item 5 (log writers): the event log has a fixed number of rows and
    stopped writing silently when a long game filled it; the replay now plays the
    game again with more rows, so the text is the same as with room to spare."""
    full = trace.replay(default_deck, 3, seed=5)
    assert "Final scores" in full and "Game over" in full
    monkeypatch.setattr(trace, "MAX_LOG", 40)
    assert trace.replay(default_deck, 3, seed=5) == full
