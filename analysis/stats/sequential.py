"""Anytime-valid confidence sequences for an estimate watched as games accrue.

A run that stops when its verdicts are settled (:mod:`analysis.settled`) looks at
each estimate after every round; a 95% confidence interval read that often would
exclude a true value far more than 5% of the time. A confidence sequence (CS) holds
the true value at every look at once with probability ``1 − alpha``, so it may be
checked after each round and the run stopped whenever it is decisive.

The CS used is the asymptotic confidence sequence of Waudby-Smith, Arbour, Sinha,
Kennedy and Ramdas, "Time-uniform central limit theory and asymptotic confidence
sequences", Annals of Statistics 52 (2024), Theorem 2.2: for a mean-like estimate
at ``t`` games with variance per game ``σ̂²_t``, the half-width is ``u(t·σ̂²_t)/t``,
where ``u`` is the two-sided normal-mixture uniform boundary of Howard, Ramdas,
McAuliffe and Sekhon, "Time-uniform, nonparametric, nonasymptotic confidence
sequences", Annals of Statistics 49 (2021), eq. (14)::

    u(V) = sqrt((V + ρ) · log((V + ρ) / (ρ · alpha²)))

(the mixture of ``exp(λS − λ²V/2)`` over ``λ ~ N(0, 1/ρ)`` crossing ``1/alpha``).
Each estimate's ``σ̂²_t = t · se_t²`` comes from its game-clustered 95% interval,
``se_t = (high − low) / (2 · 1.959964)``. Measured in standardised units (``V`` in
games, ``σ̂ = 1``) the boundary is scale-free: ``half_width = se_t · u(t) / sqrt(t)``
with ``ρ`` in games. ``ρ`` is chosen once, before the first look, to make the
boundary tightest at ``v_opt`` games (:func:`mixture_rho`); it must not change
while the sequence is watched, so a resumed run reuses the recorded one.

The library ``confseq`` (``confseq.boundaries.normal_mixture_bound``) computes the
same boundary, but its wheel builds C++ against Boost and does not install here, so
the closed form above is written out (it is a line).
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize_scalar

Z_975 = 1.959964
"""The 97.5% standard normal quantile: a 95% interval is ``± Z_975 · se``."""


def mixture_boundary(v, rho: float, alpha: float = 0.05) -> np.ndarray:
    """The two-sided normal-mixture uniform boundary ``u(V)`` (Howard et al. 2021,
    eq. 14; module docstring), in the units of ``sqrt(V)``.

    Raises
    ------
    ValueError
        When ``rho`` is not positive or ``alpha`` is not in (0, 1).
    """
    if not rho > 0 or not 0 < alpha < 1:
        raise ValueError(f"the boundary needs rho > 0 and 0 < alpha < 1, got rho={rho} and alpha={alpha}")
    v = np.asarray(v, dtype=float)
    return np.sqrt((v + rho) * np.log((v + rho) / (rho * alpha**2)))


def mixture_rho(v_opt: float, alpha: float = 0.05) -> float:
    """The mixture's ``ρ`` (games) that makes :func:`mixture_boundary` smallest at
    ``v_opt`` games, found numerically on ``log ρ``.

    Raises
    ------
    ValueError
        When ``v_opt`` is not positive.
    """
    if not v_opt > 0:
        raise ValueError(f"the boundary is optimised at a positive number of games, got {v_opt}")
    best = minimize_scalar(lambda log_rho: float(mixture_boundary(v_opt, np.exp(log_rho), alpha)),
                           bounds=(np.log(v_opt) - 20, np.log(v_opt) + 20), method="bounded")  # fmt: skip
    return float(np.exp(best.x))


def sequence_interval(value, low, high, games: int, rho: float, alpha: float = 0.05) -> tuple[np.ndarray, np.ndarray]:
    """The confidence sequence's bounds at ``games`` games for estimates ``value``
    with 95% intervals ``low``–``high`` (any unit; the bounds are in the same):
    ``value ± se · u(games) / sqrt(games)`` (Waudby-Smith et al. 2024, Thm 2.2;
    module docstring). NaN where the estimate or its interval is.

    Raises
    ------
    ValueError
        When ``games`` is below 1, or as :func:`mixture_boundary`.
    """
    if games < 1:
        raise ValueError(f"a confidence sequence needs at least one game, got {games}")
    value, low, high = (np.asarray(x, dtype=float) for x in (value, low, high))
    half = (high - low) / (2 * Z_975) * mixture_boundary(games, rho, alpha) / np.sqrt(games)
    return value - half, value + half


def sequence_games(sd, half, rho: float, alpha: float = 0.05, most: float = 1e9) -> np.ndarray:
    """The games at which the confidence sequence of an estimate whose standard
    deviation per game is ``sd`` narrows to the half-width ``half`` (same unit): the
    smallest ``t`` with ``sd · u(t) / t ≤ half`` (:func:`sequence_interval` with
    ``se_t = sd / sqrt(t)``; ``u(t) / t`` decreases in ``t``), found by bisection on
    ``log t``. Not rounded.

    Parameters
    ----------
    sd, half : array_like of float, shape (k,)
        The standard deviation per game, ``se_t · sqrt(t)``, and the half-width wanted.
    rho, alpha : float
        The boundary's (:func:`mixture_boundary`).
    most : float
        The most games looked at.

    Returns
    -------
    ndarray of float64, shape (k,)
        Games; NaN where ``half`` is not positive or ``most`` games do not narrow the
        sequence to it (and where ``sd`` is NaN).

    Raises
    ------
    ValueError
        As :func:`mixture_boundary`.
    """
    sd, half = np.broadcast_arrays(np.asarray(sd, dtype=float), np.asarray(half, dtype=float))

    def narrow(log_games):
        games = np.exp(log_games)
        return sd * mixture_boundary(games, rho, alpha) / games <= half

    low, high = np.zeros(sd.shape), np.full(sd.shape, np.log(most))
    for _ in range(50):  # log(1e9) / 2**50: well under a game
        mid = (low + high) / 2
        fits = narrow(mid)
        low, high = np.where(fits, low, mid), np.where(fits, mid, high)
    return np.where(narrow(np.log(most)), np.exp(high), np.nan)
