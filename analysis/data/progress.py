"""What a long analysis shows while it reads a run: parts read, rows/s and ETA.

A report makes several passes over each run (one per statistic, :mod:`analysis.data.stream`).
The display is one rich bar for the current pass, named by the report's section and
the run: the pass's parts read out of its parts, rows/s and the pass's ETA, and
beside it the parts read and the time since the display opened. A row is a player-game row
(games × players). The rate is :class:`sim.run.progress.SlidingRate`'s, as the runner's
games/s: over recent seconds up to now, so a burst of fast parts cannot inflate it.
Disabled, every method does nothing.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator

from sim.run.progress import SlidingRate, clock

PROGRESS_GAMES = 1_000_000  # reports on this many games or more show the display by default


class ReadProgress:
    """A rich display of the parts a report reads (module docstring).

    Parameters
    ----------
    enabled : bool
        Show it (on stderr); otherwise every method does nothing.
    """

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self.section = ""
        self.parts_read = 0
        self.rows_read = 0
        self.rate = SlidingRate()
        self._bar = None
        self._task = None

    @contextlib.contextmanager
    def shown(self) -> Iterator[ReadProgress]:
        """The display, shown while the body runs; at its end a line with the parts and
        rows read."""
        if not self.enabled:
            yield self
            return
        from rich.console import Console
        from rich.progress import BarColumn, Progress, ProgressColumn, TextColumn
        from rich.text import Text

        rate, started = self.rate, time.monotonic()

        class Speed(ProgressColumn):
            def render(self, task) -> Text:
                value = rate.rate()
                rows_left = (task.total - task.completed) * task.fields["rows_per_part"]
                eta = None if value is None or not task.completed else rows_left / value
                speed = "" if value is None else f"{value:,.0f} rows/s"
                left = "" if eta is None else f"ETA {clock(eta)}"
                return Text(f"{speed}  {left}".strip())

        class Elapsed(ProgressColumn):  # since the display opened, not since the pass began
            def render(self, task) -> Text:
                return Text(clock(time.monotonic() - started))

        self._bar = Progress(TextColumn("{task.description}"), BarColumn(),
                             TextColumn("{task.completed:.0f}/{task.total:.0f} parts"), Speed(),
                             TextColumn("· {task.fields[read]:,} parts read in"), Elapsed(),
                             console=Console(stderr=True), transient=True)  # fmt: skip
        self._task = self._bar.add_task("reading", total=1, read=0, rows_per_part=0.0)
        with self._bar:
            yield self
        self._bar.console.print(f"read {self.parts_read:,} parts, {self.rows_read:,} rows")

    @contextlib.contextmanager
    def in_section(self, title: str) -> Iterator[None]:
        """Name the passes made while the body runs after ``title`` (a report's section)."""
        before, self.section = self.section, title
        try:
            yield
        finally:
            self.section = before

    def start_pass(self, run_name: str, parts: int) -> None:
        """A new pass over the ``parts`` parts of run ``run_name``."""
        if self._bar is not None:
            name = f"{self.section} · {run_name}" if self.section else run_name
            self._bar.reset(self._task, total=max(parts, 1), description=name, read=self.parts_read,
                            rows_per_part=0.0)  # fmt: skip

    def advance(self, rows: int) -> None:
        """One more part read, of ``rows`` rows (player-game rows)."""
        self.parts_read += 1
        self.rows_read += rows
        self.rate.add(rows)
        if self._bar is not None:
            task = self._bar.tasks[0]
            done = task.completed + 1
            mean = (task.fields["rows_per_part"] * task.completed + rows) / done
            self._bar.update(self._task, completed=done, read=self.parts_read, rows_per_part=mean)
