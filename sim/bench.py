"""Engine speed: games per second on one core (``revachol bench`` and
``benchmarks/engine_speed.py``). A measurement, not a test.

Each line plays ``n_games`` games with one bot in every seat, in chunks that reuse
one state, timed with ``time.perf_counter`` after a warm-up call that compiles or
loads the engine from numba's cache. The process is pinned to one CPU where the
platform allows.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from sim.cards import Deck, load_deck
from sim.deck_arrays import compile_deck
from sim.engine import run_games
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
