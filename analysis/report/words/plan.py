"""The sentences of ``revachol plan`` (:mod:`analysis.plan`): its table's title and the
lines under it."""

from __future__ import annotations

import pandas as pd

from analysis.report.html import count
from analysis.report.words.common import amount_text


def plan_lines(table: pd.DataFrame, source) -> tuple[str, list[str]]:
    """The title of :func:`analysis.plan.plan_games`'s table and the sentences under
    it: an effect that can never be flagged, one this run already detects, and how
    to ask for an effect when none was given. ``source`` is the report tables'
    folder, or None when they were computed from the run's games."""
    where = f"the report tables in {source}" if source is not None else "the run's games (no report written yet)"
    title = f"Games needed to detect an effect with 80% power, from the standard errors of {where}"
    lines = []
    for _, r in table.iterrows():
        unit = r["unit"]
        if r["never"]:
            lines.append(f"{r['section']}: an effect of {amount_text(r['effect'], unit)} can never be flagged, "
                         f"whatever the games: a verdict needs at least the {amount_text(r['threshold'], unit)} "
                         f"threshold.")  # fmt: skip
        elif r["games_needed_every"] <= r["games"]:
            lines.append(f"{r['section']}: this run's {count(r['games'])} games already detect "
                         f"{amount_text(r['effect'], unit)} with 80% power.")  # fmt: skip
    if table["effect"].isna().all():
        lines.append("Give the effect to detect with --effect (pp: allies and the first player's edge), "
                     "--effect-points (tasks) or --effect-turns (game length); \"detectable at 80% power\" is what "
                     "this run's games detect.")  # fmt: skip
    return title, lines
