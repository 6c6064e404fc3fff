"""The points-blind companion of a run: the same games with every task paying alike.

The bots chase points, so how often a task is completed as played depends on its
own reward: a task that pays little is passed over and looks harder than it is, a
task that pays much is chased and looks easier. Its difficulty *without the points*
is its completion rate in a companion run that replays the run's games on the same
deck with every task's reward set to the deck's mean task points: same root seed
(so the same deals and dice, common random numbers, :mod:`sim.rng`), same bots,
players, rule options, chunk size and number of games. Only the task rewards
(R1.4) differ. The engine scores integer points (``sim.cards.Points``), so the
common reward is the mean rounded to the nearest integer, halves rounded up (the
default deck's 25 tasks pay 2.8 points on average: every task pays 3).

Layout::

    <run>/points_blind/          a normal run directory (:mod:`sim.rundir`)
    <run>/manifest.json          records it under ``companions``:
                                 {"points_blind": {"dir": "points_blind", "task_points": 3}}

The companion plays as many games as the run, so it costs what the run costs
(the engine is compiled once for both: only the deck's numbers differ). It is played
by :func:`sim.run.companion.play_companion`.
:mod:`analysis.task_calibration` reads it as the tasks' difficulty. This module
imports the engine only when it plays, so the analysis can read a companion without
loading the compiler.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from sim.cards import Deck, load_deck
from sim.run.companion import complete_spec, play_companion
from sim.rundir import DECK_COPY, POINTS_BLIND_COMPANION


def blind_points(deck: Deck) -> int:
    """The reward every task pays in the points-blind companion: the mean of the
    deck's task points (R1.4), rounded to the nearest integer, halves up.

    Returns
    -------
    int
        Points; 0 for a deck without tasks.
    """
    tasks = deck.tasks
    return math.floor(sum(task.points for task in tasks) / len(tasks) + 0.5) if tasks else 0


def points_blind_deck(deck: Deck) -> Deck:
    """``deck`` with every task paying :func:`blind_points`; every other field kept."""
    points = blind_points(deck)
    return deck.model_copy(update={"tasks": [task.model_copy(update={"points": points}) for task in deck.tasks]})


def companion_dir(run_dir: str | Path) -> Path:
    """Where a run's points-blind companion lives: ``<run>/points_blind``."""
    return Path(run_dir) / POINTS_BLIND_COMPANION


def play_points_blind(run_dir: str | Path, n_jobs: int = -1, progress: bool | None = None,
                      scheduler: str | None = None, dask_local: int | None = None,
                      donors: Sequence[Path] = ()) -> Path:  # fmt: skip
    """Play (or finish) the points-blind companion of a complete run and record it in
    the run's manifest (module docstring).

    Parameters
    ----------
    run_dir : path
        A run directory of :func:`sim.run.runner.simulate` whose manifest says ``complete``.
    n_jobs, progress, scheduler, dask_local
        As :func:`sim.run.runner.simulate`; the progress bar is labelled
        "points-blind games".
    donors : sequence of paths
        Other runs' points-blind companions (``<other run>/points_blind``) whose
        chunks it takes instead of playing them where they played the same games:
        two decks that differ only in their tasks' points have one points-blind deck
        (:func:`points_blind_deck`), so on the same seed their companions are the
        same games (:func:`sim.run.runner.simulate`'s ``donors``).

    Returns
    -------
    Path
        The companion's run directory, ``<run>/points_blind``, complete.

    Raises
    ------
    sim.rundir.RunError
        When ``run_dir`` is not a complete run, or is being written by another
        process; and as :func:`sim.run.runner.simulate` for the companion.
    """
    run_dir = Path(run_dir)
    spec = complete_spec(run_dir, "points-blind companion")
    deck = points_blind_deck(load_deck(run_dir / DECK_COPY))
    return play_companion(run_dir, spec, POINTS_BLIND_COMPANION, deck, list(spec.bots),
                          {"task_points": blind_points(deck)}, "points-blind games", n_jobs, progress, scheduler, dask_local,
                          donors)  # fmt: skip
