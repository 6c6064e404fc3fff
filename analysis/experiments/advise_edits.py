"""The edits ``revachol advise`` may propose, one card and one field at a time.

A designer's edits, and only those (issue 36, item 2):

==============  =========  ==========================================================
card            field      edit
==============  =========  ==========================================================
ally (R1.2)     symbols    add, remove or recolour one symbol (a crown is a symbol:
                           recolouring one to or from a White Crown moves a crown)
task (R1.4)     points     ±1 or ±2 points
task (R1.4)     requires   one required symbol added, removed or recoloured
morale (R1.3)   save       one step easier or harder (R8 Reading's forms, by
                           probability: ``[a, a]`` 1/36 < ``[a, b]`` 2/36 <
                           ``any_double`` 6/36 < ``{one_face: a}`` 11/36)
ally (R1.2)     symbols    a stronger ally's symbol that could not be removed (its
                           colour would fall short of demand) moved to one of the
                           weakest allies with one symbol: two allies' ``symbols``
                           (:func:`candidate_edits`)
ally (A1-A9)    ability    with ``abilities`` (``--abilities``) only: removed, moved
                           to an ally that has none, or swapped with another
                           ally's (:func:`candidate_edits`)
==============  =========  ==========================================================

Ally points, ``special``, penalties, card counts and ids are never edited, nor
abilities without ``abilities``. A field is left alone when it is locked (``--lock CARD.FIELD``, or named in
the card's ``locked:`` list), with ``only_estimated`` when the card does not
list it under ``estimated:`` (a printed value, RULES R1 Reading), and with ``only``
(``--only CARD``) when its card is not one of those named. An ability moved or
swapped, or a symbol moved, edits two allies' fields: both must be editable.

Each edit has a direction, from the verdict it answers: a stronger ally loses
strength (a symbol removed, or recoloured towards the colour tasks need least), a
weaker one gains it (a symbol added, or recoloured to a crown or the colour tasks
need most); a task that overpays pays less or asks more, one that underpays pays
more or asks less. Colours are ranked by supply over demand (``revachol
validate``'s table, :func:`sim.deck_summary.summarise`).

Every candidate deck is the card file's text with the changed values replaced in
place (:func:`sim.cards.with_values`, comments kept; an ability removed loses its
line, one given gets a line of its own) and validated as ``revachol
validate`` does (:func:`sim.cards.parse_deck`), and no colour may fall short of its
demand that was not short before (:func:`sim.deck_summary.short_colours`).
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from sim.cards import Deck, DeckError, parse_deck, unknown_id, with_values
from sim.deck_summary import short_colours, summarise

EDITABLE = {"allies": ("symbols",), "tasks": ("points", "requires"), "morale": ("save",)}
KIND = {"allies": "ally", "tasks": "task", "morale": "morale card"}
WEAKEN, STRENGTHEN = -1, +1  # an ally's direction; a task's: -1 pays less or asks more, +1 the reverse
MAX_REQUIRES = 4  # R1.4
FACES = range(1, 7)
PARTNERS = 2  # an ability is moved to or swapped with this many allies at most: the weakest, or the strongest

Key = tuple[str, int, str]  # (section, index, field) of a value in the deck file


@dataclass(frozen=True)
class Lock:
    """``CARD.FIELD``: a field ``advise`` must not edit."""

    card: str
    field: str

    @classmethod
    def parse(cls, text: str, deck: Deck, file: str = "cards.yaml") -> Lock:
        """Parse ``CARD.FIELD`` against ``deck``.

        Raises
        ------
        ValueError
            One line naming the lock and what would be valid: not ``CARD.FIELD``, an
            unknown card id, or a field the card does not have.
        """
        match = re.fullmatch(r"([a-z0-9_]+)\.([a-z_]+)", text.strip())
        if not match:
            raise ValueError(f"--lock {text!r}: write CARD.FIELD, e.g. evrart_claire.symbols")
        cards = {card.id: card for section in KIND for card in getattr(deck, section)}
        if match[1] not in cards:
            raise ValueError(f"--lock {text!r}: {unknown_id('card', match[1], list(cards), file)}")
        fields = sorted(set(type(cards[match[1]]).model_fields) - {"id", "estimated", "locked"})
        if match[2] not in fields:
            raise ValueError(f"--lock {text!r}: {match[2]!r} is not a field of {match[1]}; valid: {', '.join(fields)}")
        return cls(match[1], match[2])


def only_cards(ids: Iterable[str], deck: Deck, file: str = "cards.yaml") -> set[str] | None:
    """The card ids of ``--only CARD`` (repeated), checked against ``deck``; None when
    none is given (every card may be edited).

    Raises
    ------
    ValueError
        One line naming the first id that is no card of ``deck`` (ally, task or morale
        card), the closest ids, and every valid id.
    """
    ids = list(ids)
    if not ids:
        return None
    valid = [card.id for section in KIND for card in getattr(deck, section)]
    for card in ids:
        if card not in valid:
            close = difflib.get_close_matches(card, valid, n=3, cutoff=0.6)
            hint = f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""
            raise ValueError(f"--only {card!r}: not a card id of {file}{hint}; valid: {', '.join(valid)}")
    return set(ids)


def editable(deck: Deck, locks: Iterable[Lock] = (), only_estimated: bool = False,
             only: set[str] | None = None, abilities: bool = False) -> set[Key]:  # fmt: skip
    """The values ``advise`` may edit (module docstring): ``(section, index, field)``;
    with ``only`` (card ids, :func:`only_cards`), those of these cards alone; with
    ``abilities`` (``--abilities``), the allies' ``ability`` too (A1-A9)."""
    locked = {(lock.card, lock.field) for lock in locks}
    out = set()
    for section, fields in (EDITABLE | {"allies": (*EDITABLE["allies"], "ability")} if abilities else EDITABLE).items():
        for index, card in enumerate(getattr(deck, section)):
            if only is not None and card.id not in only:
                continue
            for field in fields:
                if field in card.locked or (card.id, field) in locked:
                    continue
                if only_estimated and field not in card.estimated:
                    continue
                out.add((section, index, field))
    return out


