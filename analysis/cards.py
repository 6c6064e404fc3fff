"""Card strength: allies by win rate (17lands' GIH WR, GNS WR and IWD, adapted),
their contributions, and tasks by how often and when they are completed.

17lands' card ratings, adapted to this game
-------------------------------------------
17lands (a Magic: The Gathering draft tracker) rates a card by the win rate of the
decks that drew it: *GIH WR* (games-in-hand win rate: the card was in the opening
hand or drawn), *GNS WR* (game-not-seen win rate: it never was) and *IWD*
(improvement when drawn = GIH WR − GNS WR). Here the unit is a *player-game* (one
player in one game) instead of a deck-game, and:

* **held** — the ally was in that player's hand at some point of the game (dealt,
  drawn): ``players.held``. *Held WR* ≈ GIH WR: the win rate of the players who held
  it. It does not require that the player played it.
* **never held** — the ally never was in that player's hand: *never-held WR* ≈ GNS
  WR. An ally that reached the player's squads only through another player's A6 swap
  counts as never held.
* **IWD** = held WR − never-held WR, in percentage points, with Newcomb's interval
  for a difference of two rates.
* **played** — the player put the ally on the table from hand (``players.played``);
  *played WR* is the win rate of those players, and *play rate* the share of
  player-games in which the player played it.

With ``n`` players exactly one wins each game (R9.3), so the pooled win rate of a
player — the *baseline* — is ``1/n``, not 50% as in 17lands. An ally is flagged as an
*outlier* when its held WR differs from the baseline: a two-sided exact binomial test
per ally, then a Benjamini–Hochberg correction across the deck's allies at a false
discovery rate of 0.05. Caveats: rows of one game are not independent (one winner
among them), and holding an ally also goes with drawing more cards, so a high held
WR is an association, not proof that the ally causes wins.

Win-rate figures leave out stalled and truncated games unless ``include_unfinished``
(RULES R4 Reading); contributions and task figures count every game.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import polars as pl

from analysis.runs import Run, RunsLike, per_run
from analysis.stats import (
    bh_flags,
    binomial_pvalues,
    difference_columns,
    mean_columns_from_sums,
    rate_columns,
)
from sim.state import TASK_COMPLETED, TASK_FAILED, TASK_LOST

CONTRIBUTIONS = {  # column of the cards table: name in the report
    "ally_points_completed": "points_completed",  # task points completed by squads holding the ally (points)
    "ally_taken_by_swap": "taken_by_a6",  # times taken from a squad by an A6 swap
    "ally_lent_to_borrow": "lent_to_a1",  # times an A1 ally borrowed its symbol
}


def _ally_columns(run: Run) -> dict[str, list]:
    allies = run.deck.allies
    return {
        "ally": [ally.id for ally in allies],
        "name": [ally.name for ally in allies],
        "ability": [ally.ability or "" for ally in allies],
        "symbols": [" + ".join(ally.symbols) for ally in allies],
        "estimated": [", ".join(ally.estimated) for ally in allies],
    }


def _strength_sums(batch: pl.DataFrame) -> dict[str, np.ndarray]:
    held, played = batch["held"].to_numpy(), batch["played"].to_numpy()
    won = batch["won"].to_numpy().astype(bool)
    return {"player_games": np.int64(len(batch)), "wins": np.int64(won.sum()),
            "held": held.sum(0, dtype=np.int64), "held_wins": held[won].sum(0, dtype=np.int64),
            "played": played.sum(0, dtype=np.int64), "played_wins": played[won].sum(0, dtype=np.int64)}  # fmt: skip


def ally_strength(runs: RunsLike, include_unfinished: bool = False) -> pd.DataFrame:
    """Allies' play rate and win rates: played WR, held WR (≈ GIH WR), never-held WR
    (≈ GNS WR) and IWD, with the BH-corrected outlier flag (module docstring).

    Parameters
    ----------
    include_unfinished : bool
        Count stalled and truncated games (left out by default, RULES R4 Reading).

    Returns
    -------
    pandas.DataFrame
        One row per run and ally: ``ally`` (id), ``name``, ``ability``, ``symbols``,
        ``estimated``; ``player_games`` with ``play_rate``; ``played_n`` with
        ``played_wr``; ``held_n`` with ``held_wr``; ``never_held_n`` with
        ``never_held_wr``; ``iwd`` (fraction; ×100 for percentage points); each
        with ``_low``/``_high`` 95% bounds (Wilson; Newcomb for IWD);
        ``baseline`` (1/players), ``p_value`` (held WR against the baseline),
        ``q_value`` (BH-adjusted), ``outlier`` (``stronger``, ``weaker`` or empty).
    """

    def one(run: Run) -> pd.DataFrame:
        frame = run.scan_for_win_rates("players", "held", "played", "won", include_unfinished=include_unfinished)
        s = run.accumulate(frame, _strength_sums)
        never_n, never_wins = s["player_games"] - s["held"], s["wins"] - s["held_wins"]
        p_value = binomial_pvalues(s["held_wins"], s["held"], run.baseline)
        flagged, q_value = bh_flags(p_value)
        with np.errstate(divide="ignore", invalid="ignore"):
            above = s["held_wins"] / s["held"] > run.baseline
        return pd.DataFrame({
            **_ally_columns(run),
            "player_games": s["player_games"],
            **rate_columns("play_rate", s["played"], s["player_games"]),
            "played_n": s["played"],
            **rate_columns("played_wr", s["played_wins"], s["played"]),
            "held_n": s["held"],
            **rate_columns("held_wr", s["held_wins"], s["held"]),
            "never_held_n": never_n,
            **rate_columns("never_held_wr", never_wins, never_n),
            **difference_columns("iwd", s["held_wins"], s["held"], never_wins, never_n),
            "baseline": run.baseline,
            "p_value": p_value,
            "q_value": q_value,
            "outlier": np.where(flagged, np.where(above, "stronger", "weaker"), ""),
        })  # fmt: skip

    return per_run(runs, one)


def _contribution_sums(batch: pl.DataFrame) -> dict[str, np.ndarray]:
    sums: dict[str, np.ndarray] = {"games": np.int64(len(batch))}
    for column, name in CONTRIBUTIONS.items():
        values = batch[column].to_numpy().astype(np.int64)
        sums[name], sums[f"{name}_sq"] = values.sum(0), (values**2).sum(0)
    return sums


def ally_contributions(runs: RunsLike) -> pd.DataFrame:
    """What each ally did on the table, over every game of the run.

    Returns
    -------
    pandas.DataFrame
        One row per run and ally: ``ally``, ``name``, ``ability``, ``symbols``,
        ``estimated``, ``games``; for each of ``points`` (task points completed by
        squads holding it), ``taken_by_a6`` (times taken by A6) and ``lent_to_a1``
        (times its symbol was borrowed by A1): the run's total and the mean per
        game (``<name>_per_game``) with its t interval.
    """

    def one(run: Run) -> pd.DataFrame:
        s = run.accumulate(run.scan("cards", *CONTRIBUTIONS), _contribution_sums)
        columns: dict[str, object] = {**_ally_columns(run), "games": s["games"]}
        for name in CONTRIBUTIONS.values():
            columns[name] = s[name]
            columns.update(mean_columns_from_sums(f"{name}_per_game", s[name], s[f"{name}_sq"], s["games"]))
        return pd.DataFrame(columns)

    return per_run(runs, one)


def _task_sums(players: int):
    def sums(batch: pl.DataFrame) -> dict[str, np.ndarray]:
        status = batch["task_status"].to_numpy()
        completed = (status == TASK_COMPLETED) | (status == TASK_LOST)
        turn = np.where(completed, batch["task_turn"].to_numpy(), 0).astype(np.int64)
        by = batch["task_completed_by"].to_numpy()
        return {
            "games": np.int64(len(batch)),
            "completed": completed.sum(0, dtype=np.int64),
            "failed": (status == TASK_FAILED).sum(0, dtype=np.int64),
            "lost": (status == TASK_LOST).sum(0, dtype=np.int64),
            "turn": turn.sum(0),
            "turn_sq": (turn**2).sum(0),
            "by_position": np.stack([((by == order) & completed).sum(0, dtype=np.int64) for order in range(players)]),
        }

    return sums


def _task_columns(run: Run) -> dict[str, list]:
    tasks = run.deck.tasks
    return {
        "task": [task.id for task in tasks],
        "name": [task.name for task in tasks],
        "points": [task.points for task in tasks],
        "requires": [", ".join(task.requires) for task in tasks],
        "special": [task.special for task in tasks],
        "estimated": [", ".join(task.estimated) for task in tasks],
    }


def _task_totals(run: Run) -> dict[str, np.ndarray]:
    columns = ("task_status", "task_turn", "task_completed_by")
    return run.accumulate(run.scan("cards", *columns), _task_sums(run.players))


def task_outcomes(runs: RunsLike) -> pd.DataFrame:
    """How often each task is completed or fails (R8.1), and on which turn it is
    completed, over every game of the run.

    Returns
    -------
    pandas.DataFrame
        One row per run and task: ``task``, ``name``, ``points``, ``requires``,
        ``special``, ``estimated``, ``games``; ``completion_rate`` and
        ``failure_rate`` (shares of games) with Wilson intervals; ``completions``;
        ``lost_rate`` (share of its completions later lost to a penalty, R8.3);
        ``completion_turn`` (mean turn of completion, turns) with its t interval.
        In finished games a task that is neither completed nor failed was never
        revealed.
    """

    def one(run: Run) -> pd.DataFrame:
        s = _task_totals(run)
        return pd.DataFrame({
            **_task_columns(run),
            "games": s["games"],
            **rate_columns("completion_rate", s["completed"], s["games"]),
            **rate_columns("failure_rate", s["failed"], s["games"]),
            "completions": s["completed"],
            **rate_columns("lost_rate", s["lost"], s["completed"]),
            **mean_columns_from_sums("completion_turn", s["turn"], s["turn_sq"], s["completed"]),
        })  # fmt: skip

    return per_run(runs, one)


def task_completers(runs: RunsLike) -> pd.DataFrame:
    """Which turn-order position (R9.4) completes each task.

    Returns
    -------
    pandas.DataFrame
        One row per run, task and position: ``task``, ``name``, ``position`` (1 =
        the first player), ``completions`` (of the task), ``count`` (by that
        position), ``share`` with its Wilson interval, ``baseline`` (1/players).
    """

    def one(run: Run) -> pd.DataFrame:
        s = _task_totals(run)
        columns = _task_columns(run)
        count = s["by_position"].T.ravel()  # task-major: task 0 positions 1..n, task 1 …
        completions = np.repeat(s["completed"], run.players)
        return pd.DataFrame({
            "task": np.repeat(columns["task"], run.players),
            "name": np.repeat(columns["name"], run.players),
            "position": np.tile(np.arange(1, run.players + 1), len(columns["task"])),
            "completions": completions,
            "count": count,
            **rate_columns("share", count, completions),
            "baseline": run.baseline,
        })  # fmt: skip

    return per_run(runs, one)
