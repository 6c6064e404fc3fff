"""Game length: turns and rounds per game, how games end, and survival curves.

Source columns: the ``games`` table (:mod:`sim.record`): ``turns`` (stuck turns
included), ``rounds`` (``ceil(turns / players)``), ``stalled``, ``truncated``,
``first_event_turn`` (0 when the game had no morale-loss event).

Every game counts here, however it ended; stalled and truncated games (RULES R4
Reading) are counted apart in :func:`game_endings`. In the survival curves a
truncated game is *censored* at the turn cap: it would have gone on, so its length is
only known to exceed the cap. Survival and hazard follow Isaksen, Gopstein & Nealen
(2015), "Exploring game space using survival analysis".
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import polars as pl

from analysis.runs import Run, RunsLike, per_run
from analysis.stats import distribution, kaplan_meier, rate_columns, summarise

MEASURES = ("turns", "rounds")  # columns of the games table (turns; rounds)
ENDINGS = ("finished", "stalled", "truncated")  # R9.1; R4 Reading; R4 Reading (turn cap)


def game_length(runs: RunsLike) -> pd.DataFrame:
    """Turns and rounds per game.

    Returns
    -------
    pandas.DataFrame
        One row per run and measure (``turns``, ``rounds``): ``games``, ``mean``
        with its t interval, ``sd``, ``median``, ``p5`` … ``p95``, ``min``, ``max``
        (units: turns or rounds).
    """

    def one(run: Run) -> pd.DataFrame:
        games = run.scan("games", *MEASURES)
        rows = [summarise(games, measure, n_name="games").assign(measure=measure) for measure in MEASURES]
        out = pd.concat(rows, ignore_index=True)
        return out[["measure", *out.columns.drop("measure")]]

    return per_run(runs, one)


def game_endings(runs: RunsLike) -> pd.DataFrame:
    """How games ended: finished (R9.1), stalled or truncated (R4 Reading).

    Returns
    -------
    pandas.DataFrame
        One row per run and ending: ``games`` (all games of the run), ``count``,
        ``share`` with its Wilson interval.
    """

    def one(run: Run) -> pd.DataFrame:
        counts = run.scan("games", "stalled", "truncated").select(
            games=pl.len(), stalled=pl.col("stalled").sum(), truncated=pl.col("truncated").sum()
        ).collect().row(0, named=True)  # fmt: skip
        finished = counts["games"] - counts["stalled"] - counts["truncated"]
        count = np.array([finished, counts["stalled"], counts["truncated"]])
        games = np.full(3, counts["games"])
        return pd.DataFrame({"ending": ENDINGS, "games": games, "count": count, **rate_columns("share", count, games)})

    return per_run(runs, one)


def length_histogram(runs: RunsLike, measure: str = "turns") -> pd.DataFrame:
    """Distribution of game length.

    Parameters
    ----------
    measure : {"turns", "rounds"}

    Returns
    -------
    pandas.DataFrame
        One row per run and length value: ``<measure>``, ``games`` (all games),
        ``count``, ``share`` with its Wilson interval.

    Raises
    ------
    ValueError
        For an unknown measure.
    """
    if measure not in MEASURES:
        raise ValueError(f"unknown measure {measure!r}; valid: {', '.join(MEASURES)}")

    return per_run(runs, lambda run: distribution(run.scan("games", measure), measure, n_name="games"))


def _survival(runs: RunsLike, durations_observed) -> pd.DataFrame:
    def one(run: Run) -> pd.DataFrame:
        frame = run.scan("games", "turns", "truncated", "first_event_turn").select(durations_observed).collect()
        curve = kaplan_meier(frame["duration"].to_numpy(), frame["observed"].to_numpy())
        return curve.rename(columns={"time": "turn"}).assign(games=len(frame))

    return per_run(runs, one)


def length_survival(runs: RunsLike) -> pd.DataFrame:
    """Kaplan–Meier curve of game length: the share of games still running after
    each turn, with a 95% Hall–Wellner band; truncated games are censored.

    Returns
    -------
    pandas.DataFrame
        One row per run and turn at which games ended: ``turn``, ``at_risk`` (games
        still running before it), ``events`` (games ending at it), ``survival``
        with ``survival_low``/``survival_high``, ``hazard`` (share of the running
        games that end at this turn) with its Wilson interval, ``games``.
    """
    return _survival(runs, [pl.col("turns").alias("duration"), (pl.col("truncated") == 0).alias("observed")])


def first_event_survival(runs: RunsLike) -> pd.DataFrame:
    """Kaplan–Meier curve of the turn of the first morale-loss event (R8): the share
    of games that have had none after each turn. A game that ended without one is
    censored at its last turn.

    Returns
    -------
    pandas.DataFrame
        As :func:`length_survival`, with ``events`` = games whose first morale-loss
        event came at that turn.
    """
    had_event = pl.col("first_event_turn") > 0
    return _survival(runs, [
        pl.when(had_event).then(pl.col("first_event_turn")).otherwise(pl.col("turns")).alias("duration"),
        had_event.alias("observed"),
    ])  # fmt: skip
