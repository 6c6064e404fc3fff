"""The engine's first compilation, split over two processes.

Compiling the game loop (:func:`sim.engine.play_batch`) for a new policy set
(:mod:`sim.bots.ids`) compiles about 80 kernels one after the other: numba holds one
lock, so one core works. Most of that time goes to the kernels the game loop calls,
each compiled with its own callees only. When the game loop misses numba's cache,
:func:`split_compile` starts a helper process that compiles :data:`HELPER_SHARE`
into numba's cache, while this process compiles :data:`OWN_SHARE`, then, once the
helper reports :func:`sim.bots.policy.decide` cached, :data:`AFTER_DECIDE`, which
calls it. Numba then inlines the game loop's inline kernels, and its type inference
waits for the helper to end: the helper's kernels load from the cache instead of
compiling. The machine code is the same: a kernel's cache entry holds the optimised
module that its callers link, as when they compile it themselves.

The helper saves the kernels of its share only to the cache; the other kernels it
compiles it loads from the cache when this process has saved them already (such as
``copy_into`` and the squads' kernels), else compiles them without saving them:
numba's cache index is not safe for two processes writing different signatures of
one kernel at the same time.

A share lists (module, kernel). The argument types each is compiled for are derived
from its parameters' names (:data:`PARAMETER_TYPES`, :func:`signature`), as the game
loop calls it; a kernel compiled with other types would be compiled once more, to no
use, and tests/test_split_compile.py fails on any machine when one is. The shares are balanced by
measurement, so that neither process waits long for the other; no kernel of one
share calls a kernel of the other with a large subtree, and this process compiles
first the small kernels that both call.

Measured (``revachol bench --cold --bot greedy``, first game): 21.0 s with numba's
inliner fixed (:mod:`sim._inline`) and one process; split, 13.2 to 14.8 s.

With one CPU for this process (``joblib.cpu_count``: affinity and cgroup quotas),
``NUMBA_DISABLE_JIT=1``, the ``split`` patch off (:mod:`sim._patches`) or no Python interpreter to start (``sys.executable``),
nothing is split. A helper that cannot start, fails or ends early leaves its kernels
to the game loop's compilation, as without a helper.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import io
import os
import pickle
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import joblib
import numba
from numba import types
from numba.core import errors, event
from numba.core.caching import FunctionCache

from sim import _patches
from sim._numba import EngineArray

Share = Sequence[tuple[str, str]]

HELPER_SHARE: Share = (
    ("sim.bots.policy", "decide"),
    ("sim.rules.abilities", "offer_relocate"),
    ("sim.rules.zones", "check_zones"),
    ("sim.rules.scoring", "score_game"),
    ("sim.rules.abilities", "place_from_hand"),
    ("sim.lead", "note_leaders"),
)
OWN_SHARE: Share = (
    ("sim.rules.squads", "take_from_squad"),
    ("sim.rules.completion", "completion_options"),
    ("sim.rules.completion", "complete_tasks"),
    ("sim.rules.completion", "borrow_options"),
    ("sim.rules.abilities", "play_options"),
    ("sim.rules.abilities", "swap_options"),
    ("sim.rules.draw", "reshuffle"),
    ("sim.rules.morale", "penalty_options"),
    ("sim.rules.setup", "reset"),
)
# Compiled by this process once the helper has cached decide, which the first calls.
AFTER_DECIDE: Share = (("sim.rules.draw", "draw_until_ally"),)


# The engine's parameter names whose type is not int64, in every kernel: a penalty
# type is read from the deck's int8 arrays, and st.choice is an engine array.
PARAMETER_TYPES = {"penalty": types.int8, "choice": EngineArray(types.int64, 1, "C")}


def signature(kernel, state_type: types.Type, deck_type: types.Type) -> tuple[types.Type, ...]:
    """The numba argument types the game loop calls ``kernel`` with, from its
    parameters' names: ``st`` the state's view type, ``deck`` the deck's, then
    :data:`PARAMETER_TYPES`, else int64."""
    names = inspect.signature(kernel.py_func).parameters
    kinds = {"st": state_type, "deck": deck_type, **PARAMETER_TYPES}
    return tuple(kinds.get(name, types.int64) for name in names)


def kernel_of(module: str, name: str):
    """The dispatcher ``name`` of module ``module``."""
    return getattr(importlib.import_module(module), name)


def compile_share(share: Share, state_type: types.Type, deck_type: types.Type, report=None) -> None:
    """Compile (or load from numba's cache) each kernel of ``share``; after each, write
    its name and a newline to the text stream ``report``, if given. A kernel that
    does not compile for the listed types (a share that no longer matches the code)
    is left to the game loop's compilation, which reports its errors, if any."""
    for module, name in share:
        kernel = kernel_of(module, name)
        with contextlib.suppress(errors.NumbaError, TypeError):
            kernel.compile(signature(kernel, state_type, deck_type))
        if report is not None:
            print(name, file=report, flush=True)


def _wait_for(helper: subprocess.Popen, name: str) -> None:
    """Read the helper's report until it names kernel ``name`` or ends."""
    for line in helper.stdout:
        if line.strip() == name:
            return


class _Split(event.Listener):
    """Splits the compilation of the dispatcher ``loop`` when it starts (a cache miss):
    starts the helper, compiles this process's share, and lets numba go on with the
    loop's own passes up to its type inference, which waits for the helper."""

    def __init__(self, loop, entry: str):
        self.loop = loop
        self.entry = entry
        self.helper: subprocess.Popen | None = None

    def on_start(self, ev):
        if ev.kind == "numba:compile" and ev.data["dispatcher"] is self.loop and self.helper is None:
            if joblib.cpu_count() < 2 or not sys.executable:  # CPUs this process may use (affinity, cgroups)
                return
            state_type, deck_type = ev.data["args"][0], ev.data["args"][1]
            try:
                self.helper = _start_helper(self.entry, state_type, deck_type)
            except OSError:  # no helper: numba compiles everything here, as unsplit
                return
            compile_share(OWN_SHARE, state_type, deck_type)
            _wait_for(self.helper, "decide")
            compile_share(AFTER_DECIDE, state_type, deck_type)
        elif ev.kind == "numba:run_pass" and self.helper is not None and self._loop_typing(ev.data):
            self.close()

    def _loop_typing(self, data) -> bool:
        func = self.loop.py_func
        return (data["name"].startswith("nopython_type_inference") and data["qualname"] == func.__qualname__
                and data["module"] == func.__module__)  # fmt: skip

    def on_end(self, ev):
        if ev.kind == "numba:compile" and ev.data["dispatcher"] is self.loop:
            self.close(kill=True)

    def close(self, kill: bool = False) -> None:
        """Wait for the helper (end it first with ``kill``)."""
        if self.helper is not None:
            if kill:
                self.helper.kill()
            self.helper.wait()
            self.helper.stdout.close()
            self.helper = None


_HELPER = """
import sys
if sys.argv[1] not in sys.path:  # the caller's sim is not the installed one: a checkout
    sys.path.insert(0, sys.argv[1])
from sim.split_compile import helper_main
helper_main(sys.argv[2])
"""


def _start_helper(entry: str, state_type: types.Type, deck_type: types.Type) -> subprocess.Popen:
    """Start the helper and send it the view types. It imports this ``sim`` package's
    module ``entry`` (the caller's, which imports every kernel and binds the bots),
    whose source files key numba's cache, never one from the working directory
    (``PYTHONSAFEPATH``)."""
    command = [sys.executable, "-c", _HELPER, str(Path(__file__).resolve().parents[1]), entry]
    helper = subprocess.Popen(command, env={**os.environ, "PYTHONSAFEPATH": "1"}, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        helper.stdin.write(pickle.dumps((state_type, deck_type)))
        helper.stdin.close()
    except OSError:  # it ended already: this process compiles everything
        pass
    helper.stdout = io.TextIOWrapper(helper.stdout)
    return helper


@contextmanager
def split_compile(loop, entry: str) -> Iterator[None]:
    """Within this block, a compilation of the game-loop dispatcher ``loop`` (whose
    arguments are the state's view and the deck's first) starts with
    the two shares compiled side by side (module docstring); the helper imports the
    module ``entry``, the caller's, as this process did."""
    if numba.config.DISABLE_JIT or not _patches.on("split"):
        yield
        return
    split = _Split(loop, entry)  # numba ends the loop's compile event, and so the helper, even on an error
    with event.install_listener("numba:compile", split), event.install_listener("numba:run_pass", split):
        yield


def helper_main(entry: str) -> None:
    """The helper process: import the module ``entry`` (every kernel, the bots bound
    to :mod:`sim.port`), then compile :data:`HELPER_SHARE` for the view types pickled on stdin,
    naming each kernel on stdout once it is cached. It saves no other kernel to the
    cache (module docstring)."""
    importlib.import_module(entry)
    state_type, deck_type = pickle.loads(sys.stdin.buffer.read())
    shared = {kernel_of(module, name).py_func for module, name in HELPER_SHARE}
    save = FunctionCache.save_overload

    def save_the_share_only(cache, sig, data):
        if cache._py_func in shared:
            save(cache, sig, data)

    FunctionCache.save_overload = save_the_share_only
    compile_share(HELPER_SHARE, state_type, deck_type, report=sys.stdout)
