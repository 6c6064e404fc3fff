"""Tune: search chosen card fields towards a designer's targets (``revachol tune``).

The designer names integer fields with a range (``find_your_badge.points=1..6``) and
targets on the measured metrics:

* ``turns=LO..HI``: mean turns per game within a range (turns);
* ``advantage_p1=X``: the first player's win rate close to ``X`` (e.g. 1/n);
* ``completion:TASK=LO..HI``: a task's completion rate within a range.

Each candidate deck plays the same games (one seed: common random numbers, so the
search compares decks, not luck) and scores the sum of each target's miss, measured
in that metric's 95% CI half-widths (a miss inside the noise costs little). The
search is SciPy's differential evolution with integer variables
(``scipy.optimize.differential_evolution``, ``integrality``), seeded for
reproducibility. The best candidate is returned as a unified diff of the card file,
which edits only the changed values so comments stay, and its effect is measured
against the original with the paired comparison of :mod:`analysis.compare`.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.optimize import differential_evolution

from analysis.cards import task_outcomes
from analysis.length import game_length
from analysis.seats import seat_balance
from sim.cards import line_of_value, load_deck, parse_deck
from sim.runner import simulate


@dataclass(frozen=True)
class FieldRange:
    """An integer field of one card and the range it may take."""

    card: str
    field: str
    low: int
    high: int

    @classmethod
    def parse(cls, text: str) -> FieldRange:
        """``CARD.FIELD=LO..HI``; raises ValueError with the expected form."""
        match = re.fullmatch(r"([a-z0-9_]+)\.([a-z_]+)=(-?\d+)\.\.(-?\d+)", text.strip())
        if not match:
            raise ValueError(f"field {text!r}: write CARD.FIELD=LO..HI, e.g. find_your_badge.points=1..6")
        return cls(match[1], match[2], int(match[3]), int(match[4]))


@dataclass(frozen=True)
class Target:
    """A target on a metric: a range, or a value to be close to."""

    metric: str
    low: float
    high: float

    @classmethod
    def parse(cls, text: str) -> Target:
        """``turns=50..60``, ``advantage_p1=0.25``, ``completion:TASK=0.6..0.8``."""
        name, eq, bounds = text.partition("=")
        if not eq or not (name in ("turns", "advantage_p1") or name.startswith("completion:")):
            raise ValueError(f"target {text!r}: write turns=LO..HI, advantage_p1=X or completion:TASK=LO..HI")
        low, _, high = bounds.partition("..")
        try:
            return cls(name, float(low), float(high or low))
        except ValueError:
            raise ValueError(f"target {text!r}: bounds must be numbers") from None


def _measure(run_dir: Path, target: Target) -> tuple[float, float]:
    """(estimate, 95% CI half-width) of a target's metric in a run."""
    if target.metric == "turns":
        row = game_length(run_dir).set_index("measure").loc["turns"]
        column = "mean"
    elif target.metric == "advantage_p1":
        row, column = seat_balance(run_dir).iloc[0], "advantage_p1"
    else:
        row, column = task_outcomes(run_dir).set_index("task").loc[target.metric.split(":", 1)[1]], "completion_rate"
    return row[column], (row[f"{column}_high"] - row[f"{column}_low"]) / 2


def miss(run_dir: Path, targets: Sequence[Target]) -> float:
    """Sum over targets of the distance outside the target range, in CI half-widths."""
    total = 0.0
    for target in targets:
        estimate, half = _measure(run_dir, target)
        outside = max(target.low - estimate, 0.0, estimate - target.high)
        total += outside / max(half, 1e-9)
    return total


def _edited_text(text: str, changes: dict[tuple[str, int, str], int]) -> str:
    """The card file with each changed scalar replaced on its own line (comments kept)."""
    lines = text.splitlines(keepends=True)
    for (section, index, field), value in changes.items():
        line = line_of_value(text, (section, index, field)) - 1
        lines[line] = re.sub(rf"(\b{field}:\s*)[^#\n]+?(\s*(#.*)?\n?)$", rf"\g<1>{value}\g<2>", lines[line], count=1)
    return "".join(lines)


def tune(
    cards: str | Path,
    fields: Sequence[FieldRange],
    targets: Sequence[Target],
    n_games: int,
    out: str | Path,
    players: int = 4,
    bots: str | Sequence[str] = "greedy",
    seed: int = 0,
    max_evaluations: int = 40,
    n_jobs: int = -1,
) -> dict:
    """Search ``fields`` towards ``targets``; returns the proposal.

    Returns
    -------
    dict
        ``values`` (field -> value), ``miss`` (of the proposal and of the original),
        ``diff`` (unified diff of the card file), ``evaluations`` (candidates played),
        ``proposal`` (path of the proposed card file).

    Raises
    ------
    ValueError
        For an unknown card, or a field that is not an integer field of it.
    """
    cards, out = Path(cards), Path(out)
    text = cards.read_text(encoding="utf-8")
    data = load_deck(cards).to_yaml_data()
    where = {}
    for f in fields:
        found = [(s, i) for s in ("allies", "tasks", "morale") for i, c in enumerate(data[s]) if c["id"] == f.card]
        if not found or not isinstance(data[found[0][0]][found[0][1]].get(f.field), int):
            raise ValueError(f"{f.card}.{f.field} is not an integer field of a card in {cards}")
        where[f] = found[0]
    cache: dict[tuple[int, ...], float] = {}

    def play(values: tuple[int, ...]) -> tuple[Path, str]:
        changes = {(*where[f], f.field): v for f, v in zip(fields, values)}
        candidate = _edited_text(text, changes)
        deck = parse_deck(candidate, f"{cards} (candidate)")
        run_dir = out / "candidates" / "-".join(map(str, values))
        if not (run_dir / "manifest.json").exists():
            simulate(deck, n_games, run_dir, players, bots, seed, n_jobs, progress=False)
        return run_dir, candidate

    def objective(x: np.ndarray) -> float:
        values = tuple(int(round(v)) for v in x)
        if values not in cache:
            cache[values] = miss(play(values)[0], targets)
        return cache[values]

    original = tuple(data[where[f][0]][where[f][1]][f.field] for f in fields)
    start = objective(np.array(original, float))
    differential_evolution(
        objective, bounds=[(f.low, f.high) for f in fields], integrality=[True] * len(fields), seed=seed,
        maxiter=max(1, max_evaluations // (5 * len(fields))), popsize=5, polish=False, tol=0, x0=np.array(original),
    )  # fmt: skip
    best = min(cache, key=cache.get)
    best_dir, best_text = play(best)
    proposal = out / "proposal.yaml"
    proposal.write_text(best_text, encoding="utf-8")
    diff = "".join(difflib.unified_diff(text.splitlines(keepends=True), best_text.splitlines(keepends=True),
                                        fromfile=str(cards), tofile=str(proposal)))  # fmt: skip
    return {
        "values": {f"{f.card}.{f.field}": v for f, v in zip(fields, best)},
        "miss": cache[best], "miss_original": start, "evaluations": len(cache), "diff": diff,
        "proposal": proposal, "original_run": play(original)[0], "proposal_run": best_dir,
    }  # fmt: skip

