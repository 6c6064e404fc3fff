"""Engine speed: games per second on one core for a bot (``random`` by default).

How to run (from the repository root)::

    python benchmarks/engine_speed.py --games 100000
    python benchmarks/engine_speed.py --games 20000 --bot greedy --cold-compile

It prints the lines of :func:`sim.run.bench.engine_speed` (the default deck and its
ability-free variant, 2 and 4 players) and the first call's cost: loading the engine
from numba's cache when warm, compiling it when cold. ``--cold-compile`` also times
a true cold compile in a fresh process with an empty, temporary ``NUMBA_CACHE_DIR``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000, help="games per (deck, players) line")
    parser.add_argument("--seed", type=int, default=12345, help="root seed of every run")
    parser.add_argument("--chunk", type=int, default=20_000, help="games per run_games call")
    parser.add_argument("--bot", default="random", help="bot in every seat, e.g. random, greedy, planner")
    parser.add_argument("--cold-compile", action="store_true", help="also time a cold compile in a fresh process")
    args = parser.parse_args(argv)

    import numba

    from sim.run.bench import engine_speed, first_run_phases, format_lines, format_phases, pin_to_one_core

    print(f"engine speed, bot {args.bot}, numba {numba.__version__}, python {sys.version.split()[0]}")
    # first runs before pinning: a cold compile splits over two CPUs (sim.split_compile)
    print("first run in a fresh process, the cache as it is:")
    print(format_phases(first_run_phases(ROOT / "cards.yaml", args.bot, cold=False)))
    if args.cold_compile:
        print("first run with an empty cache (cold compile):")
        print(format_phases(first_run_phases(ROOT / "cards.yaml", args.bot, cold=True)))
    print(pin_to_one_core())
    start = time.perf_counter()
    lines = engine_speed(ROOT / "cards.yaml", args.games, args.bot, args.seed, args.chunk)
    print(f"\n{format_lines(lines)}\n(total {time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