def colour_ranking(deck: Deck) -> list[str]:
    """The six colours, the one tasks need most first: by supply / demand (ally
    symbols over task symbols), then by demand, largest first."""
    colours = summarise(deck).colours
    return [c.colour for c in sorted(colours, key=lambda c: (c.supply / c.demand if c.demand else float("inf"),
                                                             -c.demand))]  # fmt: skip


def _ally_values(symbols: list[str], direction: int, ranking: list[str]) -> list[list[str]]:
    """New ``symbols`` one edit away, in ``direction`` (module docstring): weaker, a
    symbol removed (two symbols) or the one symbol recoloured to the colour tasks need
    least (or a crown to a colour); stronger, a symbol added, of the colour tasks need
    most or a crown (one symbol), or the most plentiful symbol recoloured to either."""
    needed, spare = ranking[0], ranking[-1]
    if direction == WEAKEN:
        if len(symbols) == 2:
            return [[symbols[1]], [symbols[0]]]
        return [[spare if symbols[0] != spare else ranking[-2]]]
    if len(symbols) == 1:
        return [[*symbols, needed], [*symbols, "crown"]]
    order = sorted(range(2), key=lambda i: ranking.index(symbols[i]) if symbols[i] in ranking else -1)
    i = order[-1]  # the symbol tasks need least (a crown is kept)
    return [[*symbols[:i], new, *symbols[i + 1:]] for new in ("crown", needed if symbols[i] != needed else ranking[1])]


def _requires_values(requires: list[str], direction: int, ranking: list[str], slack: set[str]) -> list[list[str]]:
    """New ``requires`` one edit away: asking more (``direction`` −1: a symbol of the
    colour tasks need most among those with supply to spare added, or the plentiful
    one recoloured to it) or less (+1: the scarcest removed, or recoloured to the most
    plentiful colour)."""
    ordered = sorted(requires, key=ranking.index)  # scarcest first
    out = []
    if direction < 0:
        scarce = next((c for c in ranking if c in slack), None)
        if scarce is not None:
            if len(requires) < MAX_REQUIRES:
                out.append([*requires, scarce])
            if ordered[-1] != scarce:
                out.append([scarce if i == requires.index(ordered[-1]) else r for i, r in enumerate(requires)])
    else:
        if len(requires) > 1:
            out.append([r for i, r in enumerate(requires) if i != requires.index(ordered[0])])
        if ordered[0] != ranking[-1]:
            out.append([ranking[-1] if i == requires.index(ordered[0]) else r for i, r in enumerate(requires)])
    return out


