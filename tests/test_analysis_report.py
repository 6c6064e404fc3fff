"""The balance report on real runs (issue: balance reports): a known dice
probability recovered from play, the HTML page with every section, escaping of card
text, and ``revachol report`` as a real subprocess."""

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analysis.report.figures import plot_task_outcomes
from analysis.report.html import estimate, figure_png, rounded, signed, significant
from analysis.morale import morale_cards
from analysis.report.page import REPORT_FILE, build_report
from sim.cards import SaveKind
from sim.run.runner import simulate

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = Path(sys.executable).with_name("revachol")
SECTIONS = ("Game length", "Morale loss", "Card strength", "Task rewards", "Seat advantage", "Skill and luck",
            "Closeness and drama")  # skill: one sentence for a single-bot run (issue 32)
TABLES = ("game_length", "game_endings", "length_histogram", "length_survival", "first_event_incidence",
          "morale_per_game", "morale_event_distribution", "player_penalties", "morale_cards", "ally_strength",
          "ally_contributions", "task_outcomes", "task_completers", "seat_win_rates", "seat_balance",
          "score_summary", "score_histogram", "bot_win_rates", "task_calibration", "findings", "closeness", "margin_histogram")  # fmt: skip


@pytest.fixture(scope="module")
def run_4p(tmp_path_factory, default_deck):
    """20,000 four-player games of the default deck: enough rolls to pin a 1/36 save rate."""
    return simulate(default_deck, 20_000, tmp_path_factory.mktemp("runs") / "four", players=4, seed=3, n_jobs=2,
                    progress=False, cards_file=ROOT / "cards.yaml")  # fmt: skip


@pytest.fixture(scope="module")
def script_run(tmp_path_factory, default_deck):
    """A small run of a deck whose first ally is named like an HTML script."""
    renamed = default_deck.allies[0].model_copy(update={"name": "<script>alert('ally')</script>"})
    deck = default_deck.model_copy(update={"allies": [renamed, *default_deck.allies[1:]]})
    out = tmp_path_factory.mktemp("runs") / "script"
    return simulate(deck, 1_000, out, players=3, seed=2, n_jobs=1, progress=False)


def test_r8_a_double_requirement_saves_one_roll_in_36(run_4p, default_deck):
    cards = morale_cards(run_4p)
    double = next(i for i, card in enumerate(default_deck.morale)
                  if card.save.kind is SaveKind.BOTH_FACES and card.save.faces[0] == card.save.faces[1])  # fmt: skip
    row = cards.iloc[double]
    assert row["exact"] == "1/36" and row["rolls"] == 4 * row["events"] > 30_000
    assert row["save_rate_low"] < 1 / 36 < row["save_rate_high"]


def test_the_report_answers_every_question_with_provenance_and_csv_tables(run_4p, tmp_path):
    path = build_report(run_4p, tmp_path / "report").path
    assert path == tmp_path / "report" / REPORT_FILE
    page = path.read_text(encoding="utf-8")
    for section in SECTIONS:
        assert f">{section}</h2>" in page, section
    assert page.count("class='answer'") == len(SECTIONS) + 1  # and the findings' line: no skill check was played
    assert "Skill check — not played: these verdicts are for the run&#x27;s bots (4 × random)." in page
    assert "The first player wins" in page and "n = 20,000 games) against 25.0% for a fair seat" in page
    for item in ("toolkit version", "rules version", "deck hash", "card file", "root seed", "rule options", "timings"):
        assert f"<td>{item}</td>" in page, item
    assert "This deck holds estimated values" in page
    assert "leave out stalled and truncated games" in page
    assert "GIH WR" in page and "IWD" in page
    images = re.findall(r'<img src="data:image/png;base64,', page)
    assert len(images) == 10 and "src=\"http" not in page and "<script src" not in page  # self-contained
    assert page.index("id='findings'") < page.index("id='game-length'") < page.index("id='provenance'")
    assert page.index("This deck holds estimated values") < page.index("id='findings'")
    for table in TABLES:
        assert (tmp_path / "report" / "tables" / f"{table}.csv").stat().st_size > 0, table
    assert len(list((tmp_path / "report" / "figures").glob("*.png"))) == 10
    # Issue 68 item 4: the flagged allies' symbols and ability (R1.2) beside their effect, above the fold.
    strength = pd.read_csv(tmp_path / "report" / "tables" / "ally_strength.csv", keep_default_na=False)
    flagged = strength[strength["verdict"] != ""]
    start = page.index("id='card-strength'")
    lead = page[start:page.index("<details class='more'>", start)]
    assert len(flagged) >= 1 and "The allies with a verdict" in lead
    for _, ally in flagged.iterrows():
        assert all(part in lead for part in (ally["name"], ally["symbols"], ally["ability"])), ally["name"]
    assert not any(name in lead for name in strength.loc[strength["verdict"] == "", "name"] if "'" not in name)


def test_text_from_the_card_file_is_escaped(script_run, tmp_path):
    page = build_report(script_run, tmp_path / "report").path.read_text(encoding="utf-8")
    assert "<script>alert" not in page and "alert(" not in page.replace("&lt;script&gt;alert(", "")
    assert "&lt;script&gt;alert(" in page  # in the sortable tables' data (itables escapes) and the sentences


