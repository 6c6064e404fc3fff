"""The run directory contract (sim.rundir): reading a run never loads the compiler."""

import subprocess
import sys

import pytest

# Modules that read runs, and none that play games (the experiments that call
# sim.runner.simulate need the engine and may load numba).
READERS = ["sim.rundir", "analysis", "analysis.data.runs", "analysis.report", "analysis.report.page", "analysis.cards",
           "analysis.length", "analysis.morale", "analysis.seats", "analysis.skill", "analysis.task_calibration",
           "analysis.closeness", "analysis.experiments.compare"]  # fmt: skip


@pytest.mark.parametrize("module", READERS)
def test_reading_a_run_loads_no_numba(module):
    code = f"import sys, {module}; assert 'numba' not in sys.modules, sorted(m for m in sys.modules if m.startswith('sim'))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-2000:]


def test_the_contract_names_the_task_status_codes_the_engine_writes():
    from sim import state
    from sim.rundir import schema

    for name in ("TASK_UNREVEALED", "TASK_FACE_UP", "TASK_COMPLETED", "TASK_FAILED", "TASK_LOST"):
        assert getattr(state, name) is getattr(schema, name)
    assert (schema.TASK_COMPLETED, schema.TASK_FAILED, schema.TASK_LOST) == (2, 3, 4)
