"""Findings: the report's answers as plain sentences, ranked by how far each is from
fair or from the designer's target.

Each finding is one sentence with its number, its 95% CI and its n, and the report
section that holds the detail. Sources (tables computed elsewhere, so that the
notebook can pass its own):

* allies with a verdict (:func:`analysis.cards.ally_strength`);
* tasks whose reward is out of order with their difficulty measured without the
  points, naming the tasks they are out of order with
  (:func:`analysis.task_calibration.task_calibration`);
* the first player's edge (:func:`analysis.seats.seat_balance`, R9.4);
* game length (:func:`analysis.length.game_length`);
* the task points penalties take back (:func:`analysis.morale.morale_impact`, R8.3);
* the share of games decided by dice (:func:`analysis.seats.seat_balance`, which
  counts them with :func:`analysis.seats.tie_counts`, R9.3);
* how often the stronger bot of a run that mixes bots wins against fair, the
  upsets and the dice (:func:`analysis.skill.skill_summary`);
* the skill check (:mod:`analysis.skill_check`): each ally, task, first player and
  length finding gains its value with the skilled bot in every seat and whether it
  depends on skill, and every measure that depends on skill without a finding of its
  own (an ally with no verdict, a task's completion, the morale-loss events) becomes
  one, ``depends_on_skill``, at ``|change| / threshold``.

* last, ``undecided``: each ally, task and first player's edge whose 95% CI holds
  its practical threshold (``±threshold``), so that this run's games cannot say
  whether it matters, with the games that would
  (:func:`analysis.stats.power.games_to_decide`, rounded up), those the fewest games
  would decide first; distance 0, in its subject's section.

Each finding of a verdict's subject (ally, task, first player, and length against a
target) carries ``mde``: the effect, in its unit, flagged with 80% power at the
run's n (:mod:`analysis.stats.power`; the tables' ``mde_pp``/``mde_points``).

The rows are computed here; their sentences are worded by
:func:`analysis.report.words.report.finding_sentence`.

``distance`` ranks them: how far the finding is from fair (or from the target) in
units of its practical threshold, so 1 is "just big enough to matter". An ally's is
``|effect_pp| / threshold_pp``; a task's ``|points − par| / threshold_points``; the
first player's ``|win rate − 1/n|`` in pp over ``threshold_pp``; game length's miss
of the target range in turns over ``threshold_turns``. Findings with no fair value
and no target (length without a target, penalties, dice) have distance 0 and come
last, in the order above; so does skill, which describes the players rather than
a flaw of the cards.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.cards import DEFAULT_THRESHOLD_PP
from analysis.length import DEFAULT_THRESHOLD_TURNS
from analysis.report.words.report import (at_threshold_clause, at_threshold_sentence, finding_sentence,
                                          not_settled_clause, not_settled_sentence, stopping_sentence, undecided_clause)
from analysis.report.words.skill import skill_suffix
from analysis.seats import first_player_edge
from analysis.stats.power import detectable_from_interval, games_to_decide, readable_games
from analysis.task_calibration import gap_interval

FINDINGS_SHOWN = 8  # findings the report opens with, in the page's first screen and in the terminal; the rest fold away
COLUMNS = ("run", "kind", "subject", "sentence", "value", "low", "high", "n", "unit", "distance", "section", "mde",
           "games_to_decide")  # fmt: skip
SECTIONS = {  # kind: the report section holding its detail (an undecided finding: its subject's kind's)
    "ally": "Card strength",
    "task": "Task rewards",
    "first_player": "Seat advantage",
    "length": "Game length",
    "penalties": "Morale loss",
    "dice": "Seat advantage",
    "skill": "Skill and luck",
    "depends_on_skill": "Skill and luck",
    "stopping": "Card strength",
    "not_settled": "Card strength",
    "at_threshold": "Card strength",
}
CHECKED = {"ally": "ally", "task": "task", "first_player": "first_player", "length": "length"}
"""Finding kinds whose subject the skill check measures (finding kind: check kind)."""
SKILL_COLUMNS = {  # findings.csv column: analysis.skill_check.compare_measures column
    "skilled_bot": "skilled_bot", "skill_measure": "kind", "skill_value": "value", "skill_value_low": "low",
    "skill_value_high": "high", "skilled_value": "skilled", "skilled_low": "skilled_low",
    "skilled_high": "skilled_high", "skill_difference": "difference", "skill_difference_low": "difference_low",
    "skill_difference_high": "difference_high", "skill_q": "q_value", "depends_on_skill": "depends_on_skill",
}
"""The skill check's columns of the findings: the measure compared (for a task, its
completion rate in pp, not its reward gap) under the run's bots and the skilled bot."""


