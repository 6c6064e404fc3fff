"""The rules tests marked ``nojit`` pass with numba's compiler switched off
(``NUMBA_DISABLE_JIT=1``): the kernels are then plain Python, so a failure here but
not compiled (or the reverse) points at a numba-specific difference."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_rules_tests_pass_as_plain_python():
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-m", "nojit", "-p", "no:cacheprovider", "tests"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    tail = result.stdout[-3000:] + result.stderr[-2000:]
    assert result.returncode == 0, tail
    assert " passed" in result.stdout and " failed" not in result.stdout, tail
