"""Kernels index the state's arrays without negative-index wraparound
(:class:`sim._numba.EngineArray`): every element read or write through a view must
still hit exactly the element numpy names, for every dtype, rank and integer index
type; slices and sub-arrays keep numba's own indexing. A user bot's observation keeps
Python's negative indices (:class:`sim._numba.BorrowedArray`)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from sim.play import run_games
from sim.options import RuleOptions
from sim.state import kernel_state, new_state
from tests.test_user_bot_sandbox import bot_file


@njit
def _read(view, seat, squad, k, unsigned_seat, player, ally):
    """Element reads of a 3-d int64, a 2-d bool and a 1-d int64 field, with int64,
    uint8 and int32 indices."""
    return (view.squad_cards[seat, squad, k], view.squad_cards[unsigned_seat, squad, k], view.held[player, ally],
            view.hand_n[player])  # fmt: skip


@njit
def _write(view, seat, squad, k, value, player, ally):
    view.squad_cards[seat, squad, k] = value  # int64 index, int64 value
    view.held[player, ally] = value % 2 == 1  # int32 index, bool value
    view.hand_n[player] += value  # a read and a write


@njit
def _slices(view, seat, squad):
    """A sub-array, a slice and a slice assignment: numba's general indexing."""
    cards = view.squad_cards[seat]
    view.track[:] = -1
    return cards[squad].sum(), view.squad_cards[seat, squad, :3].sum()


def _state(default_arrays, seed):
    state = new_state(default_arrays, RuleOptions().to_array())
    rng = np.random.default_rng(seed)
    state.squad_cards[...] = rng.integers(0, 1000, state.squad_cards.shape)
    state.held[...] = rng.integers(0, 2, state.held.shape).astype(bool)
    state.hand_n[...] = rng.integers(0, 9, state.hand_n.shape)
    return state


@settings(max_examples=60, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_element_reads_and_writes_hit_the_element_numpy_names(default_arrays, data, seed):
    state = _state(default_arrays, seed)
    p, a, _ = state.squad_cards.shape
    seat, player = data.draw(st.integers(0, p - 1)), data.draw(st.integers(0, p - 1))
    squad, k, ally = (data.draw(st.integers(0, a - 1)) for _ in range(3))
    value = data.draw(st.integers(-(2**40), 2**40))
    expected = (state.squad_cards[seat, squad, k], state.squad_cards[seat, squad, k], state.held[player, ally],
                state.hand_n[player])  # fmt: skip
    view = kernel_state(state)
    got = _read(view, seat, squad, k, np.uint8(seat), np.int32(player), ally)
    assert got == expected
    before = {field: array.copy() for field, array in zip(state._fields, state)}
    _write(view, seat, squad, k, value, np.int32(player), ally)
    assert state.squad_cards[seat, squad, k] == value
    assert state.held[player, ally] == (value % 2 == 1)
    assert state.hand_n[player] == before["hand_n"][player] + value
    changed = {field for field, array in zip(state._fields, state) if not np.array_equal(array, before[field])}
    assert changed <= {"squad_cards", "held", "hand_n"}  # nothing else written
    assert np.count_nonzero(state.squad_cards != before["squad_cards"]) <= 1


def test_sub_arrays_and_slices_keep_numbas_indexing(default_arrays):
    state = _state(default_arrays, 5)
    total, first_three = _slices(kernel_state(state), 1, 2)
    assert total == state.squad_cards[1, 2].sum() and first_three == state.squad_cards[1, 2, :3].sum()
    assert (state.track == -1).all()


def test_a_user_bot_reads_its_observation_with_python_negative_indices(default_arrays, tmp_path):
    """obs.row[-1] is the last task position and deck.task_points[-1] the last task's
    points, as in Python; the bot names a bad index (stopping the run) otherwise."""
    path = bot_file(tmp_path, "if obs.row[-1] != obs.row[2] or deck.task_points[-1] != deck.task_points["
                              "deck.task_points.shape[0] - 1]:\n    return -7\nreturn 0")  # fmt: skip
    record = run_games(default_arrays, 2, 20, seed=3, bots=[f"{path}:b", "random"])
    assert record.games.shape[0] == 20
