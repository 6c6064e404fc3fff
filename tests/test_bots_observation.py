"""Every built-in bot decides from its seat's observation alone (sim.bots.observation).

At positions of recorded games, the hidden cards behind the deciding seat's
observation are permuted: the other seats' hands (R3.2), the order of the task deck
(R3.1), the statue deck and its discard (R3.3, R3.4), and the deal and dice streams
(R2.2, R4.5, R8.2). Each built-in bot must then make the same choice with the same
bot stream, and draw from it as often; the search bot must grow the same tree. The
seat view's type is checked too: reading a hidden array or writing a public one does
not compile.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest
from numba.core.errors import TypingError

from sim.bots.ids import SEARCH
from sim.bots.observation import seat_view
from sim.bots.policy import decide
from sim.bots.memory import with_bot_memory
from sim.bots.search import plan_turn
from sim.bots.spec import bot_tables, parse_bot
from sim.cards import Penalty
from sim.decisions import ACTION_DRAW, ACTION_PLAY, D_ACTION, D_PENALTY, D_PLAY
from sim.options import RuleOptions
from sim.play import run_games
from sim.rng import BOT, DEAL, DICE
from sim.rules.abilities import play_options
from sim.rules.morale import penalty_options
from sim.rules.redeal import redeal_unseen
from sim.rules.zones import check_zones
from sim.state import (
    ACTIVE, BOT_POLICY, EMPTY, HAND_LIMIT, N_PLAYERS, OUTCOME, OUTCOME_RUNNING, PERM_TASKS_N, R_TURN_CAP,
    STATUE_DISCARD_N, STATUE_N, TASK_DECK_N, TRACK_N, TURN_ACTION, State, kernel_state, new_state, new_twin,
)  # fmt: skip

# Every bot here plays in states typed with the search bot's policy set, whose compile alone
# takes over a minute of CPU: the quick tier (pytest -m "not slow") leaves this file to the full suite.
pytestmark = pytest.mark.slow

PLAYERS = 3
BOTS = ("random", "uniform", "greedy", "planner", "expert", "search:iterations=24")

# (game index, turns played): positions of games played by planner, greedy and random
POSITIONS = [(0, 4), (1, 9), (2, 17), (3, 26), (4, 33)]


def clone(st: State, arrays) -> State:
    """A copy of ``st`` whose ``bot_stream`` views its own ``streams``, as in any state."""
    copy = new_state(arrays, st.rules)
    for name, array in zip(st._fields, st):
        if name != "bot_stream":
            getattr(copy, name)[...] = array
    return copy


def position(arrays, game: int, turns: int) -> State:
    """The state after ``turns`` turns of game ``game`` (seed 5), still running."""
    options = RuleOptions(turn_cap=turns)
    st = new_state(arrays, options.to_array())
    run_games(arrays, PLAYERS, 1, 5, ["planner", "greedy", "random"], options, first_game=game, state=st)
    st.g[OUTCOME] = OUTCOME_RUNNING
    st.rules[R_TURN_CAP] = RuleOptions().turn_cap
    return st


def permute_hidden(st: State, arrays, seat: int, rng: np.random.Generator) -> State:
    """A copy of ``st`` whose cards hidden from ``seat`` are dealt again at random:
    the allies of the other hands, the statue deck and the statue discard among those
    places (only allies into hands, every pile keeping its size), the task deck
    reordered, new deal and dice streams."""
    other = clone(st, arrays)
    n_allies = arrays.n_allies
    seats = [q for q in range(st.g[N_PLAYERS]) if q != seat]
    hands = [int(st.hand_n[q]) for q in seats]
    n_statue, n_discard = int(st.g[STATUE_N]), int(st.g[STATUE_DISCARD_N])
    cards = unseen(st, seat)
    allies = rng.permutation(cards[cards < n_allies])
    in_hands = sum(hands)
    rest = rng.permutation(np.concatenate([allies[in_hands:], cards[cards >= n_allies]]))
    start = 0
    for q, n in zip(seats, hands):
        other.hand[q, :n] = allies[start : start + n]
        start += n
    other.statue[:n_statue], other.statue_discard[:n_discard] = rest[:n_statue], rest[n_statue:]
    other.task_deck[: st.g[TASK_DECK_N]] = rng.permutation(st.task_deck[: st.g[TASK_DECK_N]])
    other.streams[DEAL], other.streams[DICE] = rng.integers(1, 2**63, size=2, dtype=np.uint64)
    return other


def seat_bot(st: State, seat: int, text: str, arrays) -> State:
    """``st`` with ``text``'s bot seated at ``seat`` and the bots' memory
    (sim.bots.memory); an unused row names search, so that every state's kernels are
    compiled for the one policy set that holds all bots."""
    specs = [parse_bot(text)] * PLAYERS + [parse_bot("search")] * (4 - PLAYERS)
    st.bots[:], st.bot_params[:] = bot_tables(specs)
    assert st.bots[PLAYERS:, BOT_POLICY].tolist() == [SEARCH] * (4 - PLAYERS)
    return with_bot_memory(st, arrays)


def decisions(st: State, seat: int):
    """(kind, option count) of the decisions a turn of ``seat`` starts with: play or
    draw (R4.1, R4.2), and which card where (R4.1, R5), written to ``st.options``."""
    if 0 < st.hand_n[seat] < HAND_LIMIT and st.g[STATUE_N] + st.g[STATUE_DISCARD_N] > 0:
        st.options[0, 0], st.options[1, 0] = ACTION_PLAY, ACTION_DRAW
        yield D_ACTION, 2
    if st.hand_n[seat] > 0:
        yield D_PLAY, play_options(kernel_state(st), seat, D_PLAY)


def choices(st: State, arrays, seat: int, text: str) -> list:
    """The bot's choice at each decision of :func:`decisions`, and the bot stream
    after each; for ``search``, its turn planned first, and its tree."""
    st = seat_bot(clone(st, arrays), seat, text, arrays)
    deck = arrays.kernel_ref()
    made = []
    if text.startswith("search"):
        plan_turn(kernel_state(st, new_twin(st, arrays)), deck)
        n = int(st.tree_g[0])
        made.append((st.tree_key[:n].tolist(), st.tree_stats[:n].tolist()))
    for kind, n_options in decisions(st, seat):
        made.append((kind, decide(kernel_state(st), deck, seat, kind, n_options), int(st.streams[BOT])))
    return made


@pytest.fixture(scope="module")
def positions(default_arrays):
    return [position(default_arrays, game, turns) for game, turns in POSITIONS]


@pytest.mark.parametrize("text", BOTS)
def test_r3_1_r3_2_r3_3_hidden_cards_permuted_same_choice(text, positions, default_arrays):
    """R3.1 task deck, R3.2 other hands, R3.3/R3.4 statue deck and discard, and the
    deal and dice streams, permuted behind the active seat's observation: the bot
    makes the same choices, drawing the same bot stream (search: the same tree)."""
    rng = np.random.default_rng(7)
    compared = 0
    for st in positions:
        seat = int(st.g[ACTIVE])
        expected = choices(st, default_arrays, seat, text)
        for _ in range(2):
            other = permute_hidden(st, default_arrays, seat, rng)
            assert not np.array_equal(other.task_deck, st.task_deck)  # something hidden did change
            assert choices(other, default_arrays, seat, text) == expected
            compared += len(expected)
    assert compared >= 2 * len(POSITIONS)


def test_r3_1_r3_2_r3_3_the_redeal_for_a_seat_deals_the_unseen_cards(positions, default_arrays):
    """The rules' redeal for a seat, the search bot's determinisation
    (sim.rules.redeal), deals the cards the seat cannot see again:
    every card stays in exactly one zone, every pile keeps its size, the same cards
    stay hidden, and the seat's own hand and the task row stay as they were."""
    for st in positions:
        seat = int(st.g[ACTIVE])
        dealt = seat_bot(clone(st, default_arrays), seat, "search", default_arrays)
        redeal_unseen(kernel_state(dealt), default_arrays.kernel_ref(), seat, BOT)
        check_zones(kernel_state(dealt), default_arrays.kernel_ref())
        for name in ("hand_n", "g", "row", "squad_cards"):
            assert np.array_equal(getattr(dealt, name), getattr(st, name)), name
        assert np.array_equal(dealt.hand[seat], st.hand[seat])
        n_tasks = int(st.g[TASK_DECK_N])
        assert sorted(dealt.task_deck[:n_tasks]) == sorted(st.task_deck[:n_tasks])
        assert sorted(unseen(dealt, seat)) == sorted(unseen(st, seat))


