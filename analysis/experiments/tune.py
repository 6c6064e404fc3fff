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
which edits only the changed values so comments stay.

No winner's curse. The candidate chosen as best on the search seed is partly chosen
for that seed's luck, so its in-sample figures flatter it (measured: AdvantageP1
moved −2.05 pp in-sample, −0.60 pp on fresh games). The proposal and the original
are therefore played again on a *hold-out* seed (:func:`holdout_seed`, never the
search seed) with games of their own, and that comparison is the measured effect
(the paired comparison of :mod:`analysis.experiments.compare`). The search seed's figures are
reported as in-sample.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.optimize import differential_evolution

from analysis.cards import task_outcomes
from analysis.experiments.compare import TOP_CHANGES, comparison_of
from analysis.report import document as doc
from analysis.report.words.compare import moved_lead
from analysis.report.words.experiments import (TUNE_NO_CHANGE, TUNE_TARGETS, tune_holdout_name, tune_holdout_note,
                                               tune_proposal_line, tune_written_line)
from analysis.report.result import Result
from analysis.length import game_length
from analysis.seats import seat_balance
from sim.bots.speed import MAIN_JOB_BOT
from sim.cards import load_deck, parse_deck, unknown_id, with_values
from sim.run.runner import simulate


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


HOLDOUT_OFFSET = 1_000_003  # the hold-out seed's distance from the search seed


def holdout_seed(seed: int) -> int:
    """The seed of the hold-out games: ``seed + 1,000,003``, never the search seed (a
    distance no run of consecutive seeds reaches)."""
    return seed + HOLDOUT_OFFSET


@dataclass(frozen=True)
class Target:
    """A target on a metric: a range, or a value to be close to."""

    metric: str
    low: float
    high: float

    @classmethod
    def parse(cls, text: str) -> Target:
        """``turns=50..60``, ``advantage_p1=0.25``, ``completion:TASK=0.6..0.8``.

        Raises
        ------
        ValueError
            One line naming the target and the valid form: an unknown metric, bounds
            that are not numbers, a low bound above the high one, or bounds outside
            the metric's range (rates lie in [0, 1], turns are ≥ 0).
        """
        name, eq, bounds = text.partition("=")
        if not eq or not (name in ("turns", "advantage_p1") or name.startswith("completion:")):
            raise ValueError(f"target {text!r}: write turns=LO..HI, advantage_p1=X or completion:TASK=LO..HI")
        low, high = parse_range(text, bounds)
        if name == "turns":
            if not (0 <= low <= high < np.inf):
                raise ValueError(f"target {text!r}: turns per game need 0 <= LO <= HI, e.g. turns=50..60")
        elif not (0 <= low <= high <= 1):
            example = "advantage_p1=0.25" if name == "advantage_p1" else f"{name}=0.85..0.95"
            raise ValueError(f"target {text!r}: a rate lies in [0, 1] with LO <= HI, e.g. {example}")
        return cls(name, low, high)


def parse_range(text: str, bounds: str) -> tuple[float, float]:
    """The ``LO..HI`` of a target (``X`` alone: LO = HI = X); ``text``: the whole
    target, for the message.

    Raises
    ------
    ValueError
        One line naming the target: the bounds are not numbers.
    """
    low_text, _, high_text = bounds.partition("..")
    try:
        return float(low_text), float(high_text or low_text)
    except ValueError:
        raise ValueError(f"target {text!r}: bounds must be numbers, written LO..HI or X") from None


def measure(run_dir: Path, target: Target) -> dict:
    """A target's metric in a run: ``unit`` (``turns`` or ``share``), ``estimate``,
    ``estimate_low``, ``estimate_high`` (95% CI) and ``games``."""
    if target.metric == "turns":
        row, column, unit = game_length(run_dir).set_index("measure").loc["turns"], "mean", "turns"
    elif target.metric == "advantage_p1":
        row, column, unit = seat_balance(run_dir).iloc[0], "advantage_p1", "share"
    else:
        task = target.metric.split(":", 1)[1]
        row, column, unit = task_outcomes(run_dir).set_index("task").loc[task], "completion_rate", "share"
    return {"unit": unit, "estimate": row[column], "estimate_low": row[f"{column}_low"],
            "estimate_high": row[f"{column}_high"], "games": int(row["games"])}  # fmt: skip


def _miss(value: dict, target: Target) -> float:
    """Distance of an estimate outside the target range, in 95% CI half-widths."""
    estimate, half = value["estimate"], (value["estimate_high"] - value["estimate_low"]) / 2
    return max(target.low - estimate, 0.0, estimate - target.high) / max(half, 1e-9)


def miss(run_dir: Path, targets: Sequence[Target]) -> float:
    """Sum over targets of the distance outside the target range, in CI half-widths."""
    return sum(_miss(measure(run_dir, target), target) for target in targets)


def target_table(runs: dict[tuple[str, str], Path], targets: Sequence[Target]) -> pd.DataFrame:
    """Each target's metric in each run: ``target``, ``sample`` and ``deck`` (the
    keys of ``runs``), then :func:`measure`'s columns and ``miss`` (CI half-widths)."""
    rows = []
    for target in targets:
        bounds = f"{target.low:g}" if target.low == target.high else f"{target.low:g}..{target.high:g}"
        for (sample, deck), run_dir in runs.items():
            value = measure(run_dir, target)
            rows.append({"target": f"{target.metric}={bounds}", "sample": sample, "deck": deck, **value,
                         "miss": _miss(value, target)})  # fmt: skip
    return pd.DataFrame(rows)