def _finding(run, kind, subject, sentence, value, low, high, n, unit, distance, mde=np.nan, games=np.nan,
             section: str = "") -> dict:  # fmt: skip
    return dict(zip(COLUMNS, (run, kind, subject, sentence, value, low, high, n, unit, distance,
                              section or SECTIONS[kind], mde, games)))  # fmt: skip


def subjects(strength: pd.DataFrame, calibration: pd.DataFrame, balance: pd.DataFrame,
             threshold_pp: float = DEFAULT_THRESHOLD_PP) -> pd.DataFrame:  # fmt: skip
    """Every subject of a verdict, one row each: ``run``, ``kind`` (``ally``,
    ``task``, ``first_player``), ``subject``, ``value`` with its 95% ``low``/``high``
    (an ally's effect and the first player's edge over a fair seat in pp, a task's
    gap from par in points), ``n`` (games; a task's: of its difficulty run),
    ``unit``, ``threshold`` (the practical one, in ``unit``) and ``mde`` (the
    table's ``mde_pp``/``mde_points``, NaN in a table without it)."""
    seat = balance[balance["games"] > 0]
    parts = [
        (strength, "ally", strength["name"], strength["effect_pp"], strength["effect_low_pp"],
         strength["effect_high_pp"], strength["games"], "pp", strength["threshold_pp"], strength.get("mde_pp", np.nan)),
        (calibration, "task", calibration["name"], calibration["gap_points"], *gap_interval(calibration),
         calibration["difficulty_games"], "points", calibration["threshold_points"], calibration.get("mde_points", np.nan)),
        (seat, "first_player", "first player", *first_player_edge(seat), seat["games"], "pp",
         seat.get("threshold_pp", threshold_pp), seat.get("mde_pp", np.nan)),
    ]  # fmt: skip
    names = ("kind", "subject", "value", "low", "high", "n", "unit", "threshold", "mde")
    frames = [pd.DataFrame({"run": table["run"], **dict(zip(names, columns))}) for table, *columns in parts
              if len(table)]  # fmt: skip
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=["run", *names])


def _allies(strength: pd.DataFrame) -> list[dict]:
    return [_finding(r["run"], "ally", r["name"], finding_sentence("ally", r), r["effect_pp"], r["effect_low_pp"],
                     r["effect_high_pp"], r["games"], "pp", abs(r["effect_pp"]) / r["threshold_pp"],
                     r.get("mde_pp", np.nan)) for _, r in strength[strength["verdict"] != ""].iterrows()]  # fmt: skip


def _tasks(calibration: pd.DataFrame) -> list[dict]:
    return [_finding(r["run"], "task", r["name"], finding_sentence("task", r), r["gap_points"], *gap_interval(r),
                     r["difficulty_games"], "points", abs(r["gap_points"]) / r["threshold_points"],
                     r.get("mde_points", np.nan)) for _, r in calibration[calibration["verdict"] != ""].iterrows()]  # fmt: skip


def _seats(balance: pd.DataFrame, threshold_pp: float) -> list[dict]:
    out = []
    for _, r in balance[balance["games"] > 0].iterrows():
        edge, low, high = first_player_edge(r)
        out.append(_finding(r["run"], "first_player", "first player",
                            finding_sentence("first_player", r, fair=1 / r["players"]), edge, low, high, r["games"],
                            "pp", abs(edge) / threshold_pp, r.get("mde_pp", np.nan)))  # fmt: skip
    return out


def _length(length: pd.DataFrame, target_turns: tuple[float, float] | None, threshold_turns: float) -> list[dict]:
    out = []
    for _, r in length[length["measure"] == "turns"].iterrows():
        distance, mde = 0.0, np.nan
        if target_turns is not None:
            low, high = target_turns
            distance = max(low - r["mean"], r["mean"] - high, 0.0) / threshold_turns
            mde = float(detectable_from_interval(r["mean_low"], r["mean_high"], threshold_turns))
        out.append(_finding(r["run"], "length", "game length", finding_sentence("length", r, target=target_turns),
                            r["mean"], r["mean_low"], r["mean_high"], r["games"], "turns", distance, mde))  # fmt: skip
    return out


