"""The notebooks of ``notebooks/`` run from top to bottom (nbclient).

Each notebook runs in a fresh ``python3`` kernel of the interpreter running the
tests, from the ``notebooks/`` folder as Jupyter would, with ``MPLBACKEND=agg``,
few games (``REVACHOL_NOTEBOOK_GAMES``, which every notebook's ``N_GAMES`` reads)
and ``REVACHOL_RUNS`` (the notebooks' runs folder, ``../runs`` by default) under the
test's ``tmp_path``, so that the runs and reports they write are cleaned up with it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient
from traitlets import default

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
NAMES = ("01_quickstart", "02_card_strength", "03_tweak_a_card")
GAMES = 1500  # per run: enough for every table to have rows in every section
GAMES_VARIABLE = "REVACHOL_NOTEBOOK_GAMES"


class ThisPythonKernel(KernelManager):
    """The ``python3`` kernel of this interpreter.

    ipykernel's own kernel spec (its command is ``sys.executable``), whatever other
    ``python3`` specs are registered in the user's or the system's Jupyter folders:
    one of those could start another Python, without this project installed.
    """

    @default("kernel_spec_manager")
    def _only_ipykernels_spec(self) -> KernelSpecManager:
        return KernelSpecManager(kernel_dirs=[])


def _outputs(nb) -> list:
    return [output for cell in nb.cells if cell.cell_type == "code" for output in cell.outputs]


def _printed(nb) -> str:
    return "".join(output.get("text", "") for output in _outputs(nb) if output.output_type == "stream")


def test_the_kernel_is_this_interpreter():
    assert ThisPythonKernel(kernel_name="python3").kernel_spec.argv[0] == sys.executable


@pytest.mark.parametrize("name", NAMES)
def test_notebook_is_stored_without_outputs_and_reads_the_game_count(name):
    nb = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    nbformat.validate(nb)
    code = [cell for cell in nb.cells if cell.cell_type == "code"]
    assert all(not cell.outputs and cell.execution_count is None for cell in code), "clear the outputs before saving"
    assert GAMES_VARIABLE in code[0].source and "N_GAMES" in code[0].source


@pytest.mark.parametrize("name", NAMES)
def test_notebook_runs(name, tmp_path, monkeypatch):
    monkeypatch.setenv("MPLBACKEND", "agg")
    monkeypatch.setenv(GAMES_VARIABLE, str(GAMES))
    monkeypatch.setenv("REVACHOL_RUNS", str(tmp_path))
    nb = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    client = NotebookClient(
        nb,
        kernel_name="python3",
        kernel_manager_class=ThisPythonKernel,
        timeout=600,
        resources={"metadata": {"path": str(NOTEBOOKS)}},  # Jupyter runs a notebook from its folder
    )
    client.execute()  # raises CellExecutionError, with the cell and its traceback, if a cell fails

    assert any("image/png" in output.get("data", {}) for output in _outputs(nb)), "no figure was drawn"
    for line in _printed(nb).splitlines():
        if line.startswith("Report written to "):
            report = Path(line.removeprefix("Report written to "))
            assert report.is_file() and report.is_relative_to(tmp_path)
            assert "Balance report" in report.read_text(encoding="utf-8")
            break
    else:
        assert name == "02_card_strength", "the notebook printed no report path"
