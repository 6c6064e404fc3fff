"""The golden pages of ``compare`` and ``advise`` (issue 67 item 7): the text of each
page (:func:`analysis.report.render_page.page_text` of its
:class:`analysis.report.document.Page`: every heading, sentence, list line and table
with the page's cells, the figures as their alt text, the diff as is) for a small
fixed-seed comparison and a small fixed-seed advice, committed in ``tests/golden/``,
so that a change to a number or a sentence of either page shows as a diff in review.
The folders they were played in are named ``<tmp>`` and the repository ``<repo>``,
so the text holds on any machine. After a change meant to alter a page, retake both
and commit the new texts with the change::

    python tests/test_golden_pages.py
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from analysis.experiments.advise import advise
from analysis.experiments.advise_page import advice_page
from analysis.experiments.compare import comparison_page, run_comparison
from analysis.report.render_page import page_text
from sim.cards import dump_yaml, load_deck

ROOT = Path(__file__).resolve().parents[1]
CARDS = ROOT / "cards.yaml"
GOLDEN = ROOT / "tests" / "golden"
GOLDEN_COMPARE = GOLDEN / "compare-4p-greedy-4000g-evrart-without-purple.txt"
GOLDEN_ADVISE = GOLDEN / "advise-4p-greedy-2000g-evrart-kim.txt"
ADVISE_COMMAND = "revachol advise cards.yaml --only evrart_claire,kim_kitsuragi -n 2000 --holdout-games 2000"


def _fixed(text: str, folder: Path) -> str:
    """``text`` with the folder it was played in named ``<tmp>`` and the repository
    ``<repo>``: the same text on every machine."""
    for path in (folder.resolve(), folder):  # a temporary folder may be a link (/var → /private/var)
        text = text.replace(str(path), "<tmp>")
    return text.replace(str(ROOT), "<repo>")


def golden_compare_text(folder: Path) -> str:
    """The compare page's text of the default deck (A) and the same deck with Evrart
    Claire's purple symbol removed (B, R1.2), 4,000 four-player greedy games of seed 0
    each (common random numbers), played into ``folder``."""
    data = load_deck(CARDS).to_yaml_data()
    evrart = next(ally for ally in data["allies"] if ally["id"] == "evrart_claire")
    evrart["symbols"] = ["yellow"]
    edited = folder / "b.yaml"
    edited.write_text(dump_yaml(data), encoding="utf-8")
    run_comparison(CARDS, edited, 4000, folder / "cmp", players=4, bots="greedy", seed=0, n_jobs=2, progress=False)
    document, _ = comparison_page(folder / "cmp" / "a", folder / "cmp" / "b")
    return _fixed(page_text(document), folder)


def golden_advise_text(folder: Path) -> str:
    """The advise page's text of the default deck, only Evrart Claire and Kim
    Kitsuragi edited, 2,000 four-player greedy games per deck on the search seed (0)
    and as many on the hold-out, the short list of one edit, played into ``folder``:
    one edit proposed (Kim's orange symbol removed), Evrart resists."""
    advice = advise(CARDS, folder / "advise", n_games=2000, holdout_games=2000, n_jobs=2, progress=False,
                    only=["evrart_claire", "kim_kitsuragi"], short_list=(1,))  # fmt: skip
    document, _ = advice_page(advice, ADVISE_COMMAND)
    return _fixed(page_text(document), folder)


def _check(got: str, golden: Path) -> None:
    expected = golden.read_text(encoding="utf-8")
    diff = "".join(difflib.unified_diff(expected.splitlines(True), got.splitlines(True), "golden", "now", n=1))
    retake = "if on purpose, retake it: python tests/test_golden_pages.py"
    assert got == expected, f"the page changed; {retake}\n{diff[:4000]}"


@pytest.mark.slow
def test_the_compare_page_of_a_fixed_seed_edit_reads_as_its_golden_text(tmp_path):
    _check(golden_compare_text(tmp_path), GOLDEN_COMPARE)


@pytest.mark.slow
def test_the_advise_page_of_a_fixed_seed_search_reads_as_its_golden_text(tmp_path):
    _check(golden_advise_text(tmp_path), GOLDEN_ADVISE)


if __name__ == "__main__":
    import tempfile

    for golden, text_of in ((GOLDEN_COMPARE, golden_compare_text), (GOLDEN_ADVISE, golden_advise_text)):
        with tempfile.TemporaryDirectory() as folder:
            golden.write_text(text_of(Path(folder)), encoding="utf-8")
        print(golden)
