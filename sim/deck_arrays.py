"""A validated deck compiled to the numpy arrays the engine reads (RULES R1).

Index maps
----------
* Ally ``i`` (0 <= i < n_allies) is ``deck.allies[i]``; task ``t`` is
  ``deck.tasks[t]``; morale card ``m`` is ``deck.morale[m]``.
* Cards of the statue deck (R3.3) share one index space, the *statue index*:
  ally ``i`` is ``i`` and morale card ``m`` is ``n_allies + m``.
* Symbols are :class:`sim.cards.Symbol` codes: colours 0-5, crown 6.
  ``NO_SYMBOL`` (-1) pads an ally's second symbol slot.

Every array is read-only in spirit: the engine never writes to them, so one
``DeckArrays`` serves any number of games.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np
from numba import types
from numba.experimental import structref

from sim._numba import View
from sim.cards import N_COLOURS, N_SYMBOLS, Ability, Deck, Penalty, SaveKind, Symbol

NO_SYMBOL = -1


class DeckArrays(NamedTuple):
    """The deck as arrays; ``A``, ``T``, ``M`` are the ally, task and morale counts.

    Attributes
    ----------
    ally_symbols : int8 (A, 2)
        Symbol codes of each ally; ``NO_SYMBOL`` when it has one symbol.
    ally_symbol_counts : int8 (A, 7)
        How many of each symbol an ally shows (R6.1 counts symbols, not cards).
    ally_points : int32 (A,)
        Victory points scored by a player who receives the ally face down (R9.2).
    ally_ability : int8 (A,)
        :class:`sim.cards.Ability` value, 0 for none.
    task_needs : int8 (T, 6)
        Symbols of each colour a task requires (R1.4).
    task_points : int32 (T,)
        Reward points (R6.3, R9.2).
    task_special : bool (T,)
        Special Task (A8).
    morale_save_kind : int8 (M,)
        :class:`sim.cards.SaveKind` value.
    morale_faces : int8 (M, 2)
        The faces of the requirement; unused slots are 0.
    morale_penalty : int8 (M,)
        :class:`sim.cards.Penalty` value (R8.3).
    morale_save_probability : float64 (M,)
        Exact probability of a save on two fair dice (R8 Reading).
    """

    ally_symbols: np.ndarray
    ally_symbol_counts: np.ndarray
    ally_points: np.ndarray
    ally_ability: np.ndarray
    task_needs: np.ndarray
    task_points: np.ndarray
    task_special: np.ndarray
    morale_save_kind: np.ndarray
    morale_faces: np.ndarray
    morale_penalty: np.ndarray
    morale_save_probability: np.ndarray

    def kernel_ref(self) -> View | DeckArrays:
        """The handle that kernels take: a view of these arrays (:mod:`sim._numba`);
        the arrays themselves when ``NUMBA_DISABLE_JIT=1``."""
        return self if numba.config.DISABLE_JIT else View(DeckType, self)

    @property
    def n_allies(self) -> int:
        return self.ally_points.shape[0]

    @property
    def n_tasks(self) -> int:
        return self.task_points.shape[0]

    @property
    def n_morale(self) -> int:
        return self.morale_penalty.shape[0]


def compile_deck(deck: Deck) -> DeckArrays:
    """Compile a validated :class:`sim.cards.Deck` into :class:`DeckArrays`."""
    n_allies, n_tasks, n_morale = len(deck.allies), len(deck.tasks), len(deck.morale)
    ally_symbols = np.full((n_allies, 2), NO_SYMBOL, dtype=np.int8)
    ally_symbol_counts = np.zeros((n_allies, N_SYMBOLS), dtype=np.int8)
    for i, ally in enumerate(deck.allies):
        for slot, name in enumerate(ally.symbols):
            code = Symbol[name.upper()]
            ally_symbols[i, slot] = code
            ally_symbol_counts[i, code] += 1
    task_needs = np.zeros((n_tasks, N_COLOURS), dtype=np.int8)
    for t, task in enumerate(deck.tasks):
        for name in task.requires:
            task_needs[t, Symbol[name.upper()]] += 1
    morale_faces = np.zeros((n_morale, 2), dtype=np.int8)
    for m, card in enumerate(deck.morale):
        morale_faces[m, : len(card.save.faces)] = card.save.faces
    return DeckArrays(
        ally_symbols=ally_symbols,
        ally_symbol_counts=ally_symbol_counts,
        ally_points=np.array([a.points for a in deck.allies], dtype=np.int32),
        ally_ability=np.array(
            [Ability[a.ability.upper()] if a.ability else Ability.NONE for a in deck.allies], dtype=np.int8
        ),
        task_needs=task_needs,
        task_points=np.array([t.points for t in deck.tasks], dtype=np.int32),
        task_special=np.array([t.special for t in deck.tasks], dtype=np.bool_),
        morale_save_kind=np.array([SaveKind(c.save.kind) for c in deck.morale], dtype=np.int8),
        morale_faces=morale_faces,
        morale_penalty=np.array([Penalty[c.penalty.upper()] for c in deck.morale], dtype=np.int8),
        morale_save_probability=np.array([float(c.save.probability) for c in deck.morale], dtype=np.float64),
    )


@structref.register
class DeckType(types.StructRef):
    """Numba type of a StructRef over a :class:`DeckArrays`' arrays: the layout of
    :meth:`DeckArrays.kernel_ref`'s view (:class:`sim._numba.View`)."""
