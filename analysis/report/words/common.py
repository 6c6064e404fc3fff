"""The helpers the subjects' sentences share (:mod:`analysis.report.words`): an
amount in its unit, a measure with its interval, a run's label before a sentence."""

from __future__ import annotations

from analysis.report.html import estimate
from analysis.task_calibration import points_text


def amount_text(value: float, unit: str, spec: str = "g") -> str:
    """An amount in pp, points or turns as a sentence says it: ``2 pp``, ``1 point``,
    ``5 turns``; ``spec`` formats pp and turns (``.1f``: ``2.6 pp``)."""
    return points_text(value) if unit == "points" else f"{value:{spec}} {unit}"


def measure_text(kind: str, value: float, low: float, high: float, unit: str, n: int | None = None) -> str:
    """A skill-check measure (:mod:`analysis.skill_check`) with its interval: a task's
    completion rate as a percentage, other pp as pp, turns and events by name."""
    if kind == "task":
        return estimate(value / 100, low / 100, high / 100, "%", n=n)
    if unit == "pp":
        return estimate(value / 100, low / 100, high / 100, "pp", n=n)
    return estimate(value, low, high, "", n=n, noun=unit)


def label_prefix(label: str, sep: str = " — ") -> str:
    """``label`` and ``sep`` before a sentence that names its run (``2p — ``); empty without a label."""
    return f"{label}{sep}" if label else ""


def written_line(paths) -> str:
    """The terminal's line on the files a command wrote: ``written: a.csv, b.csv``."""
    return f"written: {', '.join(map(str, paths))}"


def settled_summary(stopping, each: str = "") -> str:
    """Where a play until settled stopped
    (:class:`analysis.experiments.until_settled.Stopping`), in one line: ``until
    settled: 20,000 of at most 100,000 games (settled, 2 rounds checked)``, ``each``
    after "games" (e.g. `` per deck``)."""
    return (f"until settled: {stopping.games:,} of at most {stopping.max_games:,} games{each} ({stopping.reason}, "
            f"{stopping.rounds} round{'s' * (stopping.rounds != 1)} checked)")  # fmt: skip
