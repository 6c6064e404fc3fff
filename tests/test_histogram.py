"""Exact summaries from histograms summed chunk by chunk (analysis.stats.histogram):
the same mean, standard deviation, percentiles and extremes as numpy on the values
themselves (issue 31)."""

import numpy as np
import pytest

from analysis.stats.histogram import Histogram
from analysis.stats.inference import PERCENTILES


def _chunked(values, group=None, groups=1, size=7) -> Histogram:
    parts = [Histogram.of(values[i : i + size], None if group is None else group[i : i + size], groups)
             for i in range(0, len(values), size)]  # fmt: skip
    total = parts[0]
    for part in parts[1:]:
        total = total + part
    return total


@pytest.mark.parametrize("n", [1, 2, 3, 10, 101])
def test_chunked_histogram_summary_equals_numpy_on_the_values(n):
    values = np.random.default_rng(n).integers(-3, 40, n).astype(np.int32)
    summary = _chunked(values).summary("games")
    assert summary["games"][0] == n
    assert summary["mean"][0] == pytest.approx(values.mean(), rel=1e-12)
    if n > 1:
        assert summary["sd"][0] == pytest.approx(values.std(ddof=1), rel=1e-12)
    else:  # one value has no spread to estimate
        assert np.isnan(summary["sd"][0])
    for p in PERCENTILES:
        assert summary[f"p{p}"][0] == np.percentile(values, p)  # numpy's linear interpolation, exactly
    assert summary["median"][0] == np.median(values)
    assert (summary["min"][0], summary["max"][0]) == (values.min(), values.max())


def test_ratios_are_counted_by_value_and_nan_is_left_out():
    """Shares of small counts (e.g. tasks failed over tasks resolved) repeat exactly,
    so their histogram is small; NaN marks a game without a value (no task
    resolved) and is not counted."""
    rng = np.random.default_rng(3)
    failed, resolved = rng.integers(0, 4, 200), rng.integers(0, 6, 200)
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(resolved > 0, np.minimum(failed, resolved) / resolved, np.nan)
    histogram = _chunked(share, size=33)
    known = share[~np.isnan(share)]
    assert histogram.n[0] == len(known) and len(histogram.values) == len(np.unique(known))
    assert [histogram.percentile(p)[0] for p in (5, 50, 95)] == [np.percentile(known, p) for p in (5, 50, 95)]


def test_groups_are_summarised_apart_and_an_empty_group_has_no_values():
    values = np.array([1, 2, 3, 10, 20, 30])
    group = np.array([0, 0, 0, 1, 1, 1])
    histogram = _chunked(values, group, groups=3, size=4)
    assert histogram.n.tolist() == [3, 3, 0]
    assert histogram.mean()[:2].tolist() == [2.0, 20.0] and np.isnan(histogram.mean()[2])
    assert histogram.percentile(50)[:2].tolist() == [2.0, 20.0] and np.isnan(histogram.percentile(50)[2])
    table = histogram.distribution("score", "player_games", {"position": np.array([1, 2, 3])})
    assert table["position"].tolist() == [1, 1, 1, 2, 2, 2] and table["count"].tolist() == [1] * 6
    assert table["player_games"].tolist() == [3] * 6 and table["share"].tolist() == pytest.approx([1 / 3] * 6)


def test_integers_far_apart_are_counted_by_value_as_well():
    """Few values spread over a wide range (e.g. task points in thousandths) are not
    counted over the whole range, and keep their dtype."""
    values = np.array([5, 10**9, 5, -(10**9), 10**9], np.int64)
    histogram = Histogram.of(values[:2]) + Histogram.of(values[2:])
    assert histogram.values.tolist() == [-(10**9), 5, 10**9] and histogram.counts.tolist() == [[1, 2, 2]]
    assert histogram.values.dtype == np.int64 and histogram.percentile(50)[0] == np.percentile(values, 50)
