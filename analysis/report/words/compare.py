"""The sentences of ``revachol compare`` (:mod:`analysis.experiments.compare`): each
card's verdict before and after, the significant changes, the cards in one deck only,
the changes that depend on skill; also the advisor's, which speaks of its proposal as
a comparison does."""

from __future__ import annotations

import math

import pandas as pd

from analysis.report.html import count, estimate, p_text, rounded, significant
from analysis.report.words.common import measure_text, settled_summary
from analysis.settled import BORDERLINE, FLAGGED, NO_VERDICT
from analysis.skill_check import CANNOT_TELL


SKILL_CHECK_TITLE = "Does the change hold for skilled players?"


VERDICT_WORDS = {"stronger": "stronger than the average ally", "weaker": "weaker than the average ally",
                 "": "no verdict"}  # fmt: skip
"""An ally's verdict (:func:`analysis.cards.ally_strength`) as the findings say it."""


def verdict_change_sentence(r: pd.Series) -> str:
    """One ally's verdict before and after a change of the cards (a
    :func:`analysis.experiments.compare_verdicts.verdict_changes` row), in the
    report's measure: ``Evrart Claire: stronger than the average ally, +12.1 pp (95%
    CI 11.7–12.4) → no verdict, +0.2 pp (95% CI -0.5 to 0.8): fixed.``"""
    a, b = (estimate(r[f"effect_{k}_pp"] / 100, r[f"effect_{k}_low_pp"] / 100, r[f"effect_{k}_high_pp"] / 100, "pp")
            for k in ("a", "b"))  # fmt: skip
    said = {"fixed": "fixed", "overshot": f"overshot, now {r['verdict_b']}", "still": f"still {r['verdict_a']}",
            "new": "a new verdict", "unchanged": "unchanged"}[r["outcome"]]  # fmt: skip
    edited = "" if r["edited"] else " (not edited)"
    return (f"{r['name']}{edited}: {VERDICT_WORDS[r['verdict_a']]}, {a} → {VERDICT_WORDS[r['verdict_b']]}, {b}: "
            f"{said}.")  # fmt: skip


TASK_VERDICT_WORDS = {"overpays": "pays more than tasks as hard or harder",
                      "underpays": "pays less than tasks as easy or easier", "": "no verdict"}  # fmt: skip
"""A task's reward verdict (:func:`analysis.task_calibration.task_calibration`) as a comparison says it."""


def task_verdict_change_sentence(r: pd.Series) -> str:
    """One task's reward verdict before and after a change of the cards (a
    :func:`analysis.experiments.compare_verdicts.task_verdict_changes` row), in the
    report's measure: ``Find your badge: no verdict, gap from par 0.4 points (95% CI
    -0.3 to 1.1), completed in 41.0% of games (95% CI 40.3–41.7%) → pays more than
    tasks as hard or harder, 3.4 points (…), completed in 43.1% of games (…): a new
    verdict.``"""
    gap, done = ({k: estimate(r[f"gap_{k}_points"], r[f"gap_{k}_low_points"], r[f"gap_{k}_high_points"], "",
                              noun="points") for k in "ab"},
                 {k: estimate(r[f"completion_{k}"], r[f"completion_{k}_low"], r[f"completion_{k}_high"],
                              noun="of games") for k in "ab"})  # fmt: skip
    said = {"fixed": "fixed", "overshot": f"overshot, now {r['verdict_b']}", "still": f"still {r['verdict_a']}",
            "new": "a new verdict", "unchanged": "unchanged"}[r["outcome"]]  # fmt: skip
    edited = "" if r["edited"] else " (not edited)"
    return (f"{r['name']}{edited}: {TASK_VERDICT_WORDS[r['verdict_a']]}, gap from par {gap['a']}, completed in "
            f"{done['a']} → {TASK_VERDICT_WORDS[r['verdict_b']]}, {gap['b']}, completed in {done['b']}: "
            f"{said}.")  # fmt: skip


def verdict_change_lines(verdicts: pd.DataFrame, task_verdicts: pd.DataFrame) -> list[str]:
    """Every verdict line of a comparison, the allies' then the tasks'
    (:func:`verdict_change_sentence`, :func:`task_verdict_change_sentence`)."""
    return ([verdict_change_sentence(row) for _, row in verdicts.iterrows()]
            + [task_verdict_change_sentence(row) for _, row in task_verdicts.iterrows()])  # fmt: skip


def verdicts_lead(verdicts: pd.DataFrame, task_verdicts: pd.DataFrame | None = None) -> str:
    """The sentence above a comparison's verdict lines
    (:func:`analysis.experiments.compare_verdicts.verdict_changes`, then
    :func:`analysis.experiments.compare_verdicts.task_verdict_changes`)."""
    tasks = task_verdicts is not None and len(task_verdicts) > 0
    if verdicts.empty and not tasks:
        return "No card was edited and no card's verdict changed."
    games = max(verdicts["games"].max() if len(verdicts) else 0, task_verdicts["games"].max() if tasks else 0)
    return (f"Each edited card, and each whose verdict changed, in the report's measure (an ally's effect on win rate "
            f"against the average ally; a task's gap from the par of tasks as hard, in points; 95% CI, "
            f"n = {count(games)} games per deck), before → after:")  # fmt: skip


def one_deck_only_sentence(only: dict[str, list[str]]) -> str:
    """The cards of a comparison in one deck only
    (:func:`analysis.experiments.compare.one_deck_only`), which have no paired row;
    empty when both decks hold the same ids."""
    parts = [f"{how} {', '.join(only[key])}" for key, how in (("added", "added in B:"), ("removed", "removed from A:"))
             if only[key]]  # fmt: skip
    return f"Cards are paired by id. In one deck only, so without a paired row: {'; '.join(parts)}." if parts else ""


