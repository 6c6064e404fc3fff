"""The measures of one deck, for the advisor (:mod:`.advise`): what the report
measures on a run and its points-blind companion (:class:`Measures`), the paired
change of the first player's edge against the original deck on the same games
(:func:`edge_change`, R9.4), the seed of the edge check (:func:`edge_seed`), and a
card's flagged quantity (:func:`quantity`)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.cards import DEFAULT_THRESHOLD_PP, ally_strength
from analysis.data.runs import Run
from analysis.data.stream import Columns, batches
from analysis.experiments.compare import check_paired, paired_row, seat_differences
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
    ``high``, 95%; zero for the original itself, :func:`edge_change`). ``settled``:
    why a screened edit played until settled stopped before its ``n_games``, its
    target's verdict settled (docs/EXPERIMENTS.md, advise: *Until settled*; these measures, its
    ``edge_change`` too, are then of fewer games), empty when it was played to the end.
    ``tasks`` is None for a deck the search read on its run alone, before its
    points-blind companion was played (:func:`measure` with ``tasks=False``): a
    screened ally's edit, whose tasks are measured when the deck is asked for whole,
    and a whole deck the length guard or the first player's edge refused there.
    """

    allies: pd.DataFrame
    tasks: pd.DataFrame | None
    length: dict
    edge: dict
    morale: dict
    edge_change: dict = field(default_factory=lambda: {"value": 0.0, "low": 0.0, "high": 0.0})
    settled: str = ""


def measure(run_dir: Path, threshold_pp: float = DEFAULT_THRESHOLD_PP,
            threshold_points: float = DEFAULT_THRESHOLD_POINTS, tasks: bool = True) -> Measures:  # fmt: skip
    """The :class:`Measures` of a run directory with its points-blind companion; with
    ``tasks`` False, of the run alone, without the tasks (None), which need the
    companion."""
    seats = seat_balance(run_dir).iloc[0]
    morale = morale_per_game(run_dir).set_index("measure").loc["morale_events"]
    fair = 100 / seats["players"]
    return Measures(
        ally_strength(run_dir, threshold_pp=threshold_pp),
        task_calibration(run_dir, threshold_points) if tasks else None,
        mean_turns(run_dir),
        {"value": 100 * seats["advantage_p1"] - fair, "low": 100 * seats["advantage_p1_low"] - fair,
         "high": 100 * seats["advantage_p1_high"] - fair, "games": seats["games"]},
        {"value": morale["mean"], "low": morale["mean_low"], "high": morale["mean_high"], "games": morale["games"]},
    )  # fmt: skip


def mean_turns(run_dir: Path) -> dict:
    """Mean turns per game of a run (:func:`analysis.length.game_length`): ``value``,
    ``low``, ``high`` (95% t interval, turns) and ``games``."""
    length = game_length(run_dir).set_index("measure").loc["turns"]
    return {"value": length["mean"], "low": length["mean_low"], "high": length["mean_high"], "games": length["games"]}


def edge_seed(seed: int) -> int:
    """The seed of the edge check (docs/EXPERIMENTS.md, advise: *The first player's edge is
    a hard constraint*): ``seed + 2 × 1,000,003``,
    which is neither the search seed nor its hold-out seed."""
    return holdout_seed(holdout_seed(seed))


def edge_change(original: Path, run_dir: Path) -> dict:
    """The first player's edge of ``run_dir`` minus ``original``'s, paired on the
    games both played (R9.4; :func:`analysis.experiments.compare.seat_differences`):
    ``value``, ``low``, ``high`` (95%, exact McNemar), in pp, and ``games``. A run of
    fewer games than the original's (a screened edit settled early; docs/EXPERIMENTS.md,
    advise: *Until settled*)
    is paired with the original's first games, the same games on the same seed.

    Raises
    ------
    sim.rundir.RunError
        When the runs did not play the same games (another seed, bots, rules).
    """
    a, b = Run.open(original), Run.open(run_dir)
    games = b.manifest["n_games"]
    if games == a.manifest["n_games"]:
        row = seat_differences(a, b).iloc[0]
    else:
        check_paired(a, replace(b, manifest={**b.manifest, "n_games": a.manifest["n_games"]}))
        row = paired_row("", *(_first_player_wins(run)[:games] for run in (a, b)), "share")
    return {"value": float(100 * row["difference"]), "low": float(100 * row["difference_low"]),
            "high": float(100 * row["difference_high"]), "games": int(row["n"])}  # fmt: skip


def _first_player_wins(run: Run) -> np.ndarray:
    """Whether turn-order position 1 won each game of ``run`` (float, NaN for a game
    not finished, R4 Reading), in game order."""
    return np.concatenate([np.where(batch.unfinished, np.nan, batch.players["won"][:, 0])
                           for batch in batches(run, Columns(players=("won",)))])  # fmt: skip


def quantity(m: Measures, section: str, index: int) -> float:
    """The flagged quantity of a card: an ally's effect (pp), a task's gap from par (points)."""
    table, column = (m.allies, "effect_pp") if section == "allies" else (m.tasks, "gap_points")
    return float(table[column].iloc[index])


def quantity_bounds(run_dir: Path, section: str, index: int, threshold_pp: float = DEFAULT_THRESHOLD_PP,
                    threshold_points: float = DEFAULT_THRESHOLD_POINTS) -> tuple[float, float, float]:  # fmt: skip
    """A card's flagged quantity in the run in ``run_dir`` with its 95% interval, and
    nothing else of :func:`measure` (what a round of ``--until-settled`` needs): an
    ally's effect with its game-clustered bounds (pp,
    :func:`analysis.cards.ally_strength`, the run alone), a task's gap from par with
    :func:`analysis.task_calibration.gap_interval` (points, the run and its
    points-blind companion).

    Raises
    ------
    sim.rundir.RunError
        For a directory that is not a readable run.
    """
    if section == "allies":
        row = ally_strength(run_dir, threshold_pp=threshold_pp).iloc[index]
        return float(row["effect_pp"]), float(row["effect_low_pp"]), float(row["effect_high_pp"])
    tasks = task_calibration(run_dir, threshold_points)
    low, high = gap_interval(tasks)
    return float(tasks["gap_points"].iloc[index]), float(low.iloc[index]), float(high.iloc[index])
