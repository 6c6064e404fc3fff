"""The measures of one deck, for the advisor (:mod:`.advise`): what the report
measures on a run and its points-blind companion (:class:`Measures`), the paired
change of the first player's edge against the original deck on the same games
(:func:`edge_change`, R9.4), the seed of the edge check (:func:`edge_seed`), and a
card's flagged quantity (:func:`quantity`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from analysis.cards import DEFAULT_THRESHOLD_PP, ally_strength
from analysis.data.runs import Run
from analysis.experiments.compare import seat_differences
from analysis.experiments.tune import holdout_seed
from analysis.length import game_length
from analysis.morale import morale_per_game
from analysis.seats import seat_balance
from analysis.task_calibration import DEFAULT_THRESHOLD_POINTS, gap_interval, task_calibration


@dataclass(frozen=True)
class Measures:
    """What the report measures on one deck's run and its points-blind companion.

    ``allies``: :func:`analysis.cards.ally_strength`; ``tasks``:
    :func:`analysis.task_calibration.task_calibration`; ``length``, ``edge``,
    ``morale``: dicts of ``value``, ``low``, ``high`` (95%) and ``games``, for mean
    turns per game, the first player's win rate minus ``1/players`` (pp, R9.4),
    and morale-loss events per game (R8). ``edge_change``: the first player's edge
    minus the original deck's on the same games (paired, pp: ``value``, ``low``,
    ``high``, 95%; zero for the original itself, :func:`edge_change`). ``dropped``:
    why a screened edit played until settled was stopped before its ``n_games``
    (:mod:`.advise_search`; these measures are then of fewer games, and its
    ``edge_change`` is not measured), empty when it was played to the end.
    """

    allies: pd.DataFrame
    tasks: pd.DataFrame
    length: dict
    edge: dict
    morale: dict
    edge_change: dict = field(default_factory=lambda: {"value": 0.0, "low": 0.0, "high": 0.0})
    dropped: str = ""


def measure(run_dir: Path, threshold_pp: float = DEFAULT_THRESHOLD_PP,
            threshold_points: float = DEFAULT_THRESHOLD_POINTS) -> Measures:  # fmt: skip
    """The :class:`Measures` of a run directory with its points-blind companion."""
    length = game_length(run_dir).set_index("measure").loc["turns"]
    seats = seat_balance(run_dir).iloc[0]
    morale = morale_per_game(run_dir).set_index("measure").loc["morale_events"]
    fair = 100 / seats["players"]
    return Measures(
        ally_strength(run_dir, threshold_pp=threshold_pp),
        task_calibration(run_dir, threshold_points),
        {"value": length["mean"], "low": length["mean_low"], "high": length["mean_high"], "games": length["games"]},
        {"value": 100 * seats["advantage_p1"] - fair, "low": 100 * seats["advantage_p1_low"] - fair,
         "high": 100 * seats["advantage_p1_high"] - fair, "games": seats["games"]},
        {"value": morale["mean"], "low": morale["mean_low"], "high": morale["mean_high"], "games": morale["games"]},
    )  # fmt: skip


def edge_seed(seed: int) -> int:
    """The seed of the edge check (:mod:`.advise_search`): ``seed + 2 × 1,000,003``,
    which is neither the search seed nor its hold-out seed."""
    return holdout_seed(holdout_seed(seed))


def edge_change(original: Path, run_dir: Path) -> dict:
    """The first player's edge of ``run_dir`` minus ``original``'s, paired on the
    games both played (R9.4; :func:`analysis.experiments.compare.seat_differences`):
    ``value``, ``low``, ``high`` (95% t interval), in pp, and ``games``."""
    row = seat_differences(Run.open(original), Run.open(run_dir)).iloc[0]
    return {"value": float(100 * row["difference"]), "low": float(100 * row["difference_low"]),
            "high": float(100 * row["difference_high"]), "games": int(row["n"])}  # fmt: skip


def quantity(m: Measures, section: str, index: int) -> float:
    """The flagged quantity of a card: an ally's effect (pp), a task's gap from par (points)."""
    table, column = (m.allies, "effect_pp") if section == "allies" else (m.tasks, "gap_points")
    return float(table[column].iloc[index])


def quantity_bounds(m: Measures, section: str, index: int) -> tuple[float, float, float]:
    """A card's flagged quantity (:func:`quantity`) with its 95% interval: an ally's
    effect with its game-clustered bounds (pp, :func:`analysis.cards.ally_strength`),
    a task's gap from par with :func:`analysis.task_calibration.gap_interval`
    (points)."""
    if section == "allies":
        row = m.allies.iloc[index]
        return float(row["effect_pp"]), float(row["effect_low_pp"]), float(row["effect_high_pp"])
    low, high = gap_interval(m.tasks)
    return quantity(m, section, index), float(low.iloc[index]), float(high.iloc[index])
