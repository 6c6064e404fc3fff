"""Seat advantage by turn order (RULES R9.4), ties, scores, and win rates by bot.

The first seat is random (R2.2), so win rates by seat number are equal by
construction; the advantage that matters is the *turn-order position*: 1 = the first
player, 2 = the second … In the ``games`` table ``winner`` is the winner's turn-order
index (0-based); in the ``players`` table ``turn_order`` is, and ``won`` marks the
winning row.

Metrics from Ludii's game metrics (Browne, Piette et al., ludii.games): *Balance* =
1 − the largest gap between the win rates of any two positions (1 = all positions
win equally often); *AdvantageP1* = the first player's win rate. The Balance
interval is a percentile bootstrap over games: resampling games is a multinomial
draw on the positions' win counts (:func:`analysis.stats.multinomial_bootstrap`).
Because noise alone opens gaps between positions, Balance is below 1 even at a fair
table; ``balance_fair_5`` gives the value that a fair table of the same number of
games stays above in 95% of runs.

Win-rate figures (and the scores here) leave out stalled and truncated games unless
``include_unfinished`` (RULES R4 Reading).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import polars as pl

from analysis.runs import Run, RunsLike, per_run
from analysis.stats import distribution, multinomial_bootstrap, rate_columns, summarise

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


def _win_counts(run: Run, include_unfinished: bool) -> tuple[int, np.ndarray]:
    games = run.scan_for_win_rates("games", "winner", include_unfinished=include_unfinished)
    counts = games.group_by("winner").len("wins").collect()
    wins = np.zeros(run.players, np.int64)
    wins[counts["winner"].to_numpy()] = counts["wins"].to_numpy()
    return int(wins.sum()), wins


def seat_win_rates(runs: RunsLike, include_unfinished: bool = False) -> pd.DataFrame:
    """Win rate per turn-order position (R9.4).

    Returns
    -------
    pandas.DataFrame
        One row per run and position: ``position`` (1 = first player), ``games``,
        ``wins``, ``win_rate`` with its Wilson interval, ``baseline`` (1/players).
    """

    def one(run: Run) -> pd.DataFrame:
        games, wins = _win_counts(run, include_unfinished)
        positions = np.arange(1, run.players + 1)
        rates = rate_columns("win_rate", wins, np.full(run.players, games))
        return pd.DataFrame({"position": positions, "games": games, "wins": wins, **rates, "baseline": run.baseline})

    return per_run(runs, one)


def _tied_on_points(run: Run, include_unfinished: bool) -> int:
    """Games whose top score (R9.2) is shared by two or more players."""
    players = run.scan_for_win_rates("players", "game", "score", include_unfinished=include_unfinished).collect()
    games = players["game"].to_numpy().reshape(-1, run.players)
    if not (games == games[:, :1]).all():  # rows not grouped by game (the runner writes them grouped)
        players = players.sort("game")
    scores = players["score"].to_numpy().reshape(-1, run.players)
    return int(((scores == scores.max(axis=1, keepdims=True)).sum(axis=1) > 1).sum())


def seat_balance(runs: RunsLike, include_unfinished: bool = False) -> pd.DataFrame:
    """Balance, AdvantageP1 and tie rates (R9.3, R9.4).

    Returns
    -------
    pandas.DataFrame
        One row per run: ``games``; ``balance`` with its bootstrap interval and
        ``balance_fair_5``; ``advantage_p1`` (the first player's win rate) with its
        Wilson interval; ``tied_on_points_rate`` (games whose top score was shared,
        so that R9.3's tie rules chose the winner) and ``decided_by_dice_rate``
        (those where even completed tasks tied and a die roll decided), each with
        its Wilson interval.
    """

    def one(run: Run) -> pd.DataFrame:
        games, wins = _win_counts(run, include_unfinished)
        tied_games = _tied_on_points(run, include_unfinished)
        dice = run.scan_for_win_rates("games", "tie_broken_by_dice", include_unfinished=include_unfinished)
        dice_games = int(dice.select(pl.col("tie_broken_by_dice").sum()).collect().item())
        if games:
            replicates = multinomial_bootstrap(wins, games, balance, seed=BOOTSTRAP_SEED)
            fair = multinomial_bootstrap(np.ones(run.players), games, balance, seed=BOOTSTRAP_SEED)
        else:  # every game was left out
            replicates = fair = np.full(1, np.nan)
        return pd.DataFrame({
            "games": [games],
            "balance": balance(wins / games) if games else np.nan,
            "balance_low": np.percentile(replicates, 2.5),
            "balance_high": np.percentile(replicates, 97.5),
            "balance_fair_5": np.percentile(fair, 5),
            **rate_columns("advantage_p1", wins[:1], [games]),
            **rate_columns("tied_on_points_rate", [tied_games], [games]),
            **rate_columns("decided_by_dice_rate", [dice_games], [games]),
        })  # fmt: skip

    return per_run(runs, one)


def _scores(run: Run, include_unfinished: bool) -> pl.LazyFrame:
    """Players' ``score`` and ``position`` (1 = first player)."""
    frame = run.scan_for_win_rates("players", "turn_order", "score", include_unfinished=include_unfinished)
    return frame.with_columns(position=pl.col("turn_order").cast(pl.Int64) + 1)


def score_summary(runs: RunsLike, include_unfinished: bool = False) -> pd.DataFrame:
    """Final scores (R9.2) by turn-order position.

    Returns
    -------
    pandas.DataFrame
        One row per run and position: ``player_games``, ``mean`` score (points) with
        its t interval, ``sd``, ``median``, ``p5`` … ``p95``, ``min``, ``max``.
    """
    return per_run(runs, lambda run: summarise(_scores(run, include_unfinished), "score", ["position"], "player_games"))


def score_histogram(runs: RunsLike, include_unfinished: bool = False) -> pd.DataFrame:
    """Distribution of final scores (points) by turn-order position.

    Returns
    -------
    pandas.DataFrame
        One row per run, position and score: ``player_games`` (of the position),
        ``count``, ``share`` with its Wilson interval.
    """
    return per_run(runs, lambda run: distribution(_scores(run, include_unfinished), "score", ["position"],
                                                  "player_games"))  # fmt: skip


def bot_win_rates(runs: RunsLike, include_unfinished: bool = False) -> pd.DataFrame:
    """Win rate per bot of the run (seats playing the same bot pooled).

    A player row's bot is the run's bot of that row's ``bot`` index when the table
    records it (runs with shuffled seats), otherwise the bot of its seat.

    Returns
    -------
    pandas.DataFrame
        One row per run and bot: ``bot``, ``player_games``, ``wins``, ``win_rate``
        with its Wilson interval, ``baseline`` (1/players).
    """

    def one(run: Run) -> pd.DataFrame:
        index = "bot" if "bot" in run.scan("players").collect_schema().names() else "seat"
        frame = run.scan_for_win_rates("players", index, "won", include_unfinished=include_unfinished)
        counts = frame.group_by(index).agg(player_games=pl.len(), wins=pl.col("won").sum()).collect().to_pandas()
        counts["bot"] = [run.bot_names[i] for i in counts[index]]
        out = counts.groupby("bot", as_index=False)[["player_games", "wins"]].sum()
        return out.assign(**rate_columns("win_rate", out["wins"], out["player_games"]), baseline=run.baseline)

    return per_run(runs, one)

