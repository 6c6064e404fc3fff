"""The skilled companion of a run: the same games with a stronger bot in every seat.

Every verdict of the report is about the bots that played the run, by default
``greedy``. The skilled companion replays the run's games (same deals and dice,
:mod:`sim.companion`) on the same deck with :data:`SKILLED_BOT` (``expert``,
:mod:`sim.bots.expert`) in every seat, so that the report can say which verdicts
hold when the players play well (:mod:`analysis.skill_check`).

Layout::

    <run>/skilled/               a normal run directory (:mod:`sim.rundir`)
    <run>/manifest.json          records it under ``companions``:
                                 {"skilled": {"dir": "skilled", "bot": "expert"}}

``revachol run`` plays it by default when it costs no more than the main run
(:func:`by_default`), and otherwise with ``--skill-check``.
"""

from __future__ import annotations

from pathlib import Path

from sim.cards import load_deck
from sim.companion import complete_spec, play_companion
from sim.bots.speed import STRONG_FAST_BOT, speed
from sim.rundir import DECK_COPY, SKILLED_COMPANION

SKILLED_BOT = STRONG_FAST_BOT
"""The bot of every seat of the skilled companion."""


def by_default(bots: list[str], players: int, points_blind: bool) -> bool:
    """Whether ``revachol run`` plays the skilled companion without being asked: when
    its games cost no more than the main run's, the points-blind companion's
    included. A game of the main run costs as much as its slowest seat's bot
    (:func:`sim.bots.speed.speed`); a bot whose speed was not measured turns the default off.

    Parameters
    ----------
    bots : list of str
        The run's bot specifications, one per seat or one for every seat.
    players : int
        2 to 4 (R2.1).
    points_blind : bool
        Whether the run also plays its points-blind companion (:mod:`sim.points_blind`).
    """
    speeds = [speed(bot, players) for bot in bots]
    if None in speeds:
        return False
    return 1 / speed(SKILLED_BOT, players) <= (1 + points_blind) / min(speeds)


def play_skilled(run_dir: str | Path, n_jobs: int = -1, progress: bool | None = None, scheduler: str | None = None,
                 dask_local: int | None = None, bot: str = SKILLED_BOT) -> Path:  # fmt: skip
    """Play (or finish) the skilled companion of a complete run and record it in the
    run's manifest (module docstring).

    ``run_dir`` must be complete; ``n_jobs``, ``progress``, ``scheduler`` and
    ``dask_local`` are :func:`sim.runner.simulate`'s; ``bot`` is the bot specification
    of every seat (default :data:`SKILLED_BOT`). Returns the companion's directory,
    ``<run>/skilled``, complete. Raises :class:`sim.rundir.RunError` as
    :func:`sim.companion.complete_spec` and :func:`sim.companion.play_companion` do.
    """
    run_dir = Path(run_dir)
    spec = complete_spec(run_dir, "skilled companion")
    return play_companion(run_dir, spec, SKILLED_COMPANION, load_deck(run_dir / DECK_COPY), [bot] * spec.n_players,
                          {"bot": bot}, f"{bot.split(':', 1)[0]} games", n_jobs, progress, scheduler, dask_local)  # fmt: skip
