"""Ally verdicts on a run: the fit time, and how often shuffled labels are flagged.

How to run (from the repository root), on a run directory of ``revachol run`` or
``revachol simulate``::

    python benchmarks/ally_verdicts.py runs/cards-6e5b8478-4p-greedy-100000g-seed0
    python benchmarks/ally_verdicts.py runs/one-million --placebo-seeds 0

It prints the seconds to load the players table and to fit the game-stratified
conditional logit (:func:`analysis.stats.ally_model.ally_effects`), then the placebo:
ally labels shuffled at random within each game, so that no label can matter, fitted
again for each seed; the share of allies flagged with the Benjamini–Hochberg test
alone and with the practical threshold too (:func:`analysis.cards.verdicts`). A
measurement, not a test; the suite's placebo test is
``tests/test_ally_strength.py``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", type=Path, help="a run directory")
    parser.add_argument("--placebo-seeds", type=int, default=10, help="shuffles of the ally labels (0: none)")
    args = parser.parse_args(argv)

    from analysis.cards import DEFAULT_THRESHOLD_PP, verdicts
    from analysis.data.player_games import player_arrays
    from analysis.data.runs import Run
    from analysis.stats.ally_model import ally_effects

    run = Run.open(args.run)
    start = time.perf_counter()
    data = player_arrays(run, "held", "won")
    held, winner = data["held"], data["won"].argmax(1)
    loaded = time.perf_counter()
    ally_effects(held, winner)
    fitted = time.perf_counter()
    games, n, allies = held.shape
    print(f"{games:,} games of {n} players, {allies} allies: load {loaded - start:.1f} s, fit {fitted - loaded:.1f} s")
    if args.placebo_seeds < 1:
        return
    alone, with_threshold, largest = [], [], []
    for seed in range(args.placebo_seeds):
        labels = np.argsort(np.random.default_rng(seed).random((games, allies)), axis=1)
        shuffled = np.take_along_axis(held, np.repeat(labels[:, None, :], n, axis=1), axis=2)
        effects = ally_effects(shuffled, winner)
        alone.append(np.mean(verdicts(effects["effect_pp"], effects["p_value"], threshold_pp=0.0)[0] != ""))
        with_threshold.append(np.mean(verdicts(effects["effect_pp"], effects["p_value"])[0] != ""))
        largest.append(np.nanmax(np.abs(effects["effect_pp"])))
    print(f"placebo, labels shuffled within games, {args.placebo_seeds} seeds: flagged {np.mean(alone):.2%} of allies "
          f"by Benjamini–Hochberg alone, {np.mean(with_threshold):.2%} with the {DEFAULT_THRESHOLD_PP} pp threshold; "
          f"largest |effect| {max(largest):.2f} pp")


if __name__ == "__main__":
    main()
