"""How many games? For each verdict of the report, the games that would detect an
effect of a given size with 80% power, from the run's standard errors
(``revachol plan``).

Each section's estimates and their 95% intervals are read from the run's report
tables (``RUN/report/tables/<name>.csv``, as ``revachol report`` writes them) when
they are there, else computed from the run's games as the report computes them. A
section's standard errors and test level give (:mod:`analysis.stats.power`):

================ ======================================== ====== ====================
section          estimate                                  unit   test level ``a``
================ ======================================== ====== ====================
Card strength    each ally's effect against the average    pp     BH across the allies
                 ally (:func:`analysis.cards.ally_strength`)
Task rewards     each task's gap from par                  points BH across the tasks
                 (:func:`analysis.task_calibration.task_calibration`; tested against the threshold)
Seat advantage   the first player's edge over a fair seat  pp     0.05
                 (:func:`analysis.seats.seat_balance`)
Game length      mean turns, against a target              turns  0.05
                 (:func:`analysis.length.game_length`)
================ ======================================== ====== ====================

An effect at or below the section's practical threshold is never flagged: a verdict
needs at least the threshold.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from analysis import cards, length, seats, task_calibration
from analysis.data.passes import prefetch
from analysis.data.runs import Run, open_runs
from analysis.stats.inference import ALPHA
from analysis.stats.power import bh_level, detectable_effect, games_to_detect, readable_games, standard_error
from analysis.thresholds import DEFAULT_THRESHOLD_PP

REPORT_TABLES = Path("report") / "tables"  # a run's report tables (analysis.report.page.default_report_dir)
TABLES = ("ally_strength", "task_calibration", "seat_balance", "game_length")
UNITS = {"pp": ("pp",), "points": ("points", "point", "pts", "pt"), "turns": ("turns", "turn")}
COLUMNS = ("section", "measure", "unit", "games", "level", "threshold", "mde", "effect", "games_needed", "games_needed_every",
           "never")  # fmt: skip


@dataclass(frozen=True)
class Plan:
    """What :func:`plan_games` found: its table and where the standard errors came
    from (the report tables' folder, or None when computed from the run's games)."""

    table: pd.DataFrame
    source: Path | None


@dataclass(frozen=True)
class _Errors:
    """One section's standard errors (shape (k,), one per subject), test level, games
    and whether its test is against the threshold."""

    section: str
    measure: str
    unit: str
    se: np.ndarray
    level: float
    games: int
    against_threshold: bool = False


def parse_effect(text: str, unit: str) -> float:
    """An effect typed on the command line, ``1pp`` or ``1`` (meaning pp), ``1.5points``,
    ``3 turns``, as a number in ``unit`` (``pp``, ``points`` or ``turns``). Raises
    ValueError for another unit, a number that does not parse or one not above 0."""
    match = re.fullmatch(r"\s*([-+]?[0-9.]+(?:[eE][-+]?\d+)?)\s*([A-Za-z]*)\s*", str(text))
    if not match or (match.group(2) and match.group(2).lower() not in UNITS[unit]):
        raise ValueError(f"{text!r}: write the effect in {unit}, e.g. 1{unit} or 1")
    value = float(match.group(1))
    if not value > 0 or not math.isfinite(value):
        raise ValueError(f"{text!r}: the effect must be above 0 {unit}")
    return value


def run_tables(run: Run, include_unfinished: bool = False, threshold_pp: float = DEFAULT_THRESHOLD_PP,
               threshold_points: float = task_calibration.DEFAULT_THRESHOLD_POINTS) -> tuple[dict, Path | None]:  # fmt: skip
    """The report tables of :data:`TABLES` for ``run``: read from ``RUN/report/tables``
    when all of them are there, else computed from its games as the report computes
    them (``include_unfinished`` and the thresholds apply only then).

    Returns
    -------
    tables : dict of pandas.DataFrame
        By table name.
    source : Path or None
        The folder read, None when computed.
    """
    folder = run.path / REPORT_TABLES
    if all((folder / f"{name}.csv").is_file() for name in TABLES):
        return {name: pd.read_csv(folder / f"{name}.csv") for name in TABLES}, folder
    prefetch(run, [p for passes in (length.passes, cards.passes, task_calibration.passes, seats.passes)
                   for p in passes(run, include_unfinished)])  # fmt: skip
    return {"ally_strength": cards.ally_strength([run], include_unfinished, threshold_pp),
            "task_calibration": task_calibration.task_calibration([run], threshold_points),
            "seat_balance": seats.seat_balance([run], include_unfinished, threshold_pp),
            "game_length": length.game_length([run])}, None  # fmt: skip


def _errors(tables: dict[str, pd.DataFrame]) -> list[_Errors]:
    """Each section's standard errors, level and games, from :func:`run_tables`."""
    allies, tasks = tables["ally_strength"], tables["task_calibration"]
    seat = tables["seat_balance"][tables["seat_balance"]["games"] > 0]
    turns = tables["game_length"][tables["game_length"]["measure"] == "turns"]
    _, edge_low, edge_high = seats.first_player_edge(seat)

    def games(table: pd.DataFrame, column: str = "games") -> int:
        return int(table[column].iloc[0]) if len(table) else 0

    return [
        _Errors("Card strength", "ally effect on win rate, pp", "pp",
                standard_error(allies["effect_low_pp"], allies["effect_high_pp"]), bh_level(allies["p_value"]),
                games(allies)),
        _Errors("Task rewards", "task gap from par, points", "points", standard_error(*task_calibration.gap_interval(tasks)),
                bh_level(tasks["p_value"]), games(tasks, "difficulty_games"), against_threshold=True),
        _Errors("Seat advantage", "first player's edge, pp", "pp", standard_error(edge_low, edge_high), ALPHA, games(seat)),
        _Errors("Game length", "miss of a target, turns", "turns", standard_error(turns["mean_low"], turns["mean_high"]),
                ALPHA, games(turns)),
    ]  # fmt: skip


