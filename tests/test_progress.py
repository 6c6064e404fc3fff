"""The run display's games/s and ETA (sim.run.progress): honest under bursts and stalls."""

import pytest

from sim.run.progress import SlidingRate


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_chunks_finishing_a_moment_apart_do_not_make_a_spike():
    clock = Clock()
    rate = SlidingRate(window=30, clock=clock)
    clock.now += 10.0
    rate.add(25_000)  # the first chunks finish together after 10 s of work on 2 workers
    clock.now += 0.001
    rate.add(25_000)
    assert rate.rate() == pytest.approx(50_000 / 10.001)  # not 25,000 / 0.001 s


def test_the_rate_is_over_recent_games_and_falls_during_a_stall():
    clock = Clock()
    rate = SlidingRate(window=30, clock=clock)
    assert rate.rate() is None and rate.eta(1000) is None  # nothing finished yet: no figure
    for _ in range(10):  # 1,000 games/s for 100 s
        clock.now += 10.0
        rate.add(10_000)
    assert rate.rate() == pytest.approx(1000.0)
    for _ in range(6):  # then 4,000 games/s: the window forgets the slow start
        clock.now += 10.0
        rate.add(40_000)
    assert rate.rate() == pytest.approx(4000.0)
    assert rate.eta(8000) == pytest.approx(2.0)
    clock.now += 30.0  # a stall: nothing finishes, the rate drops
    assert rate.rate() < 3000.0


def test_games_reused_from_an_interrupted_run_do_not_count_as_played_now():
    clock = Clock()
    rate = SlidingRate(window=30, clock=clock)  # a resumed run starts with done > 0 in the bar, not here
    clock.now += 5.0
    rate.add(5_000)
    assert rate.rate() == pytest.approx(1000.0)


def test_in_a_log_each_stage_has_its_line_and_a_line_comes_at_least_every_few_seconds(monkeypatch, capsys):
    """Issue 68 item 5: with standard error redirected, the run says that the engine
    compiles (a one-time cost), then the games done, a line when each starts, one at
    least every LOG_SECONDS while it runs and one at the end."""
    import time

    from sim.run import progress

    monkeypatch.setattr(progress, "LOG_SECONDS", 0.05)
    display = progress.RunProgress("log", total=1_000, done=200, label="points-blind games")
    with display.compiling(("greedy", 14)):
        time.sleep(0.18)
    with display.games():
        display.advance(300)
        time.sleep(0.18)
        display.advance(500)
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == ("compiling the engine for greedy: a one-time cost (about 14 s on a 2-core machine), later "
                        "runs load it from the cache…")  # its expected time, said once  # fmt: skip
    assert lines[1].startswith("compiling the engine… ")  # alive while it compiles
    games = [line for line in lines if line.startswith("points-blind games: ")]
    assert len(games) >= 4  # the start, the ticks, the end
    assert games[0] == "points-blind games: 200 of 1,000"  # a resumed run's kept games count as done
    assert games[-1].startswith("points-blind games: 1,000 of 1,000 (")


def test_off_shows_nothing(capsys):
    from sim.run.progress import RunProgress

    display = RunProgress("off", total=10, done=0)
    with display.compiling(), display.games():
        display.advance(10)
    assert capsys.readouterr().err == ""


def test_a_run_expects_the_compile_of_the_highest_rung_its_bots_need(monkeypatch):
    """Issue 68 item 5: the first line's estimate is the rung of the seated bots
    (sim.bots.ids.LADDER): random alone compiles the first rung, greedy beside it
    greedy's, expert planner's, search the top one; REVACHOL_COMPILE_RUNG raises it."""
    from sim.bots.rungs import COLD_COMPILE_SECONDS
    from sim.bots.spec import compile_estimate, parse_bot

    def rung(*bots: str) -> str:
        return compile_estimate([parse_bot(b) for b in bots])[0]

    monkeypatch.setattr("sim.bots.ids.FLOOR", 0)  # no REVACHOL_COMPILE_RUNG
    assert (rung("random"), rung("random", "greedy"), rung("expert", "random")) == ("random", "greedy", "planner")
    assert rung("search", "random") == "search"
    monkeypatch.setattr("sim.bots.ids.FLOOR", 2)  # REVACHOL_COMPILE_RUNG=planner
    assert rung("random") == "planner"
    assert compile_estimate([parse_bot("search")])[1] == COLD_COMPILE_SECONDS["search"] > COLD_COMPILE_SECONDS["greedy"]
