"""The state's parts by owner (sim.state: game, rules scratch, bot memory, record),
each part's typed view, the game-part copy built from them, and the twin that the
search bot plays out in."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from numba.core.errors import TypingError

from sim import state as state_module
from sim._numba import kernel
from sim.options import RuleOptions
from sim.bots.ids import SEARCH
from sim.bots.memory import with_bot_memory
from sim.bots.spec import bot_tables, parse_bot
from sim.rng import BOT
from sim.state import (
    BOT_POLICY, GAME, HIDDEN, PARTS, State, copy_game, game_view, kernel_state, new_state, new_twin, record_view,
)  # fmt: skip


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
    st = with_bot_memory(st, default_arrays)
    twin = new_twin(st, default_arrays)
    assert twin.tree_stats is st.tree_stats and twin.own_hand is st.own_hand
    assert twin.pool is not st.pool  # the rules' scratch, the redeal's (sim.rules.redeal)
    assert twin.hand is not st.hand and twin.seat_stats is not st.seat_stats
    twin.streams[BOT] = 99
    assert twin.bot_stream[0] == 99 and st.bot_stream[0] != 99
    assert kernel_state(twin).policies() == kernel_state(st).policies()


VIEWS = {"game": "game_view", "rules scratch": "scratch_view", "bot memory": "memory_view", "record": "record_view"}


def _through(view: str, source: str):
    """A kernel ``kernel(st)`` that runs ``source`` on ``part = view(st)``."""
    scope = {view: getattr(state_module, view)}
    exec(f"def kernel(st):\n    part = {view}(st)\n    {source}", scope)  # noqa: S102 (a test's own source)
    return numba.njit(scope["kernel"])


@pytest.mark.skipif(numba.config.DISABLE_JIT, reason="a part's view is a compiled type")
@pytest.mark.parametrize("part", list(PARTS))
def test_a_parts_view_writes_its_own_arrays_and_cannot_read_another_parts(part, default_arrays):
    """Through ``game_view`` a kernel reads and writes the game part (R3-R9's state)
    and nothing else: another part's array is a compile error; the same for each."""
    st = filled(default_arrays, 0)
    own = PARTS[part][0]
    other = next(name for p, names in PARTS.items() if p != part for name in names if name != "bot_stream")
    writer = _through(VIEWS[part], f"part.{own}.flat[0] = 1")
    writer(kernel_state(st))
    assert getattr(st, own).flat[0] == 1
    reader = _through(VIEWS[part], f"return part.{other}.shape[0]")
    with pytest.raises(TypingError):
        reader(kernel_state(st))


@pytest.mark.skipif(numba.config.DISABLE_JIT, reason="a part's view is a compiled type")
def test_a_view_only_narrows_a_record_view_cannot_become_a_game_view(default_arrays):
    @numba.njit
    def widen(st):
        return game_view(record_view(st)).g[0]

    with pytest.raises(TypingError):
        widen(kernel_state(filled(default_arrays, 0)))


def test_a_new_state_holds_no_search_memory_until_a_run_seats_the_search_bot(default_arrays):
    """new_state allocates none of the search bot's memory (it was 7.4 MB of every
    state, 7.8 MB in all, before the bots allocated their own); a table of fast bots
    gets none, and a search row gets a tree of its budget plus the root."""
    st = new_state(default_arrays, RuleOptions().to_array())
    tree = ("tree_g", "tree_key", "tree_child", "tree_stats", "tree_path", "tree_match", "penalty_stats")
    assert all(getattr(st, name).size == 0 for name in tree)
    assert sum(array.nbytes for array in st) < 1_000_000
    st.bots[:], st.bot_params[:] = bot_tables([parse_bot("greedy"), parse_bot("planner")])
    assert with_bot_memory(st, default_arrays) is st
    st.bots[:], st.bot_params[:] = bot_tables([parse_bot("greedy"), parse_bot("search:iterations=40"),
                                              parse_bot("search:iterations=100")])  # fmt: skip
    searching = with_bot_memory(st, default_arrays)
    assert searching.tree_key.shape[0] == searching.tree_stats.shape[0] == 101  # the larger budget's tree
    assert searching.hand is st.hand and searching.penalty_stats.shape[0] == st.options.shape[0]
