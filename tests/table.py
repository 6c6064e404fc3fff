"""A table for scripted rules tests: a small deck with known cards, and a game state
whose zones are laid out by hand before a rule kernel runs on it."""

from __future__ import annotations

import numpy as np

from sim._numba import View
from sim.bots.memory import with_bot_memory
from sim.bots.policy import SCRIPTED
from sim.cards import dump_yaml, parse_deck
from sim.deck_arrays import compile_deck
from sim.events import EV_ROLL
from sim.options import RuleOptions
from sim.rng import DICE, roll_die, stream_keys
from sim.rules.setup import setup_game
from sim.state import (
    ACTIVE,
    BOT_POLICY,
    EMPTY,
    FIRST,
    LOG_N,
    PERM_MORALE_N,
    PERM_TASKS_N,
    SCRIPT_N,
    SCRIPT_POS,
    STATUE_DISCARD_N,
    STATUE_N,
    TASK_DECK_N,
    TRACK_N,
    kernel_state,
    new_state,
    new_twin,
)

ALLIES = {  # id: (symbols, ability, points)
    "blue": (["blue"], None, 0),
    "blue2": (["blue"], None, 0),
    "red": (["red"], None, 0),
    "red2": (["red"], None, 0),
    "green": (["green"], None, 0),
    "yellow": (["yellow"], None, 0),
    "orange": (["orange"], None, 0),
    "orange2": (["orange"], None, 0),
    "purple": (["purple"], None, 0),
    "blue_red": (["blue", "red"], None, 0),
    "green_yellow": (["green", "yellow"], None, 0),
    "crown": (["crown"], None, 0),
    "lena": (["crown"], "borrow", 1),
    "cuno": (["crown"], "borrow", 1),
    "trant": (["green"], "double", 0),
    "measurehead": (["blue"], "double", 0),
    "dolores": (["purple"], "untouchable", 0),
    "cindy": (["yellow"], "extra_play", 0),
    "kim": (["blue"], "stays", 0),
    "harry": (["red"], "swap", 2),
    "garte": (["green"], "relocate", 0),
    "titus": (["crown"], "special_crown", 0),
    "ruby": (["red"], "special_crown", 0),
    "evrart": (["orange"], "forced_draw", 0),
    "filler1": (["purple"], None, 0),
    "filler2": (["purple"], None, 0),
    "jean": (["crown"], "borrow", 1),
    "klaasje": (["crown"], "borrow", 2),
    "yellow2": (["yellow"], None, 0),
}
TASKS = {  # id: (requires, points, special)
    "t_blue": (["blue"], 1, False),
    "t_red": (["red"], 2, False),
    "t_blue_red": (["blue", "red"], 3, False),
    "t_blue2": (["blue", "blue"], 2, False),
    "t_green2": (["green", "green"], 3, False),
    "t_yellow": (["yellow"], 1, False),
    "t_special": (["purple", "orange"], 4, True),
    "t_special2": (["purple"], 2, True),
    "t_orange": (["orange"], 1, False),
    "find_your_badge": (["yellow", "orange"], 3, False),
    "go_to_the_island": (["blue", "purple"], 3, False),
    "t_big": (["blue", "red", "green", "yellow"], 6, False),
    "t_special3": (["purple", "purple"], 3, True),
}
MORALE = {  # id: (save, penalty)
    "m_squad": ([1, 2], "squad_ally"),
    "m_task": ([3, 4], "completed_task"),
    "m_hand": ([5, 5], "hand_ally"),
    "m_double": ("any_double", "hand_ally"),
    "m_six": ({"one_face": 6}, "squad_ally"),
}


def deck_yaml() -> str:
    data = {
        "format": 1,
        "allies": [
            {"id": i, "name": i, "symbols": s, "points": p, **({"ability": a} if a else {})}
            for i, (s, a, p) in ALLIES.items()
        ],
        "tasks": [{"id": i, "name": i, "points": p, "requires": r, "special": s} for i, (r, p, s) in TASKS.items()],
        "morale": [{"id": i, "name": i, "save": s, "penalty": p} for i, (s, p) in MORALE.items()],
    }
    return dump_yaml(data)


