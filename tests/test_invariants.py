"""The rules' invariants on the real game loop: over random decks, seeds and 2-4
players, games are played by :func:`sim.play.run_games` in the build with
``REVACHOL_CHECK_INVARIANTS=1``, where :func:`sim.engine.play_game` checks the
invariants of :mod:`sim.invariants` (RULES R3-R9) after setup, after every turn and at
the end; R9.2 scores are then checked here from the card data.

The tests that need that build are marked ``invariants``: ``.ci/run`` runs them in it
(with a numba cache of its own); the default build skips them. The planted-violation
tests run in every build: they corrupt a real position by hand and call the check.

On a failure hypothesis prints the drawn deck data, options and game parameters, and
the message gives the rule, seed, players and game index, so the case can be replayed
with :func:`play_checked`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.cards import dump_yaml, parse_deck
from sim.deck_arrays import compile_deck
from sim.invariants import CHECK_INVARIANTS, check_invariants
from sim.options import RuleOptions
from sim.play import run_games
from sim.record import GAME_FIELDS, PLAYER_FIELDS
from sim.state import (
    EMPTY, MORALE_EVENTS, N_PLAYERS, OUTCOME, OUTCOME_TRUNCATED, S_SCORE, S_TASKS_LOST, STATUE_N, TASK_COMPLETED,
    TASK_DECK_N, TASK_FAILED, TASK_LOST, TRACK_N, TURN, State, kernel_state, new_state,
)  # fmt: skip

ROOT = Path(__file__).resolve().parents[1]
BASE = yaml.safe_load((ROOT / "cards.yaml").read_text(encoding="utf-8"))
FIRST_OPTION = f"{ROOT / 'tests' / 'first_option_bot.py'}:first"  # a user bot that always takes option 0

SYMBOLS = ["blue", "yellow", "green", "red", "orange", "purple", "crown"]
COLOURS = SYMBOLS[:6]
ABILITIES = [
    "borrow", "double", "untouchable", "extra_play", "stays", "swap", "relocate", "special_crown", "forced_draw",
]  # fmt: skip
PENALTIES = ["squad_ally", "completed_task", "hand_ally"]

checked_build = pytest.mark.skipif(not CHECK_INVARIANTS, reason="needs the REVACHOL_CHECK_INVARIANTS=1 build (.ci/run)")


def check_scores(s, deck, ctx: str) -> None:
    """R9.2, computed from the card data (not the compiled arrays): completed tasks'
    points plus the points of allies received face down."""
    for p in range(s.g[N_PLAYERS]):
        tasks = sum(deck.tasks[t].points for t in s.done[p, : s.done_n[p]])
        allies = sum(deck.allies[a].points for a in s.received[p, : s.received_n[p]])
        assert s.seat_stats[p, S_SCORE] == tasks + allies, (
            f"R9.2: seat {p} scored {s.seat_stats[p, S_SCORE]}, its tasks give {tasks} and received allies {allies} ({ctx})"
        )


def play_checked(deck, arrays, options: RuleOptions, n_players: int, seed: int, game_index: int, bots=None) -> int:
    """Play game ``game_index`` of the run with root ``seed`` in the real game loop
    (:func:`sim.play.run_games`; its invariants are checked there in the
    ``REVACHOL_CHECK_INVARIANTS=1`` build), then check its scores (R9.2). Returns the
    number of turns played."""
    s = new_state(arrays, options.to_array())
    ctx = f"seed={seed} n_players={n_players} game_index={game_index} bots={bots} {options}"
    try:
        run_games(arrays, n_players, 1, seed, bots, options, first_game=game_index, state=s)
    except AssertionError as error:  # the engine's check: rule and message, then the values
        raise AssertionError(f"{error.args} ({ctx})") from error
    check_scores(s, deck, f"{ctx} at the end, outcome {s.g[OUTCOME]}")
    return int(s.g[TURN])


# --- random decks ---------------------------------------------------------------------


@st.composite
def saves(draw):
    form = draw(st.sampled_from(["pair", "double", "one_face", "any_double"]))
    face = st.integers(1, 6)
    if form == "pair":
        return [draw(face), draw(face)]
    if form == "double":
        a = draw(face)
        return [a, a]
    if form == "one_face":
        return {"one_face": draw(face)}
    return "any_double"


@st.composite
def deck_data(draw, allies=(12, 45), tasks=(3, 30), morale=(0, 30)):
    """A valid deck as YAML-ready data: the default deck with its counts (within the
    ``(least, most)`` ranges given), symbols, requirements, abilities, points, Special
    marks, saves and penalties mutated."""
    base_allies, base_tasks, base_morale = BASE["allies"], BASE["tasks"], BASE["morale"]
    n_allies = draw(st.integers(*allies))  # at least 12: 4 players x 3 cards (R3.2)
    n_tasks = draw(st.integers(*tasks))
    n_morale = draw(st.integers(*morale))
    ability_mode = draw(st.sampled_from(["base", "none", "random", "all_nine", "heavy"]))
    heavy = draw(st.sampled_from(ABILITIES))
    mutate = draw(st.floats(0.0, 1.0))

    def mutated() -> bool:
        return mutate > 0 and draw(st.floats(0.0, 1.0)) < mutate

    allies = []
    for i in range(n_allies):
        b = base_allies[i % len(base_allies)]
        symbols = list(b["symbols"])
        points = b["points"]
        ability = b.get("ability")
        if mutated():
            symbols = draw(st.lists(st.sampled_from(SYMBOLS), min_size=1, max_size=2))
        if mutated():
            points = draw(st.integers(0, 5))
        if ability_mode == "none":
            ability = None
        elif ability_mode == "random" or (ability_mode == "all_nine" and i >= len(ABILITIES)):
            ability = draw(st.one_of(st.none(), st.sampled_from(ABILITIES)))
        elif ability_mode == "all_nine":
            ability = ABILITIES[i]
        elif ability_mode == "heavy":
            ability = heavy if draw(st.booleans()) else ability
        ally = {"id": f"ally_{i}", "name": f"Ally {i}", "symbols": symbols, "points": points}
        if ability:
            ally["ability"] = ability
        allies.append(ally)
    tasks = []
    for i in range(n_tasks):
        b = base_tasks[i % len(base_tasks)]
        requires, points, special = list(b["requires"]), b["points"], b.get("special", False)
        if mutated():
            requires = draw(st.lists(st.sampled_from(COLOURS), min_size=1, max_size=4))
        if mutated():
            points = draw(st.integers(0, 8))
        if mutated():
            special = draw(st.booleans())
        tasks.append({"id": f"task_{i}", "name": f"Task {i}", "points": points, "requires": requires, "special": special})
    morale = []
    for i in range(n_morale):
        b = base_morale[i % len(base_morale)]
        save, penalty = b["save"], b["penalty"]
        if mutated():
            save = draw(saves())
        if mutated():
            penalty = draw(st.sampled_from(PENALTIES))
        morale.append({"id": f"morale_{i}", "name": f"Morale {i}", "save": save, "penalty": penalty})
    return {"format": 1, "allies": allies, "tasks": tasks, "morale": morale}


def compiled(data: dict):
    deck = parse_deck(dump_yaml(data), "<hypothesis deck>")
    return deck, compile_deck(deck)


DEFAULT_DECK, DEFAULT_ARRAYS = compiled(BASE)

GAME = st.tuples(
    st.integers(2, 4),  # players (R2.1)
    st.integers(0, 2**32 - 1),  # root seed
    st.integers(0, 10_000),  # game index
)


@pytest.mark.slow
@pytest.mark.invariants
@checked_build
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(
    data=st.one_of(st.none(), deck_data(), deck_data(), deck_data()),  # None (1 in 4): the default deck
    double_any_symbol=st.booleans(),
    turn_cap=st.one_of(st.just(1000), st.just(1000), st.just(1000), st.integers(1, 40)),  # 1 in 4: a small cap
    games=st.lists(GAME, min_size=1, max_size=3),
)
def test_random_playouts_keep_every_invariant(data, double_any_symbol, turn_cap, games):
    """R3-R9 invariants after every turn of random games on random decks
    (:mod:`sim.invariants`), and R9.2 scores at the end."""
    deck, arrays = (DEFAULT_DECK, DEFAULT_ARRAYS) if data is None else compiled(data)
    options = RuleOptions(debug=True, double_any_symbol=double_any_symbol, turn_cap=turn_cap)
    for n_players, seed, game_index in games:
        play_checked(deck, arrays, options, n_players, seed, game_index)


@pytest.mark.slow
@pytest.mark.invariants
@checked_build
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(
    data=st.one_of(st.none(), deck_data()),
    seats=st.lists(st.sampled_from(["random", "uniform", FIRST_OPTION, "greedy"]), min_size=4, max_size=4),
    game=GAME,
)
def test_mixed_policy_playouts_keep_every_invariant(data, seats, game):
    """The same checks with other bots in some seats. ``uniform`` takes any offered
    option, so the optional abilities act (A1 borrows, A2, A4 extra plays, A6 swaps,
    A7 moves, A8); the first-option bot never completes a task and piles its allies
    into one squad, so games end by morale-loss events (R8) or stall (R4 Reading),
    with many squad penalties (R8.3)."""
    deck, arrays = (DEFAULT_DECK, DEFAULT_ARRAYS) if data is None else compiled(data)
    n_players, seed, game_index = game
    play_checked(deck, arrays, RuleOptions(debug=True, turn_cap=400), n_players, seed, game_index, seats[:n_players])


@pytest.mark.invariants  # runs in both builds: its own assertions hold in any
def test_r1_5_a_deck_with_no_morale_cards_plays_with_every_bot_and_never_has_an_event():
    """R1.5: any deck that validates plays, here the default deck without its morale
    cards: no morale-loss event ever happens (R7.2), and games still end."""
    deck, arrays = compiled({**BASE, "morale": []})
    for game_index in range(6):
        options = RuleOptions(debug=True, one_special_crown_per_squad=game_index % 2 == 1)
        turns = play_checked(deck, arrays, options, 4, 13, game_index, ["random", "uniform", "greedy", "planner"])
        assert 0 < turns < options.turn_cap
    record = run_games(arrays, 4, 20, 13, ["greedy"] * 4, RuleOptions(debug=True))
    assert (record.games[:, GAME_FIELDS.index("morale_events")] == 0).all()
    assert (record.games[:, GAME_FIELDS.index("tasks_completed")] > 0).all()


@pytest.mark.invariants
@checked_build
@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_default_deck_playouts_keep_every_invariant(n_players):
    """The same checks on a fixed sample of default-deck games, both A2 readings."""
    for double_any_symbol in (False, True):
        options = RuleOptions(debug=True, double_any_symbol=double_any_symbol)
        for game_index in range(10):
            play_checked(DEFAULT_DECK, DEFAULT_ARRAYS, options, n_players, 2024, game_index)


class _UncheckedOptions(RuleOptions):
    """Rule options without their validation, for a turn cap that RuleOptions refuses."""

    def __post_init__(self) -> None:
        pass


@pytest.mark.invariants
@checked_build
def test_r4_reading_the_real_game_loop_runs_the_check():
    """The engine checks its position after setup: with a turn cap of 0 (refused by
    RuleOptions) the game goes on past its cap before its first turn, which the
    check names (R4 Reading)."""
    with pytest.raises(AssertionError, match="R4 Reading: the game goes on past the turn cap"):
        run_games(DEFAULT_ARRAYS, 2, 1, 5, options=_UncheckedOptions(turn_cap=0))


# --- the check can fail: planted violations ---------------------------------------------


@pytest.fixture(scope="module")
def truncated_game():
    """A real position: default-deck game 0 of seed 11, 4 players, stopped by a turn
    cap of 30 (R4 Reading), so squads, a full task row and a task deck are on the table."""
    s = new_state(DEFAULT_ARRAYS, RuleOptions(turn_cap=30).to_array())
    run_games(DEFAULT_ARRAYS, 4, 1, 11, options=RuleOptions(turn_cap=30), first_game=0, state=s)
    assert s.g[OUTCOME] == OUTCOME_TRUNCATED and s.g[TASK_DECK_N] > 0 and s.squad_n[:4].sum() > 0
    return s


def _hole_in_the_row(s):
    s.task_deck[s.g[TASK_DECK_N]] = s.row[1]  # the task moves to the deck: every task is still in one zone
    s.g[TASK_DECK_N] += 1
    s.row[1] = EMPTY


def _squad_symbol(s):
    seat = int(np.flatnonzero(s.squad_n[:4])[0])
    s.squad_symbols[seat, 0, 0] += 1


def _add(field: str, index, delta: int = 1):
    """A corruption: ``delta`` added to ``state.<field>[index]``."""

    def plant(s):
        getattr(s, field)[index] += delta

    return plant


PLANTED = {  # corruption, the message that must name it
    "R3 zones: an ally in no zone": (_add("g", STATUE_N, -1), "in no zone or in two"),
    "R6.1 squad_symbols": (_squad_symbol, "R6.1: squad_symbols differ"),
    "R6.5 a hole in the task row": (_hole_in_the_row, "R6.5: the task row has an empty position"),
    "R7 TRACK_N": (_add("g", TRACK_N), "R7: TRACK_N differs"),
    "R8.3 a lost task still held": (_add("seat_stats", (0, S_TASKS_LOST)), "R6.3/R8.3: completed tasks held differ"),
    "R8.5 an event without its card": (_add("g", MORALE_EVENTS), "R8.5: morale cards in the permanent discard"),
    "R4 Reading: truncated past the cap": (_add("g", TURN), "R4 Reading: truncated before or after the turn cap"),
}


def test_the_check_passes_on_a_real_position(truncated_game):
    check_invariants(kernel_state(truncated_game), DEFAULT_ARRAYS.kernel_ref())


@pytest.mark.parametrize("planted", PLANTED, ids=list(PLANTED))
def test_the_check_catches_a_planted_violation(truncated_game, planted):
    """Each check can fail: one corruption of a real position, the rule it breaks named."""
    plant, message = PLANTED[planted]
    s = State(*(array.copy() for array in truncated_game))
    plant(s)
    with pytest.raises(AssertionError, match=message):
        check_invariants(kernel_state(s), DEFAULT_ARRAYS.kernel_ref())


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_r9_1_every_default_game_ends_and_task_counts_agree(default_arrays, n_players):
    """300 default-deck games: each ends (R9.1, or stalled/truncated by the R4 Reading,
    counted apart); players' completions sum to the game's; no more tasks completed or
    failed than the deck holds (25), and exactly all of them in a finished game."""
    n_games = 300
    record = run_games(default_arrays, n_players, n_games, seed=7, options=RuleOptions(debug=True))
    games = record.games
    col = {name: i for i, name in enumerate(GAME_FIELDS)}
    pcol = {name: i for i, name in enumerate(PLAYER_FIELDS)}
    n_tasks = default_arrays.n_tasks
    assert n_tasks == 25
    assert np.array_equal(games[:, col["game"]], np.arange(n_games))
    assert (games[:, col["n_players"]] == n_players).all()
    stalled, truncated = games[:, col["stalled"]], games[:, col["truncated"]]
    assert ((stalled + truncated) <= 1).all(), "R4 Reading: a game is stalled or truncated, not both"
    assert (games[truncated == 1, col["turns"]] == RuleOptions().turn_cap).all(), "R4 Reading: truncation at the cap"
    assert (games[:, col["turns"]] >= 1).all()
    completed, failed = games[:, col["tasks_completed"]], games[:, col["tasks_failed"]]
    by_players = record.players[:, :n_players, pcol["tasks_completed"]].sum(axis=1)
    assert np.array_equal(by_players, completed), "R6.3: players' completions must sum to the game's"
    assert (completed + failed <= n_tasks).all(), "R1.1: more tasks completed or failed than the deck holds"
    finished = (stalled == 0) & (truncated == 0)
    assert (completed[finished] + failed[finished] == n_tasks).all(), (
        "R9.1: a finished game ends with no task left, so every task was completed or failed"
    )
    status = record.tasks[:, :, 0]
    assert np.array_equal(((status == TASK_COMPLETED) | (status == TASK_LOST)).sum(axis=1), completed)
    assert np.array_equal((status == TASK_FAILED).sum(axis=1), failed)
    print(f"{n_players} players: {finished.sum()} finished, {stalled.sum()} stalled, {truncated.sum()} truncated")
