"""The main job as a library function (issue 67 item 3): a notebook calls
``analysis.experiments.main_job.main_job`` and gets what ``revachol run`` prints."""

import pandas as pd

from analysis.experiments.main_job import main_job
from tests.conftest import DEFAULT_CARDS
from tests.test_cli import revachol


def test_the_main_job_from_python_gives_the_findings_revachol_run_prints(tmp_path):
    job = main_job(DEFAULT_CARDS, 600, (2,), "greedy", seed=3, runs=tmp_path / "lib", n_jobs=1, progress=False,
                   points_blind=False)  # fmt: skip
    result = revachol("run", "--cards", str(DEFAULT_CARDS), "-n", "600", "--players", "2", "--seed", "3",
                      "--no-points-blind", "--jobs", "1", "--runs", str(tmp_path / "cli"))  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert job.runs == (tmp_path / "lib" / job.runs[0].name,) and job.games == 600 and job.skilled == ()
    cli_findings = pd.read_csv(tmp_path / "cli" / job.runs[0].name / "report" / "tables" / "findings.csv")
    lib_findings = pd.read_csv(job.report.path.parent / "tables" / "findings.csv")
    assert lib_findings["sentence"].tolist() == cli_findings["sentence"].tolist()
    assert lib_findings["sentence"].iloc[0] in result.stdout  # the command prints the same first finding
