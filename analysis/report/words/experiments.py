"""The lines of the experiments that print a table with a sentence or two: the main
job (``revachol run``), ``card-value``, ``tune``, ``sweep`` and the skill ladder."""

from __future__ import annotations

from analysis.report.html import count
from analysis.report.words.common import settled_summary
from analysis.report.words.report import report_line
from sim.bots.speed import SKILLED_REFERENCE_BOT


def main_job_lines(job) -> list[str]:
    """What the main job played and where (:class:`analysis.experiments.main_job.MainJob`):
    ``100,000 games, and as many with every task paying alike in runs/NAME``, after
    where a run played until settled stopped (:func:`.common.settled_summary`)."""
    each = " per player count" if len(job.runs) > 1 else ""
    also = ["with every task paying alike"] if job.points_blind else []
    if job.skilled:
        where = "" if len(job.skilled) == len(job.runs) else f" at {', '.join(map(str, job.skilled))} players"
        also.append(f"the first of them with {SKILLED_REFERENCE_BOT} in every seat{where}")
    blind = f", and as many {' and '.join(also)}" if also else ""
    home = job.runs[0] if len(job.runs) == 1 else job.runs[0].parent
    settled = [settled_summary(job.stopping)] if job.stopping is not None else []
    return [*settled, f"{count(job.games)} games{each}{blind} in {home}"]


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


def card_value_title(bot: str, others: str, reference: str) -> str:
    """The title of ``revachol card-value``'s table: seat 0's ``bot`` (among ``others``
    when the other seats play another bot) against the ``reference`` ally."""
    among = f" among {others} bots" if others != bot else ""
    return f"Value of each ally to seat 0's {bot} bot{among} against {reference}"


def card_value_note(reference: str, written) -> str:
    """What each of ``revachol card-value``'s values means, and the file ``written``."""
    return (f"value vs reference: seat 0's win rate when it may not play {reference} minus when it may not play the "
            f"ally (pp; positive = worth more than that plain ally); value vs no restriction: win rate with every "
            f"ally allowed minus without the ally; per held game: that value per game in which seat 0 held the ally. "
            f"Written to {written}")  # fmt: skip


# --- revachol tune (analysis.experiments.tune) -------------------------------------------------------------------

TUNE_NO_CHANGE = "The original values are already the best found: no change proposed."
TUNE_TARGETS = ("Targets: the metric each deck reaches (in-sample figures flatter the proposal; the hold-out ones are "
                "the measure)")  # fmt: skip


def tune_proposal_line(values: dict, miss_original: float, miss: float, evaluations: int, seed: int) -> str:
    """The proposal's ``values`` (``card.field``: value) and its in-sample miss, before
    and after, over the ``evaluations`` on the search ``seed``."""
    shown = ", ".join(f"{k} = {v}" for k, v in values.items())
    return (f"proposal: {shown}; in-sample miss {miss_original:.2f} -> {miss:.2f} CI half-widths over {evaluations} "
            f"candidates on the search seed {seed}")  # fmt: skip


def tune_holdout_name(seed: int) -> str:
    """The proposal as the line of its moved changes names it (:func:`analysis.report.words.compare.moved_lead`)."""
    return f"the proposal on the hold-out seed {seed}"


def tune_holdout_note(cards, proposal, games: int, fresh: int, seed: int) -> str:
    """The note on the hold-out comparison's page: which decks played which games."""
    return (f"Hold-out comparison: the original ({cards}) and the proposal ({proposal}) played {games:,} fresh games "
            f"on seed {fresh}, not the search seed {seed} the proposal was chosen on.")  # fmt: skip


def tune_written_line(proposal, page) -> str:
    """The last line of ``revachol tune``: the proposal written and its hold-out comparison's page."""
    return f"written: {proposal}; measured effect (hold-out): {page}"


# --- revachol sweep (analysis.experiments.sweep) -----------------------------------------------------------------

SWEEP_DIFFERENCES = "Paired difference between neighbouring values (same games)"


def sweep_title(card: str, field: str) -> str:
    """The title of ``revachol sweep``'s table of values."""
    return f"Sweep of {card}.{field}: each value with its 95% CI (n counts what n of says)"


# --- revachol skill (analysis.experiments.ladder) ----------------------------------------------------------------

LADDER_TITLE = "Skill ladder: the stronger bot's win rate in one seat against the weaker in the others"
TRACE_TITLE = "Skill trace: the bot at each budget against itself at half of it"


def flattens_line(flat: int, threshold_pp: float) -> str:
    """Where the skill trace's gain flattens (``flat``, 0 when every budget pays)."""
    if flat:
        return (f"the gain flattens at budget {flat}: doubling it there or beyond gains less than {threshold_pp:g} pp "
                f"or nothing significant")  # fmt: skip
    return "every budget still pays: try larger budgets"


def ladder_lines(target, report) -> tuple[str, str]:
    """The last lines of ``revachol skill``: where the runs and the report are."""
    return f"runs in {target}", report_line(report)
