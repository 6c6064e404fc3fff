"""What a batch run shows while it works: the first compilation, then games done,
games/s and the ETA; a bar on a terminal, lines in a log.

Games finish a chunk at a time, so the rate between two chunk completions a moment
apart says nothing (it spiked past 1,000,000 games/s), and games reused from an
interrupted run were not played now. :class:`SlidingRate` counts only games finished
in this process, over a window of recent seconds that always runs up to *now*: a
burst of chunks cannot inflate it, and a stall lowers it.
"""

from __future__ import annotations

import contextlib
import sys
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


LOG_SECONDS = 15.0
"""In a log (standard error not a terminal), a line at least this often, seconds."""
COMPILING = "compiling the engine{what}: a one-time cost{about}, later runs load it from the cache"


def compiling_text(estimate: tuple[str, float] | None = None) -> str:
    """What a run says as the engine starts compiling: ``compiling the engine for
    greedy: a one-time cost (about 14 s on a 2-core machine), later runs load it from
    the cache``, from ``estimate`` (the rung and its seconds,
    :func:`sim.bots.spec.compile_estimate`); without one, the same unnamed."""
    if estimate is None:
        return COMPILING.format(what="", about="")
    rung, seconds = estimate
    return COMPILING.format(what=f" for {rung}", about=f" (about {seconds:.0f} s on a 2-core machine)")


class RunProgress:
    """What a batch run shows on standard error, by ``mode``:

    * ``"bar"`` (a terminal): a rich "compiling the engine" status with its elapsed
      seconds, then a bar of games done with games/s and ETA from :class:`SlidingRate`,
      labelled ``label``;
    * ``"log"`` (output redirected): the same as plain lines, one when each stage
      starts and one at least every :data:`LOG_SECONDS` while it runs, so that a log
      shows the run is alive;
    * ``"off"``: nothing; every method does nothing.
    """

    def __init__(self, mode: str, total: int, done: int, label: str = "games"):
        self.mode, self.total, self.done, self.label = mode, total, done, label
        self.rate = SlidingRate()
        self._bar = None
        self._task = None

    @contextlib.contextmanager
    def compiling(self, estimate: tuple[str, float] | None = None) -> Iterator[None]:
        """Show that the engine compiles, with its expected time (``estimate``: the
        rung and its seconds, :func:`compiling_text`) and the time elapsed, while the
        body runs (it loads the compiled engine from the cache after the first run);
        then, when it took 2 s or more, how long."""
        if self.mode == "off":
            yield
            return
        started = time.monotonic()

        def elapsed() -> str:
            return f"{time.monotonic() - started:.0f} s"

        if self.mode == "log":  # said once it takes a second, so that an engine loaded from the cache says nothing
            said: list[float] = []

            def tick() -> None:
                seconds = time.monotonic() - started
                if not said or seconds - said[-1] >= LOG_SECONDS:
                    _line(f"compiling the engine… {elapsed()}" if said else f"{compiling_text(estimate)}…")
                    said.append(seconds)

            with _every(min(1.0, LOG_SECONDS), tick):
                yield
        else:
            from rich.console import Console

            text = compiling_text(estimate)
            with Console(stderr=True).status(f"{text}…") as status:
                with _every(1.0, lambda: status.update(f"{text}… {elapsed()}")):
                    yield
        if time.monotonic() - started >= 2:
            _line(f"engine ready in {elapsed()}")

    @contextlib.contextmanager
    def games(self) -> Iterator[RunProgress]:
        """The games done, shown while the body runs: a bar, or lines in a log."""
        self.rate = SlidingRate()  # from the first game on, compilation left out
        if self.mode == "off":
            yield self
            return
        if self.mode == "log":
            with _every(LOG_SECONDS, lambda: _line(self.line())):
                _line(self.line())
                yield self
            _line(self.line())
            return
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn
        from rich.text import Text

        rate = self.rate

        class Speed(ProgressColumn):
            def render(self, task) -> Text:
                return Text(speed_text(rate, int(task.total - task.completed)))

        self._bar = Progress(TextColumn(self.label), BarColumn(), MofNCompleteColumn(), Speed(), transient=False)
        self._task = self._bar.add_task(self.label, total=self.total, completed=self.done)
        with self._bar:
            yield self

    def line(self) -> str:
        """One line of a log: ``label: done of total``, games/s and ETA once known."""
        done = self.done + self.rate.done
        speed = speed_text(self.rate, self.total - done)
        return f"{self.label}: {done:,} of {self.total:,}" + (f" ({speed})" if speed else "")

    def advance(self, games: int) -> None:
        """Count ``games`` more finished games."""
        self.rate.add(games)
        if self._bar is not None:
            self._bar.advance(self._task, games)


def _line(text: str) -> None:
    """One plain line on standard error, at once: a log's (a file, a pipe, a notebook)."""
    print(text, file=sys.stderr, flush=True)


def speed_text(rate: SlidingRate, remaining: int) -> str:
    """``12,345 games/s  ETA 0:00:05`` from ``rate``, each part once known, else ""."""
    value, eta = rate.rate(), rate.eta(remaining)
    speed = "" if value is None else f"{value:,.0f} games/s"
    left = "" if eta is None else f"ETA {clock(eta)}"
    return f"{speed}  {left}".strip()


def clock(seconds: float) -> str:
    """``seconds`` as ``H:MM:SS``."""
    minutes, secs = divmod(int(round(seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}"


@contextlib.contextmanager
def _every(seconds: float, action: Callable[[], None]) -> Iterator[None]:
    """Call ``action`` every ``seconds`` from a daemon thread while the body runs."""
    import threading

    stop = threading.Event()

    def loop() -> None:
        while not stop.wait(seconds):
            action()

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
