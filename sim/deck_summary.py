"""What a designer checks first about a deck: counts, symbol supply and demand,
abilities present and estimated values (the summary of ``revachol validate``)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from sim.cards import Ability, Deck, Symbol


@dataclass(frozen=True)
class ColourBalance:
    """Symbol supply (ally symbols, in symbols) against demand (task requirements)."""

    colour: str
    supply: int
    demand: int

    @property
    def ratio(self) -> float | None:
        return self.supply / self.demand if self.demand else None


@dataclass(frozen=True)
class DeckSummary:
    """The validate summary of one deck.

    ``estimated`` maps ``"<section>.<field>"`` to the number of cards that mark that
    field as an estimate (RULES R1 Reading).
    """

    counts: dict[str, int]
    colours: list[ColourBalance]
    crowns: int
    abilities: dict[str, list[str]]
    special_tasks: int
    estimated: dict[str, int]
    warnings: list[str]
    content_hash: str


def short_colours(colours: list[ColourBalance]) -> list[ColourBalance]:
    """The colours whose ally supply is below task demand (symbols)."""
    return [c for c in colours if c.supply < c.demand]


def summarise(deck: Deck) -> DeckSummary:
    """Summarise a validated deck (counts in cards, supply and demand in symbols)."""
    supply = Counter(s for ally in deck.allies for s in ally.symbols)
    demand = Counter(s for task in deck.tasks for s in task.requires)
    colours = [
        ColourBalance(sym.name.lower(), supply[sym.name.lower()], demand[sym.name.lower()])
        for sym in Symbol
        if sym is not Symbol.CROWN
    ]
    abilities: dict[str, list[str]] = {}
    for ally in deck.allies:
        if ally.ability:
            key = f"A{Ability[ally.ability.upper()].value} {ally.ability}"
            abilities.setdefault(key, []).append(ally.name)
    estimated = Counter(
        f"{section}.{name}" for section in ("allies", "tasks", "morale") for card in getattr(deck, section)
        for name in card.estimated
    )
    return DeckSummary(
        counts={s: len(getattr(deck, s)) for s in ("allies", "tasks", "morale")},
        colours=colours,
        crowns=supply["crown"],
        abilities=dict(sorted(abilities.items())),
        special_tasks=sum(t.special for t in deck.tasks),
        estimated=dict(sorted(estimated.items())),
        warnings=[*deck.count_warnings(), *(f"{c.colour}: {c.supply} ally symbols supply less than the {c.demand} "
                                           f"that tasks demand; allowed (crowns stand in, R6.1), but check it is "
                                           f"intended" for c in short_colours(colours))],
        content_hash=deck.content_hash,
    )
