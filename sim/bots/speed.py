"""The built-in bots' measured engine speed, and which bot plays as skilled players do.

A table of games/s on one core (``revachol bench --bot B -n 40000`` on the default
deck, 2 and 4 players), the reference of skilled play, and the bots that agree with
it. Bots are named here, in :mod:`sim.bots`, so that nothing outside it names one.
"""

from __future__ import annotations

import math
import os

SKILLED_REFERENCE_BOT = "search"
"""The reference of skilled play (docs/BOTS.md, "The reference of skilled play"): the
skill check's bot by default (:mod:`sim.run.skilled`)."""

MAIN_JOB_BOT = "greedy"
"""The main job's bot in every seat (:mod:`analysis.experiments.main_job`): the
fastest rung whose verdicts the skill check then tests."""

AGREEING_BOTS = (SKILLED_REFERENCE_BOT,)
"""The bot specifications whose card effects and game figures agree with skilled play:
the reference itself, and any bot that closes at least 80% of the ``greedy`` →
``search`` gap on the fresh-seed reference (``benchmarks/skilled_reference.py``). Only a
skill check played by one of them may say that a verdict holds for skilled play
(:mod:`analysis.skill_check`). ``expert`` closes none of it (docs/BOTS.md) and is not here."""

GAMES_PER_SECOND = {  # bot: games/s on one core at (2, 4) players, default deck (`revachol bench --bot B -n 40000`)
    "greedy": (39_216, 40_207),
    "planner": (18_762, 21_096),
    "expert": (13_608, 21_520),
    "search": (2.5, 3.5),  # 0.40 and 0.29 core-s per game: benchmarks/reference/search-{2,4}p-seed52-4000g.csv
}
"""Measured engine speed of the built-in bots, for :func:`sim.run.skilled.by_default`'s estimate of
cost; 3 players take the mean of 2 and 4."""


def speed(bot: str, players: int) -> float | None:
    """Games/s on one core of ``bot`` (a specification, ``NAME[:key=value,...]``) in
    every seat at ``players`` (:data:`GAMES_PER_SECOND`); None for a bot not measured
    (a user's bot, ``random``)."""
    two, four = GAMES_PER_SECOND.get(bot.split(":", 1)[0].strip(), (None, None))
    if two is None:
        return None
    return {2: two, 3: (two + four) / 2, 4: four}[players]


SKILLED_CHUNK = 100
"""Games per chunk of a skilled companion (:mod:`sim.run.skilled`): the unit a stopped
skill check keeps, and the step of its budget."""

SKILL_CHECK_MINUTES = 3.0
"""The skill check's default budget, in minutes of this machine's cores."""


def games_in(minutes: float, players: int, bot: str = SKILLED_REFERENCE_BOT, cores: int | None = None) -> int:
    """The games ``bot`` in every seat plays in ``minutes`` of ``cores`` cores (default
    this machine's), from its measured speed (:func:`speed`), in whole chunks of
    :data:`SKILLED_CHUNK`, at least one chunk.

    Raises
    ------
    ValueError
        For a bot whose speed was not measured: give the games instead.
    """
    rate = speed(bot, players)
    if rate is None:
        raise ValueError(f"the speed of {bot!r} was not measured: give the number of games (--games K), not minutes")
    games = minutes * 60 * (cores or os.cpu_count() or 1) * rate
    return max(SKILLED_CHUNK, SKILLED_CHUNK * math.floor(games / SKILLED_CHUNK))


def minutes_for(games: int, players: int, bot: str = SKILLED_REFERENCE_BOT, cores: int | None = None) -> float | None:
    """The minutes ``games`` games of ``bot`` in every seat take on ``cores`` cores
    (default this machine's), from its measured speed; None for a bot not measured."""
    rate = speed(bot, players)
    return None if rate is None else games / rate / (cores or os.cpu_count() or 1) / 60
