"""An independent oracle for R6.1 with abilities (A1, A2, A8): a brute-force matcher in
plain Python, written apart from the engine's cover code (sim/rules/cover.py), against
the completions and borrows the engine offers in random hand-built positions.

The oracle lists every required symbol of the chosen tasks as a *unit* and every
symbol that may cover one as a *source*: the squad's own symbols, A2's second copy of
a symbol (another card's, or any card's with ``opt_double_any_symbol``), A8's extra
crowns (one per card, or one per squad with ``opt_one_special_crown_per_squad``),
which cover only units of Special Tasks, and borrowed symbols, one (lender ally,
symbol slot) each. It then tries every assignment of units to distinct sources by
backtracking, and every set of borrowed symbols by increasing size. Both directions
are checked: every completion it finds is offered with the fewest borrows, nothing
else is offered, and along a random sequence of borrow choices every offered
(borrower, lender) pair, and only those, can still end in a completion; the final
choice is feasible with exactly its named lenders.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass

import numpy as np
import pytest

from sim.decisions import C_BORROWER, C_BORROWS, C_FREE, C_LENDER, C_SQUAD, C_SUBSET
from sim.options import RuleOptions
from sim.rules.completion import borrow_options, completion_options
from sim.state import EMPTY
from tests.table import ALLIES, ALLY, TASKS, Table

pytestmark = pytest.mark.filterwarnings("ignore")

CROWN = "crown"
POSITIONS = 10_000


@dataclass(frozen=True)
class Source:
    """A symbol that may cover one unit: ``symbols`` it may stand for (a crown stands
    for any colour); ``special_only`` for A8's extra crown."""

    symbols: frozenset[str]
    special_only: bool = False

    def covers(self, colour: str, special: bool) -> bool:
        if self.special_only and not special:
            return False
        return CROWN in self.symbols or colour in self.symbols


def assignable(units: list[tuple[str, bool]], sources: list[Source]) -> bool:
    """Whether every unit (colour, of a Special Task) gets its own covering source:
    a bipartite matching found by augmenting paths (Kuhn)."""
    if len(units) > len(sources):
        return False
    owner: list[int | None] = [None] * len(sources)  # the unit each source covers

    def augment(u: int, seen: set[int]) -> bool:
        for j, source in enumerate(sources):
            if j not in seen and source.covers(*units[u]):
                seen.add(j)
                if owner[j] is None or augment(owner[j], seen):
                    owner[j] = u
                    return True
        return False

    return all(augment(u, set()) for u in range(len(units)))


@dataclass
class Position:
    squads: list[list[str]]  # seat 0's squads, ally ids
    lenders: list[str]  # allies in the other seats' squads
    row: list[str | None]
    double_any: bool
    one_special_crown: bool

    def units(self, subset: int) -> list[tuple[str, bool]]:
        units = []
        for pos, task in enumerate(self.row):
            if (subset >> pos) & 1:
                requires, _, special = TASKS[task]
                units += [(colour, special) for colour in requires]
        return units

    def free_sources(self, squad: list[str], subset: int) -> list[Source]:
        """The squad's own symbols, A2's doubled symbols and A8's extra crowns."""
        sources = [Source(frozenset([s])) for ally in squad for s in ALLIES[ally][0]]
        for k, ally in enumerate(squad):
            if ALLIES[ally][1] == "double":
                others = {s for j, other in enumerate(squad) if j != k or self.double_any for s in ALLIES[other][0]}
                if others:
                    sources.append(Source(frozenset(others)))
        if any(special for _, special in self.units(subset)):
            n_special = sum(ALLIES[ally][1] == "special_crown" for ally in squad)
            sources += [Source(frozenset([CROWN]), special_only=True)] * min(n_special, 1 if self.one_special_crown else n_special)
        return sources

    def lender_slots(self) -> list[tuple[str, int]]:
        return [(ally, slot) for ally in self.lenders for slot in range(len(ALLIES[ally][0]))]

    def feasible(self, squad: list[str], subset: int, named: list[str], more: int) -> bool:
        """Whether the squad completes ``subset`` when each of ``named`` lends one symbol
        (a different one each time an ally is named again) and at most ``more``
        further (ally, symbol) pairs are borrowed."""
        units, free = self.units(subset), self.free_sources(squad, subset)
        slot_choices = [range(len(ALLIES[ally][0])) for ally in named]
        for slots in itertools.product(*slot_choices):
            taken = list(zip(named, slots))
            if len(set(taken)) < len(taken):
                continue
            rest = [pair for pair in self.lender_slots() if pair not in taken]
            lent = [Source(frozenset([ALLIES[a][0][s]])) for a, s in taken]
            for k in range(more + 1):
                for extra in itertools.combinations(rest, k):
                    extra_sources = [Source(frozenset([ALLIES[a][0][s]])) for a, s in extra]
                    if assignable(units, free + lent + extra_sources):
                        return True
        return False

    def fewest_borrows(self, squad: list[str], subset: int) -> int | None:
        borrowers = sum(ALLIES[ally][1] == "borrow" for ally in squad)
        for k in range(borrowers + 1):
            if self.feasible(squad, subset, [], 0) if k == 0 else self._exactly(squad, subset, k):
                return k
        return None

    def _exactly(self, squad: list[str], subset: int, k: int) -> bool:
        units, free = self.units(subset), self.free_sources(squad, subset)
        for extra in itertools.combinations(self.lender_slots(), k):
            if assignable(units, free + [Source(frozenset([ALLIES[a][0][s]])) for a, s in extra]):
                return True
        return False


