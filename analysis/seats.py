"""Seat advantage by turn order (RULES R9.4), ties, scores, and win rates by bot.

The first seat is random (R2.2), so win rates by seat number are equal by
construction; the advantage that matters is the *turn-order position*: 1 = the first
player, 2 = the second … In the ``games`` table ``winner`` is the winner's turn-order
index (0-based); in the ``players`` table ``turn_order`` is, and ``won`` marks the
winning row.

Is the table fair? A χ² goodness-of-fit test of "every turn-order position wins
equally often" (Pearson 1900; ``scipy.stats.chisquare`` on the wins per position)
answers it, and the gaps between positions come with simultaneous 95% intervals
(Bonferroni over the position pairs, Wald intervals for a difference of two
multinomial shares: Goodman 1965), so that "position 1 wins more than position 4"
can be read off without a multiple-comparison trap.

Metrics from Ludii's game metrics (Browne, Piette et al., ludii.games): *Balance* =
1 − the largest gap between the win rates of any two positions (1 = all positions
win equally often); *AdvantageP1* = the first player's win rate, shown also as a
ratio to the fair rate 1/n so that 2, 3 and 4 players compare. Balance gets no
interval: the largest gap is biased upwards by noise, so a percentile interval never
contains 1 even at a fair table; ``balance_fair_5`` gives the value that a fair
table of the same number of games stays above in 95% of runs, and the χ² test is the
test of fairness.

A win rate that equals 1/n by construction — a bot that plays every seat — is shown
without an interval. Rows of the players table pooled over seats share their games,
so a bot's win rate has a game-clustered interval (:mod:`analysis.stats.clustered`).

Win-rate figures (and the scores here) leave out stalled and truncated games unless
``include_unfinished`` (RULES R4 Reading).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from itertools import combinations

from scipy import stats as sps

from analysis.data.player_games import bot_labels
from analysis.data.runs import Run, RunsLike, per_run
from analysis.data.passes import Pass, totals_of
from analysis.data.stream import Batch, Columns, Totals
from analysis.stats.clustered import GameMoments, ratio_columns
from analysis.stats.histogram import Histogram
from analysis.stats.inference import ALPHA, multinomial_bootstrap, rate_columns
from analysis.stats.power import detectable_from_interval
from analysis.thresholds import DEFAULT_THRESHOLD_PP

BOOTSTRAP_SEED = 20150101  # fixed: a report is reproducible


def balance(win_rates) -> np.ndarray:
    """Ludii's Balance: 1 − (largest − smallest win rate) along the last axis.

    Parameters
    ----------
    win_rates : array_like of float, shape (..., positions)
        Win rates as fractions.

    Returns
    -------
    ndarray of float64, shape (...)
        1 for equal win rates; 0 when one position always wins.
    """
    win_rates = np.asarray(win_rates, np.float64)
    return 1.0 - (win_rates.max(axis=-1) - win_rates.min(axis=-1))


def _game_counts(players: int, bot_column: str, bot_label: np.ndarray, bots: int):
    def totals(batch: Batch) -> Totals:
        scores, won = batch.players["score"], batch.players["won"] == 1
        tied = (scores == scores.max(axis=1, keepdims=True)).sum(axis=1) > 1 if batch.size else np.zeros(0, bool)
        winner = batch.games["winner"]
        mine = bot_label[batch.players[bot_column]][..., None] == np.arange(bots)  # (G, n, bots)
        return {"games": batch.size, "wins": np.bincount(winner[winner >= 0], minlength=players).astype(np.int64),
                "tied": int(tied.sum()), "dice": int(batch.games["tie_broken_by_dice"].sum()),
                "zero": int((won & (scores == 0)).sum()),
                "scores": Histogram.of(scores, np.broadcast_to(np.arange(players), scores.shape), players),
                "bots": GameMoments.of(np.stack([(mine & won[..., None]).sum(1), mine.sum(1)], axis=-1))}  # fmt: skip

    return totals


def game_counts(run: Run, include_unfinished: bool = False) -> Totals:
    """How the games counted were won and scored, in one pass shared by the tables
    that read it.

    Returns
    -------
    dict
        ``games``; ``wins`` per turn-order position, int64 ``(players,)``; ``tied``
        (games whose top score, R9.2, is shared by two or more players), ``dice``
        (games whose winner R9.3's die roll chose) and ``zero`` (games won with 0
        points); ``scores``, the :class:`~analysis.stats.histogram.Histogram` of
        final scores by turn-order position; ``bots``, the
        :class:`~analysis.stats.clustered.GameMoments` of each game's wins and
        player rows per bot of :func:`analysis.data.player_games.bot_labels`.
    """
    return totals_of(run, game_counts_pass(run, include_unfinished))


def game_counts_pass(run: Run, include_unfinished: bool = False) -> Pass:
    """The pass of :func:`game_counts`."""
    names, column, label = bot_labels(run)
    columns = Columns(games=("winner", "tie_broken_by_dice"), players=("score", "won", column))
    return Pass(("game counts", include_unfinished), columns, _game_counts(run.players, column, label, len(names)),
                include_unfinished)  # fmt: skip


def seat_win_rates(runs: RunsLike, include_unfinished: bool = False) -> pd.DataFrame:
    """Win rate per turn-order position (R9.4).

    Returns
    -------
    pandas.DataFrame
        One row per run and position: ``position`` (1 = first player), ``games``,
        ``wins``, ``win_rate`` with its Wilson interval, ``baseline`` (1/players).
    """

    def one(run: Run) -> pd.DataFrame:
        counts = game_counts(run, include_unfinished)
        games, wins = counts["games"], counts["wins"]
        positions = np.arange(1, run.players + 1)
        rates = rate_columns("win_rate", wins, np.full(run.players, games))
        return pd.DataFrame({"position": positions, "games": games, "wins": wins, **rates, "baseline": run.baseline})

    return per_run(runs, one)


def tie_counts(run: Run, include_unfinished: bool = False) -> tuple[int, int, int]:
    """``(games, tied on points, decided by dice)``: games counted, games whose top
    score (R9.2) was shared, and games whose winner R9.3's die roll chose."""
    counts = game_counts(run, include_unfinished)
    return counts["games"], counts["tied"], counts["dice"]


