"""``revachol skill-check RUN``: the run's first games again with a skilled bot in
every seat, and the report rebuilt with the skill check (:mod:`analysis.skill_check`).

The skilled bot is ``search`` by default, the reference of skilled play
(:data:`sim.bots.speed.SKILLED_REFERENCE_BOT`). It costs about a third of a second
of a core per game, so the check plays the run's first ``K`` games only (game ``i``
is the same deal and dice whatever ``K``: common random numbers), ``K`` given as
games or as minutes of this machine's cores (:func:`sim.bots.speed.games_in`). The
games are played in chunks of 100 (:mod:`sim.skilled`): Ctrl-C keeps them, the same
command continues, and a larger ``K`` later adds games to them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from analysis.report.page import build_report
from analysis.report.writer import WrittenReport
from sim.bots.speed import SKILL_CHECK_MINUTES, SKILLED_REFERENCE_BOT, games_in
from sim.rundir import MANIFEST, RunError, read_manifest
from sim.rundir.lock import job_locked


@dataclass(frozen=True)
class SkillCheck:
    """A skill check played: its runs, the skilled games each played, and the report."""

    runs: tuple[Path, ...]  # the run directories checked
    games: tuple[int, ...]  # skilled games of each, in the order of ``runs``
    report: WrittenReport  # the report rebuilt with the check


def games_per_deck(players: int, bot: str = SKILLED_REFERENCE_BOT, decks: int = 2, most: int | None = None) -> int:
    """The skilled games each of ``decks`` decks plays when they share the skill
    check's default budget (:data:`sim.bots.speed.SKILL_CHECK_MINUTES` of this
    machine's cores, from ``bot``'s measured speed: :func:`sim.bots.speed.games_in`),
    never more than ``most`` games; ``most`` for a bot whose speed was not measured
    (``compare --skill-check``, ``advise --skill-check``).

    Raises
    ------
    ValueError
        For a bot whose speed was not measured and no ``most``.
    """
    try:
        games = games_in(SKILL_CHECK_MINUTES / decks, players, bot)
    except ValueError:
        if most is None:
            raise
        return most
    return games if most is None else min(games, most)


def run_dirs(run: str | Path) -> list[Path]:
    """The run directories under ``run``: itself, or for a ``revachol run`` of several
    player counts, its ``2p``, ``3p`` … runs.

    Raises
    ------
    sim.rundir.RunError
        When ``run`` holds no run.
    """
    run = Path(run)
    if (run / MANIFEST).is_file():
        return [run]
    found = sorted(path.parent for path in run.glob(f"*p/{MANIFEST}") if path.is_file())
    if not found:
        raise RunError(f"{run}: no run here (no {MANIFEST}, nor runs of several player counts in it)")
    return found


def check_skill(run: str | Path, games: int | None = None, minutes: float | None = None,
                bot: str = SKILLED_REFERENCE_BOT, n_jobs: int = -1, progress: bool | None = None,
                scheduler: str | None = None, dask_local: int | None = None) -> SkillCheck:  # fmt: skip
    """Play the skill check of ``run`` and rebuild its report (module docstring).

    Parameters
    ----------
    run : path
        A complete run directory, or the folder of a ``revachol run`` of several
        player counts (:func:`run_dirs`).
    games, minutes
        The skilled games per run, given as games or as minutes of this machine's
        cores; neither: :data:`sim.bots.speed.SKILL_CHECK_MINUTES` minutes. Never
        more than the run's games.
    bot : str
        The bot specification of every seat (default ``search``).
    n_jobs, progress, scheduler, dask_local
        As :func:`sim.runner.simulate`.

    Returns
    -------
    SkillCheck

    Raises
    ------
    ValueError
        For minutes with a bot whose speed was not measured.
    sim.rundir.RunError, sim.runner.RunStopped
        As :func:`sim.skilled.play_skilled`.
    sim.rundir.lock.LockedError
        When another job (``revachol run`` or ``skill-check``) holds the run.
    """
    from sim.skilled import play_skilled  # the engine: only to play

    dirs = run_dirs(run)
    played = []
    with job_locked(Path(run)):  # the skilled games and the report: one job at a time (revachol run's lock)
        for path in dirs:
            players = int(read_manifest(path)["n_players"])
            wanted = games if games is not None else games_in(minutes or SKILL_CHECK_MINUTES, players, bot)
            companion = play_skilled(path, n_jobs, progress, scheduler, dask_local, bot=bot, games=wanted)
            played.append(int(read_manifest(companion)["n_games"]))
        report = build_report(dirs, out=Path(run) / "report", progress=progress, scheduler=scheduler,
                              dask_local=dask_local, workers=n_jobs if n_jobs > 0 else None)  # fmt: skip
    return SkillCheck(tuple(dirs), tuple(played), report)
