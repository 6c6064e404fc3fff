"""The compiled game loop and batch loop, and the Python entry point to them.

:func:`run_games` validates its inputs and calls :func:`play_batch`, a compiled
kernel that plays games ``first_game .. first_game + n_games - 1`` of a run one
after another in a single reused :class:`sim.state.State`, asking the seats'
bots at every decision and writing one record row per game. A bot that names no
offered option stops the batch: :func:`run_games` raises :class:`BadChoiceError`
and returns no record.
"""

from __future__ import annotations

from collections.abc import Sequence

from numba.extending import overload

from sim import decisions
from sim._numba import entry_kernel, inline_kernel
from sim.bots.spec import BotSpec, bot_tables, parse_bot
from sim.bots.user import RAISED
from sim.deck_arrays import DeckArrays
from sim.lead import note_leaders
from sim.options import RuleOptions
from sim.record import Record, write_record
from sim.rng import stream_keys
from sim.rules.scoring import score_game
from sim.rules.setup import setup_game
from sim.rules.turn import take_turn
from sim.rules.zones import check_zones
from sim.split_compile import split_compile
from sim.bots.ids import SEARCH
from sim.bots.search import plan_turn
from sim.state import (
    ACTIVE,
    BAD_CHOICE,
    BAD_INDEX,
    BAD_KIND,
    BAD_N_OPTIONS,
    BAD_SEAT,
    BOT_POLICY,
    INITIAL_HAND,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OUTCOME,
    OUTCOME_RUNNING,
    R_DEBUG,
    State,
    kernel_state,
    new_state,
)

DECISION_NAMES = {int(value): name for name, value in vars(decisions).items() if name.startswith("D_")}


class BadChoiceError(ValueError):
    """A bot returned an option index outside ``[0, n_options)``, or a user bot raised
    an error; the message names the bot (and its file), the decision and the index."""


def plan_search_turn(st, backup, deck):
    """A ``search`` seat plans its turn (:func:`sim.bots.search.plan_turn`) before it
    plays it. Compiled only for a state whose policy set holds ``search``
    (:mod:`sim.bots.ids`); a no-op for the others."""
    if st.bots[st.seat_bot[st.g[ACTIVE]], BOT_POLICY] == SEARCH:
        plan_turn(st, backup, deck)


@overload(plan_search_turn, jit_options={"nogil": True})
def _plan_search_turn_for(st, backup, deck):
    if SEARCH in (getattr(st, "policies", None) or (SEARCH,)):
        return plan_search_turn
    return lambda st, backup, deck: None


@inline_kernel
def play_game(st, backup, deck, n_players, keys, game_index):
    """Play game ``game_index`` to its end (R9.1, stalled or truncated) and score it.
    A ``search`` bot plans its turn first, using ``backup`` as scratch. A bad choice
    (``st.g[BAD_CHOICE]``, :func:`sim.bots.policy.refuse_choice`) stops it after the
    turn. In debug mode every turn ends with :func:`sim.rules.zones.check_zones`."""
    setup_game(st, deck, n_players, keys, game_index)
    while st.g[OUTCOME] == OUTCOME_RUNNING and st.g[BAD_CHOICE] == 0:
        plan_search_turn(st, backup, deck)
        take_turn(st, deck)
        note_leaders(st, deck)
        if st.rules[R_DEBUG]:
            check_zones(st, deck)
    score_game(st, deck)


@entry_kernel
def play_batch(st, backup, deck, n_players, keys, first_game, games, players, held, played, opening, tasks, morale, allies):
    """Play ``games.shape[0]`` consecutive games and fill their record rows; stop at a
    game with a bad choice. Returns the number of games recorded."""
    for i in range(games.shape[0]):
        game_index = first_game + i
        play_game(st, backup, deck, n_players, keys, game_index)
        if st.g[BAD_CHOICE]:
            return i
        games[i, 0] = game_index
        write_record(st, i, games, players, held, played, opening, tasks, morale, allies)
    return games.shape[0]


def bot_specs(bots: Sequence[str | BotSpec], n_players: int) -> list[BotSpec]:
    """One parsed bot per seat.

    Raises
    ------
    ValueError
        For an unknown bot or parameter, or a list whose length is not ``n_players``.
    """
    if len(bots) != n_players:
        raise ValueError(f"{len(bots)} bots given for {n_players} players; give one, or one per seat")
    return [b if isinstance(b, BotSpec) else parse_bot(b) for b in bots]