def first_player_edge(balance: pd.DataFrame) -> tuple[pd.Series, pd.Series, pd.Series]:
    """The first player's edge over a fair seat, ``advantage_p1 − 1/players``, with
    its 95% bounds, in percentage points, from :func:`seat_balance`'s columns: three
    Series of its rows, or three numbers of one row (a Series)."""
    fair = 1 / balance["players"]
    return tuple(100 * (balance[f"advantage_p1{end}"] - fair) for end in ("", "_low", "_high"))


def seat_balance(runs: RunsLike, include_unfinished: bool = False,
                 threshold_pp: float = DEFAULT_THRESHOLD_PP) -> pd.DataFrame:  # fmt: skip
    """Is the table fair by turn order? χ² test, Balance, AdvantageP1 and tie rates
    (R9.3, R9.4; module docstring).

    Parameters
    ----------
    include_unfinished : bool
        Count stalled and truncated games (left out by default, RULES R4 Reading).
    threshold_pp : float
        The first player's edge over a fair seat (percentage points of win rate)
        that matters to a designer.

    Returns
    -------
    pandas.DataFrame
        One row per run: ``games``; ``chi2`` and ``chi2_p_value`` (every position
        wins equally, ``n − 1`` degrees of freedom); ``balance`` and
        ``balance_fair_5``; ``advantage_p1`` (the first player's win rate) with its
        Wilson interval and ``advantage_p1_ratio`` (``advantage_p1 × n``, 1 = fair)
        with the same interval scaled; ``tied_on_points_rate`` (games whose top
        score was shared, so that R9.3's tie rules chose the winner) and
        ``decided_by_dice_rate`` (those where even completed tasks tied and a die
        roll decided), each with its Wilson interval; ``threshold_pp`` and
        ``mde_pp``, the edge (:func:`first_player_edge`, pp) told from fair at 5%
        and at least ``threshold_pp`` with 80% power at the run's games
        (:func:`analysis.stats.power.detectable_effect`).
    """

    def one(run: Run) -> pd.DataFrame:
        counts = game_counts(run, include_unfinished)
        games, wins, tied_games, dice_games = (counts[key] for key in ("games", "wins", "tied", "dice"))
        chi2, chi2_p = sps.chisquare(wins) if games else (np.nan, np.nan)
        fair = multinomial_bootstrap(np.ones(run.players), games, balance, seed=BOOTSTRAP_SEED) if games else [np.nan]
        p1 = rate_columns("advantage_p1", wins[:1], [games])
        return pd.DataFrame({
            "games": [games],
            "chi2": chi2,
            "chi2_p_value": chi2_p,
            "balance": balance(wins / games) if games else np.nan,
            "balance_fair_5": np.percentile(fair, 5),
            **p1,
            **{key.replace("advantage_p1", "advantage_p1_ratio"): value * run.players for key, value in p1.items()},
            **rate_columns("tied_on_points_rate", [tied_games], [games]),
            **rate_columns("decided_by_dice_rate", [dice_games], [games]),
            "threshold_pp": threshold_pp,
            "mde_pp": detectable_from_interval(100 * p1["advantage_p1_low"], 100 * p1["advantage_p1_high"], threshold_pp),
        })  # fmt: skip

    return per_run(runs, one)


