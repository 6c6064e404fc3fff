"""The notebooks of ``notebooks/`` run from top to bottom (nbclient).

Each notebook runs in a fresh ``python3`` kernel of the interpreter running the
tests, from the ``notebooks/`` folder as Jupyter would, with ``MPLBACKEND=agg``,
few games (``REVACHOL_NOTEBOOK_GAMES``, which every notebook's ``N_GAMES`` reads)
and ``REVACHOL_RUNS`` (the notebooks' runs folder, ``../runs`` by default) under the
test's ``tmp_path``, so that the runs and reports they write are cleaned up with it.
"""

from __future__ import annotations

import json
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
NAMES = ("01_quickstart", "02_card_strength", "03_tweak_a_card", "04_advise")
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


# What each notebook must have computed, read in its own kernel after its last cell: a
# cell appended to the notebook in memory prints these as one JSON line.
PROBES = {
    "01_quickstart": """{
        "games": load(run, "games").height, "allies": len(strength), "allies_in_deck": len(deck.allies),
        "effects_finite": bool(strength["effect_pp"].notna().all()), "seats": len(seat_rates),
        "findings": len(found), "report": str(report.path), "log_head": game_log.splitlines()[:2]}""",
    "02_card_strength": """{
        "games": [load(baseline, "games").height, load(restricted, "games").height], "allies": len(strength),
        "allies_in_deck": len(deck.allies), "effects_finite": bool(strength["effect_pp"].notna().all()),
        "effect_range": [float(strength["effect_pp"].min()), float(strength["effect_pp"].max())], "verdicts": sorted(set(strength["verdict"])),
        "restricted_bots": sorted(seats.bot_win_rates(restricted)["bot"]),
        "ally_rows": both.loc[both["ally"] == ALLY, "run"].tolist()}""",
    "03_tweak_a_card": """{
        "games": [load(run_a, "games").height, load(run_b, "games").height],
        "points": outcomes.loc[outcomes["task"] == TASK, "points"].tolist(), "new_points": NEW_POINTS,
        "paired_games": int(paired["games"]["n"].max()), "report": str(report.path)}""",
    "04_advise": """{
        "holdout_seed": advice.holdout_seed, "seed": advice.seed, "holdout_games": int(summary_table(advice)["n"].max()),
        "edited": sorted({c.section for c in advice.changes}), "sentences": len(edit_sentences(advice)),
        "changes": len(advice.changes), "proposal": str(advice.proposal), "html": str(html)}""",
}


def _run(name: str, tmp_path: Path, monkeypatch) -> tuple[nbformat.NotebookNode, dict]:
    """Run a notebook top to bottom with the probe cell appended; its cells and the probe."""
    monkeypatch.setenv("MPLBACKEND", "agg")
    monkeypatch.setenv(GAMES_VARIABLE, str(GAMES))
    monkeypatch.setenv("REVACHOL_RUNS", str(tmp_path))
    nb = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(f"import json\nfrom analysis.data.load import load\nprint('PROBE', json.dumps({PROBES[name]}))"))
    client = NotebookClient(
        nb,
        kernel_name="python3",
        kernel_manager_class=ThisPythonKernel,
        timeout=600,
        resources={"metadata": {"path": str(NOTEBOOKS)}},  # Jupyter runs a notebook from its folder
    )
    client.execute()  # raises CellExecutionError, with the cell and its traceback, if a cell fails
    probe = nb.cells.pop()
    line = next(line for line in _printed_cells([probe]).splitlines() if line.startswith("PROBE "))
    return nb, json.loads(line.removeprefix("PROBE "))


def _printed_cells(cells) -> str:
    return "".join(o.get("text", "") for cell in cells for o in cell.outputs if o.output_type == "stream")


def _figures(nb) -> int:
    return sum("image/png" in output.get("data", {}) for output in _outputs(nb))


def _tables(nb) -> int:
    return sum("text/html" in output.get("data", {}) for output in _outputs(nb))


def _report(path: str, tmp_path: Path) -> str:
    report = Path(path)
    assert report.is_file() and report.is_relative_to(tmp_path)
    return report.read_text(encoding="utf-8")


@pytest.mark.slow
def test_notebook_01_quickstart_plays_reports_and_replays(tmp_path, monkeypatch):
    nb, probe = _run("01_quickstart", tmp_path, monkeypatch)
    assert probe["games"] == GAMES
    assert probe["allies"] == probe["allies_in_deck"] and probe["effects_finite"]
    assert probe["seats"] == 4 and probe["findings"] >= 3  # first player, length, penalties, dice at least
    assert "Balance report" in _report(probe["report"], tmp_path)
    assert probe["log_head"][0].startswith("Rule options: opt_double_any_symbol off")
    assert probe["log_head"][1].endswith("plays first (R2.2).")
    printed = _printed(nb)
    assert "1,500 games of 4 players, bot 'greedy', seed 1" in printed and "\n1. " in printed
    assert _figures(nb) == 7 and _tables(nb) >= 7


@pytest.mark.slow
def test_notebook_02_card_strength_values_every_ally_and_restricts_one(tmp_path, monkeypatch):
    nb, probe = _run("02_card_strength", tmp_path, monkeypatch)
    assert probe["games"] == [GAMES, GAMES]
    assert probe["allies"] == probe["allies_in_deck"] and probe["effects_finite"]
    low, high = probe["effect_range"]
    assert low < 0 < high  # effects against the average ally: some above it, some below
    assert set(probe["verdicts"]) <= {"", "stronger", "weaker"}
    assert probe["restricted_bots"] == ["greedy", "greedy:never=kim_kitsuragi"]
    assert len(probe["ally_rows"]) == 2  # Kim's effect in the baseline and in the restricted run
    assert _figures(nb) == 2 and _tables(nb) == 5


@pytest.mark.slow
def test_notebook_03_tweak_a_card_compares_the_two_decks_on_the_same_games(tmp_path, monkeypatch):
    nb, probe = _run("03_tweak_a_card", tmp_path, monkeypatch)
    assert probe["games"] == [GAMES, GAMES] and probe["paired_games"] == GAMES
    assert probe["points"][1] == probe["new_points"] != probe["points"][0]
    assert "after:  {" in _printed(nb) and "'points': 6" in _printed(nb)
    assert "Balance report" in _report(probe["report"], tmp_path)
    assert _figures(nb) == 3


@pytest.mark.slow
def test_notebook_04_advise_proposes_ally_edits_and_measures_them_on_a_hold_out_seed(tmp_path, monkeypatch):
    nb, probe = _run("04_advise", tmp_path, monkeypatch)
    assert probe["holdout_seed"] != probe["seed"] and probe["holdout_games"] == GAMES
    assert probe["changes"] >= 1 and probe["sentences"] == probe["changes"]
    assert probe["edited"] == ["allies"]  # the notebook locks every task's points and requirement
    assert "Advice written to" in _printed(nb) and "What should I change?" in _report(probe["html"], tmp_path)
    assert _figures(nb) == 1
