"""The Python entry point to the engine: :func:`run_games` plays games of a run with the
bots it names, and raises :class:`BadChoiceError` for a bot that names no offered
option.

This module wires the bots to the rules: importing :mod:`sim.bots.policy` binds the
bots' policy table to the port (:mod:`sim.port`), which the game loop
(:mod:`sim.engine`) and the rules call.
"""

from __future__ import annotations

from collections.abc import Sequence

from sim import decisions
from sim.bots import policy  # noqa: F401 (binds the bots to sim.port)
from sim.bots.memory import with_bot_memory
from sim.bots.spec import BotSpec, bot_tables, parse_bot
from sim.bots.user import NOT_AN_INDEX
from sim.deck_arrays import DeckArrays
from sim.engine import check_players, play_batch
from sim.options import RuleOptions
from sim.record import Record
from sim.rng import stream_keys
from sim.split_compile import split_compile
from sim.state import (
    BAD_CHOICE, BAD_INDEX, BAD_KIND, BAD_N_OPTIONS, BAD_SEAT, MAX_PLAYERS, RAISED, State, kernel_state, new_state,
    new_twin,
)  # fmt: skip

DECISION_NAMES = {int(value): name for name, value in vars(decisions).items() if name.startswith("D_")}


class BadChoiceError(ValueError):
    """A bot returned an option index outside ``[0, n_options)``, or a user bot raised
    an error; the message names the bot (and its file), the decision and the index."""


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
    (:func:`sim.run.runner.simulate`) play in worker processes instead, which they stop
    at once when asked (:mod:`sim.run.supervisor`).

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
    st = with_bot_memory(st, deck)  # the seated bots' own memory (the search bot's tree)
    record = record if record is not None else Record.empty(n_games, MAX_PLAYERS, deck.n_allies, deck.n_tasks,
                                                            deck.n_morale)  # fmt: skip
    handle = kernel_state(st, new_twin(st, deck))  # the search bot's playouts run in the twin
    with split_compile(play_batch, __name__):
        played = play_batch(handle, deck.kernel_ref(), n_players, stream_keys(seed), first_game, *record)
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
    if index == RAISED:  # a built-in bot's compiled callback (sim.bots.penalty_search)
        return f"{who} raised an error {where}; NUMBA_DISABLE_JIT=1 runs it as Python and shows the error"
    if spec.source and index in NOT_AN_INDEX:
        return (f"{who} returned {NOT_AN_INDEX[index]} {where}; a bot returns an option index, a Python int or a "
                f"numpy integer from 0 to {n_options - 1}")  # fmt: skip
    return f"{who} returned option index {index} {where}, which offered {n_options} options (0 to {n_options - 1})"
