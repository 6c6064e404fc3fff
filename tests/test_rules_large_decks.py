"""Scripted positions of large decks (issue 13, item 5): every option buffer is sized
from the deck and no option encoding limits a squad's size (RULES R1.5 and the
Reading "any deck that validates must play")."""

import numpy as np
import pytest

from sim.bots.policy import SCRIPTED
from sim.cards import Penalty, dump_yaml, parse_deck
from sim.deck_arrays import compile_deck
from sim.options import RuleOptions
from sim.rng import stream_keys
from sim.rules.abilities import offer_relocate, on_placed, swap_options
from sim.rules.morale import suffer_penalty
from sim.rules.setup import setup_game
from sim.rules.squads import add_to_squad
from sim.state import (
    BOT_POLICY,
    MAX_OPTIONS,
    SCRIPT_N,
    SCRIPT_POS,
    STATUE_DISCARD_N,
    kernel_state,
    new_state,
)

pytestmark = [pytest.mark.nojit, pytest.mark.boundscheck]


class Position:
    """A deck of ``plain`` one-symbol allies after the ``special`` ones (id, ability),
    and a game of ``n_players`` whose hands and squads are emptied, every seat playing
    the ``scripted`` policy."""

    def __init__(self, plain: int, special: list[tuple[str, str]] = (), n_players: int = 2):
        allies = [{"id": i, "name": i, "symbols": ["red"], "points": 2, "ability": a} for i, a in special]
        allies += [{"id": f"ally_{i}", "name": f"Ally {i}", "symbols": ["blue"], "points": 0} for i in range(plain)]
        tasks = [{"id": "t_green", "name": "Green", "points": 1, "requires": ["green"]}]
        data = {"format": 1, "allies": allies, "tasks": tasks, "morale": []}
        self.arrays = compile_deck(parse_deck(dump_yaml(data)))
        self.st = new_state(self.arrays, RuleOptions(debug=True).to_array())
        self.ref, self.deck = kernel_state(self.st), self.arrays.kernel_ref()
        self.st.bots[:, BOT_POLICY] = SCRIPTED
        setup_game(self.ref, self.deck, n_players, stream_keys(0), 0)
        self.st.hand_n[:] = self.st.squad_n[:] = self.st.squad_size[:] = self.st.squad_symbols[:] = 0
        self.first_plain = len(special)

    def squad(self, seat: int, allies) -> "Position":
        """A new squad of ``seat`` holding ``allies`` (ally indices)."""
        squad = self.st.squad_n[seat]
        for ally in allies:
            add_to_squad(self.ref, self.deck, seat, squad, ally)
        return self

    def plain(self, start: int, stop: int) -> range:
        return range(self.first_plain + start, self.first_plain + stop)

    def script(self, *choices: int) -> None:
        self.st.script[: len(choices)] = choices
        self.st.g[SCRIPT_N], self.st.g[SCRIPT_POS] = len(choices), 0

    def squads_of(self, seat: int) -> list[list[int]]:
        st = self.st
        return [st.squad_cards[seat, s, : st.squad_size[seat, s]].tolist() for s in range(st.squad_n[seat])]


def test_a6_a_150_ally_deck_lists_every_swap_within_the_option_buffer():
    """Issue 13 item 5: 150 allies gave 4,289 A6 rows for a 4,096-row buffer. Here seat
    0 has Harry and 75 squads, seat 1 a squad of 74 allies (R5.1: any number of
    squads, each of any size): 1 + 74 x 75 rows."""
    p = Position(149, [("harry", "swap")])
    harry = 0
    p.squad(0, [harry, *p.plain(0, 1)])
    for i in range(1, 75):
        p.squad(0, p.plain(i, i + 1))
    p.squad(1, p.plain(75, 149))
    n = swap_options(p.ref, p.deck, 0, harry)
    assert n == 1 + 74 * 75 > MAX_OPTIONS
    assert n <= p.st.options.shape[0]
    last = p.plain(148, 149)[0]
    assert p.st.options[n - 1, :6].tolist() == [1, 0, 73, last, 74, harry]
    p.script(n - 1)  # A6: take seat 1's last ally into seat 0's last squad
    on_placed(p.ref, p.deck, 0, harry)
    assert p.squads_of(0)[-1] == [p.plain(74, 75)[0], last]
    assert p.squads_of(1) == [list(p.plain(75, 148))]
    assert p.st.received[1, : p.st.received_n[1]].tolist() == [harry]


def test_a7_a_hundred_gartes_in_a_hundred_squads_fit_the_option_buffer():
    """Issue 13 item 5: A7 rows grow as (A7 allies) x (squads): 1 + 100 x 99 here."""
    p = Position(0, [(f"garte_{i}", "relocate") for i in range(100)])
    for i in range(100):
        p.squad(0, [i])
    p.script(1 + 100 * 99 - 1)  # the last row: the last Garte to squad 99 (the 98th other)
    offer_relocate(p.ref, p.deck, 0)
    squads = p.squads_of(0)
    assert len(squads) == 99 and squads[-1] == [98, 99]  # R5.3: his old squad is gone


@pytest.mark.parametrize("pos", [0, 63, 64, 66, 69])
def test_r8_3_a_squad_ally_penalty_removes_the_chosen_ally_of_a_squad_of_70(pos):
    """Issue 13 item 5: penalty rows encoded squad x 64 + position, so in a squad of
    more than 64 allies the wrong card went. Seat 0 gives up position ``pos`` of its
    first squad (70 allies); its second squad keeps its three."""
    p = Position(80)
    p.squad(0, p.plain(0, 70)).squad(0, p.plain(70, 73))
    p.script(pos)  # rows list squad 0 positions 0..69 first, in order
    suffer_penalty(p.ref, p.deck, 0, np.int64(Penalty.SQUAD_ALLY))
    lost = p.plain(pos, pos + 1)[0]
    assert p.st.statue_discard[p.st.g[STATUE_DISCARD_N] - 1] == lost
    assert p.squads_of(0) == [[a for a in p.plain(0, 70) if a != lost], list(p.plain(70, 73))]
