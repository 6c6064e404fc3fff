"""Numba options for every compiled kernel, in one place.

``cache=True`` keeps compiled machine code on disk next to the modules, so only the
first process on a machine pays the compilation. ``nogil=True`` lets threads run
kernels side by side. Set ``NUMBA_DISABLE_JIT=1`` to run the same code as plain
Python (the rules tests do, see tests/README.md).
"""

from numba import njit, types

KERNEL_OPTIONS = {"cache": True, "nogil": True}


def kernel(func):
    """Compile ``func`` in nopython mode with the project's options."""
    return njit(**KERNEL_OPTIONS)(func)


def inline_kernel(func):
    """Like :func:`kernel`, and inlined into its callers at the numba IR level.

    For small helpers on the hot path: a call that passes the state handle costs
    ~15 ns, more than such a helper's own work.
    """
    return njit(inline="always", **KERNEL_OPTIONS)(func)


class StructRefType(types.StructRef):
    """Base of the project's StructRef types: fields typed without literal values."""

    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(typ)) for name, typ in fields)
