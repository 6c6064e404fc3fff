"""Large-deck fuzzing (issue 13, item 6): decks of up to 200 allies, 100 tasks and 100
morale cards, with abilities, 2-4 players, every built-in bot, and squads of more than
64 allies laid out at the start. The invariants of :mod:`sim.invariants` hold after
every turn, and nothing crashes (RULES R1.5, Reading "any deck that validates must
play").

These tests and those of tests/test_rules_large_decks.py are marked ``boundscheck``:
``.ci/run`` runs them again in a build with numba's bounds checking on
(``NUMBA_BOUNDSCHECK=1``, with a numba cache directory of its own), where an index
past the end of any array is an ``IndexError`` instead of silent memory corruption.
"""

import numba
import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, note, settings
from hypothesis import strategies as st

from sim.bots.policy import POLICY_IDS
from sim.bots.memory import with_bot_memory
from sim.bots.search import plan_turn
from sim.bots.spec import bot_tables, parse_bot
from sim.cards import MAX_ALLIES, MAX_MORALE, MAX_POINTS, MAX_TASKS
from sim.invariants import check_invariants
from sim.options import RuleOptions
from sim.rng import stream_keys
from sim.rules.scoring import score_game
from sim.rules.setup import setup_game
from sim.rules.squads import add_to_squad
from sim.rules.turn import take_turn
from sim.state import ACTIVE, BOT_POLICY, OUTCOME, OUTCOME_RUNNING, STATUE_N, kernel_state, new_state, new_twin
from tests.test_invariants import BASE, GAME, check_scores, compiled, deck_data, play_checked

LARGE_DECKS = deck_data(allies=(46, 200), tasks=(31, 100), morale=(31, 100))
BOTS = [*(name for name in POLICY_IDS if name != "search"), "search:iterations=2,penalty_iterations=2"]  # every built-in bot
BIG_SQUAD = 65  # allies: more than the 64 of the old penalty encoding (squad x 64 + position)
EXAMPLES = 4 if numba.config.BOUNDSCHECK else 25  # the bounds-checked build is slower

pytestmark = [pytest.mark.boundscheck, pytest.mark.slow]


def play_arranged(deck, arrays, options: RuleOptions, n_players: int, seed: int, game_index: int, bots, arrange):
    """Play one game whose position after setup ``arrange(state, ref, deck_ref)``
    rearranges, turn by turn from Python, checking :func:`sim.invariants.check_invariants`
    after the arrangement and after every turn, then the scores (R9.2).

    The game loop (:func:`sim.engine.play_game`) deals its own start, so an arranged
    start needs this driver; unarranged games use the loop itself (:func:`play_checked`)."""
    s = new_state(arrays, options.to_array())
    s.bots[:], s.bot_params[:] = bot_tables([parse_bot(name) for name in bots])
    s = with_bot_memory(s, arrays)
    ref = kernel_state(s, new_twin(s, arrays))  # the search bot's playout state: shares s's bot memory
    deck_ref = arrays.kernel_ref()
    setup_game(ref, deck_ref, n_players, stream_keys(seed), game_index)
    arrange(s, ref, deck_ref)
    ctx = f"seed={seed} n_players={n_players} game_index={game_index} bots={bots} {options}"
    try:
        while s.g[OUTCOME] == OUTCOME_RUNNING:
            check_invariants(ref, deck_ref)
            if s.bots[s.seat_bot[s.g[ACTIVE]], BOT_POLICY] == POLICY_IDS["search"]:  # its turn-start hook
                plan_turn(ref, deck_ref)
            take_turn(ref, deck_ref)
        check_invariants(ref, deck_ref)
    except AssertionError as error:  # the check's rule and message, then the values
        raise AssertionError(f"{error.args} ({ctx})") from error
    score_game(ref, deck_ref)
    check_scores(s, deck, ctx)


def big_squads(seat: int, sizes: list[int], n_allies: int):
    """An ``arrange`` for :func:`play_arranged`: new squads of ``sizes`` allies for
    ``seat``, taken from the top of the statue deck while it holds enough allies."""

    def arrange(s, ref, deck_ref):
        for size in sizes:
            statue = s.statue[: s.g[STATUE_N]].copy()
            allies = statue[statue < n_allies][::-1][:size]
            if len(allies) < size:
                return
            rest = statue[~np.isin(statue, allies)]
            s.statue[: len(rest)] = rest
            s.g[STATUE_N] = len(rest)
            squad = s.squad_n[seat]
            for ally in allies:
                add_to_squad(ref, deck_ref, seat, squad, ally)
            note(f"seat {seat} starts with a squad of {size} allies")
            event("a squad of more than 64 allies at the start")

    return arrange


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(
    data=LARGE_DECKS,
    seats=st.lists(st.sampled_from(BOTS), min_size=4, max_size=4),
    game=GAME,
    squad_seat=st.integers(0, 3),
    squad_sizes=st.lists(st.integers(BIG_SQUAD, 100), min_size=1, max_size=2),
    readings=st.tuples(st.booleans(), st.booleans(), st.booleans()),
)
def test_large_decks_keep_every_invariant_with_every_bot(data, seats, game, squad_seat, squad_sizes, readings):
    """R3-R9 invariants after every turn and R9.2 scores at the end, on large decks
    with big squads (so penalties, A6 and A7 reach positions past 64), every bot and
    every rule option."""
    deck, arrays = compiled(data)
    n_players, seed, game_index = game
    double_any, one_crown, existing = readings
    options = RuleOptions(
        debug=True, turn_cap=300, double_any_symbol=double_any, one_special_crown_per_squad=one_crown,
        extra_play_existing_squad=existing,
    )  # fmt: skip
    arrange = big_squads(squad_seat % n_players, squad_sizes, arrays.n_allies)
    play_arranged(deck, arrays, options, n_players, seed, game_index, seats, arrange)


def test_r1_5_a_deck_at_every_limit_plays_and_keeps_every_invariant():
    """Issue 13 item 5: the validation limits are safe. A deck of MAX_ALLIES allies
    (every ability), MAX_TASKS tasks and MAX_MORALE morale cards, every card worth
    MAX_POINTS, plays with four bots; scores (R9.2) are exact."""
    data = {"format": 1}
    for section, limit in (("allies", MAX_ALLIES), ("tasks", MAX_TASKS), ("morale", MAX_MORALE)):
        cards = BASE[section]
        data[section] = [{**cards[i % len(cards)], "id": f"{section}_{i}"} for i in range(limit)]
        for card in data[section]:
            if "points" in card:
                card["points"] = MAX_POINTS
    deck, arrays = compiled(data)
    options = RuleOptions(debug=True, turn_cap=150)
    for n_players in (2, 4):
        play_checked(deck, arrays, options, n_players, 3, 0, ["uniform", "greedy", "planner", "random"][:n_players])