def _save_values(save: Any, direction: int) -> list[Any]:
    """The save one step easier (+1) or harder (−1) on the ladder of forms (module docstring)."""
    if save == "any_double":
        return [{"one_face": 6}] if direction > 0 else [[6, 5]]
    if isinstance(save, dict):  # {one_face: a}, the easiest form
        return [] if direction > 0 else ["any_double"]
    a, b = save
    if a == b:
        return [[a, a % 6 + 1]] if direction > 0 else []
    return ["any_double"] if direction > 0 else [[a, a]]


def candidate_values(deck: Deck, key: Key, direction: int) -> list[Any]:
    """The new values of one field one edit away from ``deck``'s, in ``direction``
    (YAML forms, duplicates and the unchanged value removed)."""
    section, index, field = key
    raw = deck.to_yaml_data()[section][index]
    ranking = colour_ranking(deck)
    if field == "symbols":
        values = _ally_values(raw["symbols"], direction, ranking)
    elif field == "points":
        values = [raw["points"] + direction * step for step in (1, 2) if raw["points"] + direction * step >= 0]
    elif field == "requires":
        slack = {c.colour for c in summarise(deck).colours if c.supply > c.demand}
        values = _requires_values(raw["requires"], direction, ranking, slack)
    else:
        values = _save_values(raw["save"], direction)
    unique = []
    for value in values:
        if value != raw[field] and value not in unique:
            unique.append(value)
    return unique


def candidate_edits(deck: Deck, key: Key, direction: int, allowed: set[Key],
                    effects: Iterable[float]) -> list[dict[Key, Any]]:  # fmt: skip
    """The edits one step away from ``deck`` of one field in ``direction``, each the
    values it sets (``{key: value}``, or two allies' ``ability`` for a move or a swap).

    An ally's ``ability`` (A1-A9; ``effects``: each ally's effect against the average
    ally, pp, to rank them): a stronger ally (``direction`` −1) loses it, or moves it
    to (swaps it with) one of the :data:`PARTNERS` weakest allies; a weaker one (+1)
    takes the ability of one of the :data:`PARTNERS` strongest allies that have one,
    giving its own (if any) in exchange. Only partners whose ``ability`` is in
    ``allowed`` (:func:`editable`) and whose ability differs. Any other field:
    :func:`candidate_values`.
    """
    if key[2] == "symbols" and direction == WEAKEN:
        moves = _symbol_moves(deck, key, allowed, list(effects))
        return [{key: value} for value in candidate_values(deck, key, direction)] + moves
    if key[2] != "ability":
        return [{key: value} for value in candidate_values(deck, key, direction)]
    index, own = key[1], deck.allies[key[1]].ability
    if direction == WEAKEN and own is None:
        return []
    effect = list(effects)
    order = sorted((i for i, ally in enumerate(deck.allies) if i != index and ally.ability != own
                    and ("allies", i, "ability") in allowed), key=lambda i: effect[i])  # weakest first; fmt: skip
    if direction == WEAKEN:
        partners, edits = order[:PARTNERS], [{key: None}]
    else:
        partners, edits = [i for i in reversed(order) if deck.allies[i].ability][:PARTNERS], []
    return edits + [{key: deck.allies[i].ability, ("allies", i, "ability"): own} for i in partners]


def _symbol_moves(deck: Deck, key: Key, allowed: set[Key], effect: list[float]) -> list[dict[Key, Any]]:
    """A stronger ally's symbol whose removal would leave its colour short of demand
    (:func:`sim.deck_summary.short_colours` with one symbol less; every colour of the default
    deck has one symbol to spare, so a second removal of a colour is refused), moved to
    one of the :data:`PARTNERS` weakest allies (by ``effect``, pp) that hold one symbol
    and whose ``symbols`` are in ``allowed``: the colour's supply is kept (R1.2: an ally
    holds at most two symbols)."""
    data, index = deck.to_yaml_data()["allies"], key[1]
    symbols = data[index]["symbols"]
    if len(symbols) != 2:
        return []
    balance = {c.colour: c for c in summarise(deck).colours}  # a crown is no colour: removing one leaves none short
    tight = [s for s in dict.fromkeys(symbols)
             if s in balance and short_colours([replace(balance[s], supply=balance[s].supply - 1)])]
    partners = sorted((i for i, ally in enumerate(data) if i != index and len(ally["symbols"]) == 1
                       and ("allies", i, "symbols") in allowed), key=lambda i: effect[i])[:PARTNERS]  # fmt: skip
    edits = []
    for moved in tight:
        rest = list(symbols)
        rest.remove(moved)
        edits += [{key: rest, ("allies", i, "symbols"): [*data[i]["symbols"], moved]} for i in partners]
    return edits


