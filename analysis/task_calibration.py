"""Task reward calibration: does each task pay in order with its difficulty?

A task's *expected points* per game are ``points × completion rate × (1 − lost
rate)``: the points it is worth, times how often it is completed (R6), times the
share of its completions that penalties do not take back (R8.3). The product is the
share of games in which the task was completed and kept, so it gets that share's
Wilson interval, times the points.

Difficulty without the points. The bots chase points, so a task's completion rate
as played partly measures its own reward. A task's difficulty is therefore its
completion rate in the run's *points-blind companion*: the same games (seed, bots,
players, rules) with every task paying the deck's mean task points, rounded to an
integer because the engine scores whole points (:mod:`sim.run.points_blind`, played by
``revachol run``). A run without a companion falls back to the completion rate as
played, and the table's ``difficulty`` column says which was used.

Out of line means out of order (:mod:`analysis.stats.monotone_par`). A fair scale
pays at least as much for a harder task, and nothing more is assumed. Each task is
set against the monotone (isotonic) fit of points on difficulty over the *other*
tasks: ``pays_harder`` is what the tasks as hard or harder pay on that fit,
``pays_easier`` what the tasks as easy or easier pay; no par is extrapolated beyond
the hardest or easiest other task. The task's ``par_points`` is the nearest reward
in order, and ``gap_points = points − par``. The difficulty run's completion rates are
resampled from their game-clustered normal law (a parametric bootstrap over games,
:func:`analysis.stats.monotone_par.resampled_rates`) for the par's 95% interval and the p-value of
a gap of at least the threshold; the p-values are corrected by Benjamini–Hochberg
across the run's tasks.

``verdict`` is ``overpays`` (it pays more than tasks as hard or harder) or
``underpays`` (less than tasks as easy or easier) when the corrected test is
rejected (q ≤ 0.05) *and* the gap is at least ``threshold_points`` (default 1
point: a point changes a close game, a tenth of one does not). ``out_of_order_with``
names the tasks it is out of order with: those on the wrong side of it in
difficulty that pay at least the threshold less (or more). A task without a
verdict can still be out of order with others in pairs (its sentence names them
when the order is clear in 97.5% of resamples): where tasks paying 2 and 3 points
interleave over a band of difficulty, the monotone par there pays between the two,
and neither is a point from it.

The requirement (symbols, colours, Special, R6 and A8) is shown beside the verdict
so the designer can see *why* a task is easy or hard; the fit uses only the measured
completion rate.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.cards import task_outcomes
from analysis.data.runs import KEYS, Run, RunsLike, companion_run, open_runs
from analysis.data.passes import Pass, totals_of
from analysis.data.stream import Batch, Columns, Totals
from analysis.stats.clustered import GameMoments
from analysis.stats.inference import ALPHA, bh_flags, rate_columns
from analysis.stats.monotone_par import RESAMPLES, monotone_par, resampled_rates
from analysis.stats.power import bh_level, detectable_from_interval
from sim.run.points_blind import points_blind_deck
from sim.rundir import POINTS_BLIND_COMPANION
from sim.rundir.schema import TASK_COMPLETED, TASK_LOST

DEFAULT_THRESHOLD_POINTS = 1.0  # smallest gap from par (points) that earns a verdict
POINTS_BLIND, AS_PLAYED = "points-blind", "as played"  # the ``difficulty`` column
WHEN = {POINTS_BLIND: "when all tasks pay alike", AS_PLAYED: "as played"}


def points_blind_run(run: Run) -> tuple[Run | None, str]:
    """The run's points-blind companion (:mod:`sim.run.points_blind`), if it has a sound one.

    Returns
    -------
    companion : Run or None
        None when the run's manifest records no companion, or the one recorded
        is incomplete or did not replay the run's games on its deck.
    why : str
        Empty with a companion; otherwise why there is none, as a sentence.
    """
    return companion_run(run, POINTS_BLIND_COMPANION, "points-blind companion",
                         points_blind_deck(run.deck).content_hash, same_bots=True)  # fmt: skip


def _completions(batch: Batch) -> Totals:
    return {"z": GameMoments.of(np.isin(batch.cards["task_status"], (TASK_COMPLETED, TASK_LOST)))}


COMPLETION_PASS = Pass("completions", Columns(cards=("task_status",)), _completions)
"""The pass of :func:`completion_moments`."""


def completion_moments(run: Run) -> GameMoments:
    """Moments of each game's task completions (R6; completed and later lost counts
    as completed, as in :func:`analysis.cards.task_outcomes`), summed chunk by chunk.

    Returns
    -------
    GameMoments
        Of ``z_g``, int 0/1 per task, shape ``(T,)``: ``total`` the completions per
        task, ``cross`` ``(T, T)`` the games in which both of two tasks were
        completed, ``games`` the games.
    """
    return totals_of(run, COMPLETION_PASS)["z"]


def points_text(value: float) -> str:
    """A number of points as text: ``1 point``, ``2 points``, ``0.83 points``."""
    return f"{abs(value):.2g} {'point' if abs(value) == 1 else 'points'}"


def _percents(a: float, b: float) -> tuple[str, str]:
    """Two rates as percentages, with the decimals (1 to 3) that tell them apart."""
    places = next((p for p in (1, 2) if round(100 * a, p) != round(100 * b, p)), 3)
    return f"{100 * a:.{places}f}%", f"{100 * b:.{places}f}%"


def _named(rows: pd.DataFrame, i: int, others: np.ndarray, rate: np.ndarray, when: str) -> str:
    """``Recover the bullet pays 2 points; Find your badge, completed more often
    (79.8% against 63.7% when all tasks pay alike), pays 3.``"""
    parts = [f"{rows['name'].iloc[i]} pays {points_text(rows['points'].iloc[i])}"]
    for j in others:
        theirs, its = _percents(rate[j], rate[i])
        parts.append(f"{rows['name'].iloc[j]}, completed {'more' if rate[j] > rate[i] else 'less'} often ({theirs} "
                     f"against {its} {when}), pays {rows['points'].iloc[j]:g}")  # fmt: skip
    return "; ".join(parts) + "."


def out_of_order_with(rows: pd.DataFrame, rate: np.ndarray, harder_share: np.ndarray, verdict: np.ndarray,
                      threshold_points: float, when: str) -> list[str]:  # fmt: skip
    """For each task, the sentence naming the tasks it is out of order with: harder
    ones paying at least the threshold less, or easier ones paying at least that
    much more, nearest in difficulty first (empty when there are none).

    ``harder_share[i, j]`` is the share of resamples in which ``j`` is as hard as
    ``i`` or harder. Without a verdict, only the pairs clearly out of order (in
    97.5% of resamples) are named: a pair can be out of order while the task
    still lies within a point of the monotone par of all the others. With a
    verdict, the pairs on its side: those clearly out of order when there are any,
    else those out of order in the sample."""
    points = rows["points"].to_numpy(np.float64)
    out = []
    for i, v in enumerate(verdict):
        over = (rate <= rate[i]) & (points <= points[i] - threshold_points)  # harder, paying less
        under = (rate >= rate[i]) & (points >= points[i] + threshold_points)  # easier, paying more
        over[i] = under[i] = False
        clear = (over & (harder_share[i] >= 1 - ALPHA / 2)) | (under & (harder_share[:, i] >= 1 - ALPHA / 2))
        chosen = clear
        if v:
            side = over if v == "overpays" else under
            chosen = side & clear if (side & clear).any() else side
        others = np.flatnonzero(chosen)
        out.append(_named(rows, i, others[np.argsort(np.abs(rate[others] - rate[i]), kind="stable")], rate, when)
                   if len(others) else "")  # fmt: skip
    return out


def order_verdicts(points, rates, replicate_rates, threshold_points: float = DEFAULT_THRESHOLD_POINTS):
    """The verdict of each task of one run against the monotone par of the others.

    Parameters
    ----------
    points : array_like of float, shape (T,)
    rates : array_like of float, shape (T,)
        Difficulty: completion rates, higher is easier.
    replicate_rates : array_like of float, shape (B, T)
        The rates in resamples of the games
        (:func:`analysis.stats.monotone_par.resampled_rates`).
    threshold_points : float

    Returns
    -------
    par : dict of ndarray
        :func:`analysis.stats.monotone_par.monotone_par`.
    verdict : ndarray of str, shape (T,)
        ``overpays``, ``underpays`` or empty: rejected after Benjamini–Hochberg
        across the tasks (q ≤ 0.05) and a gap of at least ``threshold_points``.
    q_value : ndarray of float64, shape (T,)
    """
    par = monotone_par(points, rates, replicate_rates, threshold_points)
    flagged, q_value = bh_flags(par["p_value"])
    big = np.abs(par["gap_points"]) >= threshold_points
    return par, np.where(flagged & big, np.where(par["gap_points"] > 0, "overpays", "underpays"), ""), q_value


def gap_interval(calibration) -> tuple:
    """The 95% interval of each task's gap from par, in points: ``points −
    par_points_high`` to ``points − par_points_low`` (the points are fixed, the par
    is estimated), from :func:`task_calibration`'s columns (a DataFrame, or a dict
    of arrays of shape (T,)); two Series or arrays."""
    return calibration["points"] - calibration["par_points_high"], calibration["points"] - calibration["par_points_low"]


def _one_run(run: Run, tasks: pd.DataFrame, threshold_points: float, resamples: int) -> pd.DataFrame:
    companion, why = points_blind_run(run)
    source = companion or run
    moments = completion_moments(source)
    games = moments.games
    completions = np.rint(moments.total).astype(np.int64)
    rate = completions / games
    points = tasks["points"].to_numpy(np.float64)
    par, verdict, q_value = order_verdicts(points, rate, resampled_rates(moments, resamples), threshold_points)
    difficulty = POINTS_BLIND if companion else AS_PLAYED
    mde = detectable_from_interval(*gap_interval({"points": points, **par}), threshold_points, bh_level(par["p_value"]),
                                   against_threshold=True)  # fmt: skip
    played = tasks["completions"].to_numpy(np.int64)
    lost = np.rint(np.nan_to_num(tasks["lost_rate"].to_numpy(np.float64)) * played).astype(np.int64)
    kept = rate_columns("expected_points", played - lost, tasks["games"].to_numpy(np.int64))
    blind = rate_columns("points_blind_rate", completions, games) if companion else \
        {f"points_blind_rate{end}": np.full(len(tasks), np.nan) for end in ("", "_low", "_high")}  # fmt: skip
    requires = tasks["requires"].fillna("").str.split(", ")
    return pd.DataFrame({
        **{key: tasks[key].to_numpy() for key in (*KEYS, "task", "name", "points")},
        "verdict": verdict,
        **{key: par[key] for key in ("gap_points", "par_points", "par_points_low", "par_points_high")},
        "mde_points": mde,
        "out_of_order_with": out_of_order_with(tasks, rate, par["harder_share"], verdict, threshold_points,
                                               WHEN[difficulty]),
        **{key: value * points for key, value in kept.items()},
        **{key: tasks[key].to_numpy() for key in ("completion_rate", "completion_rate_low", "completion_rate_high")},
        **blind,
        "difficulty": difficulty,
        "difficulty_note": why,
        **{f"{side}{end}": par[f"{side}{end}"] for side in ("pays_harder", "pays_easier", "fit_points")
           for end in ("", "_low", "_high")},
        **{key: tasks[key].to_numpy() for key in ("lost_rate", "requires")},
        "symbols": requires.map(lambda r: len([s for s in r if s])).to_numpy(np.int64),
        "colours": requires.map(lambda r: len({s for s in r if s})).to_numpy(np.int64),
        "special": tasks["special"].to_numpy(),
        "games": tasks["games"].to_numpy(np.int64),
        "difficulty_games": games,
        "p_value": par["p_value"],
        "q_value": q_value,
        "threshold_points": threshold_points,
    })  # fmt: skip


def task_calibration(runs: RunsLike, threshold_points: float = DEFAULT_THRESHOLD_POINTS,
                     outcomes: pd.DataFrame | None = None, resamples: int = RESAMPLES) -> pd.DataFrame:  # fmt: skip
    """Each task's expected points and its reward against the monotone par of the
    other tasks (module docstring).

    Parameters
    ----------
    runs : run directory, Run, or a sequence of them
    threshold_points : float
        Smallest gap from par, in points, that earns a verdict.
    outcomes : pandas.DataFrame, optional
        :func:`analysis.cards.task_outcomes` of ``runs``, when already computed.
    resamples : int
        Bootstrap resamples of the difficulty run's games.

    Returns
    -------
    pandas.DataFrame
        One row per run and task: the keys, ``task``, ``name``, ``points``,
        ``verdict`` (``overpays``, ``underpays`` or empty), ``gap_points``
        (points − par), ``par_points`` with its 95% bounds (:func:`gap_interval`
        gives the gap's), ``mde_points`` (the gap, points, that would earn a
        verdict with 80% power at the difficulty run's games: the tasks'
        Benjamini–Hochberg level, tested against ``threshold_points``,
        :func:`analysis.stats.power.detectable_effect`), ``out_of_order_with``
        (sentence naming the tasks it is out of order with: those of its verdict,
        or without one those clearly out of order with it in pairs; else empty);
        ``expected_points`` (points per game) with ``expected_points_low``/``_high``;
        ``completion_rate`` (as played) with its Wilson bounds;
        ``points_blind_rate`` (in the points-blind companion) with its Wilson
        bounds, NaN without a companion; ``difficulty`` (``points-blind`` or ``as
        played``: the rate the par used) and ``difficulty_note`` (why not
        points-blind, else empty); ``pays_harder``, ``pays_easier`` and
        ``fit_points`` (the monotone fit over all tasks), each with 95% bounds;
        ``lost_rate``, ``requires``, ``symbols`` (symbols required), ``colours``
        (distinct colours among them), ``special``, ``games`` (as played),
        ``difficulty_games``, ``p_value``, ``q_value`` (BH across the run's tasks),
        ``threshold_points``. Rows keep the deck's task order.

    Raises
    ------
    sim.run.runner.RunError, sim.cards.DeckError
        As :func:`analysis.data.runs.open_runs`.
    """
    runs = open_runs(runs)
    outcomes = task_outcomes(runs) if outcomes is None else outcomes
    frames = [_one_run(run, outcomes[outcomes["run"] == run.name].reset_index(drop=True), threshold_points,
                       resamples) for run in runs]  # fmt: skip
    return pd.concat(frames, ignore_index=True)


def passes(run: Run, include_unfinished: bool = False) -> list[Pass]:
    """The passes over ``run`` of this module's report tables, for
    :func:`analysis.data.passes.prefetch`."""
    return [COMPLETION_PASS]