def check_players(deck: DeckArrays, n_players: int) -> None:
    """Raise ValueError unless 2-4 players (R2.1) can be dealt their hands (R3.2)."""
    if not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
        raise ValueError(f"{n_players} players: the game takes {MIN_PLAYERS} to {MAX_PLAYERS} (R2.1)")
    if deck.n_allies < INITIAL_HAND * n_players:
        raise ValueError(
            f"{deck.n_allies} allies cannot deal {INITIAL_HAND} to each of {n_players} players (R3.2)"
        )


def run_games(
    deck: DeckArrays,
    n_players: int,
    n_games: int,
    seed: int,
    bots: Sequence[str | BotSpec] | None = None,
    options: RuleOptions = RuleOptions(),
    first_game: int = 0,
    state: State | None = None,
    record: Record | None = None,
) -> Record:
    """Play games ``first_game .. first_game + n_games - 1`` of the run with root ``seed``.

    The games are played in this process, in one compiled batch that does not return
    to Python until it ends: a signal (Ctrl-C) is seen only after the batch, and a
    bot that never returns holds the process until it is killed. Batch runs
    (:func:`sim.runner.simulate`) play in worker processes instead, which they stop
    at once when asked (:mod:`sim.supervisor`).

    Parameters
    ----------
    deck : DeckArrays
        The compiled deck (:func:`sim.deck_arrays.compile_deck`).
    n_players : int
        Seats, 2-4 (R2.1).
    n_games : int
        Games to play.
    seed : int
        The run's root seed; game ``g`` uses the streams of ``(seed, g)`` only, so a
        game's result does not depend on how the run is split.
    bots : sequence of str or BotSpec, optional
        The run's bots, one per seat (:mod:`sim.bots.spec`); default ``random``
        everywhere. Seat ``s`` plays bot ``s``, or a random order of them per game
        with ``options.shuffle_seats``.
    options : RuleOptions
        Rule options and the debug switch.
    state : State, optional
        A state to reuse (from :func:`sim.state.new_state` with the same deck).
    record : Record, optional
        The rows to fill, ``n_games`` of them (rows of a larger record, say: a slice
        of each array along its first axis); default a new record.

    Returns
    -------
    Record
        One row per game (layout: :mod:`sim.record`).

    Raises
    ------
    ValueError
        For a player count the deck cannot serve or an unknown bot.
    BadChoiceError
        When a bot names no offered option (or a user bot raises an error).
    """
    check_players(deck, n_players)
    specs = bot_specs(bots or ["random"] * n_players, n_players)
    st = state if state is not None else new_state(deck, options.to_array())
    st.rules[:] = options.to_array(trace=st.log.shape[0] > 1)
    st.bots[:], st.bot_params[:] = bot_tables(specs)
    record = record if record is not None else Record.empty(n_games, MAX_PLAYERS, deck.n_allies, deck.n_tasks,
                                                            deck.n_morale)  # fmt: skip
    backup = new_state(deck, st.rules)
    with split_compile(play_batch):
        played = play_batch(kernel_state(st), kernel_state(backup), deck.kernel_ref(), n_players, stream_keys(seed),
                            first_game, *record)  # fmt: skip
    if st.g[BAD_CHOICE]:
        raise BadChoiceError(bad_choice_message(st, specs, first_game + played))
    return record


def bad_choice_message(st: State, specs: Sequence[BotSpec], game: int) -> str:
    """One line on the bad choice recorded in ``st.g[BAD_*]`` during game ``game``."""
    seat, index, n_options = (int(st.g[k]) for k in (BAD_SEAT, BAD_INDEX, BAD_N_OPTIONS))
    spec = specs[st.seat_bot[seat]]
    who = f"bot file {spec.source}: bot {spec.policy!r}" if spec.source else f"bot {spec.label!r}"
    kind = DECISION_NAMES.get(int(st.g[BAD_KIND]), f"kind {int(st.g[BAD_KIND])}")
    where = f"at a {kind} decision (seat {seat}, game {game})"
    if spec.source and index == RAISED:
        return (f"{who} raised an error {where}: an index past the end of an array, a division by zero, "
                f"or an exception it raises")  # fmt: skip
    return f"{who} returned option index {index} {where}, which offered {n_options} options (0 to {n_options - 1})"
