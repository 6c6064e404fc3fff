"""Numba's compile flags hashed and compared with one dict merge (sim._flags)."""

import pytest
from numba.core import targetconfig
from numba.core.compiler import Flags

from sim import _flags, _patches


def _numbas_values(config) -> dict:
    """numba's own ``TargetConfig.values``: one property read per option."""
    return {name: getattr(config, name) for name in config.options}


@pytest.mark.skipif(not _patches.on("flags"), reason="the flags patch is off (sim._patches)")
def test_the_flags_values_are_installed_for_this_numba():
    assert targetconfig.TargetConfig.values is _flags._values


def test_values_hold_numbas_values_in_the_order_of_the_options():
    flags = Flags()
    flags.no_cpython_wrapper = True
    flags.nrt = True
    values = flags.values()
    assert values == _numbas_values(flags)
    assert list(values) == list(Flags.options)
    assert values["no_cpython_wrapper"] is True and values["nrt"] is True
    assert values["no_cfunc_wrapper"] == Flags.options["no_cfunc_wrapper"].default  # not set: the default


def test_flags_set_alike_are_equal_and_hash_alike_and_one_option_tells_them_apart():
    a, b, c = Flags(), Flags(), Flags()
    a.nrt, a.boundscheck = True, True
    b.boundscheck, b.nrt = True, True  # the same, set in the other order
    c.nrt = True  # boundscheck left at its default, False
    assert a == b and hash(a) == hash(b)
    assert a != c
    d = Flags()
    d.no_cfunc_wrapper = Flags.options["no_cfunc_wrapper"].default  # set to the default: as if not set
    assert d == Flags() and hash(d) == hash(Flags())