def revachol(*args: str) -> subprocess.CompletedProcess:
    if not SCRIPT.exists():
        pytest.skip(f"the console script is not installed next to {sys.executable}")
    return subprocess.run([str(SCRIPT), *args], cwd=ROOT, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_revachol_report_writes_the_page_and_prints_its_findings_and_path(script_run, tmp_path):
    result = revachol("report", str(script_run), "--out", str(tmp_path / "out"), "--include-unfinished")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Findings, most important first") and lines[-1] == str(tmp_path / "out" / REPORT_FILE)
    page = (tmp_path / "out" / REPORT_FILE).read_text(encoding="utf-8")
    assert "count the 0 stalled and truncated games" in page
    assert (tmp_path / "out" / "tables" / "ally_strength.csv").exists()


def test_revachol_report_on_a_directory_that_is_no_run_is_one_line(tmp_path):
    result = revachol("report", str(tmp_path))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith("error: ") and "manifest" in result.stderr and result.stderr.count("\n") == 1


def test_card_and_run_names_with_dollars_are_drawn_literally_never_as_math_text():
    """Issue 13 item 14: ``$...$`` in a name is text; an invalid math expression in one
    would make matplotlib fail to draw the figure."""
    names = [r"Kim $\notacommand{$ Kitsuragi", "Cuno $5 $6"]
    tasks = pd.DataFrame({"run": "run $x$", "players": 4, "bots": "4 × random", "name": names,
                          "completion_rate": [0.2, 0.4], "completion_rate_low": [0.1, 0.3],
                          "completion_rate_high": [0.3, 0.5]})  # fmt: skip
    figure = plot_task_outcomes(tasks)
    assert figure_png(figure).startswith(b"\x89PNG")
    (ax,) = figure.axes
    assert [label.get_text() for label in ax.get_yticklabels()] == [rf"Kim \$\notacommand{{\$ Kitsuragi", r"Cuno \$5 \$6"]
    assert all(not label._preprocess_math(label.get_text())[1] for label in ax.get_yticklabels())


@pytest.mark.slow
def test_a_report_of_several_runs_goes_to_its_own_folder_and_leaves_each_runs_report(script_run, tmp_path):
    own = build_report(script_run).path
    before = own.read_bytes()
    other = simulate(ROOT / "cards.yaml", 300, tmp_path / "other", players=2, seed=1, n_jobs=1, progress=False)
    both = build_report([script_run, other]).path
    assert both.parent == script_run.parent / f"comparison-{script_run.name}+other"
    assert own.read_bytes() == before


def test_findings_are_escaped_link_to_their_section_and_fold_after_eight():
    from analysis.report.findings import FINDINGS_SHOWN
    from analysis.report.render import _findings_html

    sentences = ["<script>alert('ally')</script> is stronger than the average ally."] + [f"Finding {i}." for i in range(9)]
    rows = pd.DataFrame({"sentence": sentences, "section": "Card strength", "kind": "ally", "subject": "x",
                         "value": 2.5, "low": 2.1, "high": 2.9, "n": 4000, "unit": "pp"})  # fmt: skip
    html = _findings_html(rows)
    assert "<script>" not in html and "&lt;script&gt;alert(&#x27;ally&#x27;)&lt;/script&gt;" in html
    assert html.count("href='#card-strength'") == 10
    shown, folded, how = html.split("<details>")
    assert shown.count("<tr title=") == FINDINGS_SHOWN and "2 more findings" in folded and "Finding 8" in folded
    assert "+2.5 pp (95% CI 2.1–2.9)" in shown and "<td>4,000</td>" in shown  # the value, its CI and n as cells
    assert "Benjamini" in how and "Benjamini" not in shown  # the method, one click away


def test_an_estimate_that_rounds_to_zero_shows_no_minus_sign():
    """-0.04 pp rounds to zero at one decimal: shown "+0.0 pp", never "-0.0 pp", as its
    interval's bounds already were."""
    assert estimate(-0.0004, -0.003, 0.002, "pp") == "+0.0 pp (95% CI -0.3 to 0.2)"
    assert estimate(-0.0004, np.nan, np.nan, "") == "0.0"
    assert signed(-0.004, 2) == "+0.00" and signed(-0.09, 2) == "-0.09" and signed(1234.5, 1) == "+1,234.5"


def test_a_ratio_of_counts_on_a_tie_shows_the_same_whichever_last_bit_it_has():
    """Issue 67 item 7: 1,919/2,000 = 95.95% computed as a Kaplan–Meier product comes
    out 95.94999… or 95.95000…1 by the libraries' order of operations; both show 96.0%,
    as the exact ratio rounds (half away from zero), and a true 95.94 stays 95.9."""
    below, above = np.nextafter(95.95, 0.0), np.nextafter(95.95, 100.0)
    assert round(below, 1) != round(above, 1)  # Python's round follows the last bit
    assert rounded(below, 1) == rounded(above, 1) == 96.0
    assert estimate(below / 100, np.nan, np.nan) == estimate(above / 100, np.nan, np.nan) == "96.0%"
    assert rounded(95.94, 1) == 95.9 and rounded(0.0005, 3) == 0.001 and rounded(-0.04, 1) == 0.0
    assert significant(np.nextafter(0.9595, 0.0), 3) == significant(0.9595, 3) == "0.96"