@dataclass(frozen=True)
class Limits:
    """What no candidate deck may do that the original does not: leave a colour short
    of its demand (``revachol validate``'s table, :func:`sim.deck_summary.short_colours`),
    or give an ability (A1-A9) to more allies than hold it in the original. A
    designer's ability edits remove, move or swap one and never copy it, but two moves
    from one ally, each screened on a deck where it still held the ability, would."""

    short: frozenset[str] = frozenset()
    abilities: tuple[tuple[str, int], ...] = ()

    @classmethod
    def of(cls, deck: Deck) -> Limits:
        """The limits set by ``deck``, the original."""
        return cls(_short(deck), tuple(sorted(_abilities(deck).items())))

    def kept_by(self, deck: Deck) -> bool:
        """Whether ``deck`` keeps within the limits."""
        most = dict(self.abilities)
        return _short(deck) <= self.short and all(n <= most.get(a, 0) for a, n in _abilities(deck).items())


def _short(deck: Deck) -> frozenset[str]:
    return frozenset(c.colour for c in short_colours(summarise(deck).colours))


def _abilities(deck: Deck) -> Counter:
    return Counter(str(ally.ability) for ally in deck.allies if ally.ability is not None)


def check(text: str, file: str, limits: Limits) -> Deck | None:
    """The candidate deck if it validates as ``revachol validate`` does and keeps
    within the original's ``limits`` (else None)."""
    try:
        deck = parse_deck(text, file)
    except DeckError:
        return None
    return deck if limits.kept_by(deck) else None


@dataclass(frozen=True)
class Change:
    """One edited field of one card: ``old`` and ``new`` as YAML data; for an ability
    moved or swapped, the other ally's ``partner`` (name) and ``partner_index``."""

    section: str
    index: int
    card: str
    name: str
    field: str
    old: Any
    new: Any
    partner: str = ""
    partner_index: int | None = None

    @property
    def key(self) -> Key:
        return self.section, self.index, self.field

    @property
    def keys(self) -> list[Key]:
        """The fields of this edit: its own, and its partner's for an ability moved or swapped."""
        return [self.key] + ([(self.section, self.partner_index, self.field)] if self.partner else [])

    @property
    def symbol_lost(self) -> str | None:
        """The one symbol this edit takes from the card when that is all it changes (the
        giver of a symbol moved, R1.2), else None."""
        return one_symbol(self.new, self.old)

    @property
    def symbol_gained(self) -> str | None:
        """The one symbol this edit gives the card when that is all it changes (the
        taker of a symbol moved), else None."""
        return one_symbol(self.old, self.new)


def tidy(original: Deck, values: dict[Key, Any]) -> dict[Key, Any]:
    """``values`` without the fields that leave the ``original``'s value as it is: the
    same value, or the same symbols in another order (a symbol moved away and back
    by two edits). An ally's symbols and a task's requirement are multisets (R1.2,
    R1.4): their order plays no part."""
    data = original.to_yaml_data()
    return {key: value for key, value in values.items() if not _same(data[key[0]][key[1]].get(key[2]), value)}


def _same(old: Any, new: Any) -> bool:
    if isinstance(old, list) and isinstance(new, list):
        return Counter(map(str, old)) == Counter(map(str, new))
    return old == new


