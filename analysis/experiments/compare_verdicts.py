"""Did my edit fix it? Each changed card's verdict before and after, in the report's measure.

``compare``'s paired table gives each ally's holders' win rate under A and B; a
designer reads the report's own measure instead: the ally's effect on winning against
the average ally (:func:`analysis.cards.ally_strength`, the game-stratified conditional
logit) and its verdict, stronger or weaker beyond the practical threshold, or none. This
module takes that measure on each deck's run and sets the two side by side for every
ally whose data differ between the decks (R1.2: symbols, points, ability), and for
every other ally whose verdict changes *and* whose holders' win rate moved in the
paired comparison (significant after Benjamini–Hochberg, :mod:`analysis.experiments.compare`),
matched by id. An ally at its threshold flips its verdict between any two runs of
the same deck; only the paired games tell an edit's side effect from that noise (the
deck against itself with its cards in another order lists no ally). The outcome of each:

========== =====================================================================
outcome    when
========== =====================================================================
fixed      a verdict in A, none in B
overshot   stronger in A and weaker in B, or weaker in A and stronger in B
still      the same verdict in both
new        no verdict in A, one in B
unchanged  no verdict in either
========== =====================================================================

Tasks alike (:func:`task_verdict_changes`): a task's measure is the report's reward
verdict, its gap from the monotone par of the other tasks (points, with its 95% CI:
:func:`analysis.task_calibration.task_calibration`, overpays or underpays beyond the
threshold in points), beside its completion rate (R6) with its Wilson interval.

Each deck's verdicts are the report's on its own run (Benjamini–Hochberg across the
deck's allies, or tasks, the practical threshold), each with its own 95% CI; the paired
changes of the rest of the comparison follow them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.cards import ally_strength
from analysis.data.runs import Run
from analysis.task_calibration import DEFAULT_THRESHOLD_POINTS, gap_interval, task_calibration
from analysis.thresholds import DEFAULT_THRESHOLD_PP

OUTCOMES = ("overshot", "new", "fixed", "still", "unchanged")
"""The outcomes, in the order the lines are shown: what went wrong first."""
COLUMNS = ("ally", "name", "edited", "verdict_a", "effect_a_pp", "effect_a_low_pp", "effect_a_high_pp", "verdict_b",
           "effect_b_pp", "effect_b_low_pp", "effect_b_high_pp", "games", "outcome")  # fmt: skip
_TASK_MEASURES = ("verdict_{k}", "gap_{k}_points", "gap_{k}_low_points", "gap_{k}_high_points", "completion_{k}",
                  "completion_{k}_low", "completion_{k}_high")  # fmt: skip
"""A task's measures in one deck's run, ``{k}`` the deck (``a`` or ``b``)."""
TASK_COLUMNS = ("task", "name", "edited", *(column.format(k=k) for k in "ab" for column in _TASK_MEASURES), "games",
                "outcome")  # fmt: skip


def outcome(before: str, after: str) -> str:
    """The outcome of a verdict ``before`` → ``after`` (``stronger``, ``weaker`` or
    empty for none), as the module docstring's table."""
    if before and not after:
        return "fixed"
    if before and after:
        return "still" if before == after else "overshot"
    return "new" if after else "unchanged"


def verdict_changes(a: Run, b: Run, edited: set[str], moved: set[str],
                    threshold_pp: float = DEFAULT_THRESHOLD_PP) -> pd.DataFrame:  # fmt: skip
    """Each ally of both decks, matched by id, whose data differ (``edited``: ids), or
    whose verdict changes and whose paired holders' win rate moved (``moved``: ids),
    with its effect against the average ally and verdict in each deck's run, and the
    outcome (module docstring).

    Returns
    -------
    pandas.DataFrame
        :data:`COLUMNS`: ``ally`` (id), ``name`` (B's), ``edited`` (bool), each deck's
        ``verdict_*`` (``stronger``, ``weaker`` or empty) and ``effect_*_pp`` with its
        95% bounds (pp), ``games`` (B's), ``outcome``; the edited allies first, then
        the worst outcome (:data:`OUTCOMES`), then the largest change.
    """
    before, after = (ally_strength([run], threshold_pp=threshold_pp).set_index("ally") for run in (a, b))
    both = after.index.intersection(before.index)
    rows = pd.DataFrame({
        "ally": both, "name": after.loc[both, "name"].to_numpy(), "edited": both.isin(list(edited)),
        "verdict_a": before.loc[both, "verdict"].fillna("").to_numpy(),
        **{f"effect_a{s}_pp": before.loc[both, f"effect{s}_pp"].to_numpy() for s in ("", "_low", "_high")},
        "verdict_b": after.loc[both, "verdict"].fillna("").to_numpy(),
        **{f"effect_b{s}_pp": after.loc[both, f"effect{s}_pp"].to_numpy() for s in ("", "_low", "_high")},
        "games": after.loc[both, "games"].to_numpy(),
    })  # fmt: skip
    rows = rows[rows["edited"] | ((rows["verdict_a"] != rows["verdict_b"]) & rows["ally"].isin(list(moved)))]
    return _ranked(rows, "effect_a_pp", "effect_b_pp").reindex(columns=list(COLUMNS))


