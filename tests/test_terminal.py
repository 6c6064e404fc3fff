"""What the commands print when standard output is a file or a pipe: tables at full
width (sim.console), and the findings the report opens with (analysis.report.brief,
drawn by analysis.report.terminal.print_page)."""

from pathlib import Path

import pandas as pd
import pytest

from analysis.report import document as doc
from analysis.report.brief import findings_blocks
from analysis.report.terminal import print_page
from analysis.report.writer import WrittenReport

LONG_ID = "evrart_claire.symbols"  # the example, cut to "evrart_claire.sy…" at 80 columns


@pytest.fixture
def no_columns(monkeypatch):
    """Standard output is pytest's capture (no terminal) and COLUMNS says nothing."""
    monkeypatch.delenv("COLUMNS", raising=False)


def _print_findings(found: pd.DataFrame) -> None:
    """The findings of a report that found ``found`` (no skill check), as ``run`` prints them."""
    print_page(doc.Page("findings", tuple(findings_blocks(WrittenReport(Path("report.html"), found, {})))))


def test_a_table_printed_to_a_pipe_keeps_a_long_ally_id_whole(capsys, no_columns):
    table = pd.DataFrame({"field": [LONG_ID], **{f"win_rate_{i}": [0.25] for i in range(8)}})
    print_page(doc.Page("edits", (doc.Table(table, title="Edits"),)))
    out = capsys.readouterr().out
    assert LONG_ID in out and "…" not in out
    assert max(len(line) for line in out.splitlines()) > 80


def test_the_findings_print_the_first_eight_numbered_under_a_heading_one_line_each(capsys, no_columns):
    sentences = [f"Ally {i} is stronger than the average ally: +{i + 2}.0 pp win rate (95% CI 1.0 to 9.0, n = 2,000 "
                 f"games), the longest of sentences that would wrap at eighty columns." for i in range(10)]  # fmt: skip
    _print_findings(pd.DataFrame({"sentence": sentences, "section": "Card strength"}))
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Findings, most important first (8 of 10; all in the report):"
    assert lines[1:] == [f"{i + 1:>2}. {sentence} [Card strength]" for i, sentence in enumerate(sentences[:8])]


def test_the_findings_of_a_short_list_print_them_all_without_a_count(capsys, no_columns):
    _print_findings(pd.DataFrame({"sentence": ["Games last 80.0 turns (95% CI 79.0–81.0, n = 600 games)."],
                                  "section": "Game length"}))  # fmt: skip
    assert capsys.readouterr().out.splitlines() == [
        "Findings, most important first:", " 1. Games last 80.0 turns (95% CI 79.0–81.0, n = 600 games). [Game length]"]
