"""The main job, ``revachol run``, as a function a notebook calls: the games, their
companions and the balance report.

For each player count: the run's games (``n_games``, or in rounds until its verdicts
are settled, :mod:`analysis.experiments.until_settled`), then the points-blind
companion (every task paying alike, :mod:`sim.run.points_blind`) and, when asked or when
it costs no more than the run with that companion (:func:`sim.run.skilled.by_default`),
the skilled companion (:mod:`sim.run.skilled`); then one report over them all
(:func:`analysis.report.page.build_report`). The command line only parses its options,
calls :func:`main_job` and prints the result (``cli.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from analysis.experiments.until_settled import Stopping, play_until_settled
from analysis.defaults import MAIN_JOB_GAMES, MAIN_JOB_ROUND
from analysis.report.page import build_report
from analysis.report.writer import WrittenReport
from analysis.settled import DEFAULT_BORDERLINE_PP
from analysis.thresholds import DEFAULT_THRESHOLD_PP
from sim.bots.speed import MAIN_JOB_BOT, SKILL_CHECK_MINUTES, games_in
from sim.cards import Deck, load_deck
from sim.rundir.lock import job_locked



@dataclass(frozen=True)
class MainJob:
    """The main job played: its run directories (one per player count), the games of
    each, the companions played beside them, where a run played until settled stopped,
    and the report."""

    runs: tuple[Path, ...]
    games: int  # games per player count
    points_blind: bool  # whether each run has its points-blind companion
    skilled: tuple[int, ...]  # the player counts whose run has its skilled companion
    stopping: Stopping | None  # until settled: where the run stopped; None for a fixed run
    report: WrittenReport


def main_job(cards: str | Path, n_games: int = MAIN_JOB_GAMES, players: Sequence[int] = (4,),
             bots: str | Sequence[str] = MAIN_JOB_BOT, seed: int = 0, runs: str | Path = "runs", name: str | None = None,
             n_jobs: int = -1, progress: bool | None = None, threshold_pp: float = DEFAULT_THRESHOLD_PP,
             points_blind: bool = True, skill_check: bool | None = None, max_games: int | None = None,
             borderline_pp: float = DEFAULT_BORDERLINE_PP, round_games: int = MAIN_JOB_ROUND, debug: bool = False,
             stall_timeout: float | None = None, deck: Deck | None = None) -> MainJob:  # fmt: skip
    """Play the main job and write its report (module docstring); the same command
    continues an interrupted job and rebuilds its report.

    Parameters
    ----------
    cards : path
        The card file.
    n_games : int
        Games at each player count (a fixed run).
    players : sequence of int
        Player counts, 2 to 4 (R2.1), played on the same seeds and reported side by side.
    bots : str or sequence of str
        One bot specification for every seat, or one per seat (:mod:`sim.bots.spec`).
    seed : int
        The root seed.
    runs, name : path, str
        The folder of the run directories, and the job's directory in it (default
        :func:`sim.run.runner.run_name`'s, from the deck, its hash, players, bots, games
        and seed); several player counts go to ``NAME/2p``, ``NAME/3p`` …
    n_jobs, progress, stall_timeout
        As :func:`sim.run.runner.simulate` (``stall_timeout`` None: its default).
    threshold_pp : float
        The practical threshold of an ally's effect and the first player's edge, pp.
    points_blind : bool
        Play the points-blind companion of each run.
    skill_check : bool, optional
        Play the skilled companion (the run's first games in the skill check's budget,
        :data:`sim.bots.speed.SKILL_CHECK_MINUTES` of this machine's cores); None: only
        when it costs no more than the run with its points-blind companion.
    max_games : int, optional
        Play the run until its verdicts are settled, at most this many games, in rounds
        of ``round_games`` with the borderline band ``borderline_pp``
        (:func:`analysis.experiments.until_settled.play_until_settled`); one player
        count only. ``n_games`` is then unused.
    debug : bool
        Check the zones after every turn (the rules' debug mode).
    deck : Deck, optional
        ``cards`` already loaded and validated (:func:`sim.cards.load_deck`).

    Returns
    -------
    MainJob

    Raises
    ------
    ValueError
        For ``max_games`` with several player counts, or as the functions above.
    sim.cards.DeckError
        For a card file that does not validate.
    sim.rundir.RunError, sim.run.runner.RunStopped, sim.rundir.lock.LockedError
        As :func:`sim.run.runner.simulate`, and when another job holds the directory.
    """
    from sim.options import RuleOptions
    from sim.run.points_blind import play_points_blind
    from sim.run.runner import run_name, simulate
    from sim.run.skilled import by_default, play_skilled

    if max_games is not None and len(players) > 1:
        raise ValueError("a run played until settled takes one player count")
    deck = deck if deck is not None else load_deck(cards)
    settled = max_games is not None
    base = name or run_name(cards, deck, None if settled else n_games, seed, players=",".join(map(str, players)),
                            bots=bots, kind="settled" if settled else "")  # fmt: skip
    outs = [Path(runs) / base] if len(players) == 1 else [Path(runs) / base / f"{n}p" for n in players]
    skilled = {n: by_default(bots, n, points_blind) if skill_check is None else skill_check for n in players}
    options, stopping, games = RuleOptions(debug=debug), None, n_games
    how = dict(progress=progress, **({} if stall_timeout is None else {"stall_timeout": stall_timeout}))
    with job_locked(Path(runs) / base):  # the games, the companions and the report: one job at a time
        for n, out in zip(players, outs):
            if settled:
                stopping = play_until_settled(deck, out, n, bots, seed, n_jobs, max_games, round_games,
                                              threshold_pp=threshold_pp, borderline_pp=borderline_pp, options=options,
                                              cards_file=cards, **how)  # fmt: skip
                games = stopping.games
            else:
                simulate(deck, n_games, out, n, bots, seed, n_jobs, options, resume=(out / "manifest.json").exists(),
                         cards_file=cards, **how)  # fmt: skip
            if points_blind:
                play_points_blind(out, n_jobs, progress=progress)
            if skilled[n]:
                play_skilled(out, n_jobs, progress=progress, games=games_in(SKILL_CHECK_MINUTES, n))
        report = build_report(outs, out=Path(runs) / base / "report", threshold_pp=threshold_pp,
                              workers=n_jobs if n_jobs > 0 else None)  # fmt: skip
    return MainJob(tuple(outs), games, points_blind, tuple(n for n in players if skilled[n]), stopping, report)