def _row(errors: _Errors, threshold: float, effect: float | None) -> dict:
    se = errors.se[np.isfinite(errors.se)]
    mde = detectable_effect(se, threshold, errors.level, errors.against_threshold)
    row = dict(zip(COLUMNS, (errors.section, errors.measure, errors.unit, errors.games, errors.level, threshold,
                             float(np.median(mde)) if len(se) else math.nan, math.nan, math.nan, math.nan, False)))  # fmt: skip
    if effect is None or not len(se):
        return row
    needed = games_to_detect(errors.games, se, effect, threshold, errors.level, errors.against_threshold)
    never = bool(np.isinf(needed).all())
    finite = [readable_games(g) if np.isfinite(g) else math.nan for g in (np.median(needed), needed.max())]
    return {**row, "effect": effect, "games_needed": finite[0], "games_needed_every": finite[1], "never": never}


def plan_games(run_dir: str | Path | Run, effect_pp: float | None = None, effect_points: float | None = None,
               effect_turns: float | None = None, include_unfinished: bool = False,
               threshold_pp: float = DEFAULT_THRESHOLD_PP,
               threshold_points: float = task_calibration.DEFAULT_THRESHOLD_POINTS,
               threshold_turns: float = length.DEFAULT_THRESHOLD_TURNS) -> Plan:  # fmt: skip
    """The games each verdict section needs to detect an effect with 80% power
    (module docstring).

    Parameters
    ----------
    run_dir : run directory or Run
    effect_pp : float, optional
        Effect to detect on win rate (percentage points): an ally's against the
        average ally, and the first player's edge over a fair seat.
    effect_points : float, optional
        A task's gap from par to detect (points).
    effect_turns : float, optional
        A miss of a target for mean turns per game to detect (turns).
    include_unfinished : bool
        Count stalled and truncated games, when the tables are computed.
    threshold_pp, threshold_points, threshold_turns : float
        The practical thresholds (pp, points, turns) a verdict also needs.

    Returns
    -------
    Plan
        ``table``: one row per section (Card strength, Task rewards, Seat advantage,
        Game length): ``section``, ``measure`` (with its unit), ``unit`` (pp,
        points, turns: of the threshold, mde and effect), ``games`` (the
        run's; a task's: of its difficulty run), ``level`` (the test's two-sided
        level after Benjamini–Hochberg), ``threshold``, ``mde`` (the effect flagged
        with 80% power at ``games``, for the median subject), ``effect`` (NaN when
        none was given for the section), ``games_needed`` (for the median subject,
        rounded up to two significant figures) and ``games_needed_every`` (for the
        subject measured least precisely), NaN when none was given or ``never``:
        the effect is at or below the threshold and is never flagged.

    Raises
    ------
    sim.rundir.RunError, sim.cards.DeckError
        For a directory that is not a readable run (:func:`analysis.data.runs.open_runs`).
    """
    run = open_runs(run_dir)[0]
    tables, source = run_tables(run, include_unfinished, threshold_pp, threshold_points)
    given = {"Card strength": (threshold_pp, effect_pp), "Task rewards": (threshold_points, effect_points),
             "Seat advantage": (threshold_pp, effect_pp), "Game length": (threshold_turns, effect_turns)}  # fmt: skip
    rows = [_row(errors, *given[errors.section]) for errors in _errors(tables)]
    return Plan(pd.DataFrame(rows, columns=list(COLUMNS)), source)
