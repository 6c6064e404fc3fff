"""The built-in bots' measured engine speed, for choosing what a run can afford.

A table of games/s on one core (``revachol bench --bot B -n 40000`` on the default
deck, 2 and 4 players), and the strongest bot that plays about as fast as the fast
rungs. Bots are named here, in :mod:`sim.bots`, so that nothing outside it names one.
"""

from __future__ import annotations

STRONG_FAST_BOT = "expert"
"""The strongest bot that plays at the fast rungs' speed: the skilled companion's (:mod:`sim.skilled`)."""

GAMES_PER_SECOND = {  # bot: games/s on one core at (2, 4) players, default deck (`revachol bench --bot B -n 40000`)
    "greedy": (39_216, 40_207),
    "planner": (18_762, 21_096),
    "expert": (13_608, 21_520),
    "search": (2.2, 2.2),  # about 0.45 s of a core per 2-player game (docs/BOTS.md); slower at 4 players
}
"""Measured engine speed of the built-in bots, for :func:`sim.skilled.by_default`'s estimate of
cost; 3 players take the mean of 2 and 4."""


def speed(bot: str, players: int) -> float | None:
    """Games/s on one core of ``bot`` (a specification, ``NAME[:key=value,...]``) in
    every seat at ``players`` (:data:`GAMES_PER_SECOND`); None for a bot not measured
    (a user's bot, ``random``)."""
    two, four = GAMES_PER_SECOND.get(bot.split(":", 1)[0].strip(), (None, None))
    if two is None:
        return None
    return {2: two, 3: (two + four) / 2, 4: four}[players]