def unseen(st: State, seat: int) -> np.ndarray:
    """The cards of the other seats' hands, the statue deck and the statue discard."""
    hands = [st.hand[q, : st.hand_n[q]] for q in range(PLAYERS) if q != seat]
    return np.concatenate([*hands, st.statue[: st.g[STATUE_N]], st.statue_discard[: st.g[STATUE_DISCARD_N]]])


def test_r3_2_permutation_changes_the_other_hands(positions, default_arrays):
    """The test above is not vacuous: the permutation deals other seats other allies."""
    st = positions[1]
    seat = int(st.g[ACTIVE])
    other = permute_hidden(st, default_arrays, seat, np.random.default_rng(7))
    assert not np.array_equal(np.delete(other.hand, seat, 0), np.delete(st.hand, seat, 0))
    assert np.array_equal(other.hand[seat], st.hand[seat])


def _kernel(source: str):
    """A kernel compiled from ``source``, which defines ``kernel(st)`` and may call
    ``seat_view``."""
    scope = {"seat_view": seat_view}
    exec(source, scope)  # noqa: S102 (a test's own source)
    return numba.njit(scope["kernel"])


COMPILED = pytest.mark.skipif(numba.config.DISABLE_JIT, reason="the seat view is a compiled type")


@COMPILED
@pytest.mark.parametrize("hidden", ["hand", "task_deck", "statue", "statue_discard", "streams", "held", "log"])
def test_r3_2_seat_view_cannot_read_hidden(hidden, positions):
    """Reading another seat's hand (R3.2), a deck's order (R3.1, R3.3), the discard
    (R3.4), the streams or the record through the seat view is a compile error."""
    reader = _kernel(f"def kernel(st):\n    return seat_view(st).{hidden}.shape[0]")
    with pytest.raises(TypingError):
        reader(kernel_state(positions[0]))


