"""Interval estimates and tests shared by every report table.

Every rate over independent units (games, rolls) is ``successes / n`` with a Wilson
score interval, every mean a Student-t interval, and survival curves are Kaplan–Meier
estimates with log-log pointwise intervals. Rates and means over player-game rows,
which share their games, are game-clustered (:mod:`analysis.stats.clustered`). The level is
95% throughout (:data:`LEVEL`). The computations are the libraries' (statsmodels,
scipy); this module only adapts their inputs and outputs to table columns.

Column convention. An estimate named ``x`` comes with ``x_low`` and ``x_high``, the
bounds of its 95% confidence interval; the sample size sits in a column named after
its unit (``games``, ``player_games``, ``rolls`` …). Rates and shares are fractions
(0–1), never percentages.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats as sps
from statsmodels.duration.survfunc import SurvfuncRight
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

ALPHA = 0.05  # every interval is a 95% confidence interval
LEVEL = 1 - ALPHA
FDR_Q = 0.05  # Benjamini–Hochberg false-discovery rate of every flag
PERCENTILES = (5, 25, 75, 95)


def wilson(successes, n) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval of ``successes / n`` (Wilson 1927).

    Parameters
    ----------
    successes, n : array_like of int
        Counts; ``n == 0`` gives NaN bounds.

    Returns
    -------
    low, high : ndarray of float64
        The 95% interval, as fractions.
    """
    successes, n = np.asarray(successes, np.float64), np.asarray(n, np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        low, high = proportion_confint(successes, n, alpha=ALPHA, method="wilson")
    # At k = 0 and k = n the formula's bounds are exactly 0 and 1; the library's
    # floating point can land a hair inside.
    low, high = np.where(successes == 0, 0.0, low), np.where(successes == n, 1.0, high)
    empty = n == 0
    return np.where(empty, np.nan, low), np.where(empty, np.nan, high)


def rate_columns(name: str, successes, n) -> dict[str, np.ndarray]:
    """Columns ``name``, ``name_low``, ``name_high``: a rate and its Wilson interval."""
    successes, n = np.asarray(successes, np.float64), np.asarray(n, np.float64)
    low, high = wilson(successes, n)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = np.where(n > 0, successes / n, np.nan)
    return {name: value, f"{name}_low": low, f"{name}_high": high}


def mean_interval(mean, sd, n) -> tuple[np.ndarray, np.ndarray]:
    """Student-t interval of a mean: ``mean ± t(0.975, n-1) · sd / √n``.

    Parameters
    ----------
    mean, sd : array_like of float
        Sample mean and standard deviation (``ddof=1``).
    n : array_like of int
        Sample size; fewer than 2 gives NaN bounds.
    """
    mean, sd, n = (np.asarray(v, np.float64) for v in (mean, sd, n))
    enough = n >= 2
    with np.errstate(divide="ignore", invalid="ignore"):
        half = sps.t.ppf(0.5 + LEVEL / 2, np.where(enough, n - 1, 1)) * sd / np.sqrt(n)
    # A constant sample (sd 0) has a zero-width interval.
    return np.where(enough, mean - half, np.nan), np.where(enough, mean + half, np.nan)


def mean_columns_from_sums(name: str, total, total_sq, n) -> dict[str, np.ndarray]:
    """Columns ``name``, ``name_low``, ``name_high`` from running sums.

    Parameters
    ----------
    total, total_sq : array_like of float
        Sum of the values and sum of their squares (accumulated over batches).
    n : array_like of int
        Number of values.
    """
    total, total_sq, n = (np.asarray(v, np.float64) for v in (total, total_sq, n))
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = np.where(n > 0, total / n, np.nan)
        var = np.where(n > 1, (total_sq - n * mean**2) / (n - 1), np.nan)
    low, high = mean_interval(mean, np.sqrt(np.clip(var, 0, None)), n)
    return {name: mean, f"{name}_low": low, f"{name}_high": high}


def binomial_pvalues(successes, n, p) -> np.ndarray:
    """Two-sided exact binomial test of ``successes`` out of ``n`` against ``p``
    (``scipy.stats.binomtest``), one test per element; NaN where ``n == 0``."""
    successes, n, p = np.broadcast_arrays(np.asarray(successes), np.asarray(n), np.asarray(p, np.float64))
    return np.array([sps.binomtest(int(k), int(m), float(q)).pvalue if m > 0 else np.nan
                     for k, m, q in zip(successes.ravel(), n.ravel(), p.ravel())]).reshape(n.shape)  # fmt: skip


def mcnemar_pvalue(x_a, x_b) -> float:
    """Exact McNemar test of paired 0/1 outcomes (McNemar 1947): the binomial test of
    the discordant pairs, ``statsmodels.stats.contingency_tables.mcnemar(exact=True)``.

    Parameters
    ----------
    x_a, x_b : array_like of {0, 1}, shape (n,)
        The outcome of each pair under A and under B.

    Returns
    -------
    float
        Two-sided p-value; 1.0 without discordant pairs, NaN for ``n == 0``.
    """
    x_a, x_b = np.asarray(x_a, bool), np.asarray(x_b, bool)
    if x_a.size == 0:
        return np.nan
    return mcnemar_discordant_pvalue(int(np.sum(x_a & ~x_b)), int(np.sum(~x_a & x_b)))


def mcnemar_discordant_pvalue(a_only: int, b_only: int) -> float:
    """:func:`mcnemar_pvalue` from the discordant pairs alone (all the exact test
    uses): ``a_only`` pairs with outcome 1 under A only, ``b_only`` under B only."""
    return float(mcnemar([[0, b_only], [a_only, 0]], exact=True).pvalue)


def bh_flags(pvalues, q: float = FDR_Q) -> tuple[np.ndarray, np.ndarray]:
    """Benjamini–Hochberg step-up procedure across a family of tests (BH 1995).

    Parameters
    ----------
    pvalues : array_like of float
        One p-value per test; NaN p-values are left out of the family.
    q : float
        False-discovery rate.

    Returns
    -------
    flagged : ndarray of bool
        The tests rejected at false-discovery rate ``q``.
    adjusted : ndarray of float64
        BH-adjusted p-values (``q``-values), NaN where the p-value was NaN.
    """
    pvalues = np.asarray(pvalues, np.float64)
    flagged, adjusted = np.zeros(pvalues.shape, bool), np.full(pvalues.shape, np.nan)
    known = ~np.isnan(pvalues)
    if known.any():
        flagged[known], adjusted[known], _, _ = multipletests(pvalues[known], alpha=q, method="fdr_bh")
    return flagged, adjusted


def _greenwood_se(survival: np.ndarray, at_risk: np.ndarray, events: np.ndarray) -> np.ndarray:
    """Greenwood's (1926) standard error of a Kaplan–Meier curve, ``S·√Σ d/(n(n−d))``,
    NaN from the first time at which every unit at risk ends; computed as
    statsmodels computes it for unweighted data (with frequency weights statsmodels
    switches to Tsiatis' formula, whereas units counted per time are units all the
    same)."""
    at_risk, events = np.asarray(at_risk, np.float64), np.asarray(events, np.float64)
    terms = events / np.clip(at_risk * (at_risk - events), 1e-12, np.inf)
    terms[(at_risk == events) | (at_risk == 0)] = np.nan
    se = np.sqrt(np.cumsum(terms))
    kept = np.isfinite(se) | (survival != 0)
    se[kept] *= survival[kept]
    se[~kept] = np.nan
    return se


def kaplan_meier(durations, observed, weights=None) -> pd.DataFrame:
    """Kaplan–Meier survival curve with pointwise 95% intervals, and the hazard.

    The estimate comes from ``statsmodels.duration.survfunc.SurvfuncRight``
    (Kaplan & Meier 1958), its standard error from Greenwood's formula
    ``S·√Σ d/(n(n−d))`` over the times so far (:func:`_greenwood_se`). The
    interval is the log-log ("exponential Greenwood") one, ``S ** exp(±z·σ)`` with
    ``σ = se / (S·|log S|)`` (Kalbfleisch & Prentice 2002, §1.3): it stays inside
    [0, 1]. The intervals are pointwise: each holds at its own time with 95%
    confidence, not the whole curve at once. Where S is 0 or 1 the interval is the
    estimate. The
    discrete hazard at ``t`` is the share of the units still at risk that end at
    ``t`` (Isaksen, Gopstein & Nealen 2015 read game length through it), with its
    Wilson interval.

    Parameters
    ----------
    durations : array_like of int
        Time of the event or of censoring, one per unit (turns).
    observed : array_like of bool
        True where the event happened at ``durations``; False where the unit was
        censored then (it was still running, the event had not happened).
    weights : array_like of int, optional
        How many units each entry stands for (frequency weights), so that units
        counted per time give the curve of the units themselves.

    Returns
    -------
    pandas.DataFrame
        One row per time with an event: ``time``, ``at_risk``, ``events``,
        ``survival`` with ``survival_low``/``survival_high`` (S(t) = share of units
        whose event comes after ``t``), and ``hazard`` with
        ``hazard_low``/``hazard_high``.

    Raises
    ------
    ValueError
        When there are no durations.
    """
    durations = np.asarray(durations, np.float64)
    observed = np.asarray(observed, np.float64)
    if durations.size == 0:
        raise ValueError("a survival curve needs at least one duration")
    curve = SurvfuncRight(durations, observed, freq_weights=None if weights is None else np.asarray(weights, np.float64))
    survival = curve.surv_prob
    se = _greenwood_se(survival, curve.n_risk, curve.n_events)
    with np.errstate(divide="ignore", invalid="ignore"):
        spread = np.exp(sps.norm.ppf(1 - ALPHA / 2) * se / (survival * np.abs(np.log(survival))))
        low, high = survival**spread, survival ** (1 / spread)
    inside = (survival > 0) & (survival < 1) & np.isfinite(spread)
    out = pd.DataFrame({
        "time": curve.surv_times.astype(np.int64),
        "at_risk": curve.n_risk.astype(np.int64),
        "events": curve.n_events.astype(np.int64),
        "survival": survival,
        "survival_low": np.where(inside, low, survival),
        "survival_high": np.where(inside, high, survival),
    })  # fmt: skip
    return out.assign(**rate_columns("hazard", out["events"], out["at_risk"]))


def multinomial_bootstrap(counts, n: int, statistic, resamples: int = 10_000, seed: int = 0) -> np.ndarray:
    """Bootstrap replicates of a statistic of category shares.

    Resampling ``n`` units with replacement from a sample whose categories have the
    given counts is a multinomial draw with probabilities ``counts / counts.sum()``
    (Efron & Tibshirani 1993, ch. 6), so the replicates need no per-unit data.

    Parameters
    ----------
    counts : array_like of float
        Category probabilities or counts (normalised here).
    n : int
        Units per replicate.
    statistic : callable
        Maps a ``(resamples, categories)`` array of shares to ``(resamples,)``.
    resamples : int
    seed : int
        Seed of the replicates (fixed, so a report is reproducible).

    Returns
    -------
    ndarray of float64, shape (resamples,)
    """
    probabilities = np.asarray(counts, np.float64)
    probabilities = probabilities / probabilities.sum()
    draws = np.random.default_rng(seed).multinomial(n, probabilities, size=resamples)
    return statistic(draws / n)
