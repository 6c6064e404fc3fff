"""The per-game record: its fields, their units, and their conversion to tables.

A batch of ``n`` games fills the arrays of a :class:`Record`. Per-player data is
indexed by *turn order* (0 = the first player, R9.4), not by seat. Dtypes are the
narrowest that hold any value a game can produce (turns are capped, R4 Reading), so
that a chunk of games stays small in memory.

games, int32 (n, len(GAME_FIELDS))
    =====================  =====================================================
    game                   game index within the run (the seed's counter)
    n_players              seats (2-4)
    turns                  turns played, stuck turns included (turns)
    rounds                 ceil(turns / n_players) (rounds)
    first_player           seat that played first (R2.2)
    morale_events          morale-loss events (events, R8)
    tasks_completed        tasks completed, by anyone (tasks)
    tasks_failed           tasks failed in events (tasks, R8.1)
    stuck_turns            turns passed with an empty hand and no draw (turns)
    stalled                1 when n players in a row were stuck (R4 Reading)
    truncated              1 when the turn cap stopped the game (R4 Reading)
    winner                 turn order of the winner (R9.3)
    tie_broken_by_dice     1 when R9.3's die roll decided the winner
    first_event_turn       turn of the first morale-loss event, 0 if none (turns)
    margin                 winner's points minus the runner-up's (points)
    lead_changes           times the seat leading alone changed (:mod:`sim.lead`)
    lead_taken_turn        turn the last seat to lead alone took the lead (turns)
    winner_behind_at_half  1 when the winner trailed after turn ``turns // 2``
    =====================  =====================================================

players, int32 (n, P, len(PLAYER_FIELDS)), by turn order; rows past n_players are 0
    ========================  ===============================================
    seat                      the player's seat
    score                     points (R9.2)
    tasks_held                completed tasks held at the end (tasks)
    tasks_completed           tasks completed, lost ones included (tasks)
    tasks_lost                completed tasks lost to penalties (tasks)
    penalties_squad_ally      penalties suffered of each type (penalties,
    penalties_completed_task  R8.3), counted even when nothing could be lost
    penalties_hand_ally
    penalties_nothing_lost    penalties with no such card to give up
    saves                     morale-loss rolls that saved the player (rolls)
    allies_received           allies received face down, A1 and A6 (cards)
    won                       1 for the winner
    bot                       which of the run's bots played (its index)
    ========================  ===============================================

held, played, opening : bool (n, P, A), by turn order
    Allies the player ever held in hand, allies it played from hand, and its
    opening hand (the allies dealt to it at R3.2).
tasks : int16 (n, T, 3)
    Per task: status (``TASK_*`` of :mod:`sim.rundir.schema`: 0 never revealed, 1 face up
    at the end, 2 completed, 3 failed, 4 completed then lost), the completing
    player's turn order (-1 if none), and the turn of completion or failure (0).
morale : int16 (n, M, 2)
    Per morale card: events it caused, saves rolled against it.
allies : int32 (n, A, 3)
    Per ally: task points completed by squads holding it (points), times taken by
    A6, times lent a symbol to A1.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import polars as pl

from sim._numba import inline_kernel
from sim.lead import write_closeness
from sim.rundir.schema import ALLY_SETS, pack_allies
from sim.state import (
    EMPTY,
    FIRST,
    FIRST_EVENT_TURN,
    MORALE_EVENTS,
    N_PLAYERS,
    OUTCOME,
    OUTCOME_STALLED,
    OUTCOME_TRUNCATED,
    S_PEN_COMPLETED_TASK,
    S_PEN_HAND_ALLY,
    S_PEN_SQUAD_ALLY,
    S_PENALTY_NOTHING,
    S_SAVES,
    S_SCORE,
    S_TASKS_COMPLETED,
    S_TASKS_LOST,
    STUCK_TURNS,
    TASKS_COMPLETED,
    TASKS_FAILED,
    TF_SEAT,
    TIE_DICE,
    TURN,
    WINNER,
)

GAME_FIELDS = (
    "game", "n_players", "turns", "rounds", "first_player", "morale_events", "tasks_completed",
    "tasks_failed", "stuck_turns", "stalled", "truncated", "winner", "tie_broken_by_dice", "first_event_turn",
    "margin", "lead_changes", "lead_taken_turn", "winner_behind_at_half",
)  # fmt: skip
PLAYER_FIELDS = (
    "seat", "score", "tasks_held", "tasks_completed", "tasks_lost", "penalties_squad_ally",
    "penalties_completed_task", "penalties_hand_ally", "penalties_nothing_lost", "saves", "allies_received", "won",
    "bot",
)  # fmt: skip
TASK_FIELDS = ("status", "completed_by", "turn")
MORALE_FIELDS = ("events", "saves")
ALLY_FIELDS = ("points_completed", "taken_by_swap", "lent_to_borrow")


class Record(NamedTuple):
    """The records of a batch of games (layout in the module docstring)."""

    games: np.ndarray
    players: np.ndarray
    held: np.ndarray
    played: np.ndarray
    opening: np.ndarray
    tasks: np.ndarray
    morale: np.ndarray
    allies: np.ndarray

    @classmethod
    def empty(cls, n_games: int, n_seats: int, n_allies: int, n_tasks: int, n_morale: int) -> Record:
        return cls(
            games=np.zeros((n_games, len(GAME_FIELDS)), np.int32),
            players=np.zeros((n_games, n_seats, len(PLAYER_FIELDS)), np.int32),
            held=np.zeros((n_games, n_seats, n_allies), np.bool_),
            played=np.zeros((n_games, n_seats, n_allies), np.bool_),
            opening=np.zeros((n_games, n_seats, n_allies), np.bool_),
            tasks=np.zeros((n_games, n_tasks, len(TASK_FIELDS)), np.int16),
            morale=np.zeros((n_games, max(n_morale, 1), len(MORALE_FIELDS)), np.int16),
            allies=np.zeros((n_games, n_allies, len(ALLY_FIELDS)), np.int32),
        )

    def tables(self) -> dict[str, pl.DataFrame]:
        """The record as the run directory's three tables (polars DataFrames).

        * ``games``: one row per game, the :data:`GAME_FIELDS`.
        * ``players``: one row per (game, turn order) for the seats in play: the
          :data:`PLAYER_FIELDS`, plus ``held``, ``played`` and ``opening``, sets of
          allies bit-packed (:func:`sim.rundir.schema.pack_allies`).
        * ``cards``: one row per game: per-task ``task_status``, ``task_completed_by``,
          ``task_turn``; per-morale-card ``morale_events``, ``morale_saves``; per-ally
          ``ally_points_completed``, ``ally_taken_by_swap``, ``ally_lent_to_borrow``;
          each a fixed-size array indexed like the deck's cards.
        """
        games = pl.DataFrame(self.games, schema=list(GAME_FIELDS), orient="row")
        n_games, n_seats, _ = self.players.shape
        order = np.tile(np.arange(n_seats), n_games)
        in_play = order < np.repeat(self.games[:, GAME_FIELDS.index("n_players")], n_seats)
        rows = slice(None) if in_play.all() else in_play  # 4 players: views, no copies
        players = pl.DataFrame(
            self.players.reshape(n_games * n_seats, -1)[rows], schema=list(PLAYER_FIELDS), orient="row"
        )
        players = players.with_columns(
            game=pl.Series(np.repeat(self.games[:, 0], n_seats)[rows]),
            turn_order=pl.Series(order[rows].astype(np.int8)),
            **{name: pl.Series(pack_allies(getattr(self, name).reshape(n_games * n_seats, -1)[rows]))
               for name in ALLY_SETS},
        )
        # field-major copies, so that each column is one contiguous (n, cards) block
        tasks, morale, allies = (
            np.ascontiguousarray(array.transpose(2, 0, 1)) for array in (self.tasks, self.morale, self.allies)
        )
        cards = pl.DataFrame(
            {
                "game": self.games[:, 0],
                **{f"task_{name}": tasks[i] for i, name in enumerate(TASK_FIELDS)},
                **{f"morale_{name}": morale[i] for i, name in enumerate(MORALE_FIELDS)},
                **{f"ally_{name}": allies[i] for i, name in enumerate(ALLY_FIELDS)},
            }
        )
        return {"games": games, "players": players, "cards": cards}


@inline_kernel
def write_record(game, record, i, games, players, held, played, opening, tasks, morale, allies):
    """Copy the finished game into row ``i`` of the record arrays, from the state's
    game part and record part (``game_view(st)`` and ``record_view(st)``,
    :mod:`sim.state`), which is all it reads."""
    n = game.g[N_PLAYERS]
    first = game.g[FIRST]
    row = games[i]
    row[1] = n
    row[2] = game.g[TURN]
    row[3] = (game.g[TURN] + n - 1) // n
    row[4] = first
    row[5] = game.g[MORALE_EVENTS]
    row[6] = game.g[TASKS_COMPLETED]
    row[7] = game.g[TASKS_FAILED]
    row[8] = game.g[STUCK_TURNS]
    row[9] = 1 if game.g[OUTCOME] == OUTCOME_STALLED else 0
    row[10] = 1 if game.g[OUTCOME] == OUTCOME_TRUNCATED else 0
    row[11] = _turn_order(game.g[WINNER], first, n)
    row[12] = game.g[TIE_DICE]
    row[13] = game.g[FIRST_EVENT_TURN]
    write_closeness(game, record, row, 14)
    for order in range(n):
        seat = first + order if first + order < n else first + order - n
        out = players[i, order]
        s = record.seat_stats[seat]
        out[0] = seat
        out[1] = s[S_SCORE]
        out[2] = game.done_n[seat]
        out[3] = s[S_TASKS_COMPLETED]
        out[4] = s[S_TASKS_LOST]
        out[5] = s[S_PEN_SQUAD_ALLY]
        out[6] = s[S_PEN_COMPLETED_TASK]
        out[7] = s[S_PEN_HAND_ALLY]
        out[8] = s[S_PENALTY_NOTHING]
        out[9] = s[S_SAVES]
        out[10] = game.received_n[seat]
        out[11] = 1 if seat == game.g[WINNER] else 0
        out[12] = game.seat_bot[seat]
        # loops, not copy_into: nothing more to compile after the shares; one loop per
        # array, so that each is a single stream that LLVM can vectorise
        for a in range(held.shape[2]):
            held[i, order, a] = record.held[seat, a]
        for a in range(played.shape[2]):
            played[i, order, a] = record.played[seat, a]
        for a in range(opening.shape[2]):
            opening[i, order, a] = record.opening[seat, a]
    for t in range(tasks.shape[1]):
        tasks[i, t, 0] = record.task_fate[t, 0]
        seat = record.task_fate[t, TF_SEAT]
        tasks[i, t, 1] = EMPTY if seat == EMPTY else _turn_order(seat, first, n)
        tasks[i, t, 2] = record.task_fate[t, 2]
    for m in range(morale.shape[1]):
        for k in range(morale.shape[2]):
            morale[i, m, k] = record.morale_stats[m, k]
    for a in range(allies.shape[1]):
        for k in range(allies.shape[2]):
            allies[i, a, k] = record.ally_stats[a, k]


@inline_kernel
def _turn_order(seat, first, n_players):
    """The turn order of ``seat`` (0 = ``first``): ``(seat - first) % n_players``
    without a division, for seats in ``[0, n_players)``."""
    order = seat - first
    return order + n_players if order < 0 else order
