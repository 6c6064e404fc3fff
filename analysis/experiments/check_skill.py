"""``revachol skill-check RUN``: the run's first games again with a skilled bot in
every seat, and the report rebuilt with the skill check (:mod:`analysis.skill_check`).

The skilled bot is ``search`` by default, the reference of skilled play
(:data:`sim.bots.speed.SKILLED_REFERENCE_BOT`). It costs about a third of a second
of a core per game, so the check plays the run's first ``K`` games only (game ``i``
is the same deal and dice whatever ``K``: common random numbers), ``K`` given as
games or as minutes of this machine's cores (:func:`sim.bots.speed.games_in`). The
games are played in chunks of 100 (:mod:`sim.run.skilled`): Ctrl-C keeps them, the same
command continues, and a larger ``K`` later adds games to them.

Until settled (``--until-settled``, :func:`play_until_settled`), ``K`` grows in rounds
and the check stops when every measure's change (skilled − main) is surely beyond its
threshold or surely within it (its anytime-valid interval,
:func:`analysis.skill_check.difference_sequence`), or at the cap: the games or minutes
given, by default :data:`SETTLED_MINUTES`, never more than the run's games. A round
is a tenth of the cap (:data:`ROUNDS`), in whole chunks: with the default cap, the
plain check's budget (:data:`sim.bots.speed.SKILL_CHECK_MINUTES`), so that a check
already played is the first round. Fixed rounds rather than doubling ones: the
interval is valid at every look, so looking more often costs no width, only a look
(the companion's tables, seconds beside a round of minutes), while a doubling round
may play up to as many games again as were needed; fixed rounds overshoot by less
than one round. The rule and where it stopped are recorded in the companion's
manifest under :data:`analysis.skill_check.SETTLED_KEY`
(:func:`analysis.experiments.until_settled.settle_rule`, ``settle``, ``recorder``):
a rerun, or a larger cap, continues under the same boundary.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from analysis.data.runs import Run
from analysis.experiments.until_settled import Stopping, recorder, settle, settle_rule
from analysis.report.page import build_report
from analysis.report.writer import WrittenReport
from analysis.settled import DEFAULT_ALPHA, settled_state
from analysis.skill_check import SETTLED_KEY, compare_measures, measures, tables
from analysis.thresholds import DEFAULT_THRESHOLD_PP
from sim.bots.speed import SKILL_CHECK_MINUTES, SKILLED_CHUNK, SKILLED_REFERENCE_BOT, games_in
from sim.rundir import MANIFEST, SKILLED_COMPANION, RunError, read_manifest
from sim.rundir.lock import job_locked

SETTLED_MINUTES = 10 * SKILL_CHECK_MINUTES
"""The most a check played until settled plays by default, in minutes of this
machine's cores: half an hour (on 2 cores about 12,600 games of ``search`` at 4
players), ten rounds of the plain check's budget."""
ROUNDS = 10
"""A check played until settled plays its cap in rounds of a tenth of it (module docstring)."""
DIFFERENCE = ("skilled estimate's confidence sequence at alpha/2 minus the main run's fixed interval at alpha/2: "
              "[low_s - high_m, high_s - low_m] (union bound)")  # fmt: skip
"""How the rule's interval of a change is built, as the manifest records it."""