def seat_differences(runs: RunsLike, include_unfinished: bool = False) -> pd.DataFrame:
    """Gaps between the win rates of every two turn-order positions, with
    simultaneous 95% intervals (module docstring).

    ``Var(p̂_i − p̂_j) = (p_i + p_j − (p_i − p_j)²) / N`` for shares of one multinomial
    sample of ``N`` games (Goodman 1965); the interval uses ``z`` at
    ``1 − α / (2m)`` for the ``m = n(n−1)/2`` pairs (Bonferroni), so all of them hold
    together with 95% confidence.

    Returns
    -------
    pandas.DataFrame
        One row per run and pair: ``position``, ``other`` (1 = first player),
        ``games``, ``difference`` (win rate of ``position`` − of ``other``, a
        fraction; ×100 for pp) with ``difference_low``/``difference_high``.
    """

    def one(run: Run) -> pd.DataFrame:
        counts = game_counts(run, include_unfinished)
        games, wins = counts["games"], counts["wins"]
        pairs = list(combinations(range(run.players), 2))
        z = sps.norm.ppf(1 - ALPHA / (2 * len(pairs)))
        rows = []
        for i, j in pairs:
            p_i, p_j = (wins[i] / games, wins[j] / games) if games else (np.nan, np.nan)
            half = z * np.sqrt((p_i + p_j - (p_i - p_j) ** 2) / games) if games else np.nan
            rows.append({"position": i + 1, "other": j + 1, "games": games, "difference": p_i - p_j,
                         "difference_low": p_i - p_j - half, "difference_high": p_i - p_j + half})  # fmt: skip
        return pd.DataFrame(rows)

    return per_run(runs, one)


def score_summary(runs: RunsLike, include_unfinished: bool = False) -> pd.DataFrame:
    """Final scores (R9.2) by turn-order position.

    Returns
    -------
    pandas.DataFrame
        One row per run and position: ``player_games``, ``mean`` score (points) with
        its t interval, ``sd``, ``median``, ``p5`` … ``p95``, ``min``, ``max``.
    """

    def one(run: Run) -> pd.DataFrame:
        scores = game_counts(run, include_unfinished)["scores"]
        out = pd.DataFrame({"position": np.arange(1, run.players + 1), **scores.summary("player_games")})
        return out[out["player_games"] > 0].reset_index(drop=True)  # positions of no game counted: no row

    return per_run(runs, one)


def score_histogram(runs: RunsLike, include_unfinished: bool = False) -> pd.DataFrame:
    """Distribution of final scores (points) by turn-order position.

    Returns
    -------
    pandas.DataFrame
        One row per run, position and score: ``player_games`` (of the position),
        ``count``, ``share`` with its Wilson interval.
    """

    def one(run: Run) -> pd.DataFrame:
        positions = {"position": np.arange(1, run.players + 1)}
        return game_counts(run, include_unfinished)["scores"].distribution("score", "player_games", positions)

    return per_run(runs, one)


def bot_win_rates(runs: RunsLike, include_unfinished: bool = False) -> pd.DataFrame:
    """Win rate per bot of the run (seats playing the same bot pooled).

    A player row's bot is :func:`analysis.data.player_games.bot_labels`'s. The rows
    of one game share it, so the interval is game-clustered; a bot that plays every
    seat wins exactly 1/n by construction (R9.3) and gets no interval.

    Returns
    -------
    pandas.DataFrame
        One row per run and bot: ``bot``, ``player_games``, ``wins``, ``win_rate``
        with its interval (NaN where fixed by construction), ``baseline``
        (1/players), ``by_construction`` (True where the bot plays every seat).
    """

    def one(run: Run) -> pd.DataFrame:
        names = bot_labels(run)[0]
        moments = game_counts(run, include_unfinished)["bots"]
        everywhere = np.array([run.bot_names.count(name) == run.players for name in names])
        rates = ratio_columns("win_rate", moments)
        for key in ("win_rate_low", "win_rate_high"):
            rates[key] = np.where(everywhere, np.nan, rates[key])
        return pd.DataFrame({"bot": names, "player_games": moments.total[:, 1].astype(np.int64),
                             "wins": moments.total[:, 0].astype(np.int64), **rates, "baseline": run.baseline,
                             "by_construction": everywhere})  # fmt: skip

    return per_run(runs, one)


def passes(run: Run, include_unfinished: bool = False) -> list[Pass]:
    """The passes over ``run`` of this module's report tables, for
    :func:`analysis.data.passes.prefetch`."""
    return [game_counts_pass(run, include_unfinished)]
