"""Paired comparison of a per-game quantity from moments summed chunk by chunk.

Two runs that played the same games (common random numbers) are compared game by
game: for a quantity ``x`` the difference ``d_g = x_B(g) − x_A(g)``. The paired t
test (``scipy.stats.ttest_rel``), its interval, Cohen's ``d_z`` and the exact
McNemar test of 0/1 outcomes need only ``n``, the means and the sums of squared
deviations of ``x_A``, ``x_B`` and ``d``, and the two discordant counts. Those are
kept per chunk of games and merged with the pairwise update of Chan, Golub &
LeVeque (1979), which stays exact where a naive ``Σx² − (Σx)²/n`` loses digits
(a constant difference keeps a spread of exactly 0), so memory does not grow with
the number of games.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats

from analysis.stats.inference import ALPHA, LEVEL, mcnemar_discordant_pvalue


@dataclass(frozen=True)
class PairedMoments:
    """Moments of the pairs ``(x_A, x_B)`` of some games.

    Attributes
    ----------
    n : int
        Pairs (games).
    mean : ndarray of float64, shape (3,)
        Means of ``x_A``, ``x_B`` and ``d = x_B − x_A``.
    m2 : ndarray of float64, shape (3,)
        Sums of squared deviations from those means.
    a_only, b_only : int
        Pairs with ``x_A > x_B`` and with ``x_B > x_A`` (McNemar's discordant pairs
        for 0/1 outcomes).
    """

    n: int
    mean: np.ndarray
    m2: np.ndarray
    a_only: int
    b_only: int

    @classmethod
    def of(cls, x_a, x_b) -> PairedMoments:
        """The moments of one chunk: ``x_a``, ``x_b`` float (games,); a NaN in
        either leaves the game out."""
        x_a, x_b = np.asarray(x_a, np.float64), np.asarray(x_b, np.float64)
        keep = ~(np.isnan(x_a) | np.isnan(x_b))
        x = np.stack([x_a[keep], x_b[keep], x_b[keep] - x_a[keep]], axis=1)
        mean = x.mean(0) if len(x) else np.zeros(3)
        return cls(len(x), mean, ((x - mean) ** 2).sum(0), int((x[:, 0] > x[:, 1]).sum()),
                   int((x[:, 1] > x[:, 0]).sum()))  # fmt: skip

    def __add__(self, other: PairedMoments) -> PairedMoments:
        n = self.n + other.n
        if not self.n or not other.n:
            return self if other.n == 0 else other
        delta = other.mean - self.mean
        return PairedMoments(n, self.mean + delta * other.n / n, self.m2 + other.m2 + delta**2 * self.n * other.n / n,
                             self.a_only + other.a_only, self.b_only + other.b_only)  # fmt: skip


def standardised(difference: float, sd: float) -> float:
    """Cohen's d_z = difference / sd of the per-game differences; 0 for no
    difference, ±inf for a constant non-zero one, NaN without a spread to measure."""
    if difference == 0:
        return 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(np.divide(difference, sd))


def paired_columns(name: str, moments: PairedMoments, unit: str) -> dict:
    """Paired comparison of one per-game quantity (module docstring).

    Parameters
    ----------
    name : str
    moments : PairedMoments
    unit : str
        ``share`` for 0/1 outcomes (exact McNemar test), else the quantity's unit
        (paired t-test).

    Returns
    -------
    dict
        ``metric``, ``unit``, ``n`` (pairs), ``a``, ``b`` (means), ``difference``
        (B − A) with ``difference_low``/``difference_high`` (t interval, 95%),
        ``p_value``, ``effect_size`` (Cohen's d_z), ``independent_half_width``,
        ``paired_half_width``.
    """
    n = moments.n
    mean_a, mean_b, mean = moments.mean if n else (np.nan,) * 3
    var_a, var_b, var_d = moments.m2 / (n - 1) if n > 1 else (np.nan,) * 3
    sd = np.sqrt(var_d)
    if n > 1 and sd > 0:  # scipy.stats.ttest_rel: a one-sample t test of the differences
        se = sd / np.sqrt(n)
        half = stats.t.ppf(0.5 + LEVEL / 2, n - 1) * se
        low, high = mean - half, mean + half
        p = float(2 * stats.t.sf(abs(mean / se), n - 1))
    else:  # no pairs, or every pair has the same difference: a zero-width interval
        low = high = mean
        p = 1.0 if n > 1 else np.nan
    if unit == "share":
        p = mcnemar_discordant_pvalue(moments.a_only, moments.b_only) if n else np.nan
    independent = stats.norm.ppf(1 - ALPHA / 2) * np.sqrt(var_a / n + var_b / n) if n > 1 else np.nan
    return {
        "metric": name, "unit": unit, "n": n, "a": mean_a, "b": mean_b,
        "difference": mean, "difference_low": low, "difference_high": high, "p_value": p,
        "effect_size": standardised(mean, sd),
        "independent_half_width": independent, "paired_half_width": (high - low) / 2,
    }  # fmt: skip
