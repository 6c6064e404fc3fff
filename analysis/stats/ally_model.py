"""Ally strength against the average ally: a game-stratified conditional logit.

Why not a win rate against 1/n
------------------------------
A player who holds more allies has drawn more, and drawing is what a player does
when it cannot complete tasks: holding more cards goes with losing (in four-player
greedy games, players who held at most 8 allies win about 52%, those who held 12–14
about 21.5%). So the average ally's held win rate is below 1/n, and a test of each
ally against 1/n flags almost every ally, even allies that are identical by
construction. The right null is *the average ally*.

The model
---------
Each finished game has exactly one winner (R9.3). Given the game, the chance that
player ``i`` is the winner is a softmax over the game's players,

    P(winner = i | game) = exp(x_i·β) / Σ_j exp(x_j·β),

where ``x_i`` marks the allies player ``i`` held during the game (``held``) and its
turn-order position (R9.4; positions 2..n against the first). This is McFadden's
conditional logit with one stratum per game (McFadden 1974; statsmodels'
``ConditionalLogit`` with ``groups = game``): everything the players of a game share
cancels, so the unit of analysis is the game and no row is counted as independent
of its table-mates.

Fitted out of core
------------------
The log-likelihood, its gradient and its Hessian are sums over games, so they are
accumulated chunk by chunk (:class:`SoftmaxTotals`, :func:`softmax_totals`, in
float64) and Newton's method steps on the totals: each step is one pass over the
games, and memory is one chunk's whatever the number of games. The likelihood is
concave, so Newton's step, halved while it lowers the likelihood, converges. It
starts from a ridge fit of the first :data:`START_GAMES` games (held in memory, then
reused by the first pass), whose error is their sampling error; Newton's error
squares at each step, so two or three passes bring the step below
:data:`STEP_TOL`. The sandwich's middle, the games' score outer products, is summed
in the same passes. statsmodels' implementation holds every row and loops over
strata in Python; a test checks that both reach the same maximum.

Effects are centred on the mean ally, ``δ_a = β_a − mean_b β_b``: what holding ally
``a`` instead of an average ally does, for the same number of allies held, so the
held-count confound cancels. They are reported in percentage points of win rate for
an average player at an otherwise fair table of ``n``:

    effect_pp = 100 · (e^δ / (e^δ + n − 1) − 1/n),

and the 95% interval is the image of ``δ ± 1.96·se`` (the map is increasing). The
covariance is the sandwich ``H⁻¹ B H⁻¹`` over games (Huber 1967; robust to a
misspecified additive model), with ``H`` the Hessian and ``B`` the sum of the games'
score outer products. Each ally is tested against ``δ = 0`` (Wald), and the
p-values are corrected across the deck's allies by Benjamini–Hochberg.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import chain

import numpy as np
from scipy import stats as sps
from scipy.special import expit
from threadpoolctl import threadpool_limits

from analysis.data.player_games import chunks
from analysis.data.pool import ordered_map
from analysis.data.spool import AllySpool, Packed
from analysis.stats.inference import ALPHA

MIN_INFORMATIVE_GAMES = 20  # an ally held by some players and not others in fewer games is not estimated
# With several groups, an ally's holders in a group must win in at least this many of its informative games and
# lose in as many: a group that almost never (or almost always) wins, e.g. random against greedy, separates the
# likelihood and its sandwich interval is then falsely narrow.
MIN_GROUP_OUTCOMES = 20
# Converged when no coefficient's Newton step exceeds this (log-odds); the step is then taken without another
# pass (Newton's error is about the square of the step), and the covariances are those of the point before it.
STEP_TOL = 1e-6
MAX_EVALUATIONS = 20  # passes over the games (Newton steps and their halvings) before a fit is declared not converged
LOGLIK_SLACK = 1e-12  # a step may lower the log-likelihood by this share of it (rounding of the sums)
START_GAMES = 50_000  # the start is fitted on the first chunks of at least this many games, held in memory
START_RIDGE = 1.0  # L2 penalty of the start fit: finite even where those games separate an ally
START_TOL = 1e-3  # the start's Newton step tolerance: its sampling error is larger anyway

Design = Callable[[], Iterable]
"""One pass over the games: chunks of ``(x, winner)``, ``x`` float64 ``(g, n, K)`` the
players' covariates, ``winner`` int ``(g,)`` the winner's turn-order position; or
chunks that build them where they are evaluated (:class:`AllyDesign`)."""
AllyData = Callable[[], Iterable[tuple[np.ndarray, np.ndarray, np.ndarray]]]
"""One pass over the games: chunks of ``(held, winner, group)``, ``held`` bool
``(g, n, A)``, ``winner`` int ``(g,)``, ``group`` int ``(g, n)`` (each player's group);
or an :class:`analysis.data.spool.AllySpool`, whose packed chunks are what is sent
to the worker processes."""


@dataclass(frozen=True)
class SoftmaxFit:
    """A fitted within-game softmax (conditional logit).

    Attributes
    ----------
    params : ndarray of float64, shape (K,)
        Coefficients ``β`` (log-odds scale).
    cov : ndarray of float64, shape (K, K)
        Sandwich covariance over games, ``H⁻¹ B H⁻¹``.
    cov_model : ndarray of float64, shape (K, K)
        Model-based covariance ``H⁻¹`` (what statsmodels reports by default).
    games : int
    converged : bool
    passes : int
        Passes over the games the fit took.
    """

    params: np.ndarray
    cov: np.ndarray
    cov_model: np.ndarray
    games: int
    converged: bool
    passes: int


@dataclass(frozen=True)
class SoftmaxTotals:
    """Sums over games of the conditional logit's pieces at one ``β``.

    Attributes
    ----------
    loglik : float
        ``Σ_g log P(winner_g | game g)``.
    gradient : ndarray of float64, shape (K,)
        ``Σ_g s_g``, the games' scores ``s_g = x_winner − Σ_i p_i x_i``.
    information : ndarray of float64, shape (K, K)
        Minus the Hessian, ``Σ_g (Σ_i p_i x_i x_iᵀ − m_g m_gᵀ)`` with ``m_g = Σ_i p_i x_i``.
    meat : ndarray of float64, shape (K, K)
        ``Σ_g s_g s_gᵀ``, the sandwich's middle.
    games : int
    """

    loglik: float
    gradient: np.ndarray
    information: np.ndarray
    meat: np.ndarray
    games: int

    def __add__(self, other: SoftmaxTotals) -> SoftmaxTotals:
        return SoftmaxTotals(self.loglik + other.loglik, self.gradient + other.gradient,
                             self.information + other.information, self.meat + other.meat,
                             self.games + other.games)  # fmt: skip

    def penalised(self, beta: np.ndarray, ridge: float) -> SoftmaxTotals:
        """The totals of ``loglik − ridge/2 · |β|²``."""
        return SoftmaxTotals(self.loglik - ridge / 2 * beta @ beta, self.gradient - ridge * beta,
                             self.information + ridge * np.eye(len(beta)), self.meat, self.games)  # fmt: skip


def softmax_totals(x: np.ndarray, winner: np.ndarray, beta: np.ndarray, overwrite_x: bool = False) -> SoftmaxTotals:
    """The conditional logit's totals over one chunk of games, in float64.

    Parameters
    ----------
    x : ndarray of float64, shape (g, n, K)
        The players' covariates (0/1 for the allies).
    winner : ndarray of int, shape (g,)
        Turn-order position of each game's winner.
    beta : ndarray of float64, shape (K,)
    overwrite_x : bool
        Use ``x``'s memory for the weighted rows (saves an array the size of ``x``);
        ``x`` is then left changed.

    Returns
    -------
    SoftmaxTotals
    """
    x = np.asarray(x, np.float64)
    games, n, k = x.shape
    eta = (x.reshape(-1, k) @ beta).reshape(games, n)
    top = eta.max(1, keepdims=True)
    odds = np.exp(eta - top)
    total = odds.sum(1, keepdims=True)
    p = odds / total
    rows = np.arange(games)
    mean_x = np.einsum("gi,gik->gk", p, x)
    scores = x[rows, winner] - mean_x
    flat = np.multiply(x, np.sqrt(p)[..., None], out=x if overwrite_x else None).reshape(-1, k)  # rows √p_i x_i:
    # Σ_i p_i x_i x_iᵀ is one matrix product
    loglik = (eta[rows, winner] - top[:, 0] - np.log(total[:, 0])).sum()
    return SoftmaxTotals(float(loglik), scores.sum(0), flat.T @ flat - mean_x.T @ mean_x, scores.T @ scores, games)


def _newton(evaluate: Callable[[np.ndarray], SoftmaxTotals], beta: np.ndarray, tol: float,
            current: SoftmaxTotals | None = None) -> tuple[np.ndarray, SoftmaxTotals, bool, int]:  # fmt: skip
    """Maximise a concave log-likelihood by Newton steps, each halved while it lowers
    the likelihood, in at most :data:`MAX_EVALUATIONS` evaluations (passes). Returns
    (β, the totals at the last point evaluated, converged, evaluations); β is that
    point plus its last Newton step (below ``tol``)."""
    evaluations = 0
    if current is None:
        current, evaluations = evaluate(beta), 1
    while True:
        step = np.linalg.pinv(current.information) @ current.gradient
        if np.abs(step).max(initial=0.0) <= tol:
            return beta + step, current, True, evaluations
        while evaluations < MAX_EVALUATIONS:
            trial, evaluations = evaluate(beta + step), evaluations + 1
            if trial.loglik >= current.loglik - LOGLIK_SLACK * abs(current.loglik):
                break
            step = step / 2
        else:  # no convergence, e.g. an ally that separates winners from losers: the maximum is at infinity
            return beta, current, False, evaluations
        beta, current = beta + step, trial


@dataclass(frozen=True)
class DesignChunk:
    """A chunk of games' ``(x, winner)`` (:data:`Design`), held in memory."""

    x: np.ndarray
    winner: np.ndarray

    @property
    def games(self) -> int:
        return len(self.winner)

    @property
    def dim(self) -> int:
        return self.x.shape[2]

    def totals(self, beta: np.ndarray) -> SoftmaxTotals:
        return softmax_totals(self.x, self.winner, beta)


@dataclass(frozen=True)
class AllyDesign:
    """A chunk of :data:`AllyData` (bit-packed or not) with the model's layout, whose
    ``x`` is built where its totals are computed (:func:`ally_effects_by_group`):
    each group's estimable allies, a dummy per group but the first, turn order."""

    data: Packed | tuple[np.ndarray, np.ndarray, np.ndarray]
    columns: tuple[np.ndarray, ...]  # per group, the estimable allies' indices
    players: int

    @property
    def games(self) -> int:
        return self.data.games if isinstance(self.data, Packed) else len(self.data[1])

    @property
    def dim(self) -> int:
        return sum(len(c) for c in self.columns) + len(self.columns) - 1 + self.players - 1

    def totals(self, beta: np.ndarray) -> SoftmaxTotals:
        held, winner, group = _unpacked(self.data)
        n, groups = self.players, len(self.columns)
        x = np.zeros((len(winner), n, self.dim))
        start = 0
        for j, c in enumerate(self.columns):  # group j's block: its players' held allies
            block = held if len(c) == held.shape[2] else held[:, :, c]  # every ally estimable: no copy
            x[:, :, start:start + len(c)] = block & (group == j)[:, :, None] if groups > 1 else block
            start += len(c)
        for j in range(1, groups):  # a dummy per group but the first
            x[:, :, start] = group == j
            start += 1
        x[:, :, start:] = np.eye(n)[:, 1:]  # turn order: positions 2..n against the first (R9.4)
        return softmax_totals(x, winner, beta, overwrite_x=True)


def _unpacked(data: Packed | tuple[np.ndarray, np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return data.unpack() if isinstance(data, Packed) else data


def _chunk(item) -> DesignChunk | AllyDesign:
    return item if isinstance(item, (DesignChunk, AllyDesign)) else DesignChunk(*item)


def _totals_at(chunk: DesignChunk | AllyDesign, beta: np.ndarray) -> SoftmaxTotals:
    """One chunk's totals (a task of :func:`analysis.data.pool.ordered_map`; joblib
    gives each worker process one BLAS thread)."""
    return chunk.totals(beta)


def fit_softmax(design: Design) -> SoftmaxFit:
    """Fit ``P(winner = i | game) ∝ exp(x_i·β)`` by maximum likelihood, out of core
    (module docstring: Newton steps on totals over chunks of games).

    Each pass maps the chunks to their totals with
    :func:`analysis.data.pool.ordered_map` (on local worker processes, when there
    are) and adds them in chunk order, so the fit does not depend on the workers.

    Parameters
    ----------
    design : callable
        ``design()`` makes one pass over the games (:data:`Design`); it is called
        once per Newton step, and must give the same games in each pass.

    Returns
    -------
    SoftmaxFit
        Covariances from the totals at the last pass.

    Raises
    ------
    ValueError
        With fewer than two games.
    """
    passes = map(_chunk, design())
    start: list[DesignChunk | AllyDesign] = []  # the first chunks, up to START_GAMES games
    for chunk in passes:
        start.append(chunk)
        if sum(c.games for c in start) >= START_GAMES:
            break
    if not start:
        raise ValueError("a conditional logit needs at least two games")

    def one_pass(beta: np.ndarray, chunks: Iterable[DesignChunk | AllyDesign]) -> SoftmaxTotals:
        total = None
        for totals in ordered_map(_totals_at, chunks, beta):
            total = totals if total is None else total + totals
        return total

    with threadpool_limits(limits=1, user_api="blas"):  # small products: threads other processes hold only slow them
        ridge = lambda b: one_pass(b, start).penalised(b, START_RIDGE)  # noqa: E731
        beta, *_ = _newton(ridge, np.zeros(start[0].dim), START_TOL)
        current = one_pass(beta, chain(start, passes))  # the first pass reuses the start's chunks
        if current.games < 2:
            raise ValueError("a conditional logit needs at least two games")
        beta, current, converged, evaluations = _newton(lambda b: one_pass(b, map(_chunk, design())), beta,
                                                        STEP_TOL, current)  # fmt: skip
    cov_model = np.linalg.pinv(current.information)
    return SoftmaxFit(beta, cov_model @ current.meat @ cov_model, cov_model, current.games, converged, 1 + evaluations)


def effect_pp(delta, n_players: int):
    """Percentage points of win rate that a log-odds effect ``δ`` gives an average
    player at a table of ``n_players``: ``100 · (e^δ / (e^δ + n − 1) − 1/n)``, computed
    as the logistic of ``δ − ln(n − 1)`` (``scipy.special.expit``), which holds for
    any ``δ``: ``e^δ`` overflows past ``δ ≈ 709`` (an ally held only by winners, in
    an odd deck), and ``inf / inf`` would give NaN where the answer is ``100 · (1 − 1/n)``."""
    return 100 * (expit(np.asarray(delta, np.float64) - np.log(n_players - 1)) - 1 / n_players)


def _blocks(held: np.ndarray, group: np.ndarray, groups: int) -> list[np.ndarray]:
    """Each group's ally block, bool ``(g, n, A)``: ``held`` on its players' rows, False elsewhere."""
    return [held & (group == j)[:, :, None] for j in range(groups)]


def informative_counts(held: np.ndarray, winner: np.ndarray, group: np.ndarray, groups: int) -> dict[str, np.ndarray]:
    """What decides which allies can be estimated, over one chunk of games.

    Parameters
    ----------
    held : ndarray of bool, shape (g, n, A)
    winner : ndarray of int, shape (g,)
    group : ndarray of int, shape (g, n)
    groups : int

    Returns
    -------
    dict of ndarray of int64, each shape (groups, A)
        ``informative``: games where the ally tells the game's players apart (some
        of the group's players held it, and some player did not); ``holder_won``:
        those of them a holder of the group won.
    """
    rows = np.arange(len(winner))
    some = [block.any(1) & ~block.all(1) for block in _blocks(held, group, groups)]  # (g, A) each
    won = [block[rows, winner] for block in _blocks(held, group, groups)]
    return {"informative": np.stack([s.sum(0) for s in some]).astype(np.int64),
            "holder_won": np.stack([(w & s).sum(0) for w, s in zip(won, some)]).astype(np.int64)}  # fmt: skip


def _effect_columns(delta: np.ndarray, se: np.ndarray, n: int) -> dict[str, np.ndarray]:
    z = sps.norm.ppf(1 - ALPHA / 2)
    return {"effect_logit": delta, "effect_se": se, "effect_pp": effect_pp(delta, n),
            "effect_low_pp": effect_pp(delta - z * se, n), "effect_high_pp": effect_pp(delta + z * se, n),
            "p_value": 2 * sps.norm.sf(np.abs(delta / se))}  # fmt: skip


def _empty(allies: int, informative: np.ndarray) -> dict[str, np.ndarray]:
    keys = ("effect_logit", "effect_se", "effect_pp", "effect_low_pp", "effect_high_pp", "p_value")
    return {"informative_games": informative.astype(np.float64), **{key: np.full(allies, np.nan) for key in keys}}


def ally_effects_by_group(data: AllyData, players: int, groups: int, counts: dict[str, np.ndarray] | None = None
                          ) -> tuple[list[dict[str, np.ndarray]], dict[str, np.ndarray]]:  # fmt: skip
    """Each ally's effect against the average ally for each group of players (e.g.
    the bot that played the row), and the difference between groups 1 and 0.

    One conditional logit (module docstring) with an ally block per group: player
    ``i``'s covariates are ``held[i]`` in its group's block and zeros in the others,
    a dummy per group but the first, and its turn order. Each group's effects are
    centred on that group's mean ally; the difference ``δ₁ − δ₀`` of an ally
    estimable in both groups is in percentage points, ``effect_pp(δ₁) −
    effect_pp(δ₀)``, with a delta-method interval from the fit's sandwich covariance
    and its Wald test.

    Parameters
    ----------
    data : callable
        ``data()`` makes one pass over the games (:data:`AllyData`); it is called
        once per Newton step (:func:`fit_softmax`), once more without ``counts``.
    players : int
        ``n``, players per game.
    groups : int
        Groups are numbered ``0 .. groups - 1``.
    counts : dict of ndarray, optional
        :func:`informative_counts` summed over the same games, when the caller has
        them already (saves a pass).

    Returns
    -------
    effects : list of dict
        Per group, :func:`ally_effects`'s columns, ``informative_games`` counting
        the games in which the group's players tell the ally apart. With several
        groups an ally is estimated in a group only when its holders there won and
        lost in :data:`MIN_GROUP_OUTCOMES` informative games each, and nothing is
        estimated when the fit does not converge.
    difference : dict of ndarray of float64, each shape (A,)
        ``difference_pp`` with ``difference_low_pp``/``difference_high_pp`` (95%)
        and ``p_value`` (NaN where an ally is not estimable in both groups 0 and 1,
        or with one group).

    Raises
    ------
    ValueError
        With fewer than two games.
    """
    if counts is None:
        counts = {}
        for held, winner, group in data():
            part = informative_counts(held, winner, group, groups)
            counts = {key: counts.get(key, 0) + value for key, value in part.items()}
        if not counts:
            raise ValueError("a conditional logit needs at least two games")
    informative, holder_won = counts["informative"], counts["holder_won"]
    least = 1 if groups == 1 else MIN_GROUP_OUTCOMES
    estimable = (informative >= MIN_INFORMATIVE_GAMES) & (holder_won >= least) & (informative - holder_won >= least)
    columns = [np.flatnonzero(e) for e in estimable]
    allies = informative.shape[1]
    effects = [_empty(allies, i) for i in informative]
    difference = {key: np.full(allies, np.nan) for key in ("difference_pp", "difference_low_pp", "difference_high_pp",
                                                           "p_value")}  # fmt: skip
    if sum(len(c) >= 2 for c in columns) == 0:
        return effects, difference
    n = players
    chunks = data.packed if isinstance(data, AllySpool) else data  # packed chunks travel to the workers
    fit = fit_softmax(lambda: (AllyDesign(chunk, tuple(columns), n) for chunk in chunks()))
    if groups > 1 and not fit.converged:  # separation: no estimate is trustworthy
        return effects, difference
    starts = np.cumsum([0] + [len(c) for c in columns])
    contrasts = []  # per group: rows mapping β to the centred effects δ_j of its estimable allies
    for j, c in enumerate(columns):
        rows = np.zeros((len(c), len(fit.params)))
        if len(c) >= 2:
            rows[:, starts[j]:starts[j + 1]] = np.eye(len(c)) - 1.0 / len(c)
            delta = rows @ fit.params
            for key, value in _effect_columns(delta, np.sqrt(np.diag(rows @ fit.cov @ rows.T)), n).items():
                effects[j][key][c] = value
        contrasts.append(rows)
    if groups < 2 or min(len(columns[0]), len(columns[1])) < 2:
        return effects, difference
    both = np.intersect1d(columns[0], columns[1])
    r0, r1 = contrasts[0][np.searchsorted(columns[0], both)], contrasts[1][np.searchsorted(columns[1], both)]
    d0, d1 = r0 @ fit.params, r1 @ fit.params
    slope = lambda d: 100 * (n - 1) * np.exp(d) / (np.exp(d) + n - 1) ** 2  # noqa: E731  d effect_pp / dδ
    gradient = slope(d1)[:, None] * r1 - slope(d0)[:, None] * r0  # (allies, K): the pp difference's gradient
    value = effect_pp(d1, n) - effect_pp(d0, n)
    se = np.sqrt(np.einsum("ak,kl,al->a", gradient, fit.cov, gradient))
    z = sps.norm.ppf(1 - ALPHA / 2)
    difference["difference_pp"][both], difference["p_value"][both] = value, 2 * sps.norm.sf(np.abs(value / se))
    difference["difference_low_pp"][both], difference["difference_high_pp"][both] = value - z * se, value + z * se
    return effects, difference


def ally_effects(held: np.ndarray, winner: np.ndarray) -> dict[str, np.ndarray]:
    """Each ally's effect on winning against the average ally (module docstring;
    :func:`ally_effects_by_group` with one group).

    Parameters
    ----------
    held : ndarray of bool, shape (G, n, A)
        ``held[g, i, a]``: the player at turn-order position ``i`` of game ``g`` held
        ally ``a`` (or any per-player ally indicator, e.g. the opening hand).
    winner : ndarray of int, shape (G,)
        Turn-order position of each game's winner (R9.3).

    Returns
    -------
    dict of ndarray of float64, each shape (A,)
        ``informative_games`` (games where some players held the ally and others
        did not), ``effect_logit`` (``δ``, log-odds against the mean ally) with
        ``effect_se``, ``effect_pp`` with ``effect_low_pp`` and ``effect_high_pp``
        (95%), ``p_value`` (Wald test of ``δ = 0``). NaN for allies with fewer
        than :data:`MIN_INFORMATIVE_GAMES` informative games, or whose holders
        always or never won in them (the likelihood has no maximum).

    Raises
    ------
    ValueError
        With fewer than two games.
    """
    group = np.zeros(held.shape[:2], np.int64)

    def data() -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        for part in chunks(len(winner)):
            yield held[part], winner[part], group[part]

    return ally_effects_by_group(data, held.shape[1], 1)[0][0]
