"""Every CSV the toolkit writes is inert in a spreadsheet (issue 49): a text cell that
begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a leading
``'`` (OWASP, "CSV Injection"); numbers are written as they are."""

import csv
import math
import re
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from analysis.report.csv_cells import inert_cell
from analysis.report.writer import Files, write_files
from cli import app
from sim.cards import dump_yaml

# Card names a spreadsheet would run as formulas; each renames an ally and a task.
FORMULAS = ('=HYPERLINK("http://example.invalid","x")', "+1+1", "@SUM(A1:A9)", "-cmd")
SMALL = ["-n", "50", "--players", "2", "--jobs", "1"]  # as tests/test_os_errors.py plays every command


def test_a_text_cell_that_starts_like_a_formula_gets_a_leading_quote():
    for text in (*FORMULAS, "-x", "\tx", "\rx", "-", "+2.5", "-2.5e"):
        assert inert_cell(text) == "'" + text


def test_numbers_negative_number_text_and_other_text_stay_as_they_are():
    for value in (-2.5, 3, -7, math.nan, None, True, "-2.5", "-3", "-.5", "-1e-3", "x=1", "a-b", "", "'=1"):
        assert inert_cell(value) is value


def test_a_table_is_written_quoting_only_formula_like_text_and_leaving_every_other_byte(tmp_path):
    frame = pd.DataFrame({"name": ["-x", "plain", "=1+1"], "effect": [-2.5, 0.25, -1.0], "n": [-2, 3, 4],
                          "@count": ["a", "b", None]})  # fmt: skip
    write_files(Files({"t.csv": frame}), tmp_path)
    assert (tmp_path / "t.csv").read_text().splitlines() == [
        "name,effect,n,'@count", "'-x,-2.5,-2,a", "plain,0.25,3,b", "'=1+1,-1.0,4,"]
    assert frame["name"].tolist() == ["-x", "plain", "=1+1"]  # the caller's frame is left as it was
    plain = frame.drop(columns="@count").assign(name=["x", "plain", "y"])
    write_files(Files({"mine.csv": plain}), tmp_path)
    plain.to_csv(tmp_path / "pandas.csv", index=False)
    assert (tmp_path / "mine.csv").read_bytes() == (tmp_path / "pandas.csv").read_bytes()


@pytest.fixture(scope="module")
def formula_deck(tmp_path_factory, default_deck) -> tuple[Path, str, str]:
    """The default cards with the first four allies and tasks named as ``FORMULAS``;
    returns the file, the first ally's id and the first task's id."""
    data = default_deck.to_yaml_data()
    for section in ("allies", "tasks"):
        for card, name in zip(data[section], FORMULAS):
            card["name"] = name
    path = tmp_path_factory.mktemp("deck") / "formulas.yaml"
    path.write_text(dump_yaml(data), encoding="utf-8")
    return path, data["allies"][0]["id"], data["tasks"][0]["id"]


# Each command's arguments (deck, first ally id, first task id -> argv), and the card
# names its CSVs must hold, escaped.
COMMANDS = {
    "run": (lambda deck, ally, task: ["run", "--cards", deck, "--quiet", *SMALL], FORMULAS),
    "compare": (lambda deck, ally, task: ["compare", deck, deck, "--quiet", *SMALL], FORMULAS),
    "sweep": (lambda deck, ally, task: ["sweep", "--cards", deck, "--card", task, "--field", "points", "--value", "1",
                                        "--value", "2", "--metric", "completion_rate", *SMALL], ()),
    "tune": (lambda deck, ally, task: ["tune", "--cards", deck, "--field", f"{task}.points=1..3", "--target",
                                       "turns=40..60", "--evaluations", "2", *SMALL], FORMULAS),
    "card-value": (lambda deck, ally, task: ["card-value", "--cards", deck, "--ally", ally, *SMALL], FORMULAS[:1]),
    "skill": (lambda deck, ally, task: ["skill", "--cards", deck, "--rung", "random", "--rung", "greedy",
                                        "--trace-budget", "0", "--quiet", *SMALL], FORMULAS),
}  # fmt: skip
SLOW = ("run", "tune", "skill")  # a report or a dozen runs each: 10 to 35 s


def csv_cells(folder: Path) -> list[str]:
    """Every cell of every CSV below ``folder``, header rows included, as Python's
    ``csv`` module reads them."""
    files = sorted(folder.rglob("*.csv"))
    assert files, f"no CSV written under {folder}"
    return [cell for path in files for row in csv.reader(path.open(newline="", encoding="utf-8")) for cell in row]


def is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("command", [pytest.param(c, marks=pytest.mark.slow) if c in SLOW else c for c in COMMANDS])
def test_every_csv_a_command_writes_for_a_deck_of_formula_names_is_inert(tmp_path, formula_deck, command):
    argv, escaped = COMMANDS[command]
    deck, ally, task = formula_deck
    where = ["--runs", str(tmp_path)] if command == "run" else ["--out", str(tmp_path / "out")]
    result = CliRunner().invoke(app, [*argv(str(deck), ally, task), *where])
    assert result.exit_code == 0, result.output
    cells = csv_cells(tmp_path)
    live = [c for c in cells if c.startswith(("=", "+", "@", "\t", "\r")) or c.startswith("-") and not is_number(c)]
    assert live == []
    assert {"'" + name for name in escaped} <= set(cells)


def test_no_module_but_the_csv_writer_writes_a_csv_itself():
    """Every CSV goes through csv_cells.csv_text, advise's included (search.csv,
    advice.csv), whose end-to-end run is too slow for the suite: no other module of the
    toolkit calls pandas' to_csv or polars' write_csv."""
    root = Path(__file__).resolve().parents[1]
    sources = [*(root / "analysis").rglob("*.py"), *(root / "sim").rglob("*.py"), root / "cli.py"]
    writers = {path.relative_to(root).as_posix() for path in sources
               if ".to_csv(" in (text := path.read_text(encoding="utf-8")) or ".write_csv(" in text}  # fmt: skip
    assert writers == {"analysis/report/csv_cells.py"}


def test_one_module_of_the_analysis_writes_files():
    """Issue 50: every file of every command is written by analysis.report.writer
    (write_files); no other module of analysis/ makes a folder or writes a file."""
    root = Path(__file__).resolve().parents[1]
    # to_csv(index=False) returns the text (csv_cells.csv_text); savefig(buffer) draws in memory (html.figure_png)
    writing = re.compile(r"write_text|write_bytes|\.mkdir\(|\.to_csv\((?!index=False\))|\.to_parquet\(|open\(.*[\"']w|"
                         r"savefig\((?!buffer)")
    writers = {path.relative_to(root).as_posix() for path in (root / "analysis").rglob("*.py")
               if writing.search(path.read_text(encoding="utf-8"))}  # fmt: skip
    assert writers == {"analysis/report/writer.py"}
