"""Engine speed: games per second on one core for a bot (``random`` by default).

How to run (from the repository root)::

    python benchmarks/engine_speed.py --games 100000
    python benchmarks/engine_speed.py --games 20000 --seed 3 --cold-compile

It plays ``--games`` games for each of: the default deck (``cards.yaml``) and an
ability-free variant of it (every ally's ``ability`` removed), each with 2 and 4
players, the ``random`` bot in every seat, default rule options. Each line is one
batch of :func:`sim.engine.run_games` (played in chunks of at most ``--chunk`` games
that reuse one state, so the record's memory stays bounded), timed with
``time.perf_counter`` after a warm-up call.

The process is pinned to one CPU (``os.sched_setaffinity``, where available); the
engine is single-threaded numba code anyway.

Compile time: the warm-up call is the process's first call of the compiled engine,
so its time is the first-call cost: loading from numba's on-disk cache when the cache
is warm, compiling when it is cold. The script prints which it was (numba's cache
hits and misses of ``play_batch``). ``--cold-compile`` also measures a true cold
compile in a fresh subprocess with an empty, temporary ``NUMBA_CACHE_DIR`` (the
repository's cache is left alone); it takes ~20-40 s.
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

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

_COLD_SNIPPET = """
import sys, time
sys.path.insert(0, {root!r})
t0 = time.perf_counter()
from sim.cards import load_deck
from sim.deck_arrays import compile_deck
from sim.engine import run_games
deck = compile_deck(load_deck({cards!r}))
t1 = time.perf_counter()
run_games(deck, 2, 1, seed=0)
t2 = time.perf_counter()
print(f"{{t1 - t0:.3f}} {{t2 - t1:.3f}}")
"""


def pin_to_one_core() -> str:
    if hasattr(os, "sched_setaffinity"):
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    return "not pinned (no sched_setaffinity on this platform)"


def cold_compile_seconds() -> tuple[float, float]:
    """(import + deck load, first run_games call) in a fresh process with an empty cache."""
    with tempfile.TemporaryDirectory(prefix="numba-cold-") as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "NUMBA_NUM_THREADS": "1"}
        code = _COLD_SNIPPET.format(root=str(ROOT), cards=str(ROOT / "cards.yaml"))
        out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True)
    load, first_call = (float(x) for x in out.stdout.split())
    return load, first_call


def time_batch(run_games, new_state, RuleOptions, arrays, n_players: int, n_games: int, seed: int, chunk: int, bot: str):
    """Seconds and total turns for ``n_games`` games in chunks sharing one state."""
    options = RuleOptions()
    state = new_state(arrays, options.to_array())
    turns = 0
    seconds = 0.0
    done = 0
    while done < n_games:
        n = min(chunk, n_games - done)
        start = time.perf_counter()
        record = run_games(arrays, n_players, n, seed, [bot] * n_players, options, first_game=done, state=state)
        seconds += time.perf_counter() - start
        turns += int(record.games[:, 2].sum())
        done += n
    return seconds, turns


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000, help="games per (deck, players) line")
    parser.add_argument("--seed", type=int, default=12345, help="root seed of every run")
    parser.add_argument("--chunk", type=int, default=20_000, help="games per run_games call")
    parser.add_argument("--bot", default="random", help="bot in every seat, e.g. random, greedy (sim.bots.spec)")
    parser.add_argument("--cold-compile", action="store_true", help="also time a cold compile in a fresh process")
    args = parser.parse_args(argv)

    pinned = pin_to_one_core()
    t0 = time.perf_counter()
    import numba

    from sim.cards import load_deck
    from sim.deck_arrays import compile_deck
    from sim.engine import play_batch, run_games
    from sim.options import RuleOptions
    from sim.state import new_state

    deck = load_deck(ROOT / "cards.yaml")
    plain = deck.model_copy(update={"allies": [a.model_copy(update={"ability": None}) for a in deck.allies]})
    decks = {"default": compile_deck(deck), "no abilities": compile_deck(plain)}
    import_seconds = time.perf_counter() - t0

    start = time.perf_counter()
    run_games(decks["default"], 2, 1, args.seed)  # warm-up: compiles or loads from the cache
    warm_up = time.perf_counter() - start
    stats = play_batch.stats
    hits, misses = sum(stats.cache_hits.values()), sum(stats.cache_misses.values())
    cache = "warm (loaded from numba's cache)" if hits and not misses else "cold (compiled)" if misses else "unknown"

    print(f"engine speed, bot {args.bot}, numba {numba.__version__}, python {sys.version.split()[0]}, {pinned}")
    print(f"imports + deck load: {import_seconds:.2f} s")
    print(f"first call (warm-up): {warm_up:.2f} s, cache {cache}; play_batch cache hits {hits}, misses {misses}")
    if args.cold_compile:
        load, first_call = cold_compile_seconds()
        print(f"cold compile in a fresh process (empty NUMBA_CACHE_DIR): first call {first_call:.2f} s (imports {load:.2f} s)")
    print()

    header = ("deck", "players", "games", "seconds", "games/s", "turns/game")
    rows = []
    for name, arrays in decks.items():
        for n_players in (2, 4):
            seconds, turns = time_batch(
                run_games, new_state, RuleOptions, arrays, n_players, args.games, args.seed, args.chunk, args.bot
            )
            rate, mean_turns = args.games / seconds, turns / args.games
            rows.append((name, str(n_players), f"{args.games:,}", f"{seconds:.2f}", f"{rate:,.0f}", f"{mean_turns:.1f}"))
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    print("  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(header, widths))))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))))


if __name__ == "__main__":
    main()