DECK = parse_deck(deck_yaml(), "tests/table.py")
ARRAYS = compile_deck(DECK)
ALLY = {a.id: i for i, a in enumerate(DECK.allies)}
TASK = {t.id: i for i, t in enumerate(DECK.tasks)}
MORALE_ID = {m.id: i for i, m in enumerate(DECK.morale)}


class Table:
    """A hand-built position of the test deck for ``n_players`` seats, all zones empty
    at first; seat ``active`` is on turn. Every seat plays the ``scripted`` policy."""

    def __init__(self, n_players: int = 2, active: int = 0, options: RuleOptions | None = None, seed: int = 0):
        options = options or RuleOptions(debug=True)
        self.n_players = n_players
        self.st = new_state(ARRAYS, options.to_array(trace=True), trace=True)
        self.st.rules[:] = options.to_array(trace=True)
        self.ref = kernel_state(self.st)
        self.deck = ARRAYS.kernel_ref()
        self.st.bots[:, BOT_POLICY] = SCRIPTED
        setup_game(self.ref, self.deck, n_players, stream_keys(seed), 0)
        g = self.st.g
        for index in (TASK_DECK_N, STATUE_N, STATUE_DISCARD_N, TRACK_N, PERM_TASKS_N, PERM_MORALE_N, LOG_N):
            g[index] = 0
        g[FIRST] = g[ACTIVE] = active
        self.st.row[:] = EMPTY
        self.st.track[:] = EMPTY
        self.st.hand_n[:] = 0
        self.st.held[:] = False
        self.st.task_fate[:] = 0
        self.st.task_fate[:, 1] = EMPTY

    def for_search(self) -> View:
        """The table's handle as a run gives it to the search bot: its state given the
        seated bots' memory (:func:`sim.bots.memory.with_bot_memory`), linking a twin
        for the playouts (:func:`sim.state.kernel_state`). Replaces ``st`` and ``ref``."""
        self.st = with_bot_memory(self.st, ARRAYS)
        self.ref = kernel_state(self.st, new_twin(self.st, ARRAYS))
        return self.ref

    # --- laying out zones ----------------------------------------------------------
    def hand(self, seat: int, *allies: str) -> Table:
        for a in allies:
            self.st.hand[seat, self.st.hand_n[seat]] = ALLY[a]
            self.st.hand_n[seat] += 1
            self.st.held[seat, ALLY[a]] = True
        return self

    def clear_squads(self) -> Table:
        """Remove every squad of every seat (to lay out another position)."""
        self.st.squad_n[:] = 0
        self.st.squad_size[:] = 0
        self.st.squad_symbols[:] = 0
        self.st.relocators[:] = 0
        return self

    def squad(self, seat: int, *allies: str) -> Table:
        """Add a new squad, last in order, holding ``allies``."""
        from sim.rules.squads import add_to_squad

        squad = self.st.squad_n[seat]
        for a in allies:
            add_to_squad(self.ref, self.deck, seat, squad, ALLY[a])
        return self

    def row(self, *tasks: str | None) -> Table:
        """Tasks at positions 1, 2, 3 (None: empty)."""
        for pos, t in enumerate(tasks):
            self.st.row[pos] = EMPTY if t is None else TASK[t]
            if t is not None:
                self.st.task_fate[TASK[t], 0] = 1
        return self

    def task_deck(self, *tasks: str) -> Table:
        """The task deck, bottom first: the last one is revealed next."""
        for i, t in enumerate(tasks):
            self.st.task_deck[i] = TASK[t]
        self.st.g[TASK_DECK_N] = len(tasks)
        return self

    def statue(self, *cards: str) -> Table:
        """The statue deck, bottom first: the last card is drawn next."""
        self._pile(self.st.statue, STATUE_N, cards)
        return self

    def statue_discard(self, *cards: str) -> Table:
        self._pile(self.st.statue_discard, STATUE_DISCARD_N, cards)
        return self

    def _pile(self, pile: np.ndarray, counter: int, cards) -> None:
        for i, c in enumerate(cards):
            pile[i] = statue_index(c)
        self.st.g[counter] = len(cards)

    def track(self, *morale: str) -> Table:
        """Morale cards at track positions 1, 2 (position 1 is the newest)."""
        for pos, m in enumerate(morale):
            self.st.track[pos] = MORALE_ID[m]
        self.st.g[TRACK_N] = len(morale)
        return self

    def done(self, seat: int, *tasks: str) -> Table:
        for t in tasks:
            self.st.done[seat, self.st.done_n[seat]] = TASK[t]
            self.st.done_n[seat] += 1
        return self

    def script(self, *choices: int) -> Table:
        self.st.script[: len(choices)] = choices
        self.st.g[SCRIPT_N] = len(choices)
        self.st.g[SCRIPT_POS] = 0
        return self

    def dice(self, *rolls: tuple[int, int]) -> Table:
        """Make the next morale-event rolls come out as ``rolls`` (one pair per player,
        in rolling order), by choosing the DICE stream's state: the dice stay the
        engine's own, only their seed is picked."""
        wanted = [face for pair in rolls for face in pair]
        probe = np.zeros(3, np.uint64)
        for candidate in range(1, 10_000_000):
            probe[DICE] = np.uint64(candidate * 0x9E3779B97F4A7C15 % 2**64)
            start = probe[DICE]
            if all(roll_die(probe) == face for face in wanted):
                self.st.streams[DICE] = start
                return self
        raise AssertionError(f"no stream state gives the rolls {rolls}")

    # --- reading the position -------------------------------------------------------
    def hand_of(self, seat: int) -> list[str]:
        return [ally_name(a) for a in self.st.hand[seat, : self.st.hand_n[seat]]]

    def squads_of(self, seat: int) -> list[list[str]]:
        st = self.st
        return [
            [ally_name(a) for a in st.squad_cards[seat, s, : st.squad_size[seat, s]]] for s in range(st.squad_n[seat])
        ]

    def row_names(self) -> list[str | None]:
        return [None if t == EMPTY else DECK.tasks[t].id for t in self.st.row]

    def done_of(self, seat: int) -> list[str]:
        return [DECK.tasks[t].id for t in self.st.done[seat, : self.st.done_n[seat]]]

    def received_of(self, seat: int) -> list[str]:
        return [ally_name(a) for a in self.st.received[seat, : self.st.received_n[seat]]]

    def statue_discard_names(self) -> list[str]:
        return [statue_name(c) for c in self.st.statue_discard[: self.st.g[STATUE_DISCARD_N]]]

    def statue_names(self) -> list[str]:
        return [statue_name(c) for c in self.st.statue[: self.st.g[STATUE_N]]]

    def perm_tasks(self) -> list[str]:
        return [DECK.tasks[t].id for t in self.st.perm_tasks[: self.st.g[PERM_TASKS_N]]]

    def perm_morale(self) -> list[str]:
        return [DECK.morale[m].id for m in self.st.perm_morale[: self.st.g[PERM_MORALE_N]]]

    def track_names(self) -> list[str | None]:
        return [None if m == EMPTY else DECK.morale[m].id for m in self.st.track]

    def events(self, code: int | None = None) -> list[list[int]]:
        rows = self.st.log[: self.st.g[LOG_N]].tolist()
        return [r for r in rows if code is None or r[0] == code]

    def rolls(self) -> list[tuple[int, int, int, int]]:
        """(seat, die 1, die 2, saved) of every morale-event roll so far."""
        return [tuple(r[1:5]) for r in self.events(EV_ROLL)]

    def options(self, n: int) -> list[list[int]]:
        return self.st.options[:n].tolist()


def statue_index(card: str) -> int:
    return ALLY[card] if card in ALLY else len(ALLY) + MORALE_ID[card]


def statue_name(index: int) -> str:
    return DECK.allies[index].id if index < len(ALLY) else DECK.morale[index - len(ALLY)].id


def ally_name(index: int) -> str:
    return DECK.allies[index].id
