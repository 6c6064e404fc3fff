"""Numba's cache is keyed by every source of the package (sim._cache): a kernel's
machine code holds the kernels it calls, which live in other files."""

import os
import shutil
import time

import numba

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


def test_the_patches_in_use_and_the_bounds_check_change_the_stamp(monkeypatch):
    """A build with the numba patches off, or bounds-checked, is machine code of its
    own: neither may load another build's kernels from the cache."""
    stamp = _cache.package_stamp.__wrapped__  # uncached
    before = stamp(_cache.ROOT)
    monkeypatch.setattr(_cache._patches, "ACTIVE", frozenset())
    patches_off = stamp(_cache.ROOT)
    monkeypatch.setattr(numba.config, "BOUNDSCHECK", not numba.config.BOUNDSCHECK)
    assert len({before, patches_off, stamp(_cache.ROOT)}) == 3


def test_the_game_loop_and_the_turn_are_cached_in_the_directory_of_the_package_stamp():
    assert numba.config.CACHE_DIR.endswith(_cache.package_stamp()[:16])
    for kernel in (play_batch, take_turn):
        assert kernel._cache.cache_path.startswith(numba.config.CACHE_DIR)


def test_a_stale_directory_of_this_checkout_is_removed_and_a_recent_one_or_another_checkouts_kept(tmp_path, monkeypatch):
    name = _cache.cache_dir_name()
    prefix = name[: -16]
    old, recent, other = tmp_path / f"{prefix}0000000000000000", tmp_path / f"{prefix}1111111111111111", tmp_path / "revachol-aaaaaaaaaaaa-0000000000000000"
    for folder in (old, recent, other):
        (folder / "sim").mkdir(parents=True)
        (folder / "sim" / "kernel.nbi").write_bytes(b"")
    hours_ago = time.time() - 2 * _cache.STALE_AFTER_S
    for path in (old, old / "sim", old / "sim" / "kernel.nbi", other, other / "sim", other / "sim" / "kernel.nbi"):
        os.utime(path, (hours_ago, hours_ago))
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path))
    assert _cache.use_stamped_cache_dir() == tmp_path / name
    assert numba.config.CACHE_DIR == str(tmp_path / name)
    assert not old.exists() and recent.exists() and other.exists()
