"""The advisor's progress (:mod:`.advise`), as a person or a log reads it.

On a terminal (standard error is one) a rich status line shows the stage, the
candidates tried and the best deck so far, redrawn as each deck is played. Written to
a file, a pipe or a captured subprocess, a redrawn line is lost or garbled, so the
advisor prints one line per stage to standard error instead, e.g. ``advise: round 1:
screening 48 edits of 15 cards on 50,000 games each …`` and ``advise: confirming on
the hold-out: the original and the proposal on 100,000 fresh games each …``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from analysis.experiments.advise_measures import Measures
from analysis.experiments.advise_search import Search

Show = Callable[[str, "Search | None", "Measures | None"], None]


def _best(search: Search, best: Measures) -> str:
    """The best deck so far, in-sample: cards beyond the aim and the excess."""
    targets = search.settings.targets(best)
    allies = sum(section == "allies" for section, *_ in targets)
    tasks = len(targets) - allies
    return (f"best so far, in-sample: {allies} all{'y' if allies == 1 else 'ies'} and {tasks} task{'s' * (tasks != 1)} "
            f"beyond the aim, excess {search.settings.excess(best, search.original):.2f}")  # fmt: skip


class progress:
    """A context manager giving ``show(stage, search, best)``: the rich status line on a
    terminal, one line per new stage on standard error elsewhere, nothing when
    ``show`` is false (module docstring). ``search`` and ``best`` may be None before
    the search starts; ``games``: games per deck on the search seed, named in a
    round's line; ``terminal``: None asks standard error."""

    def __init__(self, show: bool, games: int, terminal: bool | None = None):
        self.show, self.games = show, games
        self.terminal = sys.stderr.isatty() if terminal is None else terminal
        self.last = ""

    def __enter__(self) -> Show:
        if not self.show:
            return lambda *_: None
        if not self.terminal:
            return self._line
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        self.progress = Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn())
        self.progress.start()
        task = self.progress.add_task("advise: the original deck", total=None)

        def update(stage: str, search: Search | None, best: Measures | None) -> None:
            counts = f" · {search.tried} candidates tried · {_best(search, best)}" if search and best else ""
            self.progress.update(task, description=f"advise: {stage}{counts}")

        return update

    def _line(self, stage: str, search: Search | None, best: Measures | None) -> None:
        """One line on standard error when the stage changes (a log's progress)."""
        if stage == self.last:
            return
        self.last = stage
        if "screening" in stage:
            stage = f"{stage} on {self.games:,} games per deck"
        if search and best and stage.startswith("round"):
            stage = f"{stage} ({_best(search, best)})"
        print(f"advise: {stage} …", file=sys.stderr, flush=True)

    def __exit__(self, *exc) -> None:
        if self.show and self.terminal:
            self.progress.stop()
