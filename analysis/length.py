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

import warnings

import numpy as np
import pandas as pd

from lifelines import AalenJohansenFitter

from analysis.data.runs import Run, RunsLike, per_run
from analysis.data.passes import Pass, totals_of
from analysis.data.stream import Batch, Columns, Totals
from analysis.stats.histogram import Histogram
from analysis.stats.inference import kaplan_meier, rate_columns

MEASURES = ("turns", "rounds")  # columns of the games table (turns; rounds)
ENDINGS = ("finished", "stalled", "truncated")  # R9.1; R4 Reading; R4 Reading (turn cap)
DEFAULT_THRESHOLD_TURNS = 5.0  # a miss of the designer's target for mean turns per game (turns) that matters


KINDS = 3  # how a game's wait for its first morale-loss event ends: 0 censored, 1 the event, 2 the game's end


def _histograms(batch: Batch) -> Totals:
    games = batch.games
    had_event = games["first_event_turn"] > 0
    waited = np.where(had_event, games["first_event_turn"], games["turns"])
    kind = np.where(had_event, 1, np.where(batch.unfinished, 0, 2))  # stalled or truncated first: censored
    return {**{measure: Histogram.of(games[measure]) for measure in MEASURES},
            "ends": Histogram.of(games["turns"], games["truncated"] == 0, 2),  # group 1: the game ended (R9.1)
            "first_event": Histogram.of(waited, kind, KINDS),
            **{ending: int(games[ending].sum()) for ending in ENDINGS[1:]}}  # fmt: skip


def length_pass(run: Run) -> Pass:
    """The pass of the length tables, over every game of the run: histograms of
    ``turns`` and ``rounds``, of the turns at which games end or are censored
    (``ends``) and at which the wait for the first morale-loss event ends
    (``first_event``, by kind), and the stalled and truncated games."""
    return Pass("length", Columns(games=(*MEASURES, "first_event_turn", *ENDINGS[1:])), _histograms)


def _totals(run: Run) -> Totals:
    return totals_of(run, length_pass(run))


def game_length(runs: RunsLike) -> pd.DataFrame:
    """Turns and rounds per game.

    Computed from the histogram of each measure over the run's games
    (:class:`analysis.stats.histogram.Histogram`), exactly.

    Returns
    -------
    pandas.DataFrame
        One row per run and measure (``turns``, ``rounds``): ``games``, ``mean``
        with its t interval, ``sd``, ``median``, ``p5`` … ``p95``, ``min``, ``max``
        (units: turns or rounds).
    """

    def one(run: Run) -> pd.DataFrame:
        counts = _totals(run)
        return pd.DataFrame([{"measure": measure, **{key: value[0] for key, value in counts[measure].summary("games").items()}}
                             for measure in MEASURES])  # fmt: skip

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
        counts = _totals(run)
        games = int(counts["turns"].n[0])
        count = np.array([games - counts["stalled"] - counts["truncated"], counts["stalled"], counts["truncated"]])
        games = np.full(3, games)
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

    return per_run(runs, lambda run: _totals(run)[measure].distribution(measure, "games"))


def length_survival(runs: RunsLike) -> pd.DataFrame:
    """Kaplan–Meier curve of game length: the share of games still running after
    each turn, with pointwise 95% intervals; truncated games are censored.

    The curve is a function of the games that end and that are censored at each
    turn, counted over the run (:func:`analysis.stats.inference.kaplan_meier` with
    those counts as frequency weights).

    Returns
    -------
    pandas.DataFrame
        One row per run and turn at which games ended: ``turn``, ``at_risk`` (games
        still running before it), ``events`` (games ending at it), ``survival``
        with ``survival_low``/``survival_high``, ``hazard`` (share of the running
        games that end at this turn) with its Wilson interval, ``games``.
    """

    def one(run: Run) -> pd.DataFrame:
        counts = _totals(run)["ends"]
        status, turn = np.nonzero(counts.counts)  # status 1: the game ended at ``turn``; 0: censored there
        curve = kaplan_meier(counts.values[turn], status, counts.counts[status, turn])
        return curve.rename(columns={"time": "turn"}).assign(games=int(counts.n.sum()))

    return per_run(runs, one)


JITTER_SEED = 19780101  # lifelines breaks ties between competing events by a seeded jitter: reproducible
TIES_WARNING = "Tied event times were detected"  # lifelines' warning of each such tie, which the report expects


def first_event_incidence(runs: RunsLike) -> pd.DataFrame:
    """Cumulative incidence of the first morale-loss event (R8) by turn, with the end
    of a game without one (R9.1) as a competing risk (module docstring).

    The estimator is a function of the first events, competing ends and censored
    games counted per turn over the run (lifelines' fitter with those counts as
    weights). Lifelines breaks a tie between a first event and a competing end at
    the same turn by a seeded jitter of the turn, quietly (its warning of the tie is
    filtered: a run of an odd deck printed it on the report's console).

    Returns
    -------
    pandas.DataFrame
        One row per run and turn at which a first event or a competing end
        happened: ``turn``, ``incidence`` (share of games whose first morale-loss
        event came at or before that turn) with pointwise 95%
        ``incidence_low``/``incidence_high``, ``games``.
    """

    def one(run: Run) -> pd.DataFrame:
        counts = _totals(run)["first_event"]
        kind, turn = np.nonzero(counts.counts)
        global_rng = np.random.get_state()  # the fitter seeds numpy's global generator: leave the user's alone
        try:
            with warnings.catch_warnings():  # a tie is expected and broken as the docstring says: no console line
                warnings.filterwarnings("ignore", message=TIES_WARNING)
                fitter = AalenJohansenFitter(seed=JITTER_SEED).fit(counts.values[turn], kind, event_of_interest=1,
                                                                   weights=counts.counts[kind, turn])  # fmt: skip
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
            games=int(counts.n.sum()))

    return per_run(runs, one)


def passes(run: Run, include_unfinished: bool = False) -> list[Pass]:
    """The passes over ``run`` of this module's report tables, for
    :func:`analysis.data.passes.prefetch`."""
    return [length_pass(run)]
