"""Numba's IR inliner without its two copies of an IR built for one call site.

An inline kernel (:func:`sim._numba.inline_kernel`) is inlined by numba's
``InlineWorker.inline_function``: it builds the callee's IR afresh for the call site,
then ``inline_ir`` deep-copies it twice, once to mutate and once to return unmutated,
block by block; each block's copy copies the function's whole scope again. The game
loop nests inline kernels five deep, so the copies grew with the square of its size:
2.7 s of every cold compile of the engine went to ``copy.deepcopy``. numba's own
``InlineInlinables`` pass, the only caller of ``inline_function``, uses the inlined
blocks and never the unmutated copy, so a fresh IR needs no copy at all (numba issue
8989; numba-cuda made the same change). :func:`install` replaces ``inline_function``
with one that passes the fresh IR's blocks on uncopied, when :mod:`sim._patches`
says so.
"""

from __future__ import annotations

from numba.core import ir
from numba.core.inline_closurecall import InlineWorker

def _uncopied(block, memo):
    return block


def _inline_function(self, caller_ir, block, i, function, arg_typs=None):
    """``InlineWorker.inline_function`` (numba 0.61 to 0.68) with the callee's fresh
    blocks inlined as they are: ``ir.Block`` copies to itself while ``inline_ir``
    runs. Returns what ``inline_ir`` returns; its first item, the callee's IR, is the
    inlined one."""
    callee_ir = self.run_untyped_passes(function)
    ir.Block.__deepcopy__ = _uncopied
    try:
        return self.inline_ir(caller_ir, block, i, callee_ir, function.__code__.co_freevars, arg_typs=arg_typs)
    finally:
        del ir.Block.__deepcopy__


def install() -> None:
    """Use :func:`_inline_function` (the ``inline`` patch of :mod:`sim._patches`)."""
    InlineWorker.inline_function = _inline_function
