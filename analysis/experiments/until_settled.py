"""A run played in rounds until its verdicts are settled (``revachol run --until-settled``).

The run plays ``round_games`` games at a time (whole chunks of
:func:`sim.run.runner.simulate`, its ``n_games`` raised on resume each round: game ``i``
is the same game whatever the run's size) and after each round asks
:mod:`analysis.settled` whether every verdict's confidence sequence is decisive. It
stops when they all are, or at ``max_games``. The manifest's ``until_settled``
records the rule (threshold, alpha, the boundary and its ``ρ``), the games and
rounds played, and why the run stopped (``settled`` or ``max-games``); resuming
with ``max_games`` raised continues the same games under the same boundary.

The rounds (:func:`settle`) and the rule (:func:`settle_rule`, :func:`recorder`) are
also those of ``compare --until-settled``
(:func:`analysis.experiments.compare.run_comparison`) and of the advisor's screen
(:func:`analysis.experiments.advise_rounds.screened_in_rounds`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from analysis.settled import BORDERLINE, DEFAULT_ALPHA, DEFAULT_BORDERLINE_PP, NOT_SETTLED, all_settled, run_sequences
from analysis.stats.sequential import mixture_rho
from analysis.thresholds import DEFAULT_THRESHOLD_PP
from sim.rundir import MANIFEST, read_manifest, record_in_manifest

KEY = "until_settled"
"""The manifest's key of the rule and where the run stopped."""
BOUNDARY = ("two-sided normal mixture (Howard et al. 2021, eq. 14), asymptotic confidence sequence "
            "(Waudby-Smith et al. 2024, Thm 2.2), optimised at max_games / 2")  # fmt: skip
ROUND_CHUNK = 25_000
"""Games per chunk of a settled run (:data:`sim.run.DEFAULT_CHUNK`), or the round's when smaller."""


@dataclass(frozen=True)
class Stopping:
    """Where a run played until settled stopped: ``games`` played of ``max_games``,
    ``rounds`` checked, ``reason`` (``settled`` or ``max-games``) and the last
    round's :func:`analysis.settled.verdict_sequences`."""

    games: int
    max_games: int
    rounds: int
    reason: str
    sequences: pd.DataFrame

    @property
    def unsettled(self) -> list[str]:
        """The subjects whose verdict is not settled."""
        return list(self.sequences.loc[self.sequences["state"] == NOT_SETTLED, "subject"])

    @property
    def borderline(self) -> list[str]:
        """The subjects settled at the threshold (:data:`analysis.settled.BORDERLINE`)."""
        return list(self.sequences.loc[self.sequences["state"] == BORDERLINE, "subject"])


ROUNDS_OF_ADVISE = 10
"""``advise --until-settled`` plays its decks in rounds of a tenth of ``--games`` by
default: on the default deck, rounds of 5,000 of 50,000 games played 10.6 million
games for the same proposal where rounds of 10,000 played 11.2 million
(docs/EXPERIMENTS.md)."""


