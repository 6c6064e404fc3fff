"""Task reward calibration: is each task's reward in line with its difficulty?

A task's *expected points* per game are ``points × completion rate × (1 − lost
rate)``: the points it is worth, times how often it is completed (R6), times the
share of its completions that penalties do not take back (R8.3). The product is the
share of games in which the task was completed and kept, so it gets that share's
Wilson interval, times the points.

Difficulty is measured by the completion rate, on the logit scale (a task completed
in 99% of games is much easier than one at 90%, far more than 50% is than 41%). The
method (leave-one-out regression: each task against the line through the others):

* For each task, an ordinary least-squares line of printed ``points`` on
  ``logit(completion rate)`` is fitted to the *other* tasks of the run
  (``statsmodels.OLS``), so that an outlier cannot pull the line towards itself.
  Its value at the task's difficulty is the task's ``par_points``: what tasks of
  that difficulty pay, with the 95% confidence interval of the fitted mean.
* The gap ``points − par_points`` is tested against the uncertainty of the par (a
  two-sided t test with the fit's residual degrees of freedom: does the task pay
  what tasks of its difficulty pay *on average*?), and the p-values are corrected
  by Benjamini–Hochberg across the run's tasks.
* ``verdict`` is ``overpays`` or ``underpays`` when the corrected test is rejected
  (q ≤ 0.05) *and* the gap is at least the practical threshold
  (``threshold_points``, default 1 point): a task one point out of line changes a
  close game; a tenth of a point does not. The threshold, not the test, keeps
  gaps smaller than a point from being flagged. A test against the prediction
  interval instead (is the task an extreme outlier among the others?) flagged
  nothing on the default deck, whose tasks scatter by about a point around the
  line: that scatter is itself the miscalibration a designer wants to see.

The completion rate's own sampling error is left out of the fit: with thousands of
games it is far smaller than the scatter of the tasks around the line. The
requirement (symbols, colours, Special, R6 and A8) is shown beside the fit so the
designer can see *why* a task is easy or hard; the fit itself uses only the
measured completion rate.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import statsmodels.api as sm
from scipy import stats as sps

from analysis.data.runs import KEYS
from analysis.stats.inference import ALPHA, bh_flags, rate_columns

DEFAULT_THRESHOLD_POINTS = 1.0  # smallest gap from par (points) that earns a verdict
MIN_TASKS = 4  # a line through the others needs at least one residual degree of freedom


def difficulty(completion_rate, games) -> np.ndarray:
    """``logit(completion rate)``, the rate kept half a game from 0 and 1.

    Parameters
    ----------
    completion_rate : array_like of float, shape (T,)
        Fractions of games.
    games : array_like of int, shape (T,)

    Returns
    -------
    ndarray of float64, shape (T,)
        Log-odds; higher is easier.
    """
    games = np.asarray(games, np.float64)
    rate = np.clip(np.asarray(completion_rate, np.float64), 0.5 / games, 1 - 0.5 / games)
    return np.log(rate / (1 - rate))


def par_points(points, x) -> pd.DataFrame:
    """Leave-one-out par of each task on the line of ``points`` on ``x`` (module
    docstring).

    Parameters
    ----------
    points : array_like of float, shape (T,)
        Printed points.
    x : array_like of float, shape (T,)
        Difficulty (:func:`difficulty`).

    Returns
    -------
    pandas.DataFrame
        ``T`` rows: ``par_points`` with ``par_points_low``/``par_points_high``
        (95% CI of the fitted mean), ``gap_points`` (points − par) and
        ``p_value`` (two-sided t test of the gap against the par's standard
        error). All NaN for fewer than :data:`MIN_TASKS` tasks. When the other tasks
        share one difficulty (no slope can be fitted), the par is their mean points
        at that difficulty and NaN (no par, no test) at any other.
    """
    points, x = np.asarray(points, np.float64), np.asarray(x, np.float64)
    out = pd.DataFrame(np.nan, index=range(len(points)),
                       columns=["par_points", "par_points_low", "par_points_high", "gap_points", "p_value"])  # fmt: skip
    if len(points) < MIN_TASKS:
        return out
    design = sm.add_constant(x, has_constant="add")
    for i in range(len(points)):
        others = np.arange(len(points)) != i
        flat = np.ptp(x[others]) == 0  # one difficulty among the others: the line has no slope to fit
        if flat and x[i] != x[others][0]:
            continue
        columns = design[:, :1] if flat else design
        fit = sm.OLS(points[others], columns[others]).fit()
        predicted = fit.get_prediction(columns[i : i + 1]).summary_frame(alpha=ALPHA).iloc[0]
        gap, se = points[i] - predicted["mean"], predicted["mean_se"]
        p = 2 * sps.t.sf(abs(gap) / se, fit.df_resid) if se > 0 else float(gap == 0)
        out.iloc[i] = [predicted["mean"], predicted["mean_ci_lower"], predicted["mean_ci_upper"], gap, p]
    return out


def _one_run(tasks: pd.DataFrame, threshold_points: float) -> pd.DataFrame:
    points = tasks["points"].to_numpy(np.float64)
    completions = tasks["completions"].to_numpy(np.int64)
    lost = np.rint(np.nan_to_num(tasks["lost_rate"].to_numpy(np.float64)) * completions).astype(np.int64)
    kept = rate_columns("expected_points", completions - lost, tasks["games"].to_numpy(np.int64))
    requires = tasks["requires"].fillna("").str.split(", ")
    par = par_points(points, difficulty(tasks["completion_rate"], tasks["games"]))
    flagged, q_value = bh_flags(par["p_value"].to_numpy())
    big = np.abs(np.nan_to_num(par["gap_points"].to_numpy())) >= threshold_points
    verdict = np.where(flagged & big, np.where(par["gap_points"] > 0, "overpays", "underpays"), "")
    return pd.DataFrame({
        **{key: tasks[key].to_numpy() for key in (*KEYS, "task", "name", "points")},
        "verdict": verdict,
        **{key: par[key].to_numpy() for key in ("gap_points", "par_points", "par_points_low", "par_points_high")},
        **{key: value * points for key, value in kept.items()},
        **{key: tasks[key].to_numpy() for key in ("completion_rate", "completion_rate_low", "completion_rate_high",
                                                   "lost_rate", "requires")},
        "symbols": requires.map(lambda r: len([s for s in r if s])).to_numpy(np.int64),
        "colours": requires.map(lambda r: len({s for s in r if s})).to_numpy(np.int64),
        "special": tasks["special"].to_numpy(),
        "games": tasks["games"].to_numpy(np.int64),
        "p_value": par["p_value"].to_numpy(),
        "q_value": q_value,
        "threshold_points": threshold_points,
    })  # fmt: skip


def task_calibration(outcomes: pd.DataFrame, threshold_points: float = DEFAULT_THRESHOLD_POINTS) -> pd.DataFrame:
    """Each task's expected points and its reward against tasks of similar
    difficulty (module docstring).

    Parameters
    ----------
    outcomes : pandas.DataFrame
        :func:`analysis.cards.task_outcomes` (``run``, ``players``, ``bots``,
        ``task``, ``name``, ``points``, ``requires``, ``special``, ``games``,
        ``completion_rate`` with its bounds, ``completions``, ``lost_rate``).
    threshold_points : float
        Smallest gap from par, in points, that earns a verdict.

    Returns
    -------
    pandas.DataFrame
        One row per run and task: the keys, ``task``, ``name``, ``points``,
        ``verdict`` (``overpays``, ``underpays`` or empty), ``gap_points``
        (points − par), ``par_points`` with its 95% bounds; ``expected_points``
        (points per game) with ``expected_points_low``/``_high``;
        ``completion_rate`` with its Wilson bounds, ``lost_rate``, ``requires``,
        ``symbols`` (symbols required), ``colours`` (distinct colours among them),
        ``special``, ``games``, ``p_value``, ``q_value`` (BH across the run's
        tasks), ``threshold_points``. Rows keep the order of ``outcomes``.
    """
    frames = [_one_run(rows.reset_index(drop=True), threshold_points)
              for _, rows in outcomes.groupby("run", sort=False)]  # fmt: skip
    return pd.concat(frames, ignore_index=True)