def tune(
    cards: str | Path,
    fields: Sequence[FieldRange],
    targets: Sequence[Target],
    n_games: int,
    out: str | Path,
    players: int = 4,
    bots: str | Sequence[str] = MAIN_JOB_BOT,
    seed: int = 0,
    max_evaluations: int = 40,
    n_jobs: int = -1,
) -> Result[dict]:
    """Search ``fields`` towards ``targets``; returns the proposal, its brief
    (:func:`tune_brief`) and its files (``proposal.yaml``, and the hold-out
    comparison's ``compare.html`` and tables), for :func:`analysis.workflows.deliver`.

    Returns
    -------
    Result
        Its value is a dict: ``values`` (field -> value), ``miss`` and ``miss_original`` (in-sample, on
        the search seed), ``diff`` (unified diff of the card file), ``evaluations``
        (candidates played), ``proposal`` (path of the proposed card file),
        ``original_run``/``proposal_run`` (search seed), ``holdout_seed``,
        ``holdout_original``/``holdout_proposal`` (run directories of the hold-out
        games, ``out/holdout/...``), ``targets`` (:func:`target_table` of the four
        runs: in-sample and hold-out, original and proposal), ``comparison`` (the
        hold-out comparison of the original and the proposal, to go under ``out``,
        ``compare.html`` and its tables: a
        :class:`analysis.experiments.compare.Comparison`).

    Raises
    ------
    ValueError
        For an unknown card, a field that is not an integer field of it, or a
        completion target on a task id that is not in the deck.
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
    tasks = [task["id"] for task in data["tasks"]]
    for target in targets:
        if target.metric.startswith("completion:") and target.metric.split(":", 1)[1] not in tasks:
            raise ValueError(f"target {target.metric}: {unknown_id('task', target.metric.split(':', 1)[1], tasks, str(cards))}")
    cache: dict[tuple[int, ...], float] = {}

    def play(values: tuple[int, ...], run_dir: Path | None = None, run_seed: int = seed) -> tuple[Path, str]:
        changes = {(*where[f], f.field): v for f, v in zip(fields, values)}
        candidate = with_values(text, changes, str(cards))
        deck = parse_deck(candidate, f"{cards} (candidate)")
        run_dir = run_dir or out / "candidates" / "-".join(map(str, values))
        if not (run_dir / "manifest.json").exists():
            simulate(deck, n_games, run_dir, players, bots, run_seed, n_jobs, progress=False)
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
    diff = "".join(difflib.unified_diff(text.splitlines(keepends=True), best_text.splitlines(keepends=True),
                                        fromfile=str(cards), tofile=str(proposal)))  # fmt: skip
    fresh = holdout_seed(seed)
    holdout = {name: play(values, out / "holdout" / name, fresh)[0] for name, values in
               (("original", original), ("proposal", best))}  # fmt: skip
    note = tune_holdout_note(cards, proposal, n_games, fresh, seed)
    comparison, files = comparison_of(holdout["original"], holdout["proposal"], out, note)
    runs = {(f"in-sample (seed {seed})", "original"): play(original)[0],
            (f"in-sample (seed {seed})", "proposal"): best_dir,
            (f"hold-out (seed {fresh})", "original"): holdout["original"],
            (f"hold-out (seed {fresh})", "proposal"): holdout["proposal"]}  # fmt: skip
    result = {
        "values": {f"{f.card}.{f.field}": v for f, v in zip(fields, best)},
        "miss": cache[best], "miss_original": start, "evaluations": len(cache), "diff": diff,
        "proposal": proposal, "original_run": play(original)[0], "proposal_run": best_dir,
        "holdout_seed": fresh, "holdout_original": holdout["original"], "holdout_proposal": holdout["proposal"],
        "targets": target_table(runs, targets), "comparison": comparison,
    }  # fmt: skip
    files.texts["proposal.yaml"] = best_text
    return Result(result, tune_brief(result, seed), files, out)



def tune_brief(result: dict, seed: int, top: int = TOP_CHANGES) -> doc.Page:
    """What ``revachol tune`` prints (:func:`analysis.report.terminal.print_page`), data
    only, from :func:`tune`'s result: the proposal as a diff of the card file, its
    values and in-sample miss (CI half-widths) on the search ``seed``, the targets'
    table, the ``top`` largest significant changes on the hold-out seed, and the files
    written."""
    moved = result["comparison"].changes
    blocks = [
        doc.Diff(result["diff"]) if result["diff"] else doc.plain(TUNE_NO_CHANGE),
        doc.plain(tune_proposal_line(result["values"], result["miss_original"], result["miss"], result["evaluations"],
                                     seed)),
        doc.plain(TUNE_TARGETS),
        doc.Table(result["targets"]),
        doc.answer(moved_lead("the original", tune_holdout_name(result["holdout_seed"]), len(moved), top)),
        *([doc.Table(moved.head(top), hide=("effect_size",))] if len(moved) else []),
        doc.plain(tune_written_line(result["proposal"], result["comparison"].page)),
    ]  # fmt: skip
    return doc.Page("tune", tuple(blocks))