def _ranked(rows: pd.DataFrame, a: str, b: str) -> pd.DataFrame:
    """``rows`` with their outcome, the edited first, then the worst outcome
    (:data:`OUTCOMES`), then the largest change of ``b`` − ``a``."""
    rows = rows.assign(outcome=[outcome(x, y) for x, y in zip(rows["verdict_a"], rows["verdict_b"])])
    rank = rows["outcome"].map(OUTCOMES.index).to_numpy()
    size = -np.abs(rows[b] - rows[a]).to_numpy()
    return rows.iloc[np.lexsort((size, rank, ~rows["edited"].to_numpy()))].reset_index(drop=True)


def task_verdict_changes(a: Run, b: Run, edited: set[str], moved: set[str],
                         threshold_points: float = DEFAULT_THRESHOLD_POINTS) -> pd.DataFrame:  # fmt: skip
    """Each task of both decks, matched by id, whose data differ (``edited``: ids), or
    whose reward verdict changes and whose paired completion moved (``moved``: ids),
    with the report's reward verdict in each deck's run (``overpays``, ``underpays`` or
    empty: :func:`analysis.task_calibration.task_calibration`) and the outcome (module
    docstring).

    Returns
    -------
    pandas.DataFrame
        :data:`TASK_COLUMNS`: ``task`` (id), ``name`` (B's), ``edited`` (bool), each
        deck's ``verdict_*``, ``gap_*_points`` (points − par) with its 95% bounds
        (points) and ``completion_*`` (share of games, as played) with its Wilson 95%
        bounds, ``games`` (B's), ``outcome``; ordered as :func:`verdict_changes`.

    Raises
    ------
    sim.rundir.RunError
        As :func:`analysis.task_calibration.task_calibration`.
    """
    sides = {k: _task_measures(run, threshold_points) for k, run in (("a", a), ("b", b))}
    both = sides["b"].index.intersection(sides["a"].index)
    rows = pd.DataFrame({"task": both, "name": sides["b"].loc[both, "name"].to_numpy(),
                         "edited": both.isin(list(edited)),
                         **{column.format(k=k): side.loc[both, column].to_numpy() for k, side in sides.items()
                            for column in _TASK_MEASURES},
                         "games": sides["b"].loc[both, "games"].to_numpy()})  # fmt: skip
    rows = rows[rows["edited"] | ((rows["verdict_a"] != rows["verdict_b"]) & rows["task"].isin(list(moved)))]
    return _ranked(rows, "gap_a_points", "gap_b_points").reindex(columns=list(TASK_COLUMNS))


def _task_measures(run: Run, threshold_points: float) -> pd.DataFrame:
    """One run's tasks by id: ``name``, ``games`` and :data:`_TASK_MEASURES` (as
    :func:`task_verdict_changes` names them, ``{k}`` unfilled)."""
    calibration = task_calibration([run], threshold_points=threshold_points)
    low, high = gap_interval(calibration)
    measures = (calibration["verdict"].fillna(""), calibration["gap_points"], low, high,
                *(calibration[f"completion_rate{end}"] for end in ("", "_low", "_high")))  # fmt: skip
    return pd.DataFrame({"name": calibration["name"].to_numpy(), "games": calibration["games"].to_numpy(),
                         **{column: values.to_numpy() for column, values in zip(_TASK_MEASURES, measures)}},
                        index=pd.Index(calibration["task"], name="task"))  # fmt: skip
