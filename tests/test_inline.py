"""Numba's IR inliner without its copies of a fresh IR (sim._inline)."""

import copy

import pytest
from numba import njit
from numba.core import ir
from numba.core.inline_closurecall import InlineWorker

from sim import _inline, _patches


@njit(inline="always")
def _inner(x):
    y = x * 2
    if y > 10:
        return y - 3
    return y + 1


@njit(inline="always")
def _middle(x):
    if x > 3:
        return _inner(x) + _inner(x + 1)  # two call sites of one inline kernel
    return _inner(x - 1)


@njit
def _outer(x):
    return _middle(x) * 100 + _middle(x + 10)


@pytest.mark.skipif(not _patches.on("inline"), reason="the inline patch is off (sim._patches)")
def test_the_inliner_is_installed_for_this_numba():
    assert InlineWorker.inline_function is _inline._inline_function


def test_nested_inline_kernels_compile_right_without_copying_a_block(monkeypatch):
    copied = []
    deepcopy = copy.deepcopy

    def counting(value, memo=None):
        result = deepcopy(value, memo)
        if result is not value:
            copied.append(type(value))
        return result

    monkeypatch.setattr(copy, "deepcopy", counting)
    results = [_outer(x) for x in (0, 2, 4, 7)]
    assert results == [_outer.py_func(x) for x in (0, 2, 4, 7)]
    assert results[0] == -1 * 100 + 17 + 19  # _middle(0) = _inner(-1); _middle(10) = _inner(10) + _inner(11)
    assert ir.Block not in copied
    assert not hasattr(ir.Block, "__deepcopy__")  # restored after each inlining
