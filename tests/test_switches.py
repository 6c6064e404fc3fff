"""Every REVACHOL_* switch in one place (sim.switches; issue 66 item 1): each value
each switch takes, and a wrong one refused by the command line in one line that names
the variable, the value and the valid values, before any command runs."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sim.bots.rungs import RUNG_NAMES
from sim.switches import SwitchError, read

SCRIPT = Path(sys.executable).with_name("revachol")


def test_every_switch_reads_its_documented_values():
    assert read(RUNG_NAMES, {}) == read(RUNG_NAMES, {"REVACHOL_NUMBA_PATCHES": "1", "REVACHOL_CHECK_INVARIANTS": "0"})
    got = read(RUNG_NAMES, {"REVACHOL_COMPILE_RUNG": "planner", "REVACHOL_NUMBA_PATCHES": "inline, split",
                "REVACHOL_CHECK_INVARIANTS": "1"})  # fmt: skip
    assert (got.compile_rung, got.numba_patches, got.check_invariants) == ("planner", {"inline", "split"}, True)
    assert read(RUNG_NAMES, {"REVACHOL_NUMBA_PATCHES": "0"}).numba_patches == frozenset()


@pytest.mark.parametrize("name, value, valid", [
    ("REVACHOL_COMPILE_RUNG", "bogus", "valid: unset, random, greedy, planner, search"),
    ("REVACHOL_NUMBA_PATCHES", "maybe", "valid: unset or 1 (every patch), 0 (none), or a comma list of inline"),
    ("REVACHOL_CHECK_INVARIANTS", "2", "valid: unset or 0 (off), 1 (on)"),
])  # fmt: skip
def test_a_wrong_value_is_one_line_naming_the_variable_the_value_and_the_valid_ones(tmp_path, name, value, valid):
    with pytest.raises(SwitchError, match=re.escape(f"{name}='{value}' is not a valid value; {valid}")):
        read(RUNG_NAMES, {name: value})
    if not SCRIPT.exists():
        pytest.skip("the revachol console script is not installed")
    result = subprocess.run([str(SCRIPT), "simulate", "-n", "10", "--out", str(tmp_path / "run")], capture_output=True,
                            text=True, timeout=120, env={**os.environ, name: value})  # fmt: skip
    assert result.returncode == 1 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"error: {name}='{value}' is not a valid value; {valid}")
    assert "Traceback" not in result.stderr and not (tmp_path / "run").exists()
