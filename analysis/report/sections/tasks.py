"""The section "Task rewards": each task's points against its difficulty
(:mod:`analysis.task_calibration`)."""

from __future__ import annotations

import pandas as pd

from analysis.data.runs import Run
from analysis.report.figures import plot_task_calibration
from analysis.report.model import FigureSpec, Note, Section, Table, answer, rows_of
from analysis.task_calibration import task_calibration
from sim.rundir import POINTS_BLIND_COMPANION


def _difficulty(run: Run, rows: pd.DataFrame, several: bool) -> dict:
    """How ``run``'s difficulty was measured, for the calibration note: points-blind
    (with the companion's task points) or as played (with the reason)."""
    blind = bool((rows["difficulty"] == "points-blind").all())
    if blind:
        points = (run.manifest.get("companions") or {}).get(POINTS_BLIND_COMPANION, {}).get("task_points")
        return {"label": run.label if several else "", "blind": True, "points": points, "why": None}
    return {"label": run.label if several else "", "blind": False, "points": None,
            "why": rows["difficulty_note"].iloc[0]}  # fmt: skip


def tasks_section(runs: list[Run], outcomes: pd.DataFrame, threshold_points: float) -> Section:
    """Per run, the tasks that pay out of order with their difficulty by
    ``threshold_points`` or more (answer kind ``tasks``), from ``outcomes``
    (:func:`analysis.cards.task_outcomes`); table ``task_calibration``."""
    calibration = task_calibration(runs, threshold_points, outcomes).sort_values(["run", "gap_points"], kind="stable")
    answers = []
    for run in runs:
        rows = rows_of(calibration, run)
        completed = rows_of(outcomes, run).set_index("task")["completions"]
        answers.append(answer("tasks", runs, run, rows=rows,
                              flagged=rows[rows["verdict"] != ""].sort_values("gap_points"),
                              completions=completed.reindex(rows["task"]).to_numpy(),
                              threshold_points=threshold_points, low=rows.loc[rows["expected_points"].idxmin()],
                              high=rows.loc[rows["expected_points"].idxmax()]))  # fmt: skip
    difficulty = [_difficulty(run, rows_of(calibration, run), len(runs) > 1) for run in runs]
    return Section(
        "Task rewards",
        answers,
        [Note("calibration", {"threshold": threshold_points, "runs": difficulty})],
        [FigureSpec("task_calibration", plot_task_calibration, (calibration,))],
        [Table("task_calibration", calibration,
               hide=("task", "p_value", "threshold_points", "games", "difficulty_games", "difficulty_note",
                     "fit_points", "fit_points_low", "fit_points_high"))],
    )  # fmt: skip
