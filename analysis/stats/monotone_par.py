"""Out of line means out of order: each task's reward against the monotone par of the
other tasks, with a bootstrap over games.

A fair reward scale pays at least as much for a harder task: points never decrease
as the completion rate falls. No functional form is assumed beyond that. For each
task ``i``, the least-squares monotone (isotonic) fit of points on difficulty over
the *other* tasks (leave-one-out, tied difficulties pooled; the min-max formula of
:func:`_sides`, or ``scipy.optimize.isotonic_regression`` for decks of many tasks)
gives two pars:

* ``pays_harder``: the fit at the nearest other task as hard or harder, what tasks
  as hard as ``i`` or harder pay (none for the hardest task);
* ``pays_easier``: the fit at the nearest other task as easy or easier (none for
  the easiest task).

Nothing is extrapolated: beyond the hardest or easiest other task there is no par
on that side. A task is in order when ``pays_easier ≤ points ≤ pays_harder``; its
``par`` is the nearest reward in order, ``clip(points, pays_easier, pays_harder)``,
and its gap is ``points − par``: positive when it pays more than tasks as hard or
harder (*overpays*), negative when it pays less than tasks as easy or easier
(*underpays*), 0 in order.

Uncertainty comes from the difficulty only (the points are printed). The games are
the independent units, and each game contributes its whole vector of task
completions ``z_g`` (one 0/1 per task), so tasks completed in the same game stay
together (game-clustered). The vector of completion rates is the mean of the
``z_g``; by the central limit theorem over games it is normal with mean ``p̂`` and
covariance ``Σ̂ / G``, where ``Σ̂`` is the covariance of ``z_g`` across games, the
limit that the game bootstrap (resampling games with replacement, Efron &
Tibshirani 1993, ch. 6) approaches. The resamples are drawn from that normal law
(a parametric bootstrap), so they need only the sums ``Σ z_g`` and ``Σ z_g z_gᵀ``
over games (:class:`analysis.stats.clustered.GameMoments`, summed chunk by chunk):
memory and time do not grow with the games. Every statistic is recomputed on each
resample. The par's interval is the percentile interval. The p-value tests what a verdict claims,
that the task is out of order by at least the practical threshold in the direction
observed: twice the share of resamples in which it is not, ``2 (1 + k) / (B + 1)``
(two-sided percentile-bootstrap test; 1 when the observed gap is below the
threshold). A gap that rests on the order of two tasks the games cannot tell apart
is then not significant, however large it is in the sample.

The fits depend on the difficulties only through their order, so each distinct
sequence of points in order of difficulty among the resamples is fitted once, and
all the fits of a sequence (each task left out) in one array expression: on the
default deck's 25 tasks and 1,999 resamples of 2,000 games, where nearly every
resample orders the tasks differently, 0.24 s against 1.0 s for a refit per task
left out (``python benchmarks/task_par.py RUN --games 2000``, a quiet 2-core machine).
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy.optimize import isotonic_regression
from scipy.stats import rankdata

from analysis.stats.clustered import GameMoments
from analysis.stats.inference import ALPHA

RESAMPLES = 1999  # bootstrap resamples: the smallest two-sided p-value is 2 / 2000 = 0.001
SEED = 0  # of the resamples: a report is reproducible


def resampled_rates(moments: GameMoments, resamples: int = RESAMPLES, seed: int = SEED) -> np.ndarray:
    """Completion rates of every task in parametric resamples of the games (module
    docstring): draws from ``N(p̂, Σ̂ / G)``.

    Parameters
    ----------
    moments : GameMoments
        Of the per-game completion vectors ``z_g``, shape ``(T,)`` per game
        (``total`` ``(T,)``, ``cross`` ``(T, T)``, ``games`` ``G``).
    resamples : int
    seed : int

    Returns
    -------
    ndarray of float64, shape (resamples, T)
        Fractions of games; row ``b`` is the rates in the ``b``-th resample.

    Raises
    ------
    ValueError
        For moments of no game.
    """
    if moments.games < 1:
        raise ValueError("no games to resample")
    rate = moments.total / moments.games
    covariance = np.nan_to_num(moments.covariance()) / moments.games**2  # Var(Σ z_g) / G² = Σ̂ / G
    return np.random.default_rng(seed).multivariate_normal(rate, covariance, size=resamples, method="eigh")


BUDGET = 2_000_000  # elements of one (sequences, T + 1, T, T) float64 array: 16 MB, a few such at once


def _sides(points: np.ndarray, ranks: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``pays_harder``, ``pays_easier`` (leave-one-out) and the fit over all tasks for
    each row of ``points`` and ``ranks`` (S, T), both in order of difficulty (``ranks``
    non-decreasing: higher is easier, ties equal); each output (S, T) in that order.

    The least-squares non-increasing fit with tied difficulties pooled is, at position
    ``j``, ``min over a ≤ j of max over b ≥ j of mean(points[a..b])``, with ``a`` the
    first and ``b`` the last of a group of ties (the min-max formula of isotonic
    regression: Robertson, Wright & Dykstra, *Order Restricted Statistical Inference*,
    1988, theorem 1.4.4). Leaving task ``i`` out is giving it weight 0: every mean
    over the others is unchanged. So the ``T + 1`` fits of a sequence (each task left
    out, then none) are one array expression: a suffix max over ``b``, then a min over
    ``a``, as many sequences at a time as keep an array within :data:`BUDGET` elements.
    A deck of more tasks than that allows for one sequence (about 125) is fitted by
    :func:`_refitted` instead, in memory that does not grow with the square of its
    tasks."""
    count, out = points.shape[1], [np.empty(points.shape) for _ in range(3)]
    chunk = BUDGET // ((count + 1) * count * count)
    if chunk < 1:
        return _refitted(points, ranks)
    weight = 1.0 - np.eye(count + 1, count)  # (L, T): row l leaves task l out; row T leaves none
    for lo in range(0, len(points), chunk):
        y, rank = points[lo : lo + chunk], ranks[lo : lo + chunk]
        sums = np.zeros((len(y), count + 1, count + 1))
        np.cumsum(weight[None] * y[:, None, :], axis=-1, out=sums[..., 1:])
        sizes = np.zeros((count + 1, count + 1))
        np.cumsum(weight, axis=-1, out=sizes[:, 1:])
        total = sums[..., None, 1:] - sums[..., :-1, None]  # (S, L, a, b): points in a..b
        size = sizes[:, None, 1:] - sizes[:, :-1, None]  # (L, a, b): tasks in a..b
        first = np.ones(rank.shape, bool)
        first[:, 1:] = rank[:, 1:] != rank[:, :-1]  # a group of ties starts here
        last = np.ones(rank.shape, bool)
        last[:, :-1] = first[:, 1:]
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = total / size
        upper = np.triu(np.ones((count, count), bool))
        usable = upper & (size > 0) & first[:, None, :, None] & last[:, None, None, :]
        best = np.maximum.accumulate(np.where(usable, mean, -np.inf)[..., ::-1], axis=-1)[..., ::-1]
        best = np.where(first[:, None, :, None] & upper, best, np.inf)  # (S, L, a, j): max over b ≥ j, a ≤ j
        fit = best.min(axis=-2)  # (S, L, j)
        position = np.arange(count)
        start = np.maximum.accumulate(np.where(first, position, 0), axis=-1)  # first of i's group of ties
        end = np.minimum.accumulate(np.where(last, position, count)[:, ::-1], axis=-1)[:, ::-1]  # its last
        below = np.where(end != position, end, position - 1)  # nearest other task as hard or harder
        above = np.where(start != position, start, position + 1)  # nearest other task as easy or easier
        rows = np.arange(len(y))[:, None]
        out[0][lo : lo + chunk] = np.where(below >= 0, fit[rows, position, np.clip(below, 0, count - 1)], np.nan)
        out[1][lo : lo + chunk] = np.where(above < count, fit[rows, position, np.clip(above, 0, count - 1)], np.nan)
        out[2][lo : lo + chunk] = fit[:, count]
    return out[0], out[1], out[2]


