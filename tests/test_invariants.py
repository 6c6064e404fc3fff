"""Random-playout invariants: over random decks, seeds and 2-4 players, games are
played turn by turn from Python with the ``random`` bot, and after every turn the
state is checked against the rules (RULES R3-R9) and the layout of :mod:`sim.state`.

Each assertion names the rule it checks. On a failure hypothesis prints the drawn
deck data, options and game parameters, and the message gives seed, players, game
index and turn, so the case can be replayed with :func:`play_checked`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.cards import dump_yaml, parse_deck
from sim.bots.policy import POLICY_IDS, SCRIPTED
from sim.bots.search import plan_turn
from sim.bots.spec import bot_tables, parse_bot
from sim.deck_arrays import compile_deck
from sim.play import run_games
from sim.options import RuleOptions
from sim.record import GAME_FIELDS, PLAYER_FIELDS
from sim.rng import stream_keys
from sim.rules.scoring import score_game
from sim.rules.setup import setup_game
from sim.rules.turn import take_turn
from sim.state import (
    ACTIVE,
    BOT_POLICY,
    EMPTY,
    HAND_LIMIT,
    MAX_PLAYERS,
    MORALE_EVENTS,
    N_PLAYERS,
    OUTCOME,
    OUTCOME_FINISHED,
    OUTCOME_RUNNING,
    OUTCOME_STALLED,
    OUTCOME_TRUNCATED,
    PERM_MORALE_N,
    PERM_TASKS_N,
    R_TURN_CAP,
    ROW_SIZE,
    S_SCORE,
    S_TASKS_COMPLETED,
    S_TASKS_LOST,
    SCRIPT_N,
    SCRIPT_POS,
    STATUE_DISCARD_N,
    STATUE_N,
    STUCK_RUN,
    TASK_COMPLETED,
    TASK_FAILED,
    TASK_LOST,
    TASK_DECK_N,
    TASKS_COMPLETED,
    TASKS_FAILED,
    TRACK_N,
    TURN,
    kernel_state,
    new_state,
    new_twin,
)

ROOT = Path(__file__).resolve().parents[1]
BASE = yaml.safe_load((ROOT / "cards.yaml").read_text(encoding="utf-8"))

SYMBOLS = ["blue", "yellow", "green", "red", "orange", "purple", "crown"]
COLOURS = SYMBOLS[:6]
ABILITIES = [
    "borrow", "double", "untouchable", "extra_play", "stays", "swap", "relocate", "special_crown", "forced_draw",
]  # fmt: skip
PENALTIES = ["squad_ally", "completed_task", "hand_ally"]
RANDOM_POLICIES = np.full(MAX_PLAYERS, POLICY_IDS["random"], np.int64)  # the ``random`` bot in every seat


# --- the invariants -----------------------------------------------------------------


def _where(zones: list[tuple[str, np.ndarray]], card: int) -> str:
    found = [name for name, cards in zones for c in cards if c == card]
    return ", ".join(found) or "nowhere"


def _exactly_once(kind: str, n: int, zones: list[tuple[str, np.ndarray]], ctx: str) -> None:
    """Every card ``0..n-1`` of ``kind`` appears once over ``zones`` and nothing else does."""
    cards = np.concatenate([np.asarray(c, np.int64) for _, c in zones]) if zones else np.zeros(0, np.int64)
    bad = cards[(cards < 0) | (cards >= n)]
    assert bad.size == 0, f"R3/zones: {kind} zones hold ids {bad.tolist()} outside 0..{n - 1} ({ctx})"
    counts = np.bincount(cards, minlength=n)
    wrong = np.flatnonzero(counts != 1)
    assert wrong.size == 0, (
        f"R3/zones (every card is in exactly one zone): "
        + "; ".join(f"{kind} {c} found {counts[c]}x: {_where(zones, c)}" for c in wrong[:5])
        + f" ({ctx})"
    )


def check_state(s, arrays, ctx: str) -> None:
    """Assert the between-turn invariants of state ``s`` (a :class:`sim.state.State`)."""
    g = s.g
    a_n, m_n, t_n = arrays.n_allies, arrays.n_morale, arrays.n_tasks
    statue = s.statue[: g[STATUE_N]]
    discard = s.statue_discard[: g[STATUE_DISCARD_N]]
    for name, pile in (("statue deck", statue), ("statue discard", discard)):
        assert ((pile >= 0) & (pile < a_n + m_n)).all(), f"R3.3: {name} holds a bad statue index {pile.tolist()} ({ctx})"

    # Allies: statue deck, statue discard, hands, squads, received (R3.2-R3.4, R5, A1/A6).
    ally_zones = [("statue deck", statue[statue < a_n]), ("statue discard", discard[discard < a_n])]
    for p in range(MAX_PLAYERS):
        assert 0 <= s.hand_n[p] <= HAND_LIMIT, f"R4.3: seat {p} holds {s.hand_n[p]} cards, more than 5 ({ctx})"
        ally_zones.append((f"hand of seat {p}", s.hand[p, : s.hand_n[p]]))
        for q in range(s.squad_n[p]):
            size = s.squad_size[p, q]
            assert size >= 1, f"R5.3: seat {p} squad {q} is empty but still exists ({ctx})"
            members = s.squad_cards[p, q, :size]
            ally_zones.append((f"squad {q} of seat {p}", members))
            expected = arrays.ally_symbol_counts[members].sum(axis=0)
            assert np.array_equal(s.squad_symbols[p, q], expected), (
                f"R6.1/state layout: squad_symbols of seat {p} squad {q} = {s.squad_symbols[p, q].tolist()}, "
                f"its allies {members.tolist()} show {expected.tolist()} ({ctx})"
            )
        ally_zones.append((f"received by seat {p}", s.received[p, : s.received_n[p]]))
    _exactly_once("ally", a_n, ally_zones, ctx)

    # Morale cards: statue deck, statue discard, track, permanent discard (R3.3, R3.4, R7, R8.5).
    track = s.track[s.track != EMPTY]
    morale_zones = [
        ("statue deck", statue[statue >= a_n] - a_n),
        ("statue discard", discard[discard >= a_n] - a_n),
        ("morale track", track),
        ("permanent discard", s.perm_morale[: g[PERM_MORALE_N]]),
    ]
    _exactly_once("morale card", m_n, morale_zones, ctx)

    # Tasks: task deck, row, completed, permanent discard (R3.1, R6.3, R8.1, R8.3).
    task_zones = [("task deck", s.task_deck[: g[TASK_DECK_N]]), ("task row", s.row[s.row != EMPTY])]
    for p in range(MAX_PLAYERS):
        task_zones.append((f"completed by seat {p}", s.done[p, : s.done_n[p]]))
    task_zones.append(("permanent discard", s.perm_tasks[: g[PERM_TASKS_N]]))
    _exactly_once("task", t_n, task_zones, ctx)

    # R6.5: the row is right-aligned, and full while the task deck lasts.
    filled = s.row != EMPTY
    for pos in range(ROW_SIZE - 1):
        assert not (filled[pos] and not filled[pos + 1]), (
            f"R6.5: task row {s.row.tolist()} has an empty position right of a task ({ctx})"
        )
    if g[TASK_DECK_N] > 0:
        assert filled.all(), f"R6.5/R8.5: row {s.row.tolist()} not full while the task deck holds {g[TASK_DECK_N]} ({ctx})"

    # R7: at most two morale cards between turns (the third triggers R8 at once, R7.3),
    # placed from position 1 (R7.1), and TRACK_N counts them.
    on_track = int((s.track != EMPTY).sum())
    assert on_track <= 2, f"R7.3: morale track {s.track.tolist()} holds {on_track} cards between turns ({ctx})"
    assert g[TRACK_N] == on_track, f"R7: g[TRACK_N]={g[TRACK_N]} but the track {s.track.tolist()} holds {on_track} ({ctx})"
    assert (s.track[:on_track] != EMPTY).all(), f"R7.1: track {s.track.tolist()} does not fill from position 1 ({ctx})"

    # Counters against zones.
    n = g[N_PLAYERS]
    stats = s.seat_stats[:n]
    assert g[TASKS_COMPLETED] == stats[:, S_TASKS_COMPLETED].sum(), f"R6.3: game and seat completion counts differ ({ctx})"
    for p in range(n):
        held = stats[p, S_TASKS_COMPLETED] - stats[p, S_TASKS_LOST]
        assert s.done_n[p] == held, f"R6.3/R8.3: seat {p} holds {s.done_n[p]} completed tasks, counters say {held} ({ctx})"
    lost = stats[:, S_TASKS_LOST].sum()
    assert g[PERM_TASKS_N] == g[TASKS_FAILED] + lost, (
        f"R3.4/R8.1/R8.3: {g[PERM_TASKS_N]} tasks in the permanent discard, {g[TASKS_FAILED]} failed + {lost} lost ({ctx})"
    )
    assert g[PERM_MORALE_N] == g[MORALE_EVENTS], f"R8.5: one morale card to the permanent discard per event ({ctx})"

    # R9.1 and the R4 Reading: how the game stands.
    outcome = g[OUTCOME]
    if outcome == OUTCOME_RUNNING:
        assert filled[-1], f"R9.1: no task face up {s.row.tolist()} but the game goes on ({ctx})"
        assert g[TURN] < s.rules[R_TURN_CAP], f"R4 Reading: turn cap passed and the game goes on ({ctx})"
    elif outcome == OUTCOME_FINISHED:
        assert not filled.any(), f"R9.1: game finished with tasks face up {s.row.tolist()} ({ctx})"
    elif outcome == OUTCOME_TRUNCATED:
        assert g[TURN] == s.rules[R_TURN_CAP], f"R4 Reading: truncated at turn {g[TURN]}, cap {s.rules[R_TURN_CAP]} ({ctx})"
    else:
        assert outcome == OUTCOME_STALLED and g[STUCK_RUN] >= n, f"R4 Reading: bad outcome {outcome} ({ctx})"


def check_scores(s, deck, ctx: str) -> None:
    """R9.2, computed from the card data (not the compiled arrays): completed tasks'
    points plus the points of allies received face down."""
    for p in range(s.g[N_PLAYERS]):
        tasks = sum(deck.tasks[t].points for t in s.done[p, : s.done_n[p]])
        allies = sum(deck.allies[a].points for a in s.received[p, : s.received_n[p]])
        assert s.seat_stats[p, S_SCORE] == tasks + allies, (
            f"R9.2: seat {p} scored {s.seat_stats[p, S_SCORE]}, its tasks give {tasks} and received allies {allies} ({ctx})"
        )


def play_checked(
    deck, arrays, options: RuleOptions, n_players: int, seed: int, game_index: int, policies=RANDOM_POLICIES,
    params=None, arrange=None,
) -> int:
    """Play one game turn by turn, checking every invariant after setup and after every
    turn, then score it and check R9.2. Returns the number of turns played.

    Seats whose policy is ``scripted`` always take the first option offered; a
    ``search`` seat plans its turn first, as in :func:`sim.engine.play_game`.
    ``arrange(state, ref, deck_ref)``, if given, rearranges the position after setup."""
    s = new_state(arrays, options.to_array())
    s.bots[:, BOT_POLICY] = policies
    if params is not None:
        s.bot_params[:] = params
    backup = kernel_state(new_twin(s, arrays))  # shares s's bot memory: the search bot's tree
    ref, deck_ref = kernel_state(s), arrays.kernel_ref()
    setup_game(ref, deck_ref, n_players, stream_keys(seed), game_index)
    if arrange is not None:
        arrange(s, ref, deck_ref)
    base = f"seed={seed} n_players={n_players} game_index={game_index} policies={policies[:n_players].tolist()} {options}"
    check_state(s, arrays, f"{base} after setup")
    while s.g[OUTCOME] == OUTCOME_RUNNING:
        s.script[:] = 0  # the scripted policy: option 0 at every decision of the turn
        s.g[SCRIPT_N] = s.script.shape[0]
        s.g[SCRIPT_POS] = 0
        if s.bots[s.seat_bot[s.g[ACTIVE]], BOT_POLICY] == POLICY_IDS["search"]:
            plan_turn(ref, backup, deck_ref)
        take_turn(ref, deck_ref)
        check_state(s, arrays, f"{base} after turn {s.g[TURN]}")
    score_game(ref, deck_ref)
    check_scores(s, deck, f"{base} at the end, outcome {s.g[OUTCOME]}")
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
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(
    data=st.one_of(st.none(), deck_data(), deck_data(), deck_data()),  # None (1 in 4): the default deck
    double_any_symbol=st.booleans(),
    turn_cap=st.one_of(st.just(1000), st.just(1000), st.just(1000), st.integers(1, 40)),  # 1 in 4: a small cap
    games=st.lists(GAME, min_size=1, max_size=3),
)
def test_random_playouts_keep_every_invariant(data, double_any_symbol, turn_cap, games):
    """R3-R9 invariants after every turn of random games on random decks (see
    :func:`check_state`), and R9.2 scores at the end."""
    deck, arrays = (DEFAULT_DECK, DEFAULT_ARRAYS) if data is None else compiled(data)
    options = RuleOptions(debug=True, double_any_symbol=double_any_symbol, turn_cap=turn_cap)
    for n_players, seed, game_index in games:
        play_checked(deck, arrays, options, n_players, seed, game_index)


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(
    data=st.one_of(st.none(), deck_data()),
    seats=st.lists(st.sampled_from(["random", "uniform", "scripted", "greedy"]), min_size=4, max_size=4),
    game=GAME,
)
def test_mixed_policy_playouts_keep_every_invariant(data, seats, game):
    """The same checks with other policies in some seats. ``uniform`` takes any offered
    option, so the optional abilities act (A1 borrows, A2, A4 extra plays, A6 swaps,
    A7 moves, A8); ``scripted`` seats always take the first option: they never
    complete a task and pile their allies into one squad, so games end by morale-loss
    events (R8) or stall (R4 Reading), with many squad penalties (R8.3)."""
    deck, arrays = (DEFAULT_DECK, DEFAULT_ARRAYS) if data is None else compiled(data)
    bots, params = bot_tables([parse_bot("random" if name == "scripted" else name) for name in seats])
    policies = np.where(np.array(seats) == "scripted", SCRIPTED, bots[:, BOT_POLICY])  # users cannot name it
    n_players, seed, game_index = game
    play_checked(deck, arrays, RuleOptions(debug=True, turn_cap=400), n_players, seed, game_index, policies, params)


def test_r1_5_a_deck_with_no_morale_cards_plays_with_every_bot_and_never_has_an_event():
    """R1.5: any deck that validates plays, here the default deck without its morale
    cards: no morale-loss event ever happens (R7.2), and games still end."""
    deck, arrays = compiled({**BASE, "morale": []})
    bots, params = bot_tables([parse_bot(name) for name in ("random", "uniform", "greedy", "planner")])
    for game_index in range(6):
        options = RuleOptions(debug=True, one_special_crown_per_squad=game_index % 2 == 1)
        turns = play_checked(deck, arrays, options, 4, 13, game_index, bots[:, BOT_POLICY], params)
        assert 0 < turns < options.turn_cap
    record = run_games(arrays, 4, 20, 13, ["greedy"] * 4, RuleOptions(debug=True))
    assert (record.games[:, GAME_FIELDS.index("morale_events")] == 0).all()
    assert (record.games[:, GAME_FIELDS.index("tasks_completed")] > 0).all()


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_default_deck_playouts_keep_every_invariant(n_players):
    """The same checks on a fixed sample of default-deck games, both A2 readings."""
    for double_any_symbol in (False, True):
        options = RuleOptions(debug=True, double_any_symbol=double_any_symbol)
        for game_index in range(10):
            play_checked(DEFAULT_DECK, DEFAULT_ARRAYS, options, n_players, 2024, game_index)


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
