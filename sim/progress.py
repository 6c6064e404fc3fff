"""What a batch run shows while it works: the first compilation, then games done,
games/s and the ETA.

Games finish a chunk at a time, so the rate between two chunk completions a moment
apart says nothing (it spiked past 1,000,000 games/s), and games reused from an
interrupted run were not played now. :class:`SlidingRate` counts only games finished
in this process, over a window of recent seconds that always runs up to *now*: a
burst of chunks cannot inflate it, and a stall lowers it.
"""

from __future__ import annotations

import contextlib
import time
from collections import deque
from collections.abc import Callable, Iterator

WINDOW_SECONDS = 30.0  # games/s is measured over about this many recent seconds


class SlidingRate:
    """Games per second over the last ``window`` seconds (at least since ``start``).

    Parameters
    ----------
    window : float
        Seconds of history to keep (s).
    clock : callable
        Returns the time in seconds (default :func:`time.monotonic`).
    """

    def __init__(self, window: float = WINDOW_SECONDS, clock: Callable[[], float] = time.monotonic):
        self.window = window
        self.clock = clock
        self.samples: deque[tuple[float, int]] = deque([(clock(), 0)])
        self.done = 0

    def add(self, games: int) -> None:
        """Record ``games`` more finished games (games)."""
        self.done += games
        now = self.clock()
        self.samples.append((now, self.done))
        while len(self.samples) > 2 and now - self.samples[1][0] >= self.window:
            self.samples.popleft()

    def rate(self) -> float | None:
        """Games/s from the oldest kept sample to now; None before any game finished."""
        if self.done == 0:
            return None
        then, done_then = self.samples[0]
        elapsed = self.clock() - then
        return (self.done - done_then) / elapsed if elapsed > 0 else None

    def eta(self, remaining: int) -> float | None:
        """Seconds until ``remaining`` more games are done at :meth:`rate`."""
        rate = self.rate()
        return remaining / rate if rate else None


class RunProgress:
    """A rich display for a batch run: a "compiling the engine" status with its
    elapsed seconds, then a bar of games done with games/s and ETA from
    :class:`SlidingRate`, labelled ``label``. Disabled, every method does nothing."""

    def __init__(self, enabled: bool, total: int, done: int, label: str = "games"):
        self.enabled, self.total, self.done, self.label = enabled, total, done, label
        self.rate = SlidingRate()
        self._bar = None
        self._task = None

    @contextlib.contextmanager
    def compiling(self) -> Iterator[None]:
        """Show "compiling the engine (first run only)…" with elapsed time while the
        body runs (it loads the compiled engine from the cache after the first run)."""
        if not self.enabled:
            yield
            return
        from rich.console import Console

        console = Console(stderr=True)
        started = time.monotonic()
        with console.status("compiling the engine (first run only)…") as status:

            def tick() -> None:
                status.update(f"compiling the engine (first run only)… {time.monotonic() - started:.0f} s")

            with _every_second(tick):
                yield
        seconds = time.monotonic() - started
        if seconds >= 2:
            console.print(f"engine ready in {seconds:.0f} s")

    @contextlib.contextmanager
    def games(self) -> Iterator[RunProgress]:
        """The bar of games, shown while the body runs."""
        if not self.enabled:
            yield self
            return
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn
        from rich.text import Text

        self.rate = rate = SlidingRate()  # from the first game on, compilation left out

        class Speed(ProgressColumn):
            def render(self, task) -> Text:
                value = rate.rate()
                eta = rate.eta(int(task.total - task.completed))
                speed = "" if value is None else f"{value:,.0f} games/s"
                left = "" if eta is None else f"ETA {clock(eta)}"
                return Text(f"{speed}  {left}".strip())

        self._bar = Progress(TextColumn(self.label), BarColumn(), MofNCompleteColumn(), Speed(), transient=False)
        self._task = self._bar.add_task(self.label, total=self.total, completed=self.done)
        with self._bar:
            yield self

    def advance(self, games: int) -> None:
        """Count ``games`` more finished games."""
        self.rate.add(games)
        if self._bar is not None:
            self._bar.advance(self._task, games)


def clock(seconds: float) -> str:
    """``seconds`` as ``H:MM:SS``."""
    minutes, secs = divmod(int(round(seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}"


@contextlib.contextmanager
def _every_second(action: Callable[[], None]) -> Iterator[None]:
    """Call ``action`` about once a second from a daemon thread while the body runs."""
    import threading

    stop = threading.Event()

    def loop() -> None:
        while not stop.wait(1.0):
            action()

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
