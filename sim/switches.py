"""Every ``REVACHOL_*`` environment switch, parsed and validated in one place.

=============================  ==========================================  ==============
switch                         what it does                                values
=============================  ==========================================  ==============
``REVACHOL_COMPILE_RUNG``      compile the engine for this rung of the     unset (each run
                               bot ladder and all below it, once, instead  compiles what it
                               of once per rung (:mod:`sim.bots.ids`)      plays), random,
                                                                           greedy, planner,
                                                                           search
``REVACHOL_NUMBA_PATCHES``     which numba patches are on                  unset or 1 (all),
                               (:mod:`sim._patches`)                       0 (none), or a
                                                                           comma list of
                                                                           inline, split,
                                                                           engine_index
``REVACHOL_CHECK_INVARIANTS``  the game loop checks the rules' invariants  unset or 0 (off),
                               after every turn (:mod:`sim._flags`)        1 (on)
=============================  ==========================================  ==============

A wrong value is one line naming the variable, the value and the valid values
(:class:`SwitchError`); ``revachol`` checks every switch before any command runs. This
module imports nothing of numba, so the check costs nothing.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

RUNG_SWITCH, PATCHES_SWITCH, INVARIANTS_SWITCH = "REVACHOL_COMPILE_RUNG", "REVACHOL_NUMBA_PATCHES", "REVACHOL_CHECK_INVARIANTS"
PATCHES = ("inline", "split", "engine_index")  # sim._patches' patches


class SwitchError(ValueError):
    """A ``REVACHOL_*`` switch with a value it does not take, in one line."""


def _wrong(name: str, value: str, valid: str) -> SwitchError:
    return SwitchError(f"{name}={value!r} is not a valid value; valid: {valid}")


def compile_rung(value: str, rungs: Sequence[str]) -> str:
    """``REVACHOL_COMPILE_RUNG``'s value: empty (unset) or one of ``rungs`` (the
    ladder's, :data:`sim.bots.rungs.RUNG_NAMES`, given by the caller: the bots are
    named only in :mod:`sim.bots`). Raises :class:`SwitchError` for another."""
    value = value.strip()
    if value and value not in rungs:
        raise _wrong(RUNG_SWITCH, value, f"unset, {', '.join(rungs)}")
    return value


def numba_patches(value: str) -> frozenset[str]:
    """``REVACHOL_NUMBA_PATCHES``'s patches: all of :data:`PATCHES` for ``1`` (or
    unset), none for ``0``, the named ones for a comma list. Raises
    :class:`SwitchError` for a name not in :data:`PATCHES`."""
    value = value.strip()
    if value == "0":
        return frozenset()
    if value in ("", "1"):
        return frozenset(PATCHES)
    names = frozenset(filter(None, (name.strip() for name in value.split(","))))
    if not names or names - set(PATCHES):
        raise _wrong(PATCHES_SWITCH, value, f"unset or 1 (every patch), 0 (none), or a comma list of {', '.join(PATCHES)}")
    return names


def check_invariants(value: str) -> bool:
    """``REVACHOL_CHECK_INVARIANTS``: ``1`` on; ``0`` or unset off. Raises
    :class:`SwitchError` for anything else, which would leave nobody knowing which."""
    value = value.strip()
    if value not in ("", "0", "1"):
        raise _wrong(INVARIANTS_SWITCH, value, "unset or 0 (off), 1 (on)")
    return value == "1"


@dataclass(frozen=True)
class Switches:
    """The switches of a process, validated."""

    compile_rung: str  # "" when unset
    numba_patches: frozenset[str]
    check_invariants: bool


def read(rungs: Sequence[str], environ: Mapping[str, str] = os.environ) -> Switches:
    """Every switch of ``environ``, validated, ``rungs`` the ladder's rung names
    (:data:`sim.bots.rungs.RUNG_NAMES`). Raises :class:`SwitchError` for the first
    wrong one."""
    return Switches(compile_rung(environ.get(RUNG_SWITCH, ""), rungs), numba_patches(environ.get(PATCHES_SWITCH, "")),
                    check_invariants(environ.get(INVARIANTS_SWITCH, "")))  # fmt: skip
