"""Game length: turns and rounds per game, how games end, and survival curves.

Source columns: the ``games`` table (:mod:`sim.record`): ``turns`` (stuck turns
included), ``rounds`` (``ceil(turns / players)``), ``stalled``, ``truncated``,
``first_event_turn`` (0 when the game had no morale-loss event).

Every game counts here, however it ended; stalled and truncated games (RULES R4
Reading) are counted apart in :func:`game_endings`. In the survival curves a
truncated game is *censored* at the turn cap: it would have gone on, so its length is
only known to exceed the cap. Survival and hazard follow Isaksen, Gopstein & Nealen
(2015), "Exploring game space using survival analysis". Their intervals are
pointwise: each turn's interval holds with 95% confidence, not the whole curve at
once.

The first morale-loss event is not a survival time to censor: a game that ends (R9.1)
without an event will never have one, so the end of the game is a *competing risk*.
Censoring such games, as Kaplan–Meier would, treats them as if an event were still to
come and overstates how soon and how often events happen. Its curve is the
cumulative incidence by the Aalen–Johansen estimator (Aalen & Johansen 1978;
``lifelines.AalenJohansenFitter``); only stalled and truncated games, which stopped
before their end, are censored.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import polars as pl

from lifelines import AalenJohansenFitter

from analysis.data.runs import Run, RunsLike, per_run
from analysis.stats.inference import distribution, kaplan_meier, rate_columns, summarise

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
    each turn, with pointwise 95% intervals; truncated games are censored.

    Returns
    -------
    pandas.DataFrame
        One row per run and turn at which games ended: ``turn``, ``at_risk`` (games
        still running before it), ``events`` (games ending at it), ``survival``
        with ``survival_low``/``survival_high``, ``hazard`` (share of the running
        games that end at this turn) with its Wilson interval, ``games``.
    """
    return _survival(runs, [pl.col("turns").alias("duration"), (pl.col("truncated") == 0).alias("observed")])


JITTER_SEED = 19780101  # lifelines breaks ties between competing events by a seeded jitter: reproducible


def first_event_incidence(runs: RunsLike) -> pd.DataFrame:
    """Cumulative incidence of the first morale-loss event (R8) by turn, with the end
    of a game without one (R9.1) as a competing risk (module docstring).

    Returns
    -------
    pandas.DataFrame
        One row per run and turn at which a first event or a competing end
        happened: ``turn``, ``incidence`` (share of games whose first morale-loss
        event came at or before that turn) with pointwise 95%
        ``incidence_low``/``incidence_high``, ``games``.
    """

    def one(run: Run) -> pd.DataFrame:
        games = run.scan("games", "turns", "stalled", "truncated", "first_event_turn").collect()
        had_event = games["first_event_turn"].to_numpy() > 0
        unfinished = (games["stalled"].to_numpy() + games["truncated"].to_numpy()) > 0
        duration = np.where(had_event, games["first_event_turn"].to_numpy(), games["turns"].to_numpy())
        kind = np.where(had_event, 1, np.where(unfinished, 0, 2))  # 1 event, 2 competing end, 0 censored
        global_rng = np.random.get_state()  # the fitter seeds numpy's global generator: leave the user's alone
        try:
            fitter = AalenJohansenFitter(seed=JITTER_SEED).fit(duration, kind, event_of_interest=1)
        finally:
            np.random.set_state(global_rng)
        incidence = fitter.cumulative_density_.iloc[:, 0]
        bounds = fitter.confidence_interval_cumulative_density_.to_numpy()
        out = pd.DataFrame({"turn": incidence.index.to_numpy(), "incidence": incidence.to_numpy(),
                            "incidence_low": bounds.min(axis=1), "incidence_high": bounds.max(axis=1)})  # fmt: skip
        out = out[out["turn"] > 0]  # the fitter's origin row
        # Tied times are jittered by at most ±0.0001 turns: keep one row per whole turn, its last value.
        out = out.assign(turn=np.round(out["turn"]).astype(np.int64)).groupby("turn", as_index=False).last()
        return out.fillna({"incidence_low": out["incidence"], "incidence_high": out["incidence"]}).assign(
            games=len(games))

    return per_run(runs, one)
