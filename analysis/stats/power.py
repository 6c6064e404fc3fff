"""Power at the run's n: the smallest effect a verdict catches with 80% power (the
minimum detectable effect, MDE), the games that would catch a given effect, and the
games that would decide an estimate whose interval straddles the practical threshold.

Every verdict of the report flags an estimate when a two-sided test at level ``a``
rejects it *and* the estimate is at least a practical threshold ``T``. With the
estimate's standard error ``se`` read off its 95% confidence interval,
``se = (high − low) / (2 · z_0.975)`` (``z_0.975 = 1.959964``), and the estimate
normal around the true effect ``δ``, the effect flagged with power ``1 − β``
(Cohen 1988, ch. 12; Bloom 1995, "Minimum detectable effects") is

* for a test against zero, flagged when also ``|estimate| ≥ T`` (allies, the first
  player's edge, game length)::

      mde = max(T, z_{1−a/2} · se) + z_{1−β} · se

  (the estimate must clear both the test's critical value and the threshold, and
  with probability 1 − β it lies above ``δ − z_{1−β} · se``);
* for a test of the estimate against the threshold itself (a task's gap from par,
  :mod:`analysis.task_calibration`, whose p-value is that of a gap of at least
  ``T``)::

      mde = T + (z_{1−a/2} + z_{1−β}) · se.

The level ``a`` is the test's own after a Benjamini–Hochberg correction (BH 1995)
across a family of ``m`` tests of which BH rejected ``R``: a test is rejected when
its p-value is at most ``q · R / m``, so ``a = q · max(R, 1) / m`` (with ``R = 0``,
the first step of the procedure, ``q / m``). A single test has ``a = 0.05``.

The standard error shrinks as ``1/√n``, so the games that catch an effect ``δ`` are
``n · (se / se')²``, ``se'`` the standard error at which ``mde = δ``; for a test
against zero in the range where the test, not the threshold, binds, that is the
textbook ``n · ((z_{1−a/2} + z_{1−β}) · se / δ)²``. An effect at or below the
threshold is never flagged, whatever the games.

An estimate whose 95% interval holds the threshold (``+T`` or ``−T``) cannot be
told from it at this n. The interval's half-width ``h`` shrinks as ``1/√n``, so it
clears the threshold ``t`` after about ``n · (h / |estimate − t|)²`` games (``h``
on the side of ``t``: a bootstrap interval need not be symmetric); the distance is
taken as at least a tenth of ``T`` (:data:`RESOLUTION`), as an estimate that close
to the threshold is as good as on it to a designer.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats as sps

from analysis.stats.inference import ALPHA, FDR_Q, bh_flags

POWER = 0.8  # the chance of flagging an effect of the size of the MDE
Z_POWER = float(sps.norm.ppf(POWER))  # z_{0.8} = 0.841621
Z_CI = float(sps.norm.ppf(1 - ALPHA / 2))  # the 95% interval's z, 1.959964
RESOLUTION = 0.1  # an estimate within this share of the threshold of it is on it (games to decide)


def standard_error(low, high) -> np.ndarray:
    """The standard error of an estimate from its 95% interval,
    ``(high − low) / (2 · 1.959964)``, in the estimate's unit.

    Parameters
    ----------
    low, high : array_like of float, shape (k,)
        The interval's bounds (pp, points, turns …); NaN gives NaN.

    Returns
    -------
    ndarray of float64, shape (k,)
    """
    return (np.asarray(high, np.float64) - np.asarray(low, np.float64)) / (2 * Z_CI)


def bh_level(p_values, q: float = FDR_Q) -> float:
    """The level at which a test of the family is rejected by Benjamini–Hochberg at
    false-discovery rate ``q``: ``q · max(R, 1) / m`` for ``m`` p-values (NaN ones
    left out) of which BH rejects ``R``; NaN for an empty family."""
    p_values = np.asarray(p_values, np.float64)
    m = int(np.sum(~np.isnan(p_values)))
    if m == 0:
        return math.nan
    return q * max(int(bh_flags(p_values, q)[0].sum()), 1) / m


def _z(level) -> np.ndarray:
    """``z_{1−a/2}`` of a two-sided test at level ``a``."""
    return sps.norm.ppf(1 - np.asarray(level, np.float64) / 2)


def detectable_effect(se, threshold, level=ALPHA, against_threshold: bool = False) -> np.ndarray:
    """The minimum detectable effect: the effect flagged with 80% power (module
    docstring), in the unit of ``se``.

    Parameters
    ----------
    se : array_like of float, shape (k,)
        Standard errors (:func:`standard_error`).
    threshold : float or array_like, shape (k,)
        The practical threshold ``T`` a flag also needs, in the same unit.
    level : float or array_like, shape (k,)
        The test's two-sided level ``a`` (:func:`bh_level` for a family).
    against_threshold : bool
        The test is of the estimate against ``T`` (task rewards) rather than zero.

    Returns
    -------
    ndarray of float64, shape (k,)
        ``max(T, z_{1−a/2}·se) + z_{0.8}·se``, or ``T + (z_{1−a/2} + z_{0.8})·se``
        against the threshold; NaN where ``se`` or ``level`` is NaN.
    """
    se, threshold, z = np.asarray(se, np.float64), np.asarray(threshold, np.float64), _z(level)
    if against_threshold:
        return threshold + (z + Z_POWER) * se
    return np.maximum(threshold, z * se) + Z_POWER * se


def detectable_from_interval(low, high, threshold, level=ALPHA, against_threshold: bool = False) -> np.ndarray:
    """:func:`detectable_effect` of estimates given by their 95% intervals
    (``low``, ``high``, shape (k,)), in their unit."""
    return detectable_effect(standard_error(low, high), threshold, level, against_threshold)


def games_to_detect(games, se, effect, threshold, level=ALPHA, against_threshold: bool = False) -> np.ndarray:
    """The games at which ``effect`` is the minimum detectable effect, from a run of
    ``games`` whose estimates have standard errors ``se`` (which shrink as
    ``1/√games``): ``games · (se / se')²`` with ``detectable_effect(se') = effect``.

    Parameters
    ----------
    games : int or array_like
        The run's games behind ``se``.
    se : array_like of float, shape (k,)
    effect, threshold : float
        The effect to detect and the practical threshold, in the unit of ``se``.
    level : float or array_like, shape (k,)
        The test's two-sided level.
    against_threshold : bool
        As in :func:`detectable_effect`.

    Returns
    -------
    ndarray of float64, shape (k,)
        Games (not rounded); ``inf`` when ``effect ≤ threshold`` (never flagged),
        0 where ``se`` is 0, NaN where ``se`` or ``level`` is NaN. For a test
        against zero where ``z_{1−a/2}·se' ≥ T`` this is
        ``games · ((z_{1−a/2} + z_{0.8}) · se / effect)²``.
    """
    se, z = np.asarray(se, np.float64), _z(level)
    if against_threshold:
        target = (effect - threshold) / (z + Z_POWER)
    else:  # the test binds (z·se' ≥ T) or the threshold does; the MDE grows with se', so one branch holds
        by_test = effect / (z + Z_POWER)
        target = np.where(z * by_test >= threshold, by_test, (effect - threshold) / Z_POWER)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.asarray(games, np.float64) * (se / target) ** 2
    out = np.where(se == 0, 0.0, out)
    return np.where(np.isnan(out), np.nan, np.where(effect <= threshold, np.inf, out))


def games_to_decide(games, estimate, low, high, threshold) -> np.ndarray:
    """The games after which the 95% interval of each estimate clears the practical
    thresholds it holds now (module docstring).

    For each threshold ``t`` (``+T``, ``−T``) strictly inside the interval, the
    interval's reach from the estimate towards ``t``, ``h`` (``high − estimate`` or
    ``estimate − low``: a bootstrap interval need not be symmetric), shrinks as
    ``1/√n`` and clears ``t`` after ``games · (h / max(|estimate − t|,
    RESOLUTION · T))²`` games; an interval that holds both thresholds needs the
    larger number.

    Parameters
    ----------
    games : int or array_like, shape (k,)
    estimate, low, high : array_like of float, shape (k,)
        Estimates and their 95% bounds, in the threshold's unit.
    threshold : float or array_like, shape (k,)
        ``T`` (> 0): the interval is tested against ``+T`` and ``−T``.

    Returns
    -------
    ndarray of float64, shape (k,)
        Games (not rounded), more than ``games``; NaN where the interval holds
        neither threshold (decided at this n), lies within the resolution of it
        already, or is NaN.
    """
    estimate, low, high = (np.asarray(v, np.float64) for v in (estimate, low, high))
    threshold, games = np.abs(np.asarray(threshold, np.float64)), np.asarray(games, np.float64)
    out = np.full(np.broadcast(estimate, threshold).shape, np.nan)
    for t in (threshold, -threshold):
        reach = np.where(t >= estimate, high - estimate, estimate - low)
        with np.errstate(divide="ignore", invalid="ignore"):
            needed = games * (reach / np.maximum(np.abs(estimate - t), RESOLUTION * threshold)) ** 2
        needed = np.where((low < t) & (t < high) & (needed > games), needed, np.nan)
        out = np.fmax(out, needed)
    return out


def readable_games(games) -> int:
    """A number of games rounded up to two significant figures, as a sentence says it
    (``387,412`` → ``390,000``; ``95`` stays ``95``). Raises ValueError for NaN or
    infinity."""
    if not math.isfinite(float(games)):
        raise ValueError(f"no number of games: {games}")
    n = math.ceil(round(float(games), 6))  # not a game more for floating-point dust (900,000.0000001)
    step = 10 ** max(len(str(n)) - 2, 0)
    return -(-n // step) * step