@COMPILED
def test_r3_1_seat_view_reads_the_task_row_but_cannot_write_it(positions):
    """The task row (R3.1) reads through the seat view; writing it does not compile."""
    reader = _kernel("def kernel(st):\n    return seat_view(st).row[0]")
    assert reader(kernel_state(positions[0])) == positions[0].row[0]
    writer = _kernel("def kernel(st):\n    seat_view(st).row[0] = 0")
    with pytest.raises(TypingError):
        writer(kernel_state(positions[0]))


@COMPILED
@pytest.mark.parametrize("public", ["squad_symbols", "squad_size", "squad_n", "hand_n", "needs"])
def test_r6_1_seat_view_reads_the_squads_but_cannot_write_them(public, positions):
    """A seat's squads and their symbol counts (R5, R6.1), the hand sizes and the
    colours the face-up tasks need read through the seat view; writing them does not
    compile, so greedy and planner weigh a placement or an A7 move without adding an
    ally's symbols to a squad."""
    array = getattr(positions[0], public)
    index = ", ".join(["0"] * array.ndim)
    reader = _kernel(f"def kernel(st):\n    return seat_view(st).{public}[{index}]")
    assert reader(kernel_state(positions[0])) == array[(0,) * array.ndim]
    writer = _kernel(f"def kernel(st):\n    seat_view(st).{public}[{index}] += 1")
    with pytest.raises(TypingError):
        writer(kernel_state(positions[0]))


