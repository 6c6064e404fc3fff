"""The run display's games/s and ETA (sim.progress): honest under bursts and stalls."""

import pytest

from sim.progress import SlidingRate


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
