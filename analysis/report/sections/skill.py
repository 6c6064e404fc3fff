"""The section "Skill and luck": how often the stronger bot of a run that mixes
bots wins, the skill trace, and the allies the bots value differently
(:mod:`analysis.skill`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from analysis import skill
from analysis.skill_check import LENGTH_THRESHOLD_TURNS, MORALE_THRESHOLD_EVENTS, TASK_THRESHOLD_PP
from analysis.data.runs import Run
from analysis.report.figures import plot_skill
from analysis.report.model import Answer, FigureSpec, Note, Section, Table, answer, rows_of

TITLE = "Skill and luck"


def _tables(summary: pd.DataFrame, gradient: pd.DataFrame, trace: pd.DataFrame, by_bot: pd.DataFrame) -> list[Table]:
    """The section's tables, those with rows only."""
    tables = [Table("skill_summary", summary, hide=("p_value",))] if len(summary) else []
    if len(gradient):
        tables.append(Table("skill_gradient", gradient))
    if len(trace):
        tables.append(Table("skill_trace", trace, hide=("run", "bots", "threshold_pp")))
    if len(by_bot):
        tables.append(Table("ally_strength_by_bot", by_bot.sort_values(["run", "difference_pp"], kind="stable"),
                            hide=("ally", "symbols", "estimated", "p_value", "threshold_pp", "games")))  # fmt: skip
    return tables


def _checked(check: pd.DataFrame, runs: list[Run], threshold_pp: float) -> tuple[list[Answer], list[Note], list[Table]]:
    """The skill check's answers (``skill_check``, one per run), note and table."""
    if check.empty:
        return [], [], []
    answers = [Answer("skill_check", name, next(r.label for r in runs if r.name == name) if len(runs) > 1 else "",
                      facts={"rows": rows}) for name, rows in check.groupby("run", sort=False)]  # fmt: skip
    thresholds = (f"{threshold_pp:g} pp for an ally and the first player's edge, {TASK_THRESHOLD_PP:g} pp for a task's "
                  f"completion, {LENGTH_THRESHOLD_TURNS:g} turns, {MORALE_THRESHOLD_EVENTS:g} morale-loss events "
                  f"per game")  # fmt: skip
    order = check.assign(size=check["difference"].abs() / check["threshold"]).sort_values(
        ["depends_on_skill", "size"], ascending=False, kind="stable").drop(columns="size")  # fmt: skip
    return answers, [Note("skill_check", {"thresholds": thresholds})], [Table("skill_check", order, hide=("p_value",))]


def skill_section(runs: list[Run], include_unfinished: bool, threshold_pp: float, by_saves: pd.DataFrame,
                  trace_points: Sequence[tuple[int, str | Path]], check: pd.DataFrame) -> Section:  # fmt: skip
    """The skill check of the runs with a skilled companion (``skill_check``), the
    stronger bot at its widest (answer kind ``widest_skill``), then per run that
    mixes bots its gain over its fair share (``skill``), the skill trace of
    ``trace_points`` (``skill_trace``) and the allies the two bots of a run value
    differently by ``threshold_pp`` or more (``ally_strength_by_bot``); the answer
    ``no_skill`` when no run mixes bots and no trace is given. ``by_saves`` is
    :func:`analysis.morale.win_rate_by_saves`; ``check`` is
    :func:`analysis.skill_check.skill_check` (empty without a skilled companion)."""
    checked, check_notes, check_tables = _checked(check, runs, threshold_pp)
    summary = skill.skill_summary(runs, include_unfinished, threshold_pp)
    summary = summary[summary["games"] > 0] if len(summary) else summary  # a run of stalled games compares nothing
    trace = (skill.skill_trace(trace_points, include_unfinished, threshold_pp).assign(threshold_pp=threshold_pp)
             if trace_points else pd.DataFrame())  # fmt: skip
    if summary.empty and trace.empty:  # one bot in every seat, or no game left to compare the bots on
        unmixed = [Answer("no_skill", facts={"mixed": [run.label for run in runs if len(set(run.bot_names)) > 1]})]
        return Section(TITLE, checked or unmixed, check_notes, tables=check_tables)
    gradient = skill.skill_gradient(runs, include_unfinished)
    answers = list(checked)
    if len(summary):
        top = summary.loc[summary["win_rate_ratio"].idxmax()]
        answers.append(Answer("widest_skill", str(top["run"]), "", str(top["strong"]), float(top["win_rate_ratio"]),
                              float(top["win_rate_ratio_low"]), float(top["win_rate_ratio_high"]), int(top["games"]),
                              "× fair", {"row": top, "several": len(summary) > 1}))  # fmt: skip
    for _, row in summary.iterrows():
        run = next(r for r in runs if r.name == row["run"])
        answers.append(answer("skill", runs, run, row, "win_rate_ratio", row["games"], "× fair", row=row,
                              threshold_pp=threshold_pp, gradient=rows_of(gradient, run),
                              by_saves=rows_of(by_saves, run)))  # fmt: skip
    if len(trace):
        answers.append(Answer("skill_trace", facts={"trace": trace}))
    by_bot = skill.ally_strength_by_bot(runs, include_unfinished, threshold_pp)
    for run_name, rows in (by_bot.groupby("run", sort=False) if len(by_bot) else ()):
        answers.append(Answer("ally_strength_by_bot", run_name, run_name if len(runs) > 1 else "",
                              facts={"rows": rows}))  # fmt: skip
    return Section(TITLE, answers, [*check_notes, Note("skill"), Note("by_bot")],
                   [FigureSpec("skill", plot_skill, (summary, trace))], check_tables + _tables(summary, gradient, trace, by_bot))  # fmt: skip
