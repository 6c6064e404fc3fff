"""Exact summaries of a column from its histogram: counts per distinct value, added
up chunk by chunk.

A report column takes few distinct values (turns, points, penalties, or ratios of
such small counts), so the counts of each value are a small sufficient statistic of
its whole distribution: the mean, the standard deviation, every percentile, the
minimum and the maximum follow from them exactly, in memory that does not grow with
the number of games. Percentiles are numpy's default (``method="linear"``, type 7 of
Hyndman & Fan 1996): at ``h = (n − 1)·q`` between the order statistics
``x_⌊h⌋`` and ``x_⌊h⌋+1``, interpolated as :func:`numpy.percentile` does.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from analysis.stats.inference import PERCENTILES, mean_interval, rate_columns


@dataclass(frozen=True)
class Histogram:
    """Counts per distinct value, in ``K`` groups (e.g. turn-order positions).

    Attributes
    ----------
    values : ndarray, shape (V,)
        The distinct values seen, ascending (the column's dtype).
    counts : ndarray of int64, shape (K, V)
        How often each value occurs in each group.
    """

    values: np.ndarray
    counts: np.ndarray

    @classmethod
    def of(cls, values, group=None, groups: int = 1) -> Histogram:
        """The histogram of ``values`` (NaN left out), by ``group``.

        Parameters
        ----------
        values : array_like, shape (N,) or any shape (flattened)
        group : array_like of int, same shape as ``values``, optional
            Each value's group in ``0 … groups − 1``; all in group 0 when omitted.
        groups : int
        """
        values = np.asarray(values).ravel()
        group = np.zeros(values.shape, np.int64) if group is None else np.asarray(group, np.int64).ravel()
        if values.dtype.kind == "f":
            known = ~np.isnan(values)
            values, group = values[known], group[known]
        if values.dtype.kind in "iu" and values.size:  # small integers: count them in one linear pass
            low, high = int(values.min()), int(values.max())
            if high - low < 4 * values.size + 1024:
                span = high - low + 1
                counts = np.bincount(group * span + (values.astype(np.int64) - low), minlength=groups * span)
                counts = counts.reshape(groups, span)
                seen = counts.any(0)
                return cls((np.arange(low, high + 1)[seen]).astype(values.dtype), counts[:, seen].astype(np.int64))
        distinct, index = np.unique(values, return_inverse=True)
        counts = np.bincount(group * len(distinct) + index.ravel(), minlength=groups * len(distinct))
        return cls(distinct, counts.reshape(groups, len(distinct)).astype(np.int64))

    def __add__(self, other: Histogram) -> Histogram:
        values = np.union1d(self.values, other.values)
        counts = np.zeros((self.counts.shape[0], len(values)), np.int64)
        for part in (self, other):
            counts[:, np.searchsorted(values, part.values)] += part.counts
        return Histogram(values, counts)

    @property
    def n(self) -> np.ndarray:
        """Values counted per group, int64 ``(K,)``."""
        return self.counts.sum(1)

    def mean(self) -> np.ndarray:
        """Mean per group, float64 ``(K,)``; NaN for an empty group."""
        with np.errstate(divide="ignore", invalid="ignore"):
            return (self.counts * self.values.astype(np.float64)).sum(1) / self.n

    def sd(self) -> np.ndarray:
        """Sample standard deviation (``ddof=1``) per group; NaN below 2 values."""
        deviation = self.values.astype(np.float64) - self.mean()[:, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            variance = (self.counts * deviation**2).sum(1) / (self.n - 1)
        return np.where(self.n > 1, np.sqrt(variance), np.nan)

    def percentile(self, p: float) -> np.ndarray:
        """The ``p``-th percentile per group, as :func:`numpy.percentile` computes it
        on the values themselves; NaN for an empty group."""
        out = np.full(self.counts.shape[0], np.nan)
        q = np.true_divide(p, 100)
        for k, (counts, n) in enumerate(zip(self.counts, self.n)):
            if not n:
                continue
            h = (n - 1) * q
            below = np.floor(h)
            ends = np.cumsum(counts)  # order statistic i (0-based) is values[searchsorted(ends, i, "right")]
            a, b = (self.values[np.searchsorted(ends, i, side="right")].astype(np.float64)
                    for i in (int(below), min(int(below) + 1, n - 1)))  # fmt: skip
            t = h - below
            out[k] = b - (b - a) * (1 - t) if t >= 0.5 else a + (b - a) * t  # numpy's _lerp
        return out

    def extreme(self, last: bool) -> np.ndarray:
        """Minimum (or maximum, ``last``) per group, float64; NaN for an empty group."""
        seen = self.counts > 0
        if not len(self.values):  # nothing counted in any group
            return np.full(self.counts.shape[0], np.nan)
        index = (seen.shape[1] - 1 - np.argmax(seen[:, ::-1], 1)) if last else np.argmax(seen, 1)
        return np.where(seen.any(1), self.values[index].astype(np.float64), np.nan)

    def summary(self, n_name: str = "n") -> dict[str, np.ndarray]:
        """Summary columns, one entry per group: ``n_name``, ``mean`` with its t
        interval (:func:`analysis.stats.inference.mean_interval`), ``sd``,
        ``median``, ``p5`` … ``p95``, ``min``, ``max`` (float64 but ``n_name``)."""
        mean, sd = self.mean(), self.sd()
        low, high = mean_interval(mean, np.nan_to_num(sd), self.n)
        return {n_name: self.n, "mean": mean, "mean_low": low, "mean_high": high, "sd": sd,
                "median": self.percentile(50), **{f"p{p}": self.percentile(p) for p in PERCENTILES},
                "min": self.extreme(last=False), "max": self.extreme(last=True)}  # fmt: skip

    def distribution(self, column: str, n_name: str = "n", groups: dict[str, np.ndarray] | None = None) -> pd.DataFrame:
        """How often each value occurs: one row per group and value seen, sorted,
        ``groups…``, ``column``, ``n_name`` (values in the group), ``count``,
        ``share`` with its Wilson interval.

        Parameters
        ----------
        groups : dict of str to ndarray, shape (K,), optional
            Columns that name each group (e.g. ``position``), put first.
        """
        group, value = np.nonzero(self.counts)
        out = pd.DataFrame({**{key: labels[group] for key, labels in (groups or {}).items()},
                            column: self.values[value], n_name: self.n[group], "count": self.counts[group, value]})  # fmt: skip
        return out.assign(**rate_columns("share", out["count"], out[n_name]))
