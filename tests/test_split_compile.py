"""The engine's first compilation split over two processes (sim.split_compile)."""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from numba import typeof
from numba.core import event

from sim.cards import load_deck
from sim.deck_arrays import compile_deck
from sim.play import run_games
from sim.options import RuleOptions
from sim._patches import PATCHES
from sim.bots import ids
from sim.bots.ids import RUNG_SWITCH
from sim.split_compile import (
    AFTER_DECIDE, HELPER_SHARE, OWN_SHARE, _Split, _wait_for, compile_share, kernel_of, signature,
)  # fmt: skip
from sim.state import kernel_state, new_state

ROOT = Path(__file__).resolve().parents[1]

# A first run in a fresh process with an empty numba cache, which lists the kernels
# this process compiled (numba's "numba:compile" event fires on a cache miss only).
_FIRST_RUN = """
import collections, json, sys
from numba.core import event
from sim.cards import load_deck
from sim.deck_arrays import compile_deck
from sim.play import run_games

compiled = collections.Counter()


signatures = collections.defaultdict(list)


class Listener(event.Listener):
    def on_start(self, ev):
        func = ev.data["dispatcher"].py_func
        compiled[func.__module__ + "." + func.__qualname__] += 1
        signatures[func.__module__ + "." + func.__qualname__].append(str(ev.data["args"]))

    def on_end(self, ev):
        pass


event.register("numba:compile", Listener())
record = run_games(compile_deck(load_deck(sys.argv[1])), 4, 30, seed=11, bots=["random"] * 4)
print(json.dumps({"compiled": compiled, "signatures": signatures, "games": record.games.tolist()}))
"""


def cold_first_run(tmp_path, patches: str) -> dict:
    """:data:`_FIRST_RUN` in a fresh process with an empty numba cache and
    ``REVACHOL_NUMBA_PATCHES=patches``, for the ``random`` set whatever the compile floor
    of this run (``REVACHOL_COMPILE_RUNG``, sim.bots.ids)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "REVACHOL_NUMBA_PATCHES": patches,
           RUNG_SWITCH: ""}  # fmt: skip
    out = subprocess.run([sys.executable, "-c", _FIRST_RUN, str(ROOT / "cards.yaml")], env=env, cwd=ROOT,
                         check=True, capture_output=True, text=True)  # fmt: skip
    return json.loads(out.stdout)


@pytest.mark.slow
def test_every_share_kernel_is_compiled_with_the_types_the_game_loop_calls_it_with(tmp_path, monkeypatch):
    """On any machine: unsplit, the game loop compiles each share kernel once, with the
    signature that sim.split_compile derives, so a stale share cannot pass unseen."""
    monkeypatch.setattr(ids, "FLOOR", 0)  # the child's set: random, no floor
    result = cold_first_run(tmp_path, ",".join(p for p in PATCHES if p != "split"))
    deck = compile_deck(load_deck(ROOT / "cards.yaml"))
    state = new_state(deck, RuleOptions().to_array())
    state.bots[:] = 0  # random everywhere, the policy set of _FIRST_RUN's run
    state_type, deck_type = typeof(kernel_state(state)), typeof(deck.kernel_ref())
    for module, name in (*HELPER_SHARE, *OWN_SHARE, *AFTER_DECIDE):
        derived = str(signature(kernel_of(module, name), state_type, deck_type))
        assert result["signatures"].get(f"{module}.{name}") == [derived], name


@pytest.mark.slow
@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2 if hasattr(os, "sched_getaffinity") else True,
                    reason="the compilation is split on two CPUs or more")  # fmt: skip
def test_a_cold_first_run_loads_the_helpers_kernels_and_compiles_its_own_once(tmp_path):
    result = cold_first_run(tmp_path, "1")
    compiled = result["compiled"]
    assert compiled["sim.engine.play_batch"] == 1
    # the helper's kernels came from the cache: the game loop calls them with the share's types
    for module, name in HELPER_SHARE:
        assert compiled.get(f"{module}.{name}", 0) == 0, name
    # this process's share was compiled once: the game loop found it with the same types
    for module, name in (*OWN_SHARE, *AFTER_DECIDE):
        assert compiled.get(f"{module}.{name}", 0) == 1, name
    expected = run_games(compile_deck(load_deck(ROOT / "cards.yaml")), 4, 30, seed=11, bots=["random"] * 4)
    assert result["games"] == expected.games.tolist()


def _helper(code: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)


def test_waiting_for_a_kernel_ends_when_the_helper_names_it_or_exits():
    helper = _helper("print('offer_relocate'); print('decide', flush=True); import time; time.sleep(30)")
    _wait_for(helper, "decide")  # returns on the line, long before the helper ends
    assert helper.poll() is None
    helper.kill()
    helper.wait()
    failed = _helper("import sys; print('offer_relocate'); sys.exit(1)")
    _wait_for(failed, "decide")  # a helper that fails without naming it: returns at its end
    assert failed.wait() == 1


def test_closing_a_split_kills_its_helper():
    split = _Split(loop=None, entry="sim.play")
    split.helper = _helper("import time; time.sleep(30)")
    helper = split.helper
    split.close(kill=True)
    assert helper.returncode is not None and helper.returncode != 0  # killed, not waited out
    assert split.helper is None
    split.close(kill=True)  # nothing left to close


def test_a_share_that_no_longer_matches_the_code_is_skipped_not_raised():
    deck = compile_deck(load_deck(ROOT / "cards.yaml"))
    state_type = typeof(kernel_state(new_state(deck, RuleOptions().to_array())))
    report = io.StringIO()
    stale = [("sim.rules.setup", "setup_game"), ("sim.rules.setup", "reset")]  # setup_game's keys: an array
    compile_share(stale, state_type, typeof(deck.kernel_ref()), report=report)
    assert report.getvalue() == "setup_game\nreset\n"  # each named, so that the caller never waits forever


def test_a_helper_that_cannot_start_leaves_the_compilation_unsplit(monkeypatch):
    monkeypatch.setattr(sys, "executable", str(ROOT / "no-such-python"))
    split = _Split(loop="the loop", entry="sim.play")
    start = event.Event(kind="numba:compile", status=event.EventStatus.START,
                        data={"dispatcher": "the loop", "args": ("state type", "deck type")})  # fmt: skip
    split.on_start(start)  # compiles no share: the loop's own compilation does it all
    assert split.helper is None
