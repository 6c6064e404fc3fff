"""Numba's compile flags hashed and compared without a property call per option.

Numba's overload templates key their cache of compiled implementations by the flags
of the compilation in progress (``_OverloadFunctionTemplate._get_impl``), and a flags
object (``numba.core.targetconfig.TargetConfig``) hashes and compares through
``values()``: a dict built by one property call per option, about 70. The cold
compile of a ``greedy`` run looks that cache up about 51,000 times: 170,000
``values()`` calls, 3.8 million property calls. :func:`install` replaces ``values``
with one that builds the same dict, in the same order, by merging the class's
defaults with the options set, when :mod:`sim._patches` says so.
``revachol bench --cold --bot greedy``, first game: about 12.1 to 11.7 s.
"""

from __future__ import annotations

from numba.core import targetconfig

def _values(self) -> dict:
    """``TargetConfig.values`` (numba 0.61 to 0.68): each option's value, the default
    where it is not set, keyed in the order of the class's options. A property reads
    ``self._values.get(name, option.default)``, and only options are ever set."""
    cls = type(self)
    defaults = cls.__dict__.get("_option_defaults")
    if defaults is None:
        defaults = {name: option.default for name, option in cls.options.items()}
        cls._option_defaults = defaults
    return {**defaults, **self._values}


def install() -> None:
    """Use :func:`_values` (the ``flags`` patch of :mod:`sim._patches`)."""
    targetconfig.TargetConfig.values = _values