def mid_event(st: State, arrays, seat: int) -> tuple[State, int] | None:
    """A copy of ``st`` in the middle of a morale-loss event set off by the active
    seat's draw (R4.2, R7.2), at ``seat``'s hand-ally penalty (R8.3): the track's
    cards go to the statue discard, three morale cards of the statue deck to the
    track, one costing a hand ally oldest (R7.3), and the task at position 3 has
    failed (R8.1). With the count of ``seat``'s penalty rows; None when ``seat``
    holds fewer than two allies, the active seat could not draw (R4.3: a full hand)
    or the statue deck holds too few morale cards."""
    mid = clone(st, arrays)
    n_allies, n_statue = arrays.n_allies, int(mid.g[STATUE_N])
    morale = [i for i in range(n_statue) if mid.statue[i] >= n_allies]
    hand_cost = [i for i in morale if arrays.morale_penalty[mid.statue[i] - n_allies] == int(Penalty.HAND_ALLY)]
    if mid.hand_n[seat] < 2 or mid.hand_n[mid.g[ACTIVE]] == HAND_LIMIT or len(morale) < 3 or not hand_cost:
        return None
    taken = [hand_cost[0], *[i for i in morale if i != hand_cost[0]][:2]]
    for pos in range(int(mid.g[TRACK_N])):
        mid.statue_discard[mid.g[STATUE_DISCARD_N]] = n_allies + mid.track[pos]
        mid.g[STATUE_DISCARD_N] += 1
    mid.track[:] = [mid.statue[taken[2]] - n_allies, mid.statue[taken[1]] - n_allies, mid.statue[taken[0]] - n_allies]
    mid.g[TRACK_N] = 3
    kept = np.delete(mid.statue[:n_statue], taken)
    mid.statue[: n_statue - 3], mid.g[STATUE_N] = kept, n_statue - 3
    mid.perm_tasks[mid.g[PERM_TASKS_N]], mid.row[2] = mid.row[2], EMPTY
    mid.g[PERM_TASKS_N] += 1
    mid.g[TURN_ACTION] = ACTION_DRAW
    return mid, penalty_options(kernel_state(mid), arrays.kernel_ref(), seat, int(Penalty.HAND_ALLY))


def penalty_choice(st: State, arrays, seat: int, n_options: int) -> tuple:
    """The search bot's choice of ``seat``'s penalty on the active seat's turn, with
    its twin linked (sim.bots.penalty_search), the bot stream after it, and each
    row's playouts and wins."""
    st = seat_bot(clone(st, arrays), seat, "search:iterations=24,penalty_iterations=24", arrays)
    choice = decide(kernel_state(st, new_twin(st, arrays)), arrays.kernel_ref(), seat, D_PENALTY, n_options)
    return choice, int(st.streams[BOT]), st.penalty_stats[:n_options].tolist()


def test_r3_1_r3_2_r3_3_r8_3_hidden_cards_permuted_same_penalty_on_another_seats_turn(positions, default_arrays):
    """R8.3 on another seat's turn, the search bot's own search (flat Monte-Carlo
    from the turn in progress): with the cards hidden from the penalised seat
    permuted, the same row, the same bot stream and the same playout statistics."""
    rng = np.random.default_rng(11)
    compared = 0
    for st in positions:
        seat = (int(st.g[ACTIVE]) + 1) % PLAYERS
        laid_out = mid_event(st, default_arrays, seat)
        if laid_out is None:
            continue
        mid, n_options = laid_out
        expected = penalty_choice(mid, default_arrays, seat, n_options)
        assert sum(plays for plays, _ in expected[2]) == 24  # it did search
        for _ in range(2):
            other = permute_hidden(mid, default_arrays, seat, rng)
            assert penalty_choice(other, default_arrays, seat, n_options) == expected
            compared += 1
    assert compared >= 4
