"""The documentation builds as a site: ``mkdocs build --strict`` (mkdocs.yml, the
Material theme, mkdocstrings for the API pages) turns every warning, a broken link
or an API page naming a function that does not exist, into a failure."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_mkdocs_build_strict_passes(tmp_path):
    site = tmp_path / "site"
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT, capture_output=True, text=True, timeout=300, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    rules = (site / "RULES" / "index.html").read_text(encoding="utf-8")
    assert "A2 double" in rules and "opt_double_any_symbol" in rules
    api = (site / "api" / "sim" / "index.html").read_text(encoding="utf-8")
    assert "run_games" in api and "root seed" in api.lower()
