"""Engine speed: games per second on one core (``revachol bench`` and
``benchmarks/engine_speed.py``). A measurement, not a test.

Each line plays ``n_games`` games with one bot in every seat, in chunks that reuse
one state, timed with ``time.perf_counter`` after a warm-up call that compiles or
loads the engine from numba's cache. The process is pinned to one CPU where the
platform allows.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from sim.cards import Deck, load_deck
from sim.deck_arrays import compile_deck
from sim.play import run_games
from sim.options import RuleOptions
from sim.state import new_state


@dataclass(frozen=True)
class SpeedLine:
    """One benchmark line: seconds of engine time for ``games`` games."""

    deck: str
    players: int
    games: int
    seconds: float
    turns: int

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds

    @property
    def turns_per_game(self) -> float:
        return self.turns / self.games


def pin_to_one_core() -> str:
    """Pin this process to one CPU; returns a note saying which, or why not."""
    if hasattr(os, "sched_setaffinity"):
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    return "not pinned (no sched_setaffinity on this platform)"


def ability_free(deck: Deck) -> Deck:
    """The same deck with every ally's ability removed (the reference workload)."""
    return deck.model_copy(update={"allies": [a.model_copy(update={"ability": None}) for a in deck.allies]})


def time_games(deck: Deck, label: str, n_players: int, n_games: int, bot: str, seed: int, chunk: int) -> SpeedLine:
    """Play ``n_games`` games of ``deck`` and time the engine."""
    arrays = compile_deck(deck)
    options = RuleOptions()
    state = new_state(arrays, options.to_array())
    run_games(arrays, n_players, 1, seed, [bot] * n_players, options, state=state)  # warm-up
    seconds, turns, done = 0.0, 0, 0
    while done < n_games:
        n = min(chunk, n_games - done)
        start = time.perf_counter()
        record = run_games(arrays, n_players, n, seed, [bot] * n_players, options, first_game=done, state=state)
        seconds += time.perf_counter() - start
        turns += int(record.games[:, 2].sum())
        done += n
    return SpeedLine(label, n_players, n_games, seconds, turns)


def engine_speed(cards: str | Path, n_games: int, bot: str = "random", seed: int = 12345, chunk: int = 20_000) -> list[SpeedLine]:
    """games/s on the deck and on its ability-free variant, with 2 and 4 players."""
    deck = load_deck(cards)
    return [
        time_games(d, label, n_players, n_games, bot, seed, chunk)
        for label, d in (("default", deck), ("no abilities", ability_free(deck)))
        for n_players in (2, 4)
    ]


def format_lines(lines: list[SpeedLine]) -> str:
    """An aligned text table of benchmark lines."""
    header = ("deck", "players", "games", "seconds", "games/s", "turns/game")
    rows = [
        (x.deck, str(x.players), f"{x.games:,}", f"{x.seconds:.2f}", f"{x.games_per_second:,.0f}", f"{x.turns_per_game:.1f}")
        for x in lines
    ]
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    out = ["  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(header, widths)))]
    out.append("  ".join("-" * w for w in widths))
    out += ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))) for r in rows]
    return "\n".join(out)


_FIRST_RUN = """
import json, sys, time
t0 = time.perf_counter()
from sim.cards import load_deck
from sim.deck_arrays import compile_deck
from sim.play import run_games
t1 = time.perf_counter()
deck = compile_deck(load_deck(sys.argv[1]))
t2 = time.perf_counter()
run_games(deck, int(sys.argv[3]), 1, seed=0, bots=[sys.argv[2]] * int(sys.argv[3]))
t3 = time.perf_counter()
run_games(deck, int(sys.argv[3]), 1000, seed=1, bots=[sys.argv[2]] * int(sys.argv[3]))
t4 = time.perf_counter()
print(json.dumps({"imports": t1 - t0, "deck": t2 - t1, "first game (compile or cache load)": t3 - t2,
                  "next 1,000 games": t4 - t3}))
"""


def first_run_phases(cards: str | Path, bot: str = "greedy", n_players: int = 4, cold: bool = True) -> dict[str, float]:
    """Seconds per phase of a first run in a fresh Python process: imports, reading the
    deck, the first game (which compiles the engine, or loads it from numba's cache),
    then 1,000 games. With ``cold`` the process gets an empty temporary
    ``NUMBA_CACHE_DIR``, so everything is compiled as on a fresh install.

    Raises
    ------
    subprocess.CalledProcessError
        When the process fails.
    """
    with tempfile.TemporaryDirectory(prefix="numba-cold-") as cache:
        env = {**os.environ, "NUMBA_NUM_THREADS": "1", **({"NUMBA_CACHE_DIR": cache} if cold else {})}
        command = [sys.executable, "-P", "-c", _FIRST_RUN, str(cards), bot, str(n_players)]  # -P: not the cwd's sim/
        out = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def format_phases(phases: dict[str, float]) -> str:
    """One line per phase and the total, in seconds."""
    width = max(map(len, phases))
    lines = [f"{name.ljust(width)}  {seconds:7.2f} s" for name, seconds in phases.items()]
    return "\n".join([*lines, f"{'total'.ljust(width)}  {sum(phases.values()):7.2f} s"])