def _refitted(points: np.ndarray, ranks: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_sides` by ``scipy.optimize.isotonic_regression`` (pool adjacent
    violators), refitted on the other tasks for each task left out, tied difficulties
    pooled first: ``T + 1`` fits of ``T`` points a sequence, in memory of ``T``."""
    count, out = points.shape[1], [np.full(points.shape, np.nan) for _ in range(3)]
    for s, (y, rank) in enumerate(zip(points, ranks)):
        for i in range(count + 1):
            keep = np.arange(count) != i  # i == count: every task
            levels, inverse = np.unique(rank[keep], return_inverse=True)
            weights = np.bincount(inverse).astype(np.float64)
            fit = isotonic_regression(np.bincount(inverse, y[keep]) / weights, weights=weights, increasing=False).x
            if i == count:
                out[2][s] = fit[inverse]
                break
            below = np.searchsorted(levels, rank[i], "right") - 1  # nearest other task as hard or harder
            above = np.searchsorted(levels, rank[i], "left")  # nearest other task as easy or easier
            out[0][s, i] = fit[below] if below >= 0 else np.nan
            out[1][s, i] = fit[above] if above < len(levels) else np.nan
    return out[0], out[1], out[2]


def _all_sides(points: np.ndarray, rates: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_sides` for each row of ``rates`` (R, T). A fit depends only on the
    points in order of difficulty (and the ties), not on which task pays them, so
    each distinct sequence is fitted once."""
    ranks = np.atleast_2d(rankdata(rates, method="min", axis=-1))
    order = np.argsort(ranks, axis=-1, kind="stable")
    keys = np.concatenate([points[order], np.take_along_axis(ranks, order, -1)], axis=1)
    sequences, inverse = np.unique(keys, axis=0, return_inverse=True)
    count = len(points)
    fitted = _sides(sequences[:, :count], sequences[:, count:])
    out = []
    for k in range(3):
        by_task = np.empty(order.shape)
        np.put_along_axis(by_task, order, fitted[k][inverse.ravel()], axis=-1)
        out.append(by_task)
    return tuple(out)  # type: ignore[return-value]


def _par(points: np.ndarray, harder: np.ndarray, easier: np.ndarray) -> np.ndarray:
    return np.clip(points, np.nan_to_num(easier, nan=-np.inf), np.nan_to_num(harder, nan=np.inf))


def _interval(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Percentile interval over the rows (NaN where every resample is NaN)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN columns: a side with no other task
        low, high = np.nanpercentile(values, [100 * ALPHA / 2, 100 * (1 - ALPHA / 2)], axis=0)
    return low, high


def monotone_par(points, rates, replicate_rates, threshold_points: float) -> dict[str, np.ndarray]:
    """Each task's monotone par from the other tasks, its gap and its p-value
    (module docstring).

    Parameters
    ----------
    points : array_like of float, shape (T,)
        Printed task points.
    rates : array_like of float, shape (T,)
        Difficulty: completion rates (higher is easier).
    replicate_rates : array_like of float, shape (B, T)
        The rates in ``B`` resamples of the games (:func:`resampled_rates`).
    threshold_points : float
        Smallest gap that counts (points): the p-value tests a gap at least this large.

    Returns
    -------
    dict of ndarray, each shape (T,)
        ``pays_harder``, ``pays_easier`` (points; NaN without another task on that
        side) with ``_low``/``_high``; ``par_points`` with ``_low``/``_high``;
        ``gap_points`` (points − par); ``p_value`` (of a gap of at least
        ``threshold_points`` in its direction); ``fit_points`` (the monotone fit
        over all the tasks, at each task's difficulty) with ``_low``/``_high``;
        ``harder_share`` (T, T): the share of resamples in which task ``j`` is as
        hard as task ``i`` or harder (``[i, j]``).
    """
    points = np.asarray(points, np.float64)
    rates, replicate_rates = np.asarray(rates, np.float64), np.atleast_2d(np.asarray(replicate_rates, np.float64))
    harder, easier, fit = (side[0] for side in _all_sides(points, rates))
    b_harder, b_easier, b_fit = _all_sides(points, replicate_rates)
    par, b_par = _par(points, harder, easier), _par(points, b_harder, b_easier)
    gap, b_gap = points - par, points - b_par
    against = (np.sign(b_gap) != np.sign(gap)) | (np.abs(b_gap) < threshold_points)  # not out of order as observed
    p_value = np.where(np.abs(gap) < threshold_points, 1.0,
                       np.minimum(1.0, 2 * (1 + against.sum(0)) / (len(b_gap) + 1)))  # fmt: skip
    out = {"pays_harder": harder, "pays_easier": easier, "par_points": par, "gap_points": gap, "p_value": p_value,
           "fit_points": fit}  # fmt: skip
    for name, values in (("pays_harder", b_harder), ("pays_easier", b_easier), ("par_points", b_par),
                         ("fit_points", b_fit)):  # fmt: skip
        out[f"{name}_low"], out[f"{name}_high"] = _interval(values)
    out["harder_share"] = (replicate_rates[:, None, :] <= replicate_rates[:, :, None]).mean(0)
    return out
