"""The compiled game loop and batch loop.

:func:`play_batch` plays games ``first_game .. first_game + n_games - 1`` of a run one
after another in a single reused :class:`sim.state.State`, writing one record row per
game. Before each turn it calls the active seat's turn-start hook, and the rules ask
the seats' bots at every decision, both through the port (:mod:`sim.port`): this
module names no bot. :func:`sim.play.run_games` is the Python entry point.
"""

from __future__ import annotations

from sim import port
from sim._numba import inline_kernel, kernel
from sim.deck_arrays import DeckArrays
from sim.invariants import CHECK_INVARIANTS, check_invariants
from sim.lead import note_leaders
from sim.record import write_record
from sim.rules.scoring import score_game
from sim.rules.setup import setup_game
from sim.rules.turn import take_turn
from sim.rules.zones import check_zones
from sim.state import (
    BAD_CHOICE, INITIAL_HAND, MAX_PLAYERS, MIN_PLAYERS, OUTCOME, OUTCOME_RUNNING, R_DEBUG, game_view, record_view,
)  # fmt: skip


@inline_kernel
def play_game(st, deck, n_players, keys, game_index):
    """Play game ``game_index`` to its end (R9.1, stalled or truncated) and score it.
    Each turn starts with the active seat's turn-start hook (:data:`sim.port.turn_start`,
    which may plan the turn). A bad choice
    (``st.g[BAD_CHOICE]``) stops the game after the turn. In debug mode every turn ends
    with :func:`sim.rules.zones.check_zones`. A ``REVACHOL_CHECK_INVARIANTS=1`` build
    checks the rules' invariants after setup, after every turn and at the end
    (:func:`sim.invariants.check_invariants`); the default build compiles no check."""
    setup_game(st, deck, n_players, keys, game_index)
    while st.g[OUTCOME] == OUTCOME_RUNNING and st.g[BAD_CHOICE] == 0:
        if CHECK_INVARIANTS:
            check_invariants(st, deck)
        port.turn_start(st, deck)
        take_turn(st, deck)
        note_leaders(st, deck)
        if st.rules[R_DEBUG]:
            check_zones(st, deck)
    if CHECK_INVARIANTS:
        check_invariants(st, deck)
    score_game(st, deck)


@kernel
def play_batch(st, deck, n_players, keys, first_game, games, players, held, played, opening, tasks, morale, allies):
    """Play ``games.shape[0]`` consecutive games and fill their record rows, from the
    game part and the record part of ``st`` (their typed views, :mod:`sim.state`);
    stop at a game with a bad choice. Returns the number of games recorded."""
    for i in range(games.shape[0]):
        game_index = first_game + i
        play_game(st, deck, n_players, keys, game_index)
        if st.g[BAD_CHOICE]:
            return i
        games[i, 0] = game_index
        write_record(game_view(st), record_view(st), i, games, players, held, played, opening, tasks, morale, allies)
    return games.shape[0]


def check_players(deck: DeckArrays, n_players: int) -> None:
    """Raise ValueError unless 2-4 players (R2.1) can be dealt their hands (R3.2)."""
    if not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
        raise ValueError(f"{n_players} players: the game takes {MIN_PLAYERS} to {MAX_PLAYERS} (R2.1)")
    if deck.n_allies < INITIAL_HAND * n_players:
        raise ValueError(
            f"{deck.n_allies} allies cannot deal {INITIAL_HAND} to each of {n_players} players (R3.2)"
        )
