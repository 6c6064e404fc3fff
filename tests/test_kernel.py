"""Kernels compiled without numba's wrappers for calls from Python, and the twins
that Python calls (sim._kernel)."""

import pytest
from numba import types

from sim._kernel import TWIN_SUFFIX, Kernel
from sim._numba import kernel
from sim.cards import load_deck
from sim.deck_arrays import compile_deck
from sim.engine import play_batch, run_games

INT = (types.int64,)


@kernel
def _twice(x):
    return 2 * x


@kernel
def _twice_plus_one(x):
    return _twice(x) + 1


def _has_python_wrapper(dispatcher) -> bool:
    result = dispatcher.overloads[INT]
    return result.library.get_pointer_to_function(result.fndesc.llvm_cpython_wrapper_name) != 0


def test_a_kernel_called_from_python_runs_its_twin_and_compiled_code_calls_the_kernel():
    assert _twice_plus_one(20) == 41  # its twin's code calls _twice's
    assert _twice(21) == 42
    _twice.compile(INT)  # as compiled code calls it: compiled, or loaded from numba's cache
    assert INT in _twice.overloads
    assert not _has_python_wrapper(_twice)
    twin = _twice.twin()
    assert twin is _twice.twin()  # made once
    assert twin.py_func.__qualname__ == _twice.py_func.__qualname__ + TWIN_SUFFIX  # its own cache files
    assert _has_python_wrapper(twin)


def test_a_run_calls_no_kernel_from_python_but_the_game_loop(monkeypatch):
    def no_twin(self):
        raise AssertionError(f"{self.py_func.__qualname__} was called from Python")

    monkeypatch.setattr(Kernel, "twin", no_twin)
    deck = compile_deck(load_deck("cards.yaml"))
    record = run_games(deck, 4, 50, seed=3, bots=["greedy"] * 4)
    assert len(record.games) == 50
    assert not isinstance(play_batch, Kernel)  # it has numba's wrapper
    with pytest.raises(AssertionError, match="_twice"):
        _twice(1)
