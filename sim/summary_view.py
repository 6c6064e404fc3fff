"""Rich rendering of a :class:`sim.deck_summary.DeckSummary` for the terminal."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from sim.deck_summary import DeckSummary


def render_summary(summary: DeckSummary, source: str) -> Group:
    """A printable group: header, counts, colour balance, abilities, estimates, warnings."""
    counts = ", ".join(f"{n} {section}" for section, n in summary.counts.items())
    header = Text.assemble(
        (f"{source}", "bold"), f": valid deck — {counts}; {summary.special_tasks} special tasks; ",
        f"hash {summary.content_hash[:12]}",
    )

    colours = Table(title="Symbol supply (ally symbols) against demand (task symbols)", title_justify="left")
    for column in ("colour", "supply", "demand", "supply/demand"):
        colours.add_column(column, justify="right" if column != "colour" else "left")
    for c in summary.colours:
        colours.add_row(c.colour, str(c.supply), str(c.demand), f"{c.ratio:.2f}" if c.ratio is not None else "—")
    colours.add_row("crown (joker)", str(summary.crowns), "—", "—")

    abilities = Table(title="Abilities present", title_justify="left")
    abilities.add_column("ability")
    abilities.add_column("allies")
    for key, names in summary.abilities.items():
        abilities.add_row(key, ", ".join(names))

    parts: list = [header, colours, abilities]
    if summary.estimated:
        estimates = Table(
            title="Estimated values (not printed in the rulebooks; replace with printed values when known)",
            title_justify="left",
        )
        estimates.add_column("field")
        estimates.add_column("cards", justify="right")
        for field, n in summary.estimated.items():
            estimates.add_row(field, str(n))
        parts.append(estimates)
    else:
        parts.append(Text("No value is marked as estimated."))
    parts.extend(Text(f"warning: {w}", style="yellow") for w in summary.warnings)
    return Group(*parts)