def _undecided(found: pd.DataFrame) -> list[dict]:
    """An ``undecided`` finding for each subject whose 95% interval holds its
    practical threshold, those the fewest games would decide first."""
    games = games_to_decide(found["n"], found["value"], found["low"], found["high"], found["threshold"])
    rows = found.assign(games_to_decide=games).dropna(subset=["games_to_decide"])
    rows = rows.sort_values("games_to_decide", kind="stable")
    rows["games_to_decide"] = rows["games_to_decide"].map(readable_games)
    return [{**_finding(r["run"], "undecided", r["subject"], finding_sentence("undecided", r), r["value"], r["low"],
                        r["high"], r["n"], r["unit"], 0.0, r["mde"], r["games_to_decide"], SECTIONS[r["kind"]]),
             "of": r["kind"], "threshold": r["threshold"]} for _, r in rows.iterrows()]  # fmt: skip


def _with_undecided(found: list[dict], undecided: list[dict]) -> list[dict]:
    """``found`` with each undecided subject that has a finding of its own (a flagged
    ally or task, the first player) told there, its ``games_to_decide`` and a clause
    (:func:`analysis.report.words.report.undecided_clause`), and the others' ``undecided``
    findings after them."""
    own = {(f["run"], f["kind"], f["subject"]): f for f in found}
    rest = []
    for u in undecided:
        f = own.get((u["run"], u["of"], u["subject"]))
        if f is None:
            rest.append(u)
        else:
            f["games_to_decide"] = u["games_to_decide"]
            f["sentence"] += undecided_clause(u["threshold"], u["unit"], u["games_to_decide"])
    return found + [{k: v for k, v in u.items() if k not in ("of", "threshold")} for u in rest]


def _penalties(impact: pd.DataFrame) -> list[dict]:
    rows = impact[(impact["measure"] == "points_lost_share") & (impact["n"] > 0)]  # no task points: nothing lost
    return [_finding(r["run"], "penalties", "penalties", finding_sentence("penalties", r), r["value"], r["value_low"],
                     r["value_high"], r["n"], "share", 0.0) for _, r in rows.iterrows()]  # fmt: skip


def _dice(balance: pd.DataFrame) -> list[dict]:
    return [_finding(r["run"], "dice", "dice", finding_sentence("dice", r), r["decided_by_dice_rate"],
                     r["decided_by_dice_rate_low"], r["decided_by_dice_rate_high"], r["games"], "share", 0.0)
            for _, r in balance[balance["games"] > 0].iterrows()]  # fmt: skip


def _skill(summary: pd.DataFrame | None) -> list[dict]:
    if summary is None or summary.empty:
        return []
    return [_finding(r["run"], "skill", r["strong"], finding_sentence("skill", r), r["win_rate_ratio"],
                     r["win_rate_ratio_low"], r["win_rate_ratio_high"], r["games"], "× fair", 0.0)
            for _, r in summary.iterrows()]  # fmt: skip


def _with_skill_check(found: list[dict], check: pd.DataFrame) -> list[dict]:
    """``found`` with the skill check's columns, and a ``depends_on_skill`` finding for
    each measure that depends on skill and has no finding of its own."""
    rows = {(r["run"], r["kind"], r["subject"]): r for _, r in check.iterrows()}
    matched = set()
    for f in found:
        key = (f["run"], CHECKED.get(f["kind"], ""), f["subject"])
        if key in rows:
            matched.add(key)
            f.update({column: rows[key][source] for column, source in SKILL_COLUMNS.items()})
            f["sentence"] += skill_suffix(rows[key])
    extra = []
    for key, r in rows.items():
        if r["depends_on_skill"] and key not in matched:
            extra.append({**_finding(r["run"], "depends_on_skill", r["subject"], finding_sentence("depends_on_skill", r),
                                     r["difference"], r["difference_low"], r["difference_high"], r["n"], r["unit"],
                                     abs(r["difference"]) / r["threshold"]),
                          **{column: r[source] for column, source in SKILL_COLUMNS.items()}})  # fmt: skip
    return found + extra


