"""The sentences of ``revachol advise`` (:mod:`analysis.experiments.advise_page`): its
headline, the leads of its lists and tables, what the search tried for a card that
resists and what would free it, the edge, the side effects and restricted play."""

from __future__ import annotations

from analysis.report.html import count


FREES = {  # a guard that refused an edit (advise's search.csv, refused_by): what would let it through
    "length": "a wider length guard (--target turns=LO..HI; by default the mean turns stay within 5%)",
    "edge": "a first player's edge allowed to grow (--target edge=LO..HI with a range above the original's edge; by "
            "default the edge is a guard that may not grow)",
    "validation": "a colour allowed to fall short of its demand (no flag: edit the tasks that demand that colour "
                  "first)",
    "max edits": "a higher --max-edits",
    "new verdict": "an edit of the card that would get the new verdict as well (a compensating pair)",
}
"""What would free a card that resists, by the guard that refused its edits (``advise``)."""


def free_text(refused_by: list[str], ability: str, rule: str, abilities: bool = False, weaker: bool = False) -> str:
    """The sentence, with a leading space, on what would free a card that resists:
    each guard that refused it loosened (:data:`FREES`), and, when ``advise`` ran
    without ``abilities`` (``--abilities``), an ability: its own changed
    (``ability``: its name, ``rule``: its id, e.g. A9), or one given to it when it is
    ``weaker``; empty when there is nothing to say."""
    ways = [FREES[guard] for guard in dict.fromkeys(refused_by) if guard in FREES]
    if ability and not abilities:
        ways.append(f"a change of its ability, {ability} ({rule}): --abilities lets advise remove, move or swap it "
                    f"(or edit it by hand and check the change with revachol compare)")  # fmt: skip
    elif weaker and not abilities:
        ways.append("an ability given to it: --abilities lets advise move or swap one to it")
    return f" What would free it: {'; or '.join(ways)}." if ways else ""


NO_SIDE_EFFECT = ("Nothing moved significantly between the original and the proposal on the hold-out games "
                  "(Benjamini–Hochberg at 5% within each family).")  # fmt: skip


def side_effects_lead(n: int) -> str:
    """The sentence above the list of an advice's side effects (``advise``)."""
    return (f"{n} measure{'s' * (n != 1)} moved significantly from the original to the proposal on the same hold-out "
            f"games (paired, Benjamini–Hochberg at 5% within each family: game length and morale loss, each turn-order "
            f"position's win rate, each task's completion, each ally's holders' win rate), largest standardised effect "
            f"first; every one is in side_effects.csv.")  # fmt: skip


def skilled_allies_text(bot: str, before: int, after: int, games: int) -> str:
    """One sentence: the allies with a verdict under ``bot`` in every seat on the
    hold-out's first ``games`` games, in the original and in the proposal
    (``advise --skill-check``)."""
    return (f"With {bot} in every seat on the first {count(games)} of the same fresh games, {before} "
            f"all{'y' if before == 1 else 'ies'} had a verdict in the original and {after} in the proposal.")  # fmt: skip
