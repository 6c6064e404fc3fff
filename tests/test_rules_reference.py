"""The rules reference, docs/RULES.md, names every rule id the code and the tests cite,
and nothing in the repository points at a rules file outside it."""

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "RULES.md"
# A rule or ability id with its sub-ids (R4, R4.2, A8). Not preceded by a word
# character or a dot, so that names and versions holding such a token (R_DEBUG, v1.A2)
# are not citations; a trailing full stop ("... R9.") is punctuation.
RULE_ID = re.compile(r"(?<![\w.])([RA]\d+(?:\.\d+)*)\b")


def cited_ids(text: str) -> set[str]:
    """The rule ids cited in ``text``."""
    return set(RULE_ID.findall(text))


def rule_ids_defined() -> set[str]:
    """The ids docs/RULES.md defines: a rule's heading (``## R4``), a bold rule
    (``**R4.2**``, ``**R4.1 Play.**``) or an ability's row in the table (``| A6 |``)."""
    text = RULES.read_text(encoding="utf-8")
    headings = re.findall(r"^## (R\d+)\b", text, re.M)
    bold = re.findall(r"\*\*([RA]\d+(?:\.\d+)*)\b", text)
    table = re.findall(r"^\| (A\d+) \|", text, re.M)
    return {*headings, *bold, *table}


def test_cited_ids_skip_identifiers_and_punctuation():
    """The regex finds real citations and only them."""
    text = "R4.2 draws; see R9. R_DEBUG (A8, R6.1) v1.A2 R3-R5 'A3' A1_BORROW"
    assert cited_ids(text) == {"R4.2", "R9", "A8", "R6.1", "R3", "R5", "A3"}


def test_every_rule_id_cited_in_sim_and_tests_is_defined_in_docs_rules():
    defined = rule_ids_defined()
    missing = {}
    for path in sorted([*(ROOT / "sim").rglob("*.py"), *(ROOT / "tests").rglob("*.py")]):
        for rule_id in cited_ids(path.read_text(encoding="utf-8")) - defined:
            missing.setdefault(rule_id, path.relative_to(ROOT).as_posix())
    assert not missing, f"rule ids cited but not defined in docs/RULES.md (id: first file): {missing}"


def test_docs_rules_defines_every_rule_and_ability():
    """R1-R9 and A1-A9, and the sub-ids the code cites most (a sanity check of the
    parser above: a page that lost its headings would define nothing)."""
    defined = rule_ids_defined()
    assert {f"R{i}" for i in range(1, 10)} <= defined
    assert {f"A{i}" for i in range(1, 10)} <= defined
    assert {"R4.2", "R6.1", "R8.3", "R9.3"} <= defined


def test_docs_rules_names_every_rule_option():
    from sim.options import RuleOptions

    text = RULES.read_text(encoding="utf-8")
    for name in RuleOptions().readings():
        assert f"`{name}`" in text, name
    assert "`turn_cap`" in text


def test_nothing_in_the_repository_points_outside_it():
    """No committed file refers to a rules file or rulebook outside the repository."""
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=False).stdout.split()
    if not files:  # not a git checkout (an sdist): every text file of the tree
        files = [p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*") if p.is_file() and ".git" not in p.parts]
    outside = re.compile(r"\.\./shared|shared[/]seeds|shared[/]RULES")  # [/]: this line is no match
    offenders = []
    for name in files:
        path = ROOT / name
        if path.suffix in {".png", ".parquet", ".ico"} or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        offenders += [f"{name}:{n}" for n, line in enumerate(text.splitlines(), 1) if outside.search(line)]
    assert not offenders, offenders