@dataclass(frozen=True)
class SkillCheck:
    """A skill check played: its runs, the skilled games each played, the report,
    and, played until settled, where each run's check stopped."""

    runs: tuple[Path, ...]  # the run directories checked
    games: tuple[int, ...]  # skilled games of each, in the order of ``runs``
    report: WrittenReport  # the report rebuilt with the check
    stopping: tuple[Stopping, ...] = ()  # until settled: each run's, in the order of ``runs``


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
                scheduler: str | None = None, dask_local: int | None = None,
                until_settled: bool = False) -> SkillCheck:  # fmt: skip
    """Play the skill check of ``run`` and rebuild its report (module docstring).

    Parameters
    ----------
    run : path
        A complete run directory, or the folder of a ``revachol run`` of several
        player counts (:func:`run_dirs`).
    games, minutes
        The skilled games per run, given as games or as minutes of this machine's
        cores; neither: :data:`sim.bots.speed.SKILL_CHECK_MINUTES` minutes
        (:data:`SETTLED_MINUTES` until settled). Never more than the run's games.
        Until settled, the most games per run.
    bot : str
        The bot specification of every seat (default ``search``).
    n_jobs, progress, scheduler, dask_local
        As :func:`sim.run.runner.simulate`.
    until_settled : bool
        Play each run's check in rounds until every measure's change is settled, or
        at the most games (:func:`play_until_settled`).

    Returns
    -------
    SkillCheck

    Raises
    ------
    ValueError
        For minutes with a bot whose speed was not measured.
    sim.rundir.RunError, sim.run.runner.RunStopped
        As :func:`sim.run.skilled.play_skilled`.
    sim.rundir.lock.LockedError
        When another job (``revachol run`` or ``skill-check``) holds the run.
    """
    from sim.run.skilled import play_skilled  # the engine: only to play

    dirs = run_dirs(run)
    how = dict(n_jobs=n_jobs, progress=progress, scheduler=scheduler, dask_local=dask_local)
    played, stops = [], []
    with job_locked(Path(run)):  # the skilled games and the report: one job at a time (revachol run's lock)
        for path in dirs:
            players = int(read_manifest(path)["n_players"])
            budget = SETTLED_MINUTES if until_settled else SKILL_CHECK_MINUTES
            wanted = games if games is not None else games_in(minutes or budget, players, bot)
            if until_settled:
                stops.append(play_until_settled(path, wanted, bot, **how))
            else:
                play_skilled(path, bot=bot, games=wanted, **how)
            played.append(int(read_manifest(path / SKILLED_COMPANION)["n_games"]))
        report = build_report(dirs, out=Path(run) / "report", progress=progress, scheduler=scheduler,
                              dask_local=dask_local, workers=n_jobs if n_jobs > 0 else None)  # fmt: skip
    return SkillCheck(tuple(dirs), tuple(played), report, tuple(stops))


def play_until_settled(run_dir: Path, most: int, bot: str, **how) -> Stopping:
    """Play the skilled companion of the complete run in ``run_dir`` in rounds until
    every measure's change is settled, or ``most`` games (module docstring).

    The main run is measured once (it does not change); after each round the
    companion is, and each change gets its anytime-valid interval and state
    (:func:`analysis.skill_check.compare_measures` with the rule). A companion of
    another bot is replaced by the first round; one of the same bot that holds more
    games than ``most`` is looked at once, as it is.

    Parameters
    ----------
    run_dir : Path
        A complete run directory.
    most : int
        The most skilled games; never more than the run's.
    bot : str
        The bot specification of every seat.
    **how
        ``n_jobs``, ``progress``, ``scheduler``, ``dask_local``, as :func:`sim.run.skilled.play_skilled`.

    Returns
    -------
    Stopping
        Its ``sequences`` are the last look's :func:`analysis.skill_check.compare_measures`
        rows, ``state`` in :func:`analysis.settled.settled_state`'s words.

    Raises
    ------
    sim.rundir.RunError, sim.run.runner.RunStopped
        As :func:`sim.run.skilled.play_skilled`; the rounds played are kept and recorded.
    """
    from sim.run.skilled import play_skilled  # the engine: only to play

    most = min(most, int(read_manifest(run_dir)["n_games"]))
    round_games = min(most, SKILLED_CHUNK * max(1, most // SKILLED_CHUNK // ROUNDS))
    companion = play_skilled(run_dir, bot=bot, games=round_games, **how)  # another bot's companion is replaced here
    kept = int(read_manifest(companion)["n_games"])
    most = max(most, kept)  # a companion's games never shrink
    rule, _ = settle_rule(companion, most, DEFAULT_ALPHA, DEFAULT_THRESHOLD_PP, SETTLED_KEY)
    rule["difference"] = DIFFERENCE
    main = Run.open(run_dir)
    main_measures = measures(tables([main]))

    def look(_games: int):
        skilled = measures(tables([Run.open(companion)])).assign(run=main.name)
        rows = compare_measures(main_measures, skilled, {main.name: bot}, {main.name: rule})
        return rows.assign(state=settled_state(rows["difference_low"], rows["difference_high"], rows["threshold"]))

    return settle(lambda n: play_skilled(run_dir, bot=bot, games=n, **how), look, kept, most, round_games,
                  record=recorder([companion], rule, SETTLED_KEY))  # fmt: skip