def with_stopping(found: pd.DataFrame, runs) -> pd.DataFrame:
    """``found`` with, for each run played until settled (its manifest's
    ``until_settled``, :mod:`analysis.experiments.until_settled`), a ``stopping``
    finding first (where it stopped and why), and each verdict it left not settled or
    settled at the threshold marked: a clause on its own finding, or a
    ``not_settled`` or ``at_threshold`` finding after the others."""
    first, last, found = [], [], found.copy()
    for run in runs:
        record = run.manifest.get("until_settled")
        if not isinstance(record, dict) or not record.get("stopped"):
            continue
        first.append(_finding(run.label, "stopping", "stopping", stopping_sentence(record), record["games"],
                              np.nan, np.nan, record["games"], "games", 0.0))  # fmt: skip
        band = record.get("borderline_pp", 0.0)
        marks = [(subject, "not_settled", not_settled_clause(record["games"]), not_settled_sentence)
                 for subject in record.get("not_settled", [])]  # fmt: skip
        marks += [(subject, "at_threshold", at_threshold_clause(record["games"], band),
                   lambda subject, kind, games: at_threshold_sentence(subject, kind, games, band))
                  for subject in record.get("borderline", [])]  # fmt: skip
        for subject, mark, clause, sentence in marks:
            kind = "first_player" if subject == "first player" else "ally"
            own = (found["run"] == run.label) & (found["subject"] == subject) & found["kind"].isin([kind, "undecided"])
            if own.any():
                found.loc[own, "sentence"] += clause
            else:
                last.append(_finding(run.label, mark, subject, sentence(subject, kind, record["games"]),
                                     np.nan, np.nan, np.nan, record["games"], "pp", 0.0, section=SECTIONS[kind]))  # fmt: skip
    if not first:
        return found
    return pd.concat([pd.DataFrame(first), found, *([pd.DataFrame(last)] if last else [])], ignore_index=True)


def findings(strength: pd.DataFrame, calibration: pd.DataFrame, balance: pd.DataFrame, length: pd.DataFrame,
             impact: pd.DataFrame, threshold_pp: float = DEFAULT_THRESHOLD_PP,
             target_turns: tuple[float, float] | None = None,
             threshold_turns: float = DEFAULT_THRESHOLD_TURNS, skill: pd.DataFrame | None = None,
             check: pd.DataFrame | None = None) -> pd.DataFrame:  # fmt: skip
    """The findings of one or several runs, most important first (module docstring).

    Parameters
    ----------
    strength, calibration, balance, length, impact : pandas.DataFrame
        :func:`analysis.cards.ally_strength`,
        :func:`analysis.task_calibration.task_calibration`,
        :func:`analysis.seats.seat_balance`, :func:`analysis.length.game_length`,
        :func:`analysis.morale.morale_impact`.
    threshold_pp : float
        Practical threshold of the first player's edge (percentage points of win
        rate). Allies carry their own in ``strength["threshold_pp"]``.
    target_turns : (low, high), optional
        The designer's target range of mean turns per game.
    threshold_turns : float
        A miss of ``target_turns`` (turns) counted as one unit of distance.
    skill : pandas.DataFrame, optional
        :func:`analysis.skill.skill_summary` of the runs that mix bots.
    check : pandas.DataFrame, optional
        :func:`analysis.skill_check.skill_check` of the runs with a skilled companion.

    Returns
    -------
    pandas.DataFrame
        One row per finding: ``run``, ``kind`` (``ally``, ``task``,
        ``first_player``, ``length``, ``penalties``, ``dice``, ``skill``,
        ``depends_on_skill``, ``undecided``), ``subject``,
        ``sentence`` (plain text, with the number, its 95% CI and n), ``value``
        with ``low``/``high`` in ``unit`` (pp, points, turns, or share as a
        fraction, or ``× fair``), ``n`` (games, or task points for penalties), ``distance``
        (from fair or target, in practical thresholds), ``section`` (the report
        section's title), ``mde`` (in ``unit``; NaN for a finding without a
        verdict's test) and ``games_to_decide`` (games, an ``undecided`` finding's;
        NaN for the others). Sorted by ``distance``, largest first, the undecided
        last; several runs' sentences start with the run's name. With a non-empty ``check``, the
        columns of :data:`SKILL_COLUMNS` too (NaN or empty where a finding has no
        measure in the check).
    """
    rows = [*_allies(strength), *_tasks(calibration), *_seats(balance, threshold_pp),
            *_length(length, target_turns, threshold_turns), *_penalties(impact), *_dice(balance), *_skill(skill)]  # fmt: skip
    checked = check is not None and len(check) > 0
    if checked:
        rows = _with_skill_check(rows, check)
    rows = _with_undecided(rows, _undecided(subjects(strength, calibration, balance, threshold_pp)))
    out = pd.DataFrame(rows, columns=[*COLUMNS, *(SKILL_COLUMNS if checked else ())])
    if out["run"].nunique() > 1:
        out["sentence"] = out["run"].astype(str) + ": " + out["sentence"]
    out["n"] = out["n"].astype(np.int64)
    if checked:
        out["depends_on_skill"] = out["depends_on_skill"].astype("boolean").fillna(False).astype(bool)
    return out.sort_values("distance", ascending=False, kind="stable").reset_index(drop=True)