def default_round(max_games: int, rounds: int = ROUNDS_OF_ADVISE) -> int:
    """Games per round when none is given: ``max_games / rounds`` (at least 1), rounded
    down to whole chunks of :data:`ROUND_CHUNK` when larger, so that :func:`round_plan`
    accepts it whatever ``max_games``."""
    games = max(1, max_games // rounds)
    return games if games <= ROUND_CHUNK else games - games % ROUND_CHUNK


def round_plan(max_games: int, round_games: int, most: str = "--max-games") -> int:
    """The chunk size of a run played in rounds of ``round_games`` games; ``most`` is
    the option that gave ``max_games``, as the error names it.

    Raises
    ------
    ValueError
        In one line, when ``round_games`` is below 1, ``max_games`` below it, or the
        round not a whole number of chunks of :data:`ROUND_CHUNK` games.
    """
    if round_games < 1 or max_games < round_games:
        raise ValueError(f"{most} ({max_games:,}) must be at least the round's games (--round-games, "
                         f"{round_games:,}), which must be at least 1")  # fmt: skip
    chunk = min(ROUND_CHUNK, round_games)
    if round_games % chunk:
        raise ValueError(f"--round-games ({round_games:,}) must be a multiple of {chunk:,} (whole chunks)")
    return chunk


def settle_rule(out: Path, max_games: int, alpha: float, threshold_pp: float, key: str = KEY,
                borderline_pp: float = 0.0) -> tuple[dict, int]:  # fmt: skip
    """(the rule, games already played): the rule recorded under ``key`` in the
    manifest of the run in ``out`` when it is being resumed, or a new one (a new run,
    or one never looked at under a rule, e.g. stopped in its first round) whose
    boundary is tightest at ``max_games / 2`` games
    (:func:`analysis.stats.sequential.mixture_rho`), with the borderline band
    ``borderline_pp`` (:mod:`analysis.settled`; a resumed run may take another: the
    confidence sequences hold at every look whatever the rule that reads them).

    Raises
    ------
    ValueError
        When the run's recorded threshold or alpha differ (its sequences would not
        be the ones watched so far), or it holds more than ``max_games`` games.
    """
    manifest = read_manifest(out) if (out / MANIFEST).exists() else {}
    rule, games = manifest.get(key), int(manifest.get("n_games", 0))
    if games > max_games:
        raise ValueError(f"{out} holds {games:,} games, more than --max-games {max_games:,}")
    if not isinstance(rule, dict):
        return {"threshold_pp": threshold_pp, "alpha": alpha, "boundary": BOUNDARY,
                "rho_games": mixture_rho(max_games / 2, alpha), "optimised_at_games": max_games / 2,
                "borderline_pp": borderline_pp}, games  # fmt: skip
    if (rule["threshold_pp"], rule["alpha"]) != (threshold_pp, alpha):
        raise ValueError(f"{out} was played until settled with threshold {rule['threshold_pp']} pp and alpha "
                         f"{rule['alpha']}; resume it with the same")  # fmt: skip
    kept = {k: rule[k] for k in ("threshold_pp", "alpha", "boundary", "rho_games", "optimised_at_games")}
    return {**kept, "borderline_pp": borderline_pp}, games


def recorder(outs, rule: dict, key: str = KEY) -> Callable[[dict], None]:
    """What :func:`settle` calls to record the rule and the stopping state under
    ``key`` in the manifest of every run in ``outs``."""
    def record(stopping: dict) -> None:
        for out in outs:
            record_in_manifest(out, key, lambda _: {**rule, **stopping})

    return record


def settle(play: Callable[[int], None], look: Callable[[int], pd.DataFrame], games: int, max_games: int,
           round_games: int, *, done: Callable[[pd.DataFrame], bool] = all_settled,
           record: Callable[[dict], None] = lambda _: None) -> Stopping:  # fmt: skip
    """The rounds: ``play(games)`` (bring the runs to that many games), then
    ``look(games)`` (:func:`analysis.settled.with_sequences` rows), until
    ``done(rows)`` or ``max_games``, raising the games by ``round_games`` each round.

    Parameters
    ----------
    play, look : callable
        Given the games the runs must hold now.
    games : int
        The first round's games: what the runs hold (resumed), or ``round_games``.
    max_games, round_games : int
        Games at most, and per round.
    done : callable
        Whether to stop: by default when every row is settled (:func:`analysis.settled.all_settled`).
    record : callable
        Given the stopping state after every round (``games``, ``max_games``,
        ``rounds``, ``stopped``: None until the last, then ``settled`` or
        ``max-games``, and then ``not_settled`` and ``borderline``), e.g. :func:`recorder`.

    Returns
    -------
    Stopping
        ``reason`` ``settled`` when ``done`` stopped the rounds.
    """
    rounds = 0
    while True:
        play(games)
        sequences = look(games)
        rounds += 1
        if done(sequences) or games >= max_games:
            break
        record({"games": games, "max_games": max_games, "rounds": rounds, "stopped": None})
        games = min(games + round_games, max_games)
    stopping = Stopping(games, max_games, rounds, "settled" if done(sequences) else "max-games", sequences)
    record({"games": games, "max_games": max_games, "rounds": rounds, "stopped": stopping.reason,
            "not_settled": stopping.unsettled, "borderline": stopping.borderline})  # fmt: skip
    return stopping


def play_until_settled(deck, out: str | Path, players: int, bots, seed: int, n_jobs: int, max_games: int,
                       round_games: int, *, threshold_pp: float = DEFAULT_THRESHOLD_PP, alpha: float = DEFAULT_ALPHA,
                       borderline_pp: float = DEFAULT_BORDERLINE_PP, options=None, cards_file=None, progress: bool | None = None,
                       stall_timeout: float | None = None) -> Stopping:  # fmt: skip
    """Play the run in ``out`` in rounds until every verdict is settled or
    ``max_games`` games are played (module docstring); resume it when ``out``
    holds one.

    Parameters
    ----------
    deck, players, bots, seed, n_jobs, options, cards_file, progress, stall_timeout
        As :func:`sim.run.runner.simulate`.
    max_games, round_games : int
        Games at most, and per round (whole chunks, :func:`round_plan`).
    threshold_pp : float
        The practical threshold of every verdict, pp.
    alpha : float
        Each confidence sequence's error rate.
    borderline_pp : float
        The borderline band around the threshold, pp (:mod:`analysis.settled`): a
        verdict whose sequence lies wholly within it is settled at the threshold.

    Returns
    -------
    Stopping

    Raises
    ------
    ValueError
        As :func:`round_plan`, for a run in ``out`` recorded with another threshold
        or alpha, or when ``max_games`` is below the games it holds.
    sim.rundir.RunError, sim.run.runner.RunStopped
        As :func:`sim.run.runner.simulate` (a resumed run with another round size has
        another chunk size, and is refused there).
    """
    from sim.run.runner import simulate  # the engine: only to play

    out = Path(out)
    chunk = round_plan(max_games, round_games)
    rule, games = settle_rule(out, max_games, alpha, threshold_pp, borderline_pp=borderline_pp)
    how = dict(n_jobs=n_jobs, chunk_size=chunk, progress=progress, cards_file=cards_file)
    how.update({k: v for k, v in (("options", options), ("stall_timeout", stall_timeout)) if v is not None})
    # the first round: a new run's round_games, or a resumed run's games (torn chunks replayed)
    return settle(lambda n: simulate(deck, n, out, players, bots, seed, resume=(out / MANIFEST).exists(), **how),
                  lambda n: run_sequences(out, n, rule["rho_games"], alpha, threshold_pp, borderline_pp),
                  games or round_games, max_games, round_games, record=recorder([out], rule))  # fmt: skip
