"""Reproducibility of runs (DESIGN "Randomness", sim.rng): the same root seed gives the
same record whatever else the process does with global random generators, however
the run is split into calls, and whatever the bots decide (common random numbers for
the deal); different seeds give different records.

The pattern of interleaving unrelated global RNG calls follows RLCard's
tests/envs/determism_util.py.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from sim.bots.policy import POLICY_IDS, SCRIPTED
from sim.play import run_games
from sim.options import RuleOptions
from sim.record import GAME_FIELDS, Record
from sim.rng import BOT, DEAL, DICE, stream_keys
from sim.rules.scoring import score_game
from sim.rules.setup import setup_game
from sim.rules.turn import take_turn
from sim.state import (
    BOT_POLICY,
    FIRST,
    MAX_PLAYERS,
    OUTCOME,
    OUTCOME_RUNNING,
    SCRIPT_N,
    SCRIPT_POS,
    STATUE_N,
    TASK_DECK_N,
    TURN,
    kernel_state,
    new_state,
)

RANDOM = np.full(MAX_PLAYERS, POLICY_IDS["random"], np.int64)


def disturb_global_rngs(k: int = 0) -> None:
    """Use the global generators a simulation must not depend on."""
    np.random.seed(123 + k)
    np.random.random(1000)
    random.seed(456 + k)
    random.random()
    np.random.default_rng(k).integers(0, 100, 50)


def assert_records_equal(a: Record, b: Record, what: str) -> None:
    for name, x, y in zip(Record._fields, a, b):
        assert x.shape == y.shape and x.dtype == y.dtype, f"{what}: record field {name} differs in shape or dtype"
        assert np.array_equal(x, y), f"{what}: record field {name} differs"


def concat(records: list[Record]) -> Record:
    return Record(*(np.concatenate(parts) for parts in zip(*records)))


def play_turn_by_turn(arrays, n_players, seed, game_index, between=None, options=RuleOptions(debug=True)):
    """Play one game from Python, calling ``between(turn)`` between turns; return the
    final (scored) state."""
    s = new_state(arrays, options.to_array())
    ref, deck = kernel_state(s), arrays.kernel_ref()
    setup_game(ref, deck, n_players, stream_keys(seed), game_index)
    while s.g[OUTCOME] == OUTCOME_RUNNING:
        if between is not None:
            between(int(s.g[TURN]))
        take_turn(ref, deck)
    score_game(ref, deck)
    return s


# --- same seed, same record -------------------------------------------------------------


@pytest.mark.parametrize("n_players", [2, 4])
def test_same_seed_same_record_despite_global_rng_calls(default_arrays, n_players):
    options = RuleOptions(debug=True)
    disturb_global_rngs(0)
    first = run_games(default_arrays, n_players, 150, seed=42, options=options)
    disturb_global_rngs(1)
    np.random.random(7)  # leave the global generators in a different place
    second = run_games(default_arrays, n_players, 150, seed=42, options=options)
    assert_records_equal(first, second, "two runs with seed 42")


def test_same_seed_same_record_with_a_reused_state(default_arrays):
    """A state reused for another run (``state=``) carries nothing over."""
    st = new_state(default_arrays, RuleOptions().to_array())
    run_games(default_arrays, 3, 40, seed=1, state=st)
    reused = run_games(default_arrays, 3, 60, seed=9, state=st)
    fresh = run_games(default_arrays, 3, 60, seed=9)
    assert_records_equal(reused, fresh, "a reused state and a fresh one")


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_turn_by_turn_play_is_deterministic_despite_global_rng_calls(default_arrays, n_players):
    """The same game stepped twice from Python, with global RNG calls between the turns
    of the second run only, ends in the same state; and it matches the compiled batch."""
    for game_index in (0, 17, 301):
        a = play_turn_by_turn(default_arrays, n_players, 2025, game_index)
        b = play_turn_by_turn(default_arrays, n_players, 2025, game_index, between=disturb_global_rngs)
        for name, x, y in zip(a._fields, a, b):
            assert np.array_equal(x, y), f"game {game_index}: state array {name} differs after the same game"
        record = run_games(default_arrays, n_players, 1, seed=2025, first_game=game_index, options=RuleOptions(debug=True))
        col = {f: i for i, f in enumerate(GAME_FIELDS)}
        assert record.games[0, col["turns"]] == a.g[TURN]
        assert record.games[0, col["first_player"]] == a.g[FIRST]


# --- splitting a run ----------------------------------------------------------------------


@pytest.mark.parametrize("n_players", [2, 4])
def test_split_run_equals_one_run(default_arrays, n_players):
    """Game g's seed depends only on (root seed, g): games 0..199 in one call equal
    games 0..99 and 100..199 (``first_game=100``) in two calls, and a run played out of
    order in chunks of uneven size."""
    whole = run_games(default_arrays, n_players, 200, seed=5)
    halves = concat([
        run_games(default_arrays, n_players, 100, seed=5),
        run_games(default_arrays, n_players, 100, seed=5, first_game=100),
    ])
    assert_records_equal(whole, halves, "one call vs two calls")
    chunks = {
        start: run_games(default_arrays, n_players, n, seed=5, first_game=start)
        for start, n in [(150, 50), (0, 7), (7, 143)]
    }
    assert_records_equal(whole, concat([chunks[s] for s in sorted(chunks)]), "one call vs uneven chunks out of order")


# --- common random numbers -------------------------------------------------------------------


def _deal(s) -> dict[str, np.ndarray]:
    """The initial deal of a state just set up (R2.2, R3)."""
    return {
        "first": s.g[FIRST : FIRST + 1].copy(),
        "hand": np.concatenate([s.hand[p, : s.hand_n[p]] for p in range(MAX_PLAYERS)]),
        "hand_n": s.hand_n.copy(),
        "row": s.row.copy(),
        "task_deck": s.task_deck[: s.g[TASK_DECK_N]].copy(),
        "statue": s.statue[: s.g[STATUE_N]].copy(),
        "streams": s.streams.copy(),
    }


def _play_out(s, arrays, policies) -> None:
    s.bots[:, BOT_POLICY] = policies
    ref, deck = kernel_state(s), arrays.kernel_ref()
    while s.g[OUTCOME] == OUTCOME_RUNNING:
        if policies[0] == SCRIPTED:  # always the first option offered
            s.script[:] = 0
            s.g[SCRIPT_N] = s.script.shape[0]
            s.g[SCRIPT_POS] = 0
        take_turn(ref, deck)


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_crn_the_deal_does_not_depend_on_the_policies(default_arrays, n_players):
    """Same seed and game index: the same first player, hands, task row, task deck and
    statue deck, and the same DICE/BOT stream states, whether the state has just been
    made or has played games with the ``random`` or a different (``scripted``: always
    the first option) policy before (common random numbers, sim.rng)."""
    keys = stream_keys(77)
    scripted = np.full(MAX_PLAYERS, SCRIPTED, np.int64)
    for game_index in (0, 1, 999):
        deals = []
        for policies in (RANDOM, scripted):
            s = new_state(default_arrays, RuleOptions(debug=True).to_array())
            ref, deck = kernel_state(s), default_arrays.kernel_ref()
            setup_game(ref, deck, n_players, keys, game_index + 1)  # another game first
            _play_out(s, default_arrays, policies)
            setup_game(ref, deck, n_players, keys, game_index)
            deals.append(_deal(s))
            _play_out(s, default_arrays, policies)  # the game itself, played differently
            setup_game(ref, deck, n_players, keys, game_index)
            deals.append(_deal(s))
        fresh = new_state(default_arrays, RuleOptions(debug=True).to_array())
        setup_game(kernel_state(fresh), default_arrays.kernel_ref(), n_players, keys, game_index)
        expected = _deal(fresh)
        for i, deal in enumerate(deals):
            for name, value in expected.items():
                assert np.array_equal(deal[name], value), f"game {game_index}, case {i}: deal field {name} differs"
        # the BOT stream is separate from the DEAL and DICE streams (sim.rng)
        assert len({int(expected["streams"][k]) for k in (DEAL, DICE, BOT)}) == 3


def test_crn_first_player_column_matches_setup(default_arrays):
    """The record's ``first_player`` is the deal's (R2.2), so it is the same for any
    bots: compare it with ``setup_game`` alone, and across two runs."""
    keys = stream_keys(31)
    s = new_state(default_arrays, RuleOptions().to_array())
    ref, deck = kernel_state(s), default_arrays.kernel_ref()
    for n_players in (2, 3, 4):
        record = run_games(default_arrays, n_players, 100, seed=31)
        firsts = []
        for game_index in range(100):
            setup_game(ref, deck, n_players, keys, game_index)
            firsts.append(s.g[FIRST])
        col = GAME_FIELDS.index("first_player")
        assert np.array_equal(record.games[:, col], firsts)
        assert set(firsts) == set(range(n_players)), "R2.2: every seat starts sometimes"


# --- different seeds --------------------------------------------------------------------------


def test_different_seeds_give_different_records(default_arrays):
    a = run_games(default_arrays, 3, 100, seed=1)
    b = run_games(default_arrays, 3, 100, seed=2)
    for name in ("games", "players", "tasks", "held"):
        x, y = getattr(a, name), getattr(b, name)
        if name == "games":
            x, y = x[:, 1:], y[:, 1:]  # column 0 is the game index, equal by design
        assert not np.array_equal(x, y), f"seeds 1 and 2 gave the same record field {name}"
    # and game by game: almost no game repeats its task fates under another seed
    same = sum(np.array_equal(a.tasks[i], b.tasks[i]) for i in range(100))
    assert same <= 2
    # neighbouring game indices of one seed differ as well
    assert sum(np.array_equal(a.tasks[i], a.tasks[i + 1]) for i in range(99)) <= 2
