"""Engine speed: games per second on one core for a bot (``random`` by default).

How to run (from the repository root)::

    python benchmarks/engine_speed.py --games 100000
    python benchmarks/engine_speed.py --games 20000 --bot greedy --cold-compile

It prints the lines of :func:`sim.bench.engine_speed` (the default deck and its
ability-free variant, 2 and 4 players) and the first call's cost: loading the engine
from numba's cache when warm, compiling it when cold. ``--cold-compile`` also times
a true cold compile in a fresh process with an empty, temporary ``NUMBA_CACHE_DIR``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

_FIRST_CALL = """
import sys, time
sys.path.insert(0, {root!r})
t0 = time.perf_counter()
from sim.cards import load_deck
from sim.deck_arrays import compile_deck
from sim.engine import run_games
deck = compile_deck(load_deck({cards!r}))
t1 = time.perf_counter()
run_games(deck, 2, 1, seed=0)
print(f"{{t1 - t0:.3f}} {{time.perf_counter() - t1:.3f}}")
"""


def first_call_seconds(cache_dir: str | None) -> tuple[float, float]:
    """(imports, first run_games call) in a fresh process; an empty cache dir forces a cold compile."""
    env = {**os.environ, "NUMBA_NUM_THREADS": "1", **({"NUMBA_CACHE_DIR": cache_dir} if cache_dir else {})}
    code = _FIRST_CALL.format(root=str(ROOT), cards=str(ROOT / "cards.yaml"))
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True)
    imports, first = (float(x) for x in out.stdout.split())
    return imports, first


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000, help="games per (deck, players) line")
    parser.add_argument("--seed", type=int, default=12345, help="root seed of every run")
    parser.add_argument("--chunk", type=int, default=20_000, help="games per run_games call")
    parser.add_argument("--bot", default="random", help="bot in every seat, e.g. random, greedy, planner")
    parser.add_argument("--cold-compile", action="store_true", help="also time a cold compile in a fresh process")
    args = parser.parse_args(argv)

    import numba

    from sim.bench import engine_speed, format_lines, pin_to_one_core

    pinned = pin_to_one_core()
    imports, warm = first_call_seconds(None)
    print(f"engine speed, bot {args.bot}, numba {numba.__version__}, python {sys.version.split()[0]}, {pinned}")
    print(f"first call in a fresh process with the cache as it is: {warm:.2f} s (imports {imports:.2f} s)")
    if args.cold_compile:
        with tempfile.TemporaryDirectory(prefix="numba-cold-") as cache:
            imports, cold = first_call_seconds(cache)
        print(f"first call with an empty cache (cold compile): {cold:.2f} s (imports {imports:.2f} s)")
    start = time.perf_counter()
    lines = engine_speed(ROOT / "cards.yaml", args.games, args.bot, args.seed, args.chunk)
    print(f"\n{format_lines(lines)}\n(total {time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