NOTHING_MOVED = "Nothing moved significantly (Benjamini–Hochberg at 5% within each family)."
"""A comparison whose paired changes are all within noise."""


def moved_lead(a: str, b: str, moved: int, top: int) -> str:
    """The line above a comparison's largest significant changes in the terminal:
    ``What moved from cards.yaml to b.yaml: the 10 largest of 23 significant changes,
    largest effect first``; :data:`NOTHING_MOVED` when none moved."""
    if not moved:
        return NOTHING_MOVED
    shown = f"the {top} largest of {moved}" if moved > top else f"{moved}"
    return f"What moved from {a} to {b}: {shown} significant changes, largest effect first"


def change_sentence(row: pd.Series) -> str:
    """A significant change of a comparison (a :func:`analysis.experiments.compare.changes`
    row) in one line: ``Find Ruby's hideout: completion: 81.1% → 53.2%, -27.9 pp (95%
    CI …), p = …``."""
    share = row["unit"] == "share"
    a, b = ((f"{rounded(100 * v, 1):.1f}%" if share else significant(v, 3)) for v in (row["a"], row["b"]))
    difference = estimate(row["difference"], row["difference_low"], row["difference_high"], "pp" if share else "",
                          noun="" if share else row["unit"])  # fmt: skip
    return f"{row['what']}: {a} → {b}, {difference}, p = {p_text(row['p_value'])}"


def change_skill_text(check: pd.DataFrame, bot: str) -> str:
    """One sentence on the changes of a comparison that depend on skill
    (:func:`analysis.experiments.compare.changes_skill_check`); it says the change
    holds for skilled play only when ``bot`` agrees with skilled play and every change
    holds (:mod:`analysis.skill_check`)."""
    marked, undecided = check[check["depends_on_skill"]], check[check["state"] == CANNOT_TELL]
    play = "skilled play" if bool(check["skilled_play"].all()) else f"{bot}'s play"
    where = f"With {bot} in every seat on the same games (n = {count(check['skilled_n'].max())} games per deck)"
    if marked.empty:
        held = (f"the change holds for {play}" if undecided.empty else
                f"{len(check) - len(undecided)} hold for {play}, {len(undecided)} cannot tell yet")  # fmt: skip
        return (f"{where}, no change differs from the run's by its practical threshold or more after "
                f"Benjamini–Hochberg correction ({len(check)} changes): {held}.")  # fmt: skip
    listed = "; ".join(f"{r['subject']}: {measure_text('', r['value'], r['low'], r['high'], r['unit'])} → "
                       f"{measure_text('', r['skilled'], r['skilled_low'], r['skilled_high'], r['unit'])}"
                       for _, r in marked.iterrows())  # fmt: skip
    verb = "depends" if len(marked) == 1 else "depend"
    return (f"{where}, {len(marked)} of {len(check)} changes {verb} on skill (change B − A with the run's bots → "
            f"with {bot}): {listed}.")  # fmt: skip


def page_heading(a: str, b: str) -> str:
    """The comparison page's first heading, ``a`` and ``b`` the card files."""
    return f"What changed from {a} (A) to {b} (B)"


def brief_title(a: str, b: str) -> str:
    """The title of what ``revachol compare`` prints, ``a`` and ``b`` the card files."""
    return f"What changed from {a} to {b}"


SAME_VALUES = "The two card files hold the same values."
"""The page's change when the card files differ in no value."""


def moved_sentence(moved: int) -> str:
    """The sentence above the page's list of every significant change."""
    return (f"{moved} measures moved significantly (Benjamini–Hochberg at 5% within each family), largest "
            f"standardised effect first:")  # fmt: skip


def pairing_note(games: int, gain: float) -> str:
    """The page's note on how both decks played the same ``games``, with how much
    narrower pairing makes the game metrics' intervals (``gain``, NaN when unknown:
    :func:`analysis.experiments.compare.pairing_gain`)."""
    return (f"Both decks played the same {games:,} games (same seeds, bots and rules; common random numbers). "
            f"Differences are B − A with paired 95% CIs, rates in percentage points; 0/1 outcomes are tested with the "
            f"exact McNemar test, counts with the paired t-test, holders' win rates with game-clustered intervals."
            + (f" On the game metrics pairing makes the interval {gain:.1f}× narrower than two independent runs of "
               f"this size would." if math.isfinite(gain) else ""))  # fmt: skip


def changes_settled_words(stopping) -> str:
    """Why a comparison played until settled stopped, in one sentence: how many
    changes are settled beyond and within their thresholds, and the changes not
    settled (the first five). ``stopping``: an
    :class:`analysis.experiments.until_settled.Stopping` whose ``sequences`` have a
    ``state`` in :func:`analysis.settled.settled_state`'s words."""
    state = stopping.sequences["state"]
    words = (f"{int((state == FLAGGED).sum())} change(s) settled beyond their practical threshold, "
             f"{int((state == NO_VERDICT).sum())} settled within it, {int((state == BORDERLINE).sum())} at it")  # fmt: skip
    if not stopping.unsettled:
        return f"Stopped because every change is settled: {words}."
    shown = "; ".join(stopping.unsettled[:5]) + (" …" if len(stopping.unsettled) > 5 else "")
    return f"Stopped at the most games with {len(stopping.unsettled)} change(s) not settled ({shown}); {words}."


def stopping_note(stopping) -> str:
    """Where a comparison played until settled stopped and why (``stopping``, as
    :func:`changes_settled_words`), under the page's title and in the terminal."""
    return f"{settled_summary(stopping, ' per deck')}. {changes_settled_words(stopping)}"
