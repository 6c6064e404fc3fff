"""Where the cold compile goes: numba compile seconds per kernel, inclusive and
exclusive, for the first game of a run with an empty numba cache.

How to run (from the repository root)::

    python benchmarks/compile_profile.py --bot greedy
    python benchmarks/compile_profile.py --bot search --top 30

It starts a fresh Python process with an empty, temporary ``NUMBA_CACHE_DIR``,
listens to numba's ``numba:compile`` events (``numba.core.event``), plays one game
of the default deck and prints, per kernel, the seconds from the start to the end of
its compilation (inclusive: the kernels it calls and compiles first are included)
and without the kernels compiled inside it (exclusive). A kernel's exclusive time
is mostly LLVM optimising and generating code for its module, which numba links
with every kernel it calls (why deep call chains cost more than their parts). The
process keeps to one CPU, so that the compilation is not split with a helper
process (:mod:`sim.split_compile`) and every kernel is listed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_CHILD = """
import collections, os, sys, time
from numba.core import event

if hasattr(os, "sched_setaffinity"):  # one CPU: every kernel compiles here, none in a helper
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})

records, stack = [], []


class Listener(event.Listener):
    def on_start(self, ev):
        func = getattr(ev.data["dispatcher"], "py_func", None)
        name = f"{func.__module__}.{func.__qualname__}" if func else repr(ev.data["dispatcher"])
        stack.append([name, time.perf_counter(), 0.0])

    def on_end(self, ev):
        name, start, inner = stack.pop()
        seconds = time.perf_counter() - start
        if stack:
            stack[-1][2] += seconds
        records.append((name, seconds, seconds - inner))


event.register("numba:compile", Listener())
start = time.perf_counter()
from sim.cards import load_deck
from sim.deck_arrays import compile_deck
from sim.play import run_games

deck = compile_deck(load_deck(sys.argv[1]))
run_games(deck, int(sys.argv[3]), 1, seed=0, bots=[sys.argv[2]] * int(sys.argv[3]))
total = time.perf_counter() - start
by_kernel = collections.defaultdict(lambda: [0.0, 0.0, 0])
for name, inclusive, exclusive in records:
    by_kernel[name][0] = max(by_kernel[name][0], inclusive)
    by_kernel[name][1] += exclusive
    by_kernel[name][2] += 1
print(f"first game of {sys.argv[2]!r}, {sys.argv[3]} players, empty cache: {total:.1f} s, {len(by_kernel)} kernels")
print(f"{'inclusive s':>11}  {'exclusive s':>11}  {'copies':>6}  kernel")
for name, (inclusive, exclusive, copies) in sorted(by_kernel.items(), key=lambda kv: -kv[1][1])[: int(sys.argv[4])]:
    print(f"{inclusive:11.2f}  {exclusive:11.2f}  {copies:6d}  {name}")
"""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="greedy", help="bot in every seat")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--top", type=int, default=25, help="kernels to list, by exclusive seconds")
    parser.add_argument("--cards", default=str(ROOT / "cards.yaml"))
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="numba-cold-") as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": str(ROOT)}
        command = [sys.executable, "-c", _CHILD, args.cards, args.bot, str(args.players), str(args.top)]
        subprocess.run(command, env=env, check=True)


if __name__ == "__main__":
    main()
