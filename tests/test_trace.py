"""The readable game log (sim.trace): its event buffer never cuts a game short."""

from sim import trace


def test_replay_gives_the_whole_game_when_its_events_overflow_the_first_log(default_deck, monkeypatch):
    """Issue 13 item 5 (log writers): the event log has a fixed number of rows and
    stopped writing silently when a long game filled it; the replay now plays the
    game again with more rows, so the text is the same as with room to spare."""
    full = trace.replay(default_deck, 3, seed=5)
    assert "Final scores" in full and "Game over" in full
    monkeypatch.setattr(trace, "MAX_LOG", 40)
    assert trace.replay(default_deck, 3, seed=5) == full
