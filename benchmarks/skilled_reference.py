"""The reference run of skilled play, and how close each fast bot comes to it (issue 52).

A benchmark, not a test: it plays (or resumes) ``search`` in every seat, then the same
games (same deck, player count and seed: common random numbers) with ``greedy``,
``planner`` and ``expert`` in every seat, and prints, per bot:

* each ally's effect on win rate against the average ally (pp, 95% CI, the report's
  model, :func:`analysis.cards.ally_strength`);
* how many allies fall outside ``search``'s 95% CI, and the Spearman rank correlation
  of the effects with ``search``'s;
* morale-loss events per game (mean, 95% CI; :func:`analysis.morale.morale_per_game`).

The ``search`` run is played in chunks of 100 games, so that a stopped benchmark
resumes where it stopped: about 0.45 s of one core per two-player game, and more at
four players (docs/BOTS.md)::

    python benchmarks/skilled_reference.py --players 2 --games 4000 --out runs/skilled
    python benchmarks/skilled_reference.py --players 4 --games 1000 --out runs/skilled

The fast bots play ``--fast-games`` games each (default 100,000) on the same seed.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd
from scipy.stats import spearmanr

from analysis.cards import ally_strength
from analysis.morale import morale_per_game
from sim.runner import simulate

FAST = ("greedy", "planner", "expert")


def play(out: Path, players: int, games: int, seed: int, bot: str, chunk: int, jobs: int) -> Path:
    """The run of ``bot`` in every seat, played or resumed in ``out / NAME``."""
    run = out / f"{bot}-{players}p-seed{seed}-{games}g"
    simulate("cards.yaml", games, run, players, [bot] * players, seed, jobs, chunk_size=chunk,
             resume=(run / "manifest.json").exists(), progress=False)  # fmt: skip
    return run


def agreement(runs: dict[str, Path]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(the allies' effects under every bot, the summary per bot against ``search``)."""
    effects = {bot: ally_strength([run]).set_index("name") for bot, run in runs.items()}
    reference = effects["search"]
    table = pd.DataFrame({f"{bot} (95% CI)": [f"{e:+.1f} ({lo:+.1f} to {hi:+.1f})" for e, lo, hi in
                                             zip(t.effect_pp, t.effect_low_pp, t.effect_high_pp)]
                          for bot, t in effects.items()}, index=reference.index)  # fmt: skip
    rows = []
    for bot, t in effects.items():
        morale = morale_per_game([runs[bot]]).set_index("measure").loc["morale_events"]
        outside = ((t.effect_pp < reference.effect_low_pp) | (t.effect_pp > reference.effect_high_pp)).sum()
        rows.append({"bot": bot, "games": int(t.games.iloc[0]), "allies outside search's CI": int(outside),
                     "Spearman with search": spearmanr(t.effect_pp, reference.effect_pp).statistic,
                     "morale events per game": f"{morale['mean']:.2f} ({morale['mean_low']:.2f}-{morale['mean_high']:.2f})"})  # fmt: skip
    return table, pd.DataFrame(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=4000, help="search games (in chunks of 100)")
    parser.add_argument("--fast-games", type=int, default=100_000, help="games of each fast bot")
    parser.add_argument("--seed", type=int, default=52)
    parser.add_argument("--jobs", type=int, default=-1)
    parser.add_argument("--out", type=Path, default=Path("runs") / "skilled-reference")
    args = parser.parse_args()
    runs = {"search": play(args.out, args.players, args.games, args.seed, "search", 100, args.jobs)}
    for bot in FAST:
        runs[bot] = play(args.out, args.players, args.fast_games, args.seed, bot, 25_000, args.jobs)
    table, summary = agreement(runs)
    pd.set_option("display.width", 250)
    print(table.to_string())
    print()
    print(summary.to_string(index=False))


if __name__ == "__main__":
    main()
