"""The balance report: one self-contained HTML page, its tables as CSV, its figures
as PNG.

Layout of ``out`` (default ``RUN_DIR/report``)::

    report.html          warnings (estimated values, incomplete runs), the Findings
                         block, one section per question, provenance at the end
    tables/<name>.csv    every table, raw numbers (rates as fractions), named after
                         the function of analysis.length/morale/cards/seats/
                         task_calibration/findings
    figures/<name>.png   the figures embedded in the page

The Findings block (:mod:`analysis.report.findings`) opens the page: one sentence per
finding, most important first, each linking to its section. Each section opens with
a one-sentence answer per run, then its figures and tables; tables sort by any
column in the page (:func:`analysis.report.html.sortable_html`). Every rate or mean carries
its n and a 95% confidence interval (:mod:`analysis.stats.inference`).

:func:`build_report` reads the runs into a :class:`analysis.report.model.Report`
(the sections of :mod:`analysis.report.sections`, data only) and hands it to
:func:`analysis.report.writer.write`, which draws it (:mod:`analysis.report.render`,
in the words of :mod:`analysis.report.words`) and writes the files.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from pathlib import Path

import matplotlib

from analysis import cards, closeness, length, morale, seats
from analysis.data.passes import prefetch
from analysis.data.progress import ReadProgress
from analysis.data.runs import Run, RunsLike, open_runs
from analysis.data.stream import reading
from analysis.report.findings import findings, with_stopping
from analysis.report.model import Report, Section, tables_of
from analysis.report.sections import (cards_section, closeness_section, length_section, morale_section,
                                      seats_section, skill_section, tasks_section)
from analysis.report.writer import REPORT_FILE, WrittenReport, write
from analysis.skill_check import skill_check, unchecked
from analysis.task_calibration import DEFAULT_THRESHOLD_POINTS
from analysis.task_calibration import passes as task_passes

__all__ = ["REPORT_FILE", "TABLE_PASSES", "WrittenReport", "build_report", "default_report_dir"]


def _made(display: ReadProgress, title: str, make: Callable[..., Section], *args) -> Section:
    """``make(*args)``, its passes over the runs shown under ``title``."""
    with display.in_section(title):
        return make(*args)


def default_report_dir(runs: list[Run]) -> Path:
    """``<run>/report`` for one run; for several, a folder of its own beside the
    first, ``comparison-<run>+<run>…``, so that no run's own report is overwritten."""
    if len(runs) == 1:
        return runs[0].path / "report"
    return runs[0].path.parent / ("comparison-" + "+".join(run.name for run in runs))


TABLE_PASSES = (length.passes, morale.passes, cards.passes, task_passes, seats.passes, closeness.passes)
"""The passes over a run of the report's tables, computed in one read of its parts."""


def build_report(runs: RunsLike, out: str | Path | None = None, include_unfinished: bool = False,
                 threshold_pp: float = cards.DEFAULT_THRESHOLD_PP, threshold_points: float = DEFAULT_THRESHOLD_POINTS,
                 target_turns: tuple[float, float] | None = None,
                 skill_trace: Sequence[tuple[int, str | Path]] = (), bot: str | None = None,
                 progress: bool | None = None, scheduler: str | None = None,
                 dask_local: int | None = None, workers: int | None = None) -> WrittenReport:  # fmt: skip
    """Write the balance report of one or several runs.

    Parameters
    ----------
    runs : run directory, Run, or a sequence of them
        Several runs split every figure by run (player count, bot mix, deck).
    out : path, optional
        Directory to write (created); default: :func:`default_report_dir`.
    include_unfinished : bool
        Count stalled and truncated games in win rates and scores (RULES R4
        Reading leaves them out by default).
    threshold_pp : float
        Smallest effect on win rate (percentage points) that earns an ally a
        verdict (:func:`analysis.cards.verdicts`), and of the first player's edge
        that counts as a finding's unit of distance (:mod:`analysis.report.findings`).
    threshold_points : float
        Smallest gap from par, in points, that earns a task a verdict
        (:mod:`analysis.task_calibration`).
    target_turns : (low, high), optional
        The designer's target range of mean turns per game, for the findings.
    skill_trace : sequence of (budget, run directory)
        The skill trace's runs (:func:`analysis.experiments.ladder.plan`), for the
        section "Skill and luck" (:mod:`analysis.skill`); that section shows when
        they are given or a run mixes bots.
    bot : str, optional
        Card strength from the player rows of this bot only
        (:func:`analysis.cards.ally_strength`).
    progress : bool, optional
        Show the parts read, rows/s and ETA on stderr (:mod:`analysis.data.progress`);
        default: when stderr is a terminal and the runs hold a million games or more.
    scheduler, dask_local : optional
        Accumulate the statistics on the Dask cluster at this address, or on a new
        LocalCluster of this many workers (:func:`analysis.data.stream.reading`); the
        tables are the same as without.
    workers : int, optional
        Local processes reading the parts side by side (default: every core from
        :data:`analysis.data.pool.PARALLEL_GAMES` games on); the tables are the same
        whatever their number.

    Returns
    -------
    WrittenReport
        The HTML file, ``out/report.html``, with the findings and the sections'
        tables written beside it (pandas DataFrames, as in ``out/tables/``).

    Raises
    ------
    sim.rundir.RunError, sim.cards.DeckError
        For a directory that is not a readable run (see :func:`analysis.data.runs.open_runs`).
    ValueError
        When ``bot`` plays no seat of a run, or ``workers`` is below 1.
    """
    if "matplotlib.pyplot" not in sys.modules:  # headless (the CLI); a notebook keeps its backend, as the
        matplotlib.use("Agg")  # figures are drawn on Figure objects and never through pyplot
    runs = open_runs(runs)
    out = Path(out) if out is not None else default_report_dir(runs)
    with reading(runs, progress, scheduler, dask_local, workers) as display:
        with display.in_section("Reading the run"):  # every table's pass in one read of the parts
            for run in runs:
                prefetch(run, [p for passes in TABLE_PASSES for p in passes(run, include_unfinished)])
        with display.in_section("Task outcomes"):
            outcomes = cards.task_outcomes(runs)
        sections = [_made(display, "Game length", length_section, runs, target_turns),
                    _made(display, "Morale loss", morale_section, runs, include_unfinished),
                    _made(display, "Card strength", cards_section, runs, include_unfinished, threshold_pp, outcomes, bot),
                    _made(display, "Task rewards", tasks_section, runs, outcomes, threshold_points),
                    _made(display, "Seat advantage", seats_section, runs, include_unfinished, threshold_pp),
                    _made(display, "Closeness and drama", closeness_section, runs)]  # fmt: skip
        by_saves = next(t.frame for t in sections[1].tables if t.name == "win_rate_by_saves")
        with display.in_section("Skill check"):
            check = skill_check(runs, include_unfinished, threshold_pp, tables_of(sections))
        skill = _made(display, "Skill and luck", skill_section, runs, include_unfinished, threshold_pp, by_saves,
                      skill_trace, check)  # fmt: skip
    sections = sections[:5] + [skill] + sections[5:]  # after seats
    tables = tables_of(sections)
    found = findings(tables["ally_strength"], tables["task_calibration"], tables["seat_balance"],
                     tables["game_length"], tables["morale_impact"], threshold_pp, target_turns,
                     skill=tables.get("skill_summary"), check=check)  # fmt: skip
    found = with_stopping(found, runs)
    made = datetime.now(timezone.utc).isoformat(timespec="seconds")
    return write(Report(runs, found, sections, include_unfinished, made, unchecked(runs)), out)
