"""The monotone par of the task rewards on a run: seconds per call, and how many
orders of difficulty its resamples fit.

How to run (from the repository root), on a run directory of ``revachol run`` or
``revachol simulate`` (its points-blind companion is used when it has one)::

    python benchmarks/task_par.py runs/cards-6e5b8478-4p-greedy-100000g-seed0
    python benchmarks/task_par.py runs/cards-6e5b8478-4p-greedy-100000g-seed0 --games 2000

``--games G`` scales the run's completion moments down to ``G`` games (the same rates
and covariance, ``G`` games' worth of noise), as a candidate deck of ``revachol advise``
or a small ``--until-settled`` round has: the fewer the games, the more resamples order
the tasks differently, and the more fits the par needs
(:func:`analysis.stats.monotone_par.monotone_par`). A measurement, not a test; the
suite's oracle test is ``tests/test_task_calibration.py``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's analysis, not an installed one


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", type=Path, help="a run directory, with or without its points-blind companion")
    parser.add_argument("--games", type=int, default=0, help="scale the moments down to this many games (0: as run)")
    parser.add_argument("--repeat", type=int, default=3, help="calls timed; the fastest is printed")
    args = parser.parse_args(argv)

    from analysis.data.runs import Run
    from analysis.stats.clustered import GameMoments
    from analysis.stats.monotone_par import monotone_par, resampled_rates
    from analysis.task_calibration import DEFAULT_THRESHOLD_POINTS, completion_moments, points_blind_run

    run = Run.open(args.run)
    companion, _ = points_blind_run(run)
    moments = completion_moments(companion or run)
    if args.games:
        scale = args.games / moments.games
        moments = GameMoments(total=moments.total * scale, cross=moments.cross * scale, games=args.games)
    points = np.array([t.points for t in run.deck.tasks], np.float64)
    rate = moments.total / moments.games
    replicates = resampled_rates(moments)
    orders = len(np.unique(np.argsort(replicates, axis=1, kind="stable"), axis=0))
    seconds = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        monotone_par(points, rate, replicates, DEFAULT_THRESHOLD_POINTS)
        seconds.append(time.perf_counter() - start)
    print(f"{len(points)} tasks, {moments.games:,} games, {len(replicates):,} resamples, {orders:,} orders of difficulty")
    print(f"monotone par: {min(seconds):.3f} s (fastest of {args.repeat})")


if __name__ == "__main__":
    main()
