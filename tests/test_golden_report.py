"""The golden report (issue 50 item 6, issue 67 item 7): the text of the whole
report of a small fixed-seed run with both companions (points-blind, and a skill
check played by planner on its first 300 games), every finding, every section's
answers and notes, the warnings, every table with the page's cells and the
provenance without a path, date or duration
(:func:`analysis.report.terminal.report_text`), committed in
``tests/golden/report-2p-greedy-2000g-seed7.txt``, so that a change to a number or a
sentence of the report shows as a diff in review. After a change meant to alter the
report, retake it and commit the new text with the change::

    python tests/test_golden_report.py
"""

from __future__ import annotations

import difflib
from pathlib import Path

from analysis.data.runs import Run
from analysis.report import build_report
from analysis.report.terminal import report_text
from sim.run.points_blind import play_points_blind
from sim.run.runner import simulate
from sim.run.skilled import play_skilled

ROOT = Path(__file__).resolve().parents[1]
GOLDEN_REPORT = ROOT / "tests" / "golden" / "report-2p-greedy-2000g-seed7.txt"


def golden_run_text(folder: Path) -> str:
    """The report text of 2,000 two-player greedy games of the default deck, seed 7,
    played into ``folder`` (R2.1, R2.2), with its points-blind companion (R6 points
    alike) and its first 300 games played again by planner in every seat (a skill
    check by another bot than search: its words say planner's play)."""
    run = simulate(ROOT / "cards.yaml", 2000, folder / "run", players=2, bots="greedy", seed=7, n_jobs=1,
                   progress=False)  # fmt: skip
    play_points_blind(run, 1, progress=False)
    play_skilled(run, 1, progress=False, bot="planner", games=300)
    report = build_report([run], out=folder / "report")
    return report_text(report.findings, report.tables, report.sections, [Run.open(run)])


def test_the_report_of_a_fixed_seed_run_reads_as_its_golden_text(tmp_path):
    got = golden_run_text(tmp_path)
    expected = GOLDEN_REPORT.read_text(encoding="utf-8")
    diff = "".join(difflib.unified_diff(expected.splitlines(True), got.splitlines(True), "golden", "now", n=1))
    assert got == expected, f"the report changed; if on purpose, retake it: python tests/test_golden_report.py\n{diff[:4000]}"


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        GOLDEN_REPORT.write_text(golden_run_text(Path(folder)), encoding="utf-8")
    print(GOLDEN_REPORT)
