"""The skilled companion of a run: its first games again with a skilled bot in every seat.

Every verdict of the report is about the bots that played the run, by default
``greedy``. The skilled companion replays the run's first ``K`` games (game ``i`` is
the same deal and dice whatever the number of games: common random numbers,
:mod:`sim.rng`, :mod:`sim.run.companion`) on the same deck with :data:`SKILLED_BOT`
(``search``, the reference of skilled play) in every seat, so that the report can say
which verdicts hold when the players play well (:mod:`analysis.skill_check`).

It is played in chunks of :data:`SKILLED_CHUNK` games: Ctrl-C keeps the finished
chunks, the same command continues, and a later, larger ``K`` adds games to the
ones played (``n_games`` may grow on resume, :mod:`sim.run.runner`).

Layout::

    <run>/skilled/               a normal run directory (:mod:`sim.rundir`), K games
    <run>/manifest.json          records it under ``companions``:
                                 {"skilled": {"dir": "skilled", "bot": "search"}}

``revachol run`` plays it unasked only when it costs no more than the main run
(:func:`by_default`), which ``search`` never does beside a fast bot; ``revachol
skill-check RUN`` plays it on a budget of games or minutes
(:func:`sim.bots.speed.games_in`).
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

from sim.cards import load_deck
from sim.run.companion import complete_spec, play_companion
from sim.bots.speed import SKILLED_CHUNK, SKILLED_REFERENCE_BOT, speed
from sim.rundir import DECK_COPY, MANIFEST, SKILLED_COMPANION, RunError, read_manifest

SKILLED_BOT = SKILLED_REFERENCE_BOT
"""The bot of every seat of the skilled companion, by default."""



def by_default(bots: str | Sequence[str], players: int, points_blind: bool, skilled: str = SKILLED_BOT) -> bool:
    """Whether ``revachol run`` plays the skilled companion without being asked: when
    its games cost no more than the main run's, the points-blind companion's
    included. A game of the main run costs as much as its slowest seat's bot
    (:func:`sim.bots.speed.speed`); a bot whose speed was not measured turns the default off.

    Parameters
    ----------
    bots : str or sequence of str
        The run's bot specification for every seat, or one per seat.
    players : int
        2 to 4 (R2.1).
    points_blind : bool
        Whether the run also plays its points-blind companion (:mod:`sim.run.points_blind`).
    skilled : str
        The skilled companion's bot specification.
    """
    bots = [bots] if isinstance(bots, str) else list(bots)
    speeds = [speed(bot, players) for bot in bots]
    if None in speeds or speed(skilled, players) is None or all(bot == skilled for bot in bots):
        return False  # not measured; or the run is the skilled play itself
    return 1 / speed(skilled, players) <= (1 + points_blind) / min(speeds)


def _kept_games(out: Path, bot: str) -> int:
    """The games a skilled companion of ``bot`` already played in ``out`` (0 when there
    is none). One of another bot or chunk size cannot be continued, and a damaged one
    is never trusted: either is removed, and the check asked for now plays afresh."""
    if not (out / MANIFEST).exists():
        return 0
    try:
        manifest = read_manifest(out)
    except RunError:
        manifest = {}
    if manifest.get("bots", [None])[0] == bot and manifest.get("chunk_size") == SKILLED_CHUNK:
        return int(manifest.get("n_games", 0))
    shutil.rmtree(out)
    return 0


def play_skilled(run_dir: str | Path, n_jobs: int = -1, progress: bool | None = None, scheduler: str | None = None,
                 dask_local: int | None = None, bot: str = SKILLED_BOT, games: int | None = None) -> Path:  # fmt: skip
    """Play (or continue) the skilled companion of a complete run, its first ``games``
    games (default all of them), and record it in the run's manifest (module docstring).

    ``run_dir`` must be complete; ``n_jobs``, ``progress``, ``scheduler`` and
    ``dask_local`` are :func:`sim.run.runner.simulate`'s; ``bot`` is the bot specification
    of every seat (default :data:`SKILLED_BOT`). ``games`` above the run's games is
    cut to them; below the games a companion of the same bot already played, it
    leaves them as they are (a companion's games never shrink). A companion of another
    bot is replaced. Returns the companion's directory, ``<run>/skilled``, complete.
    Raises :class:`sim.rundir.RunError` as :func:`sim.run.companion.complete_spec` and
    :func:`sim.run.companion.play_companion` do.
    """
    run_dir = Path(run_dir)
    spec = complete_spec(run_dir, "skilled companion")
    wanted = max(min(games or spec.n_games, spec.n_games), _kept_games(run_dir / SKILLED_COMPANION, bot))
    return play_companion(run_dir, spec, SKILLED_COMPANION, load_deck(run_dir / DECK_COPY), [bot] * spec.n_players,
                          {"bot": bot}, f"{bot.split(':', 1)[0]} games", n_jobs, progress, scheduler, dask_local,
                          n_games=wanted, chunk_size=SKILLED_CHUNK)  # fmt: skip
