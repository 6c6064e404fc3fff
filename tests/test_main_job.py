"""The main job as a library function (issue 67 item 3): a notebook calls
``analysis.workflows.run`` (``analysis.experiments.main_job.main_job`` and its brief)
and gets what ``revachol run`` prints."""

import pandas as pd

from analysis import workflows
from analysis.experiments.main_job import main_job
from analysis.report import document as doc
from tests.conftest import DEFAULT_CARDS
from tests.test_cli import revachol


def test_the_main_job_from_python_gives_the_findings_revachol_run_prints(tmp_path):
    done = workflows.run(DEFAULT_CARDS, 600, (2,), "greedy", seed=3, runs=tmp_path / "lib", n_jobs=1, progress=False,
                         points_blind=False)  # fmt: skip
    job = done.value
    result = revachol("run", "--cards", str(DEFAULT_CARDS), "-n", "600", "--players", "2", "--seed", "3",
                      "--no-points-blind", "--jobs", "1", "--runs", str(tmp_path / "cli"))  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert job.runs == (tmp_path / "lib" / job.runs[0].name,) and job.games == 600 and job.skilled == ()
    cli_findings = pd.read_csv(tmp_path / "cli" / job.runs[0].name / "report" / "tables" / "findings.csv")
    lib_findings = pd.read_csv(job.report.path.parent / "tables" / "findings.csv")
    assert lib_findings["sentence"].tolist() == cli_findings["sentence"].tolist()
    numbered = [line for block in done.brief.blocks if isinstance(block, doc.Lines) for line in block.marked()]
    assert numbered and all(line in result.stdout.splitlines() for line in numbered)  # the lines the command prints


def test_a_main_job_validates_its_deck_once_from_the_card_file_to_the_report(tmp_path, monkeypatch):
    """Issue 67 item 4: the card file is read and validated once; the run's copy is
    written from that text, and its points-blind companion (its deck derived from the
    validated one, R6 points set alike) and the report read the copies back as the
    same validated Deck (sim.cards.parse_deck keeps what it
    validated) instead of validating them again. Before, one run validated it six
    times."""
    import sim.cards

    monkeypatch.setattr(sim.cards, "_validated", {})  # nothing validated yet in this process
    parsed = []
    parse_yaml = sim.cards._parse_yaml
    monkeypatch.setattr(sim.cards, "_parse_yaml", lambda text, file: parsed.append(file) or parse_yaml(text, file))
    job = main_job(DEFAULT_CARDS, 300, (2,), "greedy", seed=5, runs=tmp_path, n_jobs=1, progress=False,
                   points_blind=True, skill_check=False)  # fmt: skip
    assert job.points_blind and job.report.path.exists()
    assert parsed == [str(DEFAULT_CARDS)]  # one validation, of the card file itself
