"""Where the engine's time goes: a sampling profile of the compiled kernels.

How to run (from the repository root, on Linux with ``perf`` installed, e.g.
Debian's ``linux-perf``)::

    python benchmarks/engine_profile.py --bot random --games 1000000
    python benchmarks/engine_profile.py --bot greedy --games 300000 --no-abilities

``perf record`` (software clock, so it works without hardware counters) samples a
fresh process that plays the games on one core. Numba's compiled code has no
symbols that ``perf`` can read, so the process compiles the engine afresh (empty,
temporary numba cache) with numba's code generator wrapped to note the address of
every function it emits, and writes them to ``/tmp/perf-PID.map``, the file
``perf report`` reads for JIT code. The script prints each kernel's share of the
samples in compiled code; kernels compiled as hot kernels
(:func:`sim._numba.hot_kernel`) count in their callers. The wrapper uses numba
internals (``numba.core.codegen.JITCodeLibrary``): it is a measuring tool, never
imported by the toolkit.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_CHILD = """
import atexit, os, re, sys, time
from numba.core import codegen

addresses = {}
emit = codegen.JITCodeLibrary._finalize_specific


def noting_addresses(library):
    emit(library)
    engine = library._codegen._engine
    for function in library._final_module.functions:
        if not function.is_declaration:
            address = engine.get_function_address(function.name)
            if address:
                addresses.setdefault(address, function.name)


def kernel_name(mangled):
    match = re.match(r"_ZN((?:\\d+\\w+?)+?)B\\d", mangled)
    if not match:
        return mangled[:80]
    parts, rest = [], match.group(1)
    while rest and (size := re.match(r"\\d+", rest)):
        length, rest = int(size.group()), rest[size.end():]
        parts.append(rest[:length])
        rest = rest[length:]
    return ".".join(parts)


def write_map():
    rows = sorted(addresses.items())
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
        for i, (address, name) in enumerate(rows):
            size = min(rows[i + 1][0] - address, 1 << 20) if i + 1 < len(rows) else 4096
            out.write(f"{address:x} {size:x} {kernel_name(name)}\\n")


codegen.JITCodeLibrary._finalize_specific = noting_addresses
atexit.register(write_map)
os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
from sim.run.bench import ability_free
from sim.cards import load_deck
from sim.deck_arrays import compile_deck
from sim.play import run_games
from sim.state import new_state
from sim.options import RuleOptions

deck = load_deck(sys.argv[1])
arrays = compile_deck(ability_free(deck) if sys.argv[4] == "1" else deck)
state = new_state(arrays, RuleOptions().to_array())
bots = [sys.argv[2]] * 4
run_games(arrays, 4, 1, 12345, bots, state=state)
start = time.perf_counter()
record = run_games(arrays, 4, int(sys.argv[3]), 12345, bots, state=state)
seconds = time.perf_counter() - start
turns = int(record.games[:, 2].sum())
print(f"{int(sys.argv[3]) / seconds:,.0f} games/s, {seconds / turns * 1e9:.0f} ns/turn (profiled, so slower)")
"""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="random", help="bot in every seat (4 players)")
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--no-abilities", action="store_true", help="the ability-free deck (the bench's reference line)")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args(argv)
    if shutil.which("perf") is None:
        sys.exit("engine_profile: perf is not installed (Debian: apt-get install linux-perf)")
    with tempfile.TemporaryDirectory(prefix="engine-profile-") as work:
        data = Path(work) / "perf.data"
        env = {**os.environ, "NUMBA_CACHE_DIR": str(Path(work) / "numba"), "PYTHONPATH": str(ROOT)}
        command = [sys.executable, "-c", _CHILD, str(ROOT / "cards.yaml"), args.bot, str(args.games),
                   "1" if args.no_abilities else "0"]  # fmt: skip
        subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "-o", str(data), "--", *command], env=env, check=True)
        report = subprocess.run(["perf", "report", "-i", str(data), "--sort", "dso,sym", "--stdio"],
                                capture_output=True, text=True, check=True).stdout  # fmt: skip
    rows = [(float(m.group(1)), m.group(2)) for m in re.finditer(r"^\s+([\d.]+)%\s+\[JIT\][^\[]*\[\.\]\s+(\S+)", report, re.M)]
    total = sum(share for share, _ in rows) or 1.0
    print(f"share of the samples in compiled code ({total:.1f}% of all samples; the rest is compiling and Python):")
    for share, name in rows[: args.top]:
        print(f"{100 * share / total:6.1f}%  {name}")


if __name__ == "__main__":
    main()
