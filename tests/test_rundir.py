"""The run directory contract (sim.rundir): reading a run never loads the compiler."""

import subprocess
import sys

import pytest

# Modules that read runs, and none that play games (the experiments that call
# sim.run.runner.simulate need the engine and may load numba).
READERS = ["sim.rundir", "analysis", "analysis.data.runs", "analysis.report", "analysis.report.page", "analysis.cards",
           "analysis.length", "analysis.morale", "analysis.seats", "analysis.skill", "analysis.task_calibration",
           "analysis.closeness", "analysis.plan", "analysis.experiments.compare"]  # fmt: skip


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


def test_sets_of_allies_are_bit_packed_and_unpacked_to_the_same_sets_for_any_deck_size():
    import numpy as np

    from sim.rundir.schema import pack_allies, unpack_allies

    rng = np.random.default_rng(3)
    for allies in (1, 8, 13, 40, 500):  # a byte's worth, a partial last byte, the default deck, MAX_ALLIES
        sets = rng.random((7, 4, allies)) < 0.3
        packed = pack_allies(sets.reshape(28, allies))
        assert packed.dtype == np.uint8 and packed.shape == (28, -(-allies // 8))
        assert np.array_equal(unpack_allies(packed.reshape(7, 4, -1), allies), sets)
        assert unpack_allies(sets, allies) is sets  # runs before 0.2 wrote Boolean arrays: read as they are
    with pytest.raises(ValueError, match="holds 5 bytes, not 2 for 13 allies"):
        unpack_allies(np.zeros((3, 5), np.uint8), 13)


def test_a_runs_players_parts_hold_the_sets_of_allies_packed_and_load_gives_them_back(tmp_path):
    import numpy as np
    import polars as pl

    from analysis.data.load import load
    from sim.rundir import part_files
    from sim.run.runner import simulate

    run = simulate("cards.yaml", 50, tmp_path / "run", players=3, bots="random", seed=2, n_jobs=1, progress=False)
    raw = pl.read_parquet(part_files(run, "players")[0])
    assert raw.schema["held"] == pl.Array(pl.UInt8, 5)  # 40 allies in 5 bytes
    players = load(run, "players")
    assert players.schema["held"] == pl.Array(pl.Boolean, 40)
    held = players["held"].to_numpy()
    assert np.array_equal(np.packbits(held, axis=1), raw.sort("game", "turn_order")["held"].to_numpy())
    assert held.sum(1).min() >= 3  # R3.2: every player held its opening hand of three allies at least
