"""Kernels compiled without numba's wrappers for calls from Python, and the twins
that Python calls instead.

Numba compiles two wrappers with every kernel: a CPython one, which unboxes Python
arguments and boxes the result, and a C one, for calls through a function pointer.
It optimises and generates machine code for both in the kernel's module. Only the
game loop is called from Python in a run, and nothing calls a kernel through a
pointer (a user bot is compiled on its own, :mod:`sim.bots.user`). Without the
wrappers the cold compile of a ``greedy`` run (``revachol bench --cold --bot
greedy``, first game) went from about 11.6 to about 11.0 s.

A :class:`Kernel` is compiled without them (numba's ``no_cpython_wrapper`` and
``no_cfunc_wrapper``). Called from Python anyway, as the rules tests call the rules'
kernels, it runs its *twin*: the same function compiled with the wrappers, under a
name of its own in numba's cache, on its first call from Python. Compiled code calls
the kernel itself, whose machine code the twin's links.
"""

from __future__ import annotations

from types import FunctionType

from numba.core.registry import CPUDispatcher

WITHOUT_WRAPPERS = {"no_cpython_wrapper": True, "no_cfunc_wrapper": True}
TWIN_SUFFIX = "__from_python"  # the twin's name: the kernel's, and this


class Kernel(CPUDispatcher):
    """A numba dispatcher whose compiled code has no wrappers for calls from Python
    (module docstring); calling it from Python calls :meth:`twin`."""

    def __call__(self, *args, **kwargs):
        return self.twin()(*args, **kwargs)

    def twin(self) -> CPUDispatcher:
        """The dispatcher of this kernel's function with the wrappers, made on first
        use, and cached on disk as this kernel is."""
        twin = self.__dict__.get("_twin")
        if twin is None:
            func = self.py_func
            clone = FunctionType(func.__code__, func.__globals__, func.__name__, func.__defaults__, func.__closure__)
            clone.__qualname__ = func.__qualname__ + TWIN_SUFFIX
            clone.__module__, clone.__doc__ = func.__module__, func.__doc__
            options = {k: v for k, v in self.targetoptions.items() if k not in WITHOUT_WRAPPERS}
            twin = CPUDispatcher(py_func=clone, locals=self.locals, targetoptions=options)
            twin.enable_caching()
            self._twin = twin
        return twin


def kernel_dispatcher(func: FunctionType, **options) -> Kernel:
    """``numba.njit(**options)(func)``, as a :class:`Kernel` (no ``cache`` option: the
    kernel is always cached)."""
    disp = Kernel(py_func=func, locals={}, targetoptions={"nopython": True, "boundscheck": None, **options,
                                                          **WITHOUT_WRAPPERS})  # fmt: skip
    disp.enable_caching()
    return disp
