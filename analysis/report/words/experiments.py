"""The lines of the experiments that print a table with a sentence or two: the main
job (``revachol run``), ``card-value``, ``tune``, ``sweep`` and the skill ladder."""

from __future__ import annotations

from analysis.report.html import count
from sim.bots.speed import SKILLED_REFERENCE_BOT


def main_job_line(job) -> str:
    """What the main job played and where (:class:`analysis.experiments.main_job.MainJob`):
    ``100,000 games, and as many with every task paying alike in runs/NAME``."""
    each = " per player count" if len(job.runs) > 1 else ""
    also = ["with every task paying alike"] if job.points_blind else []
    if job.skilled:
        where = "" if len(job.skilled) == len(job.runs) else f" at {', '.join(map(str, job.skilled))} players"
        also.append(f"the first of them with {SKILLED_REFERENCE_BOT} in every seat{where}")
    blind = f", and as many {' and '.join(also)}" if also else ""
    home = job.runs[0] if len(job.runs) == 1 else job.runs[0].parent
    return f"{count(job.games)} games{each}{blind} in {home}"


def card_value_reference(name: str, ally_id: str, named: bool, cards: str, reference_deck: str | None) -> str:
    """The first line of ``revachol card-value``: the ally every value is measured
    against and why (:func:`analysis.experiments.card_value.nearest_plain_ally`), with
    how to value the other deck of a comparison against the same one. ``named``: given
    with ``--against``; ``cards``: the card file valued; ``reference_deck``: the other
    card file whose baseline joined in choosing it, if any."""
    if named:
        return f"reference: {name} (named with --against {ally_id})"
    if reference_deck is None or reference_deck == cards:
        return (f"reference: {name} (the plain ally nearest the average on {cards}); to compare with another deck, "
                f"value each with the other as --reference-deck: the ally nearest the average in both")
    return (f"reference: {name} (the plain ally nearest the average in both {cards} and {reference_deck}); value "
            f"{reference_deck} with --reference-deck {cards} to measure it against the same ally")
