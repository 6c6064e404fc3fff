"""Are the verdicts settled? The rule that stops a run played in rounds.

A run played ``--until-settled`` (:mod:`analysis.experiments.until_settled`) looks
after every round at each verdict's estimate: every ally's effect against the
average ally (:func:`analysis.cards.ally_strength`, pp) and the first player's edge
over a fair seat (:func:`analysis.seats.first_player_edge`, pp). Each estimate gets
its anytime-valid confidence sequence (:mod:`analysis.stats.sequential`), and is

* ``flagged`` when the sequence lies wholly beyond the practical threshold on one
  side (``low ≥ T`` or ``high ≤ −T``): more games cannot take the verdict away;
* ``no verdict`` when it lies wholly inside ``(−T, +T)``: more games cannot earn one;
* ``at the threshold`` when it lies wholly within the *borderline band* ``±b``
  around ``T`` or around ``−T`` (``T − b ≤ low`` and ``high ≤ T + b``, or the same
  about ``−T``): the effect sits so near the threshold that which side it falls on
  does not matter to a designer, and no number of games would settle an effect that
  sits exactly on it. The band is :data:`DEFAULT_BORDERLINE_PP` (±0.5 pp, a quarter
  of the default 2 pp threshold) unless the run gives another (``--borderline``);
  0 turns it off;
* ``not settled`` otherwise (or when the estimate is missing).

The run stops when every verdict is settled (the three states above). Each sequence holds its true value at
every look with probability 95% (``alpha`` per estimate, not per family).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.cards import ally_strength
from analysis.seats import first_player_edge, seat_balance
from analysis.stats.sequential import sequence_interval
from analysis.thresholds import DEFAULT_BORDERLINE_PP, DEFAULT_THRESHOLD_PP

DEFAULT_ALPHA = 0.05
"""Each confidence sequence's error rate over every look at once."""
FLAGGED, NO_VERDICT, BORDERLINE, NOT_SETTLED = "flagged", "no verdict", "at the threshold", "not settled"


def settled_state(low, high, threshold, band=0.0) -> np.ndarray:
    """Each sequence's state from its bounds ``low``–``high``, its practical
    ``threshold`` and the borderline ``band`` (all in one unit; scalars or arrays):
    :data:`FLAGGED`, :data:`NO_VERDICT`, :data:`BORDERLINE` or :data:`NOT_SETTLED`
    (module docstring; NaN bounds are not settled)."""
    low, high, threshold, band = (np.asarray(x, dtype=float) for x in (low, high, threshold, band))
    with np.errstate(invalid="ignore"):
        beyond = (low >= threshold) | (high <= -threshold)
        inside = (low > -threshold) & (high < threshold)
        near = (band > 0) & (((low >= threshold - band) & (high <= threshold + band))
                             | ((low >= -threshold - band) & (high <= -threshold + band)))  # fmt: skip
    return np.where(beyond, FLAGGED, np.where(inside, NO_VERDICT, np.where(near, BORDERLINE, NOT_SETTLED)))


def verdict_sequences(strength: pd.DataFrame, balance: pd.DataFrame, games: int, rho: float,
                      alpha: float = DEFAULT_ALPHA, threshold_pp: float = DEFAULT_THRESHOLD_PP,
                      borderline_pp: float = DEFAULT_BORDERLINE_PP) -> pd.DataFrame:  # fmt: skip
    """Every verdict's estimate, confidence sequence and state at ``games`` games.

    Parameters
    ----------
    strength, balance : pandas.DataFrame
        :func:`analysis.cards.ally_strength` and :func:`analysis.seats.seat_balance`
        of one run.
    games : int
        Games played so far (the sequence's time).
    rho : float
        The boundary's mixture parameter, games (:func:`analysis.stats.sequential.mixture_rho`).
    alpha : float
        Each sequence's error rate.
    threshold_pp : float
        The practical threshold, pp (the allies' own ``threshold_pp`` when present).
    borderline_pp : float
        The borderline band's half-width, pp (module docstring).

    Returns
    -------
    pandas.DataFrame
        One row per verdict: ``kind`` (``ally``, ``first_player``), ``subject``,
        ``value``, ``low``, ``high`` (the 95% interval), ``cs_low``, ``cs_high``
        (the confidence sequence), ``threshold`` (all pp) and ``state``.

    Raises
    ------
    ValueError
        As :func:`analysis.stats.sequential.sequence_interval`.
    """
    edge, edge_low, edge_high = (np.asarray(x, dtype=float) for x in first_player_edge(balance))
    rows = pd.DataFrame({
        "kind": ["ally"] * len(strength) + ["first_player"] * len(balance),
        "subject": [*strength["name"], *["first player"] * len(balance)],
        "value": [*strength["effect_pp"], *edge],
        "low": [*strength["effect_low_pp"], *edge_low],
        "high": [*strength["effect_high_pp"], *edge_high],
        "threshold": [*strength.get("threshold_pp", pd.Series(threshold_pp, strength.index)),
                      *[threshold_pp] * len(balance)],
    })  # fmt: skip
    return with_sequences(rows, games, rho, alpha, borderline_pp)


def with_sequences(rows: pd.DataFrame, games: int, rho: float, alpha: float = DEFAULT_ALPHA,
                   band=0.0) -> pd.DataFrame:  # fmt: skip
    """``rows`` (estimates ``value`` with their 95% interval ``low``–``high`` and
    practical ``threshold``, one unit per row) with each one's confidence sequence
    ``cs_low``, ``cs_high`` at ``games`` games
    (:func:`analysis.stats.sequential.sequence_interval`) and its ``state``
    (:func:`settled_state`, with the borderline ``band`` in each row's unit: a
    scalar or one per row); a copy.

    Raises
    ------
    ValueError
        As :func:`analysis.stats.sequential.sequence_interval`.
    """
    rows = rows.copy()
    rows["cs_low"], rows["cs_high"] = sequence_interval(rows["value"], rows["low"], rows["high"], games, rho, alpha)
    rows["state"] = settled_state(rows["cs_low"], rows["cs_high"], rows["threshold"], band)
    return rows


def run_sequences(run_dir, games: int, rho: float, alpha: float = DEFAULT_ALPHA,
                  threshold_pp: float = DEFAULT_THRESHOLD_PP,
                  borderline_pp: float = DEFAULT_BORDERLINE_PP) -> pd.DataFrame:  # fmt: skip
    """:func:`verdict_sequences` of the run in ``run_dir`` (its games so far).

    Raises
    ------
    sim.rundir.RunError
        For a directory that is not a readable run.
    """
    return verdict_sequences(ally_strength(run_dir, threshold_pp=threshold_pp),
                             seat_balance(run_dir, threshold_pp=threshold_pp), games, rho, alpha, threshold_pp,
                             borderline_pp)  # fmt: skip


def all_settled(sequences: pd.DataFrame) -> bool:
    """Whether every verdict of :func:`verdict_sequences` is settled."""
    return bool((sequences["state"] != NOT_SETTLED).all())
