"""What the report's commands print, as pages (:mod:`analysis.report.document`), data
only: ``run``, ``report``, ``skill-check`` and ``plan``. Their terminal is drawn by the
renderer of every command's brief (:func:`analysis.report.terminal.print_page`); the
words are :mod:`analysis.report.words`'.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from analysis.report import document as doc
from analysis.report.findings import FINDINGS_SHOWN
from analysis.report.html import estimate
from analysis.report.model import Section
from analysis.report.writer import WrittenReport
from analysis.report.words.plan import plan_lines
from analysis.report.words.report import (CAPTIONS, FULL_TABLE, SKILL_CHECK_TABLE, answer_text, empty_text,
                                          findings_heading, note_text, report_line)  # fmt: skip
from analysis.report.words.skill import skill_check_lines, skill_settled_sentence
from analysis.skill_check import CANNOT_TELL, DEPENDS, HOLDS


def findings_blocks(report: WrittenReport) -> list[doc.Block]:
    """The findings the report opens with: a heading, the first
    :data:`~analysis.report.findings.FINDINGS_SHOWN` of them one numbered line each (its
    sentence, with number, 95% CI and n, and the section that holds the detail), then
    each run's skill check sentence, or the line that says it has none and how to play it."""
    found = report.findings
    shown = found.head(FINDINGS_SHOWN)
    blocks: list[doc.Block] = [doc.plain(findings_heading(len(shown), len(found)))]
    if len(shown):
        numbered = tuple(f"{row.sentence} [{row.section}]" for row in shown.itertuples(index=False))
        blocks.append(doc.Lines(numbered, ordered=True))
    checks = skill_check_lines(report.tables.get("skill_check"), report.unchecked)
    return blocks + [doc.plain(line) for line in checks]


def section_blocks(section: Section) -> list[doc.Block]:
    """One section of the report as the page shows it: its title, each answer's
    sentence and details, its notes, and each table the page shows under its caption
    (a long table is in its CSV only, and an empty one says so)."""
    blocks: list[doc.Block] = [doc.Heading(section.title)]
    blocks += [doc.plain(text) for answer in section.answers for text in answer_text(answer) if text]
    blocks += [doc.note(note_text(note)) for note in section.notes]
    for table in section.tables:
        caption = CAPTIONS[table.name]
        if table.frame.empty:
            blocks.append(doc.note(f"{caption} {empty_text(table.name)}"))
        elif not table.shown:
            blocks.append(doc.note(f"{caption} {FULL_TABLE}tables/{table.name}.csv"))
        else:
            blocks.append(doc.Table(table.frame, table.hide, title=caption))
    return blocks


def report_brief(report: WrittenReport, sections: Sequence[str] = (), findings: bool = True) -> doc.Page:
    """What ``revachol report`` prints: the findings (unless ``findings`` is false), each
    section named in ``sections`` by title (any case; ``all`` for every one,
    :func:`section_blocks`), and the page's path."""
    wanted = {name.lower() for name in sections}
    shown = [block for section in report.sections if "all" in wanted or section.title.lower() in wanted
             for block in section_blocks(section)]  # fmt: skip
    return doc.Page("report", (*(findings_blocks(report) if findings else ()), *shown, doc.plain(str(report.path))))


def run_brief(lines: Sequence[str], report: WrittenReport) -> doc.Page:
    """What ``revachol run`` prints: ``lines`` (what the main job played and where,
    :func:`analysis.report.words.experiments.main_job_lines`), the findings and the
    report's path."""
    return doc.Page("run", (*map(doc.plain, lines), *findings_blocks(report), doc.plain(report_line(report.path))))


def skill_check_table(check: pd.DataFrame) -> pd.DataFrame:
    """Every measure of a skill check (:func:`analysis.skill_check.compare_measures`),
    one row each: its state (depends on skill, cannot tell yet, holds), its change with
    the skilled bot (95% CI), the smallest change the check's games detect, its
    threshold, and the skilled games that would tell; measures that depend on skill
    first, then those that cannot tell yet, fewest games to tell first."""
    order = check["state"].map({DEPENDS: 0, CANNOT_TELL: 1, HOLDS: 2})
    rows = check.assign(order=order).sort_values(["run", "order", "games_to_tell"], kind="stable")
    return pd.DataFrame({
        "run": rows["run"], "measure": rows["subject"], "state": rows["state"],
        "change (95% CI)": [estimate(r.difference, r.difference_low, r.difference_high, "", noun=r.unit)
                            for r in rows.itertuples()],
        "detectable": [f"{r.detectable:.2g} {r.unit}" for r in rows.itertuples()],
        "threshold": [f"{r.threshold:g} {r.unit}" for r in rows.itertuples()],
        "skilled games to tell": rows["games_to_tell"]})  # fmt: skip


def skill_check_brief(done, table: bool = True) -> doc.Page:
    """What ``revachol skill-check`` prints for ``done``
    (:class:`analysis.experiments.check_skill.SkillCheck`): every measure
    (:func:`skill_check_table`, unless ``table`` is false), each run's sentence, where
    a check played until settled stopped, and the report's path."""
    check = done.report.tables.get("skill_check")
    blocks: list[doc.Block] = []
    if table and check is not None and not check.empty:
        blocks.append(doc.Table(skill_check_table(check), title=SKILL_CHECK_TABLE))
    blocks += map(doc.plain, skill_check_lines(check, done.report.unchecked))
    blocks += [doc.plain(skill_settled_sentence(stopping, path.name if len(done.runs) > 1 else ""))
               for path, stopping in zip(done.runs, done.stopping)]  # fmt: skip
    return doc.Page("skill-check", (*blocks, doc.plain(report_line(done.report.path))))


def plan_brief(table: pd.DataFrame, source: Path | None) -> doc.Page:
    """What ``revachol plan`` prints: :func:`analysis.plan.plan_games`' table under its
    title (``source``: the report tables' folder, or None) and the sentences under it."""
    title, lines = plan_lines(table, source)
    return doc.Page("plan", (doc.Table(table, ("unit",), title=title), *map(doc.plain, lines)))
