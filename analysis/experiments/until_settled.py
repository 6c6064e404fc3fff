"""A run played in rounds until its verdicts are settled (``revachol run --until-settled``).

The run plays ``round_games`` games at a time (whole chunks of
:func:`sim.runner.simulate`, its ``n_games`` raised on resume each round: game ``i``
is the same game whatever the run's size) and after each round asks
:mod:`analysis.settled` whether every verdict's confidence sequence is decisive. It
stops when they all are, or at ``max_games``. The manifest's ``until_settled``
records the rule (threshold, alpha, the boundary and its ``ρ``), the games and
rounds played, and why the run stopped (``settled`` or ``max-games``); resuming
with ``max_games`` raised continues the same games under the same boundary.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from analysis.settled import DEFAULT_ALPHA, NOT_SETTLED, all_settled, run_sequences
from analysis.stats.sequential import mixture_rho
from analysis.thresholds import DEFAULT_THRESHOLD_PP
from sim.rundir import MANIFEST, read_manifest, record_in_manifest

KEY = "until_settled"
"""The manifest's key of the rule and where the run stopped."""
BOUNDARY = ("two-sided normal mixture (Howard et al. 2021, eq. 14), asymptotic confidence sequence "
            "(Waudby-Smith et al. 2024, Thm 2.2), optimised at max_games / 2")  # fmt: skip
ROUND_CHUNK = 25_000
"""Games per chunk of a settled run (:data:`sim.runner.DEFAULT_CHUNK`), or the round's when smaller."""


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


def round_plan(max_games: int, round_games: int) -> int:
    """The chunk size of a run played in rounds of ``round_games`` games.

    Raises
    ------
    ValueError
        In one line, when ``round_games`` is below 1, ``max_games`` below it, or the
        round not a whole number of chunks of :data:`ROUND_CHUNK` games.
    """
    if round_games < 1 or max_games < round_games:
        raise ValueError(f"--max-games ({max_games:,}) must be at least the round's games (--round-games, "
                         f"{round_games:,}), which must be at least 1")  # fmt: skip
    chunk = min(ROUND_CHUNK, round_games)
    if round_games % chunk:
        raise ValueError(f"--round-games ({round_games:,}) must be a multiple of {chunk:,} (whole chunks)")
    return chunk


def _rule(out: Path, max_games: int, alpha: float, threshold_pp: float) -> tuple[dict, int]:
    """(the rule, games already played): a resumed run's recorded rule, or a new one
    (a new run, or one never looked at under a rule, e.g. stopped in its first round).

    Raises
    ------
    ValueError
        When the run's recorded threshold or alpha differ (its sequences would not
        be the ones watched so far).
    """
    manifest = read_manifest(out) if (out / MANIFEST).exists() else {}
    rule = manifest.get(KEY)
    if not isinstance(rule, dict):
        return {"threshold_pp": threshold_pp, "alpha": alpha, "boundary": BOUNDARY,
                "rho_games": mixture_rho(max_games / 2, alpha), "optimised_at_games": max_games / 2}, \
            int(manifest.get("n_games", 0))  # fmt: skip
    if (rule["threshold_pp"], rule["alpha"]) != (threshold_pp, alpha):
        raise ValueError(f"{out} was played until settled with threshold {rule['threshold_pp']} pp and alpha "
                         f"{rule['alpha']}; resume it with the same")  # fmt: skip
    return {k: rule[k] for k in ("threshold_pp", "alpha", "boundary", "rho_games", "optimised_at_games")}, \
        int(manifest["n_games"])


def _record(out: Path, rule: dict, stopping: dict) -> None:
    """Write the rule and the stopping state into the run's manifest."""
    record_in_manifest(out, KEY, lambda _: {**rule, **stopping})


def play_until_settled(deck, out: str | Path, players: int, bots, seed: int, n_jobs: int, max_games: int,
                       round_games: int, *, threshold_pp: float = DEFAULT_THRESHOLD_PP, alpha: float = DEFAULT_ALPHA,
                       options=None, cards_file=None, progress: bool | None = None,
                       stall_timeout: float | None = None) -> Stopping:  # fmt: skip
    """Play the run in ``out`` in rounds until every verdict is settled or
    ``max_games`` games are played (module docstring); resume it when ``out``
    holds one.

    Parameters
    ----------
    deck, players, bots, seed, n_jobs, options, cards_file, progress, stall_timeout
        As :func:`sim.runner.simulate`.
    max_games, round_games : int
        Games at most, and per round (whole chunks, :func:`round_plan`).
    threshold_pp : float
        The practical threshold of every verdict, pp.
    alpha : float
        Each confidence sequence's error rate.

    Returns
    -------
    Stopping

    Raises
    ------
    ValueError
        As :func:`round_plan`, for a run in ``out`` recorded with another threshold
        or alpha, or when ``max_games`` is below the games it holds.
    sim.rundir.RunError, sim.runner.RunStopped
        As :func:`sim.runner.simulate` (a resumed run with another round size has
        another chunk size, and is refused there).
    """
    from sim.runner import simulate  # the engine: only to play

    out = Path(out)
    chunk = round_plan(max_games, round_games)
    rule, games = _rule(out, max_games, alpha, threshold_pp)
    if games > max_games:
        raise ValueError(f"{out} holds {games:,} games, more than --max-games {max_games:,}")
    how = dict(n_jobs=n_jobs, chunk_size=chunk, progress=progress, cards_file=cards_file)
    how.update({k: v for k, v in (("options", options), ("stall_timeout", stall_timeout)) if v is not None})
    games, rounds = games or round_games, 0  # a new run's first round, or a resumed run's games (torn chunks replayed)
    while True:
        simulate(deck, games, out, players, bots, seed, resume=(out / MANIFEST).exists(), **how)
        sequences = run_sequences(out, games, rule["rho_games"], alpha, threshold_pp)
        rounds += 1
        if all_settled(sequences) or games >= max_games:
            break
        _record(out, rule, {"games": games, "max_games": max_games, "rounds": rounds, "stopped": None})
        games = min(games + round_games, max_games)
    stopping = Stopping(games, max_games, rounds, "settled" if all_settled(sequences) else "max-games", sequences)
    _record(out, rule, {"games": games, "max_games": max_games, "rounds": rounds, "stopped": stopping.reason,
                        "not_settled": stopping.unsettled})  # fmt: skip
    return stopping
