"""The state's parts by owner (sim.state: game, rules scratch, bot memory, record),
the game-part copy built from them, and the twin that the search bot plays out in."""

from __future__ import annotations

import numpy as np

from sim._numba import kernel
from sim.options import RuleOptions
from sim.bots.ids import SEARCH
from sim.rng import BOT
from sim.state import BOT_POLICY, GAME, HIDDEN, PARTS, State, copy_game, kernel_state, new_state, new_twin


@kernel
def _copy(src, dst):
    copy_game(src, dst)


def filled(arrays, value: int) -> State:
    """A state whose every array holds ``value`` (True for booleans)."""
    st = new_state(arrays, RuleOptions().to_array())
    for array in st:
        array[...] = value
    return st


def test_the_parts_hold_every_array_of_the_state_once():
    names = [name for part in PARTS.values() for name in part]
    assert sorted(names) == sorted(State._fields)
    assert len(names) == len(set(names))
    assert set(HIDDEN) <= set(GAME)


def test_copy_game_copies_the_game_part_and_nothing_else(default_arrays):
    """R3-R9's state of a game in progress (the game part) is copied, every array of
    it; the scratch, the bot memory and the record are left as they were."""
    src, dst = filled(default_arrays, 1), filled(default_arrays, 0)
    _copy(kernel_state(src), kernel_state(dst))
    for name in State._fields:
        copied = bool(np.all(getattr(dst, name) == getattr(src, name)))
        untouched = not np.any(getattr(dst, name)) or name == "bot_stream"  # bot_stream views streams
        assert copied if name in GAME else untouched, name


def test_a_twin_shares_the_bot_memory_but_not_the_game(default_arrays):
    st = new_state(default_arrays, RuleOptions().to_array())
    st.bots[0, BOT_POLICY] = SEARCH  # the twin's view gets the same policy set
    twin = new_twin(st, default_arrays)
    assert twin.tree_stats is st.tree_stats and twin.pool is st.pool and twin.own_hand is st.own_hand
    assert twin.hand is not st.hand and twin.seat_stats is not st.seat_stats
    twin.streams[BOT] = 99
    assert twin.bot_stream[0] == 99 and st.bot_stream[0] != 99
    assert kernel_state(twin).policies() == kernel_state(st).policies()
