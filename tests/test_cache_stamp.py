"""Numba's cache is keyed by every source of the package (sim._cache): a kernel's
machine code holds the kernels it calls, which live in other files."""

import shutil

from sim import _cache
from sim.engine import play_batch
from sim.rules.turn import take_turn


def test_an_edit_to_any_file_of_the_package_changes_the_stamp(tmp_path):
    root = tmp_path / "sim"
    shutil.copytree(_cache.ROOT, root, ignore=shutil.ignore_patterns("__pycache__"))
    stamp = _cache.package_stamp.__wrapped__  # uncached
    before = stamp(root)
    assert stamp(root) == before
    turn = root / "rules" / "turn.py"
    turn.write_text(turn.read_text() + "\n# an edit\n")
    assert stamp(root) != before


def test_a_compile_time_switch_changes_the_stamp(monkeypatch):
    """The REVACHOL_CHECK_INVARIANTS=1 build is machine code of its own (sim._flags):
    neither build may load the other's kernels from the cache."""
    stamp = _cache.package_stamp.__wrapped__  # uncached
    before = stamp(_cache.ROOT)
    monkeypatch.setitem(_cache.FLAGS, "check_invariants", not _cache.FLAGS["check_invariants"])
    assert stamp(_cache.ROOT) != before


def test_the_game_loop_and_the_turn_are_cached_under_the_package_stamp():
    for kernel in (play_batch, take_turn):
        locator = kernel._cache._impl.locator
        assert isinstance(locator, _cache.LOCATORS)
        assert locator.get_source_stamp() == _cache.package_stamp()
