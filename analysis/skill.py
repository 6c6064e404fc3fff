"""Skill versus luck: how much better play wins, how often the weaker player still
wins, and how far more thinking keeps paying.

For runs that mix bots (``revachol skill`` plays them; any run with two or more bot
specifications counts):

* **skill summary** — per run, the *stronger* bot (the one in a single seat against
  the others, as the ladder plays it; otherwise the bot with the highest win rate
  per seat) and the games it wins against the fair share of its seats, as a ratio
  to fair; the **upset rate**, the games the weaker bots still win; and the games
  decided by R9.3's die roll (:func:`analysis.seats.tie_counts`). Game-level rates:
  Wilson intervals.
* **skill gradient** — every bot's win rate per seat against fair ``1/players``
  (:func:`analysis.seats.bot_win_rates`, game-clustered intervals), as a ratio.
* **allies by bot** — where the stronger bot values an ally differently from the
  weaker: each ally's effect against the average ally for each bot, from one
  conditional logit with an ally block per bot
  (:func:`analysis.stats.ally_model.ally_effects_by_group`), and their difference
  in pp; flagged as :func:`analysis.cards.verdicts` flags allies (Benjamini–Hochberg
  across the allies and the practical threshold). Runs of exactly two bots.
* **skill trace** (Ludii's *SkillTrace*, :mod:`analysis.experiments.ladder`) — the
  win rate of a bot at budget ``b`` against itself at ``b/2``, as ``b`` doubles;
  a budget *pays* when its gain over fair is significant (its Wilson interval
  clears fair) and at least the practical threshold, and the trace *flattens* at the
  first budget from which no larger budget pays: where more thinking stops paying.
  A small budget that does not pay below larger ones that do is noise at the bottom
  of the curve, not its knee. Ludii folds the
  points into one number (a regression's next step plus the area under the
  squared gains); the points themselves, with intervals, read more plainly.

Stalled and truncated games are left out unless ``include_unfinished`` (R4 Reading).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.cards import DEFAULT_THRESHOLD_PP, ally_columns, verdicts
from analysis.data.player_games import bot_labels
from analysis.data.runs import Run, RunsLike, open_runs, per_run
from analysis.data.spool import AllyChunk, AllySpool
from analysis.data.stream import Batch, Columns, Totals, batches, reduce_run
from analysis.seats import bot_win_rates, tie_counts
from analysis.stats.ally_model import ally_effects_by_group
from analysis.stats.inference import rate_columns


def mixed(runs: RunsLike) -> list[Run]:
    """The runs whose seats play two or more bot specifications."""
    return [run for run in open_runs(runs) if len(set(run.bot_names)) > 1]


def stronger_bot(run: Run, per_seat_rates: dict[str, float]) -> str:
    """The run's stronger bot: the bot of a single seat when every other seat plays
    one other bot (the ladder's layout), else the highest win rate per seat."""
    first, rest = run.bot_names[0], run.bot_names[1:]
    if len(set(rest)) == 1 and rest[0] != first:
        return first
    return max(per_seat_rates, key=per_seat_rates.get)


def _ratio(columns: dict, name: str, fair: float) -> dict[str, np.ndarray]:
    """``name`` and its bounds over ``fair``, as ``<name>_ratio`` columns."""
    return {key.replace(name, f"{name}_ratio"): np.asarray(value) / fair for key, value in columns.items()}


def skill_gradient(runs: RunsLike, include_unfinished: bool = False) -> pd.DataFrame:
    """Every bot's win rate per seat against fair, in the runs that mix bots.

    Returns
    -------
    pandas.DataFrame
        :func:`analysis.seats.bot_win_rates`'s rows (``bot``, ``player_games``,
        ``wins``, ``win_rate`` with game-clustered bounds, ``baseline``) plus
        ``seats`` (seats the bot plays), ``gain_pp`` (win rate − fair, pp) and
        ``win_rate_ratio`` with bounds (win rate over fair; 1 = fair). Empty when
        no run mixes bots.
    """
    runs = mixed(runs)
    if not runs:
        return pd.DataFrame()
    rates = bot_win_rates(runs, include_unfinished)
    seats = {(run.name, bot): run.bot_names.count(bot) for run in runs for bot in set(run.bot_names)}
    rates.insert(4, "seats", [seats[(r, b)] for r, b in zip(rates["run"], rates["bot"])])
    rates["gain_pp"] = 100 * (rates["win_rate"] - rates["baseline"])
    for key in ("win_rate", "win_rate_low", "win_rate_high"):
        rates[key.replace("win_rate", "win_rate_ratio")] = rates[key] / rates["baseline"]
    return rates.drop(columns=["by_construction"])


def skill_summary(runs: RunsLike, include_unfinished: bool = False,
                  threshold_pp: float = DEFAULT_THRESHOLD_PP) -> pd.DataFrame:  # fmt: skip
    """Per run that mixes bots: how often the stronger bot wins, the upset rate and
    the games the die decides (module docstring).

    Returns
    -------
    pandas.DataFrame
        One row per run: ``strong``, ``weak`` (the other bots, joined by `` + ``),
        ``seats`` (the stronger bot's), ``games``; ``win_rate`` (games won by a
        seat of the stronger bot) with its Wilson interval and ``fair_rate`` (seats /
        players); ``win_rate_ratio`` with bounds (over fair); ``gain_pp`` with
        ``gain_low_pp``/``gain_high_pp``; ``beats`` (the interval lies above fair
        and the gain is at least ``threshold_pp``); ``upset_rate`` (games won by a
        weaker bot) with its Wilson interval and ``upset_fair_rate``;
        ``decided_by_dice_rate`` (R9.3) with its Wilson interval. Empty when no run
        mixes bots.
    """
    runs = mixed(runs)
    if not runs:
        return pd.DataFrame()
    gradient = skill_gradient(runs, include_unfinished)

    def one(run: Run) -> pd.DataFrame:
        rows = gradient[gradient["run"] == run.name]
        strong = stronger_bot(run, dict(zip(rows["bot"], rows["win_rate"])))
        names, column, label = bot_labels(run)

        def totals(batch: Batch) -> Totals:  # games, and games won by a seat of the stronger bot
            won = (label[batch.players[column]] == names.index(strong)) & (batch.players["won"] == 1)
            return {"games": batch.size, "wins": int(won.any(1).sum())}

        counts = reduce_run(run, Columns(players=(column, "won")), totals, include_unfinished)
        games, wins = counts["games"], counts["wins"]
        seats = run.bot_names.count(strong)
        fair = seats / run.players
        rate = rate_columns("win_rate", [wins], [games])
        upset = rate_columns("upset_rate", [games - wins], [games])
        _, _, dice = tie_counts(run, include_unfinished)
        gain = {f"gain{part}_pp": 100 * (rate[f"win_rate{part}"] - fair) for part in ("", "_low", "_high")}
        return pd.DataFrame({
            "strong": strong, "weak": " + ".join(n for n in names if n != strong), "seats": seats, "games": games,
            **rate, "fair_rate": fair, **_ratio(rate, "win_rate", fair), **gain,
            "beats": bool(rate["win_rate_low"][0] > fair and gain["gain_pp"][0] >= threshold_pp),
            **upset, "upset_fair_rate": 1 - fair, **rate_columns("decided_by_dice_rate", [dice], [games]),
        })  # fmt: skip

    return per_run(runs, one)


def skill_trace(points: Sequence[tuple[int, str | Path | Run]], include_unfinished: bool = False,
                threshold_pp: float = DEFAULT_THRESHOLD_PP) -> pd.DataFrame:  # fmt: skip
    """The skill trace: the stronger seat's win rate at each budget against half of
    it, and where the gain flattens (module docstring).

    Parameters
    ----------
    points : sequence of (budget, run)
        Each run plays the bot at ``budget`` in one seat against the bot at
        ``budget / 2`` in the others (:func:`analysis.experiments.ladder.plan`).

    Returns
    -------
    pandas.DataFrame
        One row per budget, ascending: ``budget``, and :func:`skill_summary`'s
        columns; ``pays`` (the gain is significant and at least ``threshold_pp``);
        ``flattens_at`` (the first budget from which no budget pays, the same on
        every row; 0 when the largest budget still pays).
    """
    points = sorted(points, key=lambda point: point[0])
    runs = open_runs([run for _, run in points])
    table = skill_summary(runs, include_unfinished, threshold_pp)
    table.insert(0, "budget", [budget for budget, _ in points])
    table = table.rename(columns={"beats": "pays"})
    paying = np.flatnonzero(table["pays"].to_numpy())
    last = paying[-1] if len(paying) else -1  # the largest budget that pays
    table["flattens_at"] = 0 if last == len(table) - 1 else int(table["budget"].iloc[last + 1])
    return table


def _ally_chunks(run: Run, include_unfinished: bool, group: tuple[str, np.ndarray]) -> Iterator[AllyChunk]:
    """The run's held allies, winners and player groups for the conditional logit,
    one batch of games at a time (:data:`analysis.data.spool.AllyChunk`).

    Parameters
    ----------
    run : Run
    include_unfinished : bool
        Keep the stalled and truncated games (RULES R4 Reading).
    group : (str, ndarray of int64)
        A players-table column (e.g. :func:`analysis.data.player_games.bot_labels`'
        column) and, for each of its values, the row's group.
    """
    column, of = group
    for batch in batches(run, Columns(players=("held", "won", column)), include_unfinished):
        yield batch.players["held"], batch.players["won"].argmax(1), of[batch.players[column]]


def ally_strength_by_bot(runs: RunsLike, include_unfinished: bool = False,
                         threshold_pp: float = DEFAULT_THRESHOLD_PP) -> pd.DataFrame:  # fmt: skip
    """Each ally's effect for the stronger and the weaker bot, and where they differ
    (module docstring), in the runs of exactly two bots.

    Returns
    -------
    pandas.DataFrame
        One row per run and ally: :func:`analysis.cards.ally_columns`, ``strong``,
        ``weak``; ``effect_strong_pp`` and ``effect_weak_pp`` (against each bot's
        average ally) and ``difference_pp`` (strong − weak), each with
        ``_low_pp``/``_high_pp`` bounds (95%); ``p_value``, ``q_value`` (BH across
        the allies), ``verdict`` (``more to <strong>``, ``more to <weak>`` or
        empty: significant and at least ``threshold_pp``), ``games``,
        ``threshold_pp``. Empty when no run has exactly two bots.
    """
    pairs = [run for run in mixed(runs) if len(set(run.bot_names)) == 2]
    if not pairs:
        return pd.DataFrame()
    summary = skill_summary(pairs, include_unfinished, threshold_pp).set_index("run")

    def one(run: Run) -> pd.DataFrame:
        names, index, labels = bot_labels(run)
        strong = summary.loc[run.name, "strong"]
        weak = next(name for name in names if name != strong)
        group = (labels == names.index(strong)).astype(np.int64)  # 1: the stronger bot's rows
        with AllySpool.of(_ally_chunks(run, include_unfinished, (index, group))) as spool:
            (weak_fx, strong_fx), diff = ally_effects_by_group(spool, run.players, 2)
        flag, q_value = verdicts(diff["difference_pp"], diff["p_value"], threshold_pp)
        columns = {**ally_columns(run), "strong": strong, "weak": weak}
        for who, fx in (("strong", strong_fx), ("weak", weak_fx)):
            for part in ("", "_low", "_high"):
                columns[f"effect_{who}{part}_pp"] = fx[f"effect{part}_pp"]
        return pd.DataFrame({
            **columns, **{key: diff[key] for key in ("difference_pp", "difference_low_pp", "difference_high_pp")},
            "p_value": diff["p_value"], "q_value": q_value,
            "verdict": np.select([flag == "stronger", flag == "weaker"], [f"more to {strong}", f"more to {weak}"], ""),
            "games": summary.loc[run.name, "games"], "threshold_pp": threshold_pp,
        })  # fmt: skip

    return per_run(pairs, one)