def changes(original: Deck, values: dict[Key, Any]) -> list[Change]:
    """The edits of a proposal, one per changed field (:func:`tidy`'s), in the deck's order. Two
    allies' ``ability`` changes that mirror each other (one's old is the other's new,
    and back) are an ability moved or swapped, and an ally that lost one symbol and
    another that gained that colour (nothing else changed) a symbol moved: each names
    the other as its partner."""
    data = original.to_yaml_data()
    out = []
    for section, index, field in sorted(values, key=lambda k: (list(KIND).index(k[0]), k[1], k[2])):
        card = getattr(original, section)[index]
        old = data[section][index].get(field)
        if not _same(old, values[(section, index, field)]):
            out.append(Change(section, index, card.id, card.name, field, old, values[(section, index, field)]))
    single = [i for i, change in enumerate(out) if change.field == "ability"]
    while single:
        i = single.pop(0)
        j = next((j for j in single if (out[j].old, out[j].new) == (out[i].new, out[i].old)), None)
        if j is not None:
            single.remove(j)
            out[i], out[j] = _partners(out[i], out[j])
    symbols = [i for i, change in enumerate(out) if change.field == "symbols"]
    lost = {i: one_symbol(out[i].new, out[i].old) for i in symbols}
    gained = {j: one_symbol(out[j].old, out[j].new) for j in symbols}
    for i, moved in lost.items():
        j = next((j for j, taken in gained.items() if moved and taken == moved), None)
        if j is not None:
            del gained[j]
            out[i], out[j] = _partners(out[i], out[j])
    return out


def kept_whole(edits: list[Change], keys: Iterable[Key]) -> set[Key]:
    """``keys`` (edited fields) with every field that must go with them for the deck
    to stay valid: a partner's (a move or a swap, :attr:`Change.keys`) and every
    ability change linked to one of them by an ability that one gives up and another
    takes (a chain: Kim Kitsuragi's A5 to Evrart Claire, Evrart's A9 to Smoker on the
    balcony; a mirrored pair is whole by itself), since a part of a chain alone would
    hold an ability on two allies (:class:`Limits`)."""
    asked = set(keys)
    whole = {key for change in edits if change.key in asked for key in change.keys}
    chained = [change for change in edits if change.field == "ability" and not change.partner]  # a pair is whole
    grew = True
    while grew:
        held = {a for change in chained if change.key in whole for a in (change.old, change.new) if a}
        more = {change.key for change in chained if change.key not in whole and {change.old, change.new} & held}
        grew = bool(more)
        whole |= more
    return whole


def edit_count(edits: list[Change]) -> int:
    """How many edits a designer makes in ``edits`` (changed fields, :func:`changes`):
    a move or a swap (two fields that name each other as partners) is one edit; the
    unpaired ability changes count one per ability they move, remove or give (a chain:
    Kim Kitsuragi's A5 to Evrart Claire and Evrart's A9 to Smoker on the balcony, three
    fields, is two edits); every other changed field is one. The count that
    ``--max-edits``, the short list and the page's headline use (issue 48)."""
    paired = sum(bool(change.partner) for change in edits) // 2
    moved = {a for change in edits if change.field == "ability" and not change.partner for a in (change.old, change.new) if a}
    return paired + len(moved) + sum(not change.partner and change.field != "ability" for change in edits)


def shorter_proposals(edits: list[Change], order: Iterable[Key], sizes: Iterable[int]) -> dict[int, set[Key]]:
    """The short list's proposals (``advise --short-list``): for each size K below the
    proposal's own :func:`edit_count`, the fields of the best-ranked edits that fit in K
    edits, taken in ``order`` (the search's rank of the fields), each with the fields
    :func:`kept_whole` keeps with it, and passed over when they would not fit. By their
    edit count (a size met by no proposal, or by the same one as a smaller size, gives
    none)."""
    ranked = list(order)
    total = edit_count(edits)
    out: dict[int, set[Key]] = {}
    for k in sorted({k for k in sizes if 0 < k < total}):
        taken: set[Key] = set()
        for key in ranked:
            grown = taken | kept_whole(edits, [key])
            if edit_count([change for change in edits if change.key in grown]) <= k:
                taken = grown
        count = edit_count([change for change in edits if change.key in taken])
        if taken and count not in out and taken not in out.values():
            out[count] = taken
    return out


def _partners(a: Change, b: Change) -> tuple[Change, Change]:
    return (replace(a, partner=b.name, partner_index=b.index), replace(b, partner=a.name, partner_index=a.index))


def one_symbol(before: Any, after: Any) -> str | None:
    """The one symbol ``after`` adds to ``before`` (both ally ``symbols``) when that is
    all that changed, else None."""
    if not (isinstance(before, list) and isinstance(after, list)):
        return None
    added, removed = Counter(after) - Counter(before), Counter(before) - Counter(after)
    return next(iter(added)) if sum(added.values()) == 1 and not removed else None


def apply(text: str, values: dict[Key, Any], file: str) -> str:
    """The card file's text with ``values`` in place (comments kept)."""
    return with_values(text, values, file) if values else text

