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
of its table-mates. The likelihood is fitted here by ``scipy.optimize`` (trust-region
Newton with the exact gradient and Hessian, vectorised over games) because
statsmodels' implementation loops over strata in Python; a test checks both agree
on a subsample.

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

from dataclasses import dataclass

import numpy as np
from scipy import optimize
from scipy import stats as sps
from scipy.special import logsumexp
from threadpoolctl import threadpool_limits

from analysis.data.player_games import chunks
from analysis.stats.inference import ALPHA

DESIGN_CACHE_BYTES = 2 << 30  # keep the fit's design matrix in memory up to 2 GiB
MIN_INFORMATIVE_GAMES = 20  # an ally held by some players and not others in fewer games is not estimated
# With several groups, an ally's holders in a group must win in at least this many of its informative games and
# lose in as many: a group that almost never (or almost always) wins, e.g. random against greedy, separates the
# likelihood and its sandwich interval is then falsely narrow.
MIN_GROUP_OUTCOMES = 20


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
    """

    params: np.ndarray
    cov: np.ndarray
    cov_model: np.ndarray
    games: int
    converged: bool


def _pieces(x: np.ndarray, winner: np.ndarray, beta: np.ndarray):
    """Log-likelihood, score rows and Hessian of one chunk of games.

    ``x`` is ``float32 (g, n, K)``, ``winner`` ``(g,)`` the winner's position in each
    game. Products run in float32 (the design is 0/1) and are summed in float64."""
    eta = (x @ beta.astype(np.float32)).astype(np.float64)
    log_p = eta - logsumexp(eta, axis=1, keepdims=True)
    rows = np.arange(len(winner))
    p = np.exp(log_p).astype(np.float32)
    mean_x = np.matmul(p[:, None, :], x)[:, 0, :]
    scores = (x[rows, winner] - mean_x).astype(np.float64)
    flat = (x * np.sqrt(p)[..., None]).reshape(-1, x.shape[2])
    hessian = (flat.T @ flat).astype(np.float64) - (mean_x.T @ mean_x).astype(np.float64)
    return log_p[rows, winner].sum(), scores, hessian


def fit_softmax(design, winner: np.ndarray) -> SoftmaxFit:
    """Fit ``P(winner = i | game) ∝ exp(x_i·β)`` by maximum likelihood.

    Parameters
    ----------
    design : callable
        ``design(slice) -> ndarray float32 (g, n, K)``: the covariates of the games in
        the slice (built chunk by chunk; kept while they fit in
        :data:`DESIGN_CACHE_BYTES`).
    winner : ndarray of int, shape (G,)
        Turn-order position of each game's winner.

    Returns
    -------
    SoftmaxFit

    Raises
    ------
    ValueError
        With fewer than two games.
    """
    games = len(winner)
    if games < 2:
        raise ValueError("a conditional logit needs at least two games")
    k = design(slice(0, 1)).shape[2]
    parts = list(chunks(games))
    if games * design(slice(0, 1)).nbytes <= DESIGN_CACHE_BYTES:
        built = [design(part) for part in parts]
        design_of = dict(zip(range(len(parts)), built)).__getitem__
    else:
        design_of = lambda i: design(parts[i])  # noqa: E731
    cache: dict[bytes, tuple] = {}

    def evaluate(beta):
        key = beta.tobytes()
        if key not in cache:
            cache.clear()
            ll, grad, hess, meat = 0.0, np.zeros(k), np.zeros((k, k)), np.zeros((k, k))
            for i, part in enumerate(parts):
                part_ll, scores, part_hess = _pieces(design_of(i), winner[part], beta)
                ll, grad, hess, meat = ll + part_ll, grad + scores.sum(0), hess + part_hess, meat + scores.T @ scores
            cache[key] = (-ll / games, -grad / games, hess / games, meat)
        return cache[key]

    # One BLAS thread: the products are small, and a BLAS spinning on threads that other
    # processes hold slowed the fit fivefold on a busy machine.
    with threadpool_limits(limits=1, user_api="blas"):
        result = optimize.minimize(lambda b: evaluate(b)[:2], np.zeros(k), jac=True, hess=lambda b: evaluate(b)[2],
                                   method="trust-exact", options={"gtol": 1e-6, "maxiter": 100})  # fmt: skip
    beta = result.x
    _, _, hessian, meat = evaluate(beta)
    cov_model = np.linalg.pinv(hessian * games)
    return SoftmaxFit(beta, cov_model @ meat @ cov_model, cov_model, games, bool(result.success))


def effect_pp(delta, n_players: int):
    """Percentage points of win rate that a log-odds effect ``δ`` gives an average
    player at a table of ``n_players``: ``100 · (e^δ / (e^δ + n − 1) − 1/n)``."""
    odds = np.exp(np.asarray(delta, np.float64))
    return 100 * (odds / (odds + n_players - 1) - 1 / n_players)


def _estimable(held: np.ndarray, winner: np.ndarray, least: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """(informative games per ally, the allies that can be estimated), ``(A,)`` each:
    at least :data:`MIN_INFORMATIVE_GAMES` informative games, in ``least`` or more of
    which a holder won and in ``least`` or more of which none did."""
    some = held.any(1) & ~held.all(1)  # (G, A): the ally tells this game's players apart
    informative = some.sum(0)
    holder_won = (held[np.arange(len(winner)), winner] & some).sum(0)
    return informative, ((informative >= MIN_INFORMATIVE_GAMES) & (holder_won >= least)
                         & (informative - holder_won >= least))  # fmt: skip


def _effect_columns(delta: np.ndarray, se: np.ndarray, n: int) -> dict[str, np.ndarray]:
    z = sps.norm.ppf(1 - ALPHA / 2)
    return {"effect_logit": delta, "effect_se": se, "effect_pp": effect_pp(delta, n),
            "effect_low_pp": effect_pp(delta - z * se, n), "effect_high_pp": effect_pp(delta + z * se, n),
            "p_value": 2 * sps.norm.sf(np.abs(delta / se))}  # fmt: skip


def _empty(allies: int, informative: np.ndarray) -> dict[str, np.ndarray]:
    keys = ("effect_logit", "effect_se", "effect_pp", "effect_low_pp", "effect_high_pp", "p_value")
    return {"informative_games": informative.astype(np.float64), **{key: np.full(allies, np.nan) for key in keys}}


def ally_effects_by_group(held: np.ndarray, winner: np.ndarray, group: np.ndarray,
                          groups: int) -> tuple[list[dict[str, np.ndarray]], dict[str, np.ndarray]]:  # fmt: skip
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
    held : ndarray of bool, shape (G, n, A)
    winner : ndarray of int, shape (G,)
    group : ndarray of int, shape (G, n)
        Each player's group, ``0 .. groups - 1``.
    groups : int

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
    games, n, allies = held.shape
    members = [group == j for j in range(groups)]
    blocks = [held if groups == 1 else held & m[:, :, None] for m in members]
    least = 1 if groups == 1 else MIN_GROUP_OUTCOMES
    informative, estimable = zip(*(_estimable(block, winner, least) for block in blocks))
    columns = [np.flatnonzero(e) for e in estimable]
    effects = [_empty(allies, i) for i in informative]
    difference = {key: np.full(allies, np.nan) for key in ("difference_pp", "difference_low_pp", "difference_high_pp",
                                                           "p_value")}  # fmt: skip
    if sum(len(c) >= 2 for c in columns) == 0:
        return effects, difference
    position = np.eye(n, dtype=np.float32)[:, 1:]  # turn-order dummies, positions 2..n against the first (R9.4)

    def design(part: slice) -> np.ndarray:
        x = [block[part][:, :, c].astype(np.float32) for block, c in zip(blocks, columns)]
        dummies = [m[part][:, :, None].astype(np.float32) for m in members[1:]]
        return np.concatenate([*x, *dummies, np.broadcast_to(position, (part.stop - part.start, n, n - 1))], axis=2)

    fit = fit_softmax(design, winner)
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
    return ally_effects_by_group(held, winner, np.zeros(held.shape[:2], np.int64), 1)[0][0]