ABILITY_ALLIES = ["lena", "cuno", "jean", "klaasje", "trant", "measurehead", "titus", "ruby"]
PLAIN_ALLIES = [a for a, (_, ability, _) in ALLIES.items() if ability is None]
OTHER_ALLIES = [a for a in ALLIES if a not in ABILITY_ALLIES and a not in PLAIN_ALLIES]


def random_position(rng: np.random.Generator) -> Position:
    """Seat 0: one or two squads with abilities; seat 1 (and 2): lenders; three tasks."""
    allies = list(rng.permutation(ABILITY_ALLIES))
    plain = list(rng.permutation(PLAIN_ALLIES + OTHER_ALLIES))
    squads = []
    for _ in range(rng.integers(1, 3)):
        squad = [allies.pop() for _ in range(rng.integers(1, 5))] + [plain.pop() for _ in range(rng.integers(0, 3))]
        squads.append([str(a) for a in rng.permutation(squad)])
    lenders = [str(plain.pop()) for _ in range(rng.integers(0, 5))]
    tasks = [str(t) for t in rng.choice(list(TASKS), size=3, replace=False)]
    row = [None if rng.random() < 0.15 else t for t in tasks]
    return Position(squads, lenders, row, bool(rng.integers(2)), bool(rng.integers(2)))


@functools.cache
def _table(double_any: bool, one_special_crown: bool) -> Table:
    return Table(n_players=3, options=RuleOptions(double_any_symbol=double_any, one_special_crown_per_squad=one_special_crown))


def table_of(p: Position) -> Table:
    t = _table(p.double_any, p.one_special_crown).clear_squads().row(*p.row)
    for squad in p.squads:
        t.squad(0, *squad)
    half = len(p.lenders) // 2  # the lenders sit in two seats, one squad each
    for seat, group in ((1, p.lenders[:half]), (2, p.lenders[half:])):
        if group:
            t.squad(seat, *group)
    return t


def check_position(p: Position, rng: np.random.Generator) -> int:
    """Compare the engine with the oracle on one position; return the borrow rows checked."""
    t = table_of(p)
    n = completion_options(t.ref, t.deck, 0)
    offered = {(int(r[C_SQUAD]), int(r[C_SUBSET])): (int(r[C_FREE]), int(r[C_BORROWS])) for r in t.st.options[1:n]}
    assert len(offered) == n - 1, "one row per (squad, subset)"
    expected = {}
    for s, squad in enumerate(p.squads):
        for subset in range(1, 8):
            if any(p.row[pos] is None for pos in range(3) if (subset >> pos) & 1):
                continue
            k = p.fewest_borrows(squad, subset)
            if k is not None:
                expected[(s, subset)] = k
    assert {key: k for key, (_, k) in offered.items()} == expected, p
    checked = 0
    for (s, subset), (_, k) in offered.items():
        if k > 0:
            checked += walk_borrows(t, p, s, subset, k, rng)
    return checked


def walk_borrows(t: Table, p: Position, s: int, subset: int, k: int, rng: np.random.Generator) -> int:
    """Follow one random sequence of borrow choices; at each step the offered pairs are
    exactly those after which the oracle still completes ``subset`` with the borrows left."""
    squad = p.squads[s]
    chosen: list[tuple[str, str]] = []
    checked = 0
    for b in range(k):
        for i, (borrower, lender) in enumerate(chosen):
            t.st.borrows[i] = ALLY[borrower], ALLY[lender]
        n = borrow_options(t.ref, t.deck, 0, s, subset, b, k - b)
        rows = [(name(r[C_BORROWER]), name(r[C_LENDER])) for r in t.st.options[:n]]
        named = [lender for _, lender in chosen]
        borrowers = [a for a in squad if ALLIES[a][1] == "borrow" and a not in {x for x, _ in chosen}]
        lenders = [
            lender
            for lender in p.lenders
            if named.count(lender) < len(ALLIES[lender][0]) and p.feasible(squad, subset, named + [lender], k - b - 1)
        ]  # the borrower's identity changes no symbol: its own crown is in the squad either way
        expected = [(borrower, lender) for borrower in borrowers for lender in lenders]
        assert sorted(rows) == sorted(expected), (p, s, subset, chosen)
        chosen.append(rows[rng.integers(len(rows))])
        checked += len(rows)
    assert p.feasible(squad, subset, [lender for _, lender in chosen], 0)  # exactly the named lenders
    return checked


def name(index: int) -> str:
    assert index != EMPTY
    return list(ALLY)[index]


@pytest.mark.slow
def test_r6_1_oracle_completions_and_borrows_agree_with_brute_force_on_random_positions():
    rng = np.random.default_rng(13)
    borrow_rows = 0
    for _ in range(POSITIONS):
        borrow_rows += check_position(random_position(rng), rng)
    assert borrow_rows > 10_000, "the positions exercise A1"
