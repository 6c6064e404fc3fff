"""The skill check's sentences (:mod:`analysis.skill_check`): what a finding gains
from it, the check of each run under the Findings (page and terminal), where a check
played until settled stopped, and the line when no check ran."""

from __future__ import annotations

import pandas as pd

from analysis.report.html import count
from analysis.report.words.common import label_prefix, measure_text
from analysis.settled import FLAGGED, NO_VERDICT, NOT_SETTLED
from analysis.skill_check import CANNOT_TELL, HOLDS
from sim.bots.speed import SKILLED_REFERENCE_BOT


SKILL_MEASURES = {  # kind of analysis.skill_check: what is compared, as a sentence names it
    "ally": "its effect against the average ally",
    "task": "its completion rate",
    "first_player": "the first player's edge over a fair seat",
    "length": "a game's mean length",
    "morale": "the morale-loss events per game",
}


def _difference(r: pd.Series) -> str:
    unit = "pp" if r["unit"] == "pp" else r["unit"]
    return measure_text("", r["difference"], r["difference_low"], r["difference_high"], unit)


def _skilled_games(r: pd.Series) -> str:
    """``the same games`` or ``the first 1,000 of the same games``: what the skilled companion replayed."""
    return "the same games" if r["skilled_n"] >= r["n"] else f"the first {count(r['skilled_n'])} of the same games"


def skill_suffix(r: pd.Series) -> str:
    """The sentences a finding gains from its skill check (a
    :func:`analysis.skill_check.compare_measures` row), with a leading space: the
    value with the skilled bot in every seat and, when it depends on skill, the
    change; when the check's games cannot tell, that."""
    what = SKILL_MEASURES[r["kind"]] if r["kind"] == "task" else ""
    value = measure_text(r["kind"], r["skilled"], r["skilled_low"], r["skilled_high"], r["unit"])
    main = f" against {measure_text(r['kind'], r['value'], r['low'], r['high'], r['unit'])}" if what else ""
    lead = f" With {r['skilled_bot']} in every seat ({_skilled_games(r)}), {what + ' is ' if what else ''}{value}{main}"
    if r["depends_on_skill"]:
        return f"{lead}: depends on skill, a change of {_difference(r)}."
    if r["state"] == CANNOT_TELL:
        return f"{lead}: {count(r['skilled_n'])} games cannot tell yet whether it depends on skill."
    return f"{lead}."


def skill_check_finding(r: pd.Series) -> str:
    bots = r["bots"]
    return (f"{r['subject'][:1].upper()}{r['subject'][1:]} depends on skill: {SKILL_MEASURES[r['kind']]} is "
            f"{measure_text(r['kind'], r['value'], r['low'], r['high'], r['unit'], n=r['n'])} with {bots}, and "
            f"{measure_text(r['kind'], r['skilled'], r['skilled_low'], r['skilled_high'], r['unit'])} with "
            f"{r['skilled_bot']} in every seat ({_skilled_games(r)}): a change of {_difference(r)}.")  # fmt: skip


DETECTABLE_OF = {  # kind: how the check's detectable change is named, and its unit's words
    "ally": ("an ally's effect", "pp"), "task": ("a task's completion", "pp"),
    "first_player": ("the first player's edge", "pp"), "length": ("the mean length", "turns"),
    "morale": ("the morale-loss events per game", "events"),
}


def _detectable_text(rows: pd.DataFrame) -> str:
    """The smallest change the check's games detect, per kind of measure (the median
    over its subjects): ``6.5 pp in an ally's effect (threshold 2), …``."""
    parts = []
    for kind, (name, unit) in DETECTABLE_OF.items():
        of = rows[rows["kind"] == kind]
        if len(of):
            parts.append(f"{of['detectable'].median():.2g} {unit} in {name} (threshold {of['threshold'].iloc[0]:g})")
    return ", ".join(parts)


def skill_check_sentence(rows: pd.DataFrame, label: str = "") -> str:
    """The skill check of one run in sentences (:func:`analysis.skill_check.compare_measures`'s
    rows of the run): the measures that depend on skill, largest change first, the
    measures that hold and those the check's games cannot tell yet, with the
    smallest change they detect; that every verdict holds for skilled play only when
    the check's bot agrees with skilled play and every measure holds; a check played
    until settled marks by its anytime-valid interval. ``label`` names the run."""
    prefix, bot, r = label_prefix(label, ": "), rows["skilled_bot"].iloc[0], rows.iloc[0]
    skilled_n = count(r["skilled_n"])
    where = f"{prefix}With {bot} in every seat on {_skilled_games(r)} (n = {skilled_n} games)"
    marked, undecided = rows[rows["depends_on_skill"]], rows[rows["state"] == CANNOT_TELL]
    holding = int((rows["state"] == HOLDS).sum())
    agrees, settled = bool(rows["skilled_play"].all()), bool(rows["until_settled"].all())
    play = "skilled play" if agrees else f"{bot}'s play"
    out = []
    if len(marked):
        listed = "; ".join(f"{m['subject']} {_difference(m)}" for _, m in
                           marked.reindex(marked["difference"].abs().sort_values(ascending=False).index).iterrows())  # fmt: skip
        verb = "depends" if len(marked) == 1 else "depend"
        how = ("its anytime-valid 95% interval wholly beyond the practical threshold" if settled else
               "a change of at least the practical threshold after Benjamini–Hochberg correction")  # fmt: skip
        out.append(f"{where}, {len(marked)} of {len(rows)} measures {verb} on skill ({how}): {listed}.")
    else:
        how = "surely" if settled else "after Benjamini–Hochberg correction"
        out.append(f"{where}, no measure of the findings changes by its practical threshold or more {how} "
                   f"({len(rows)} measures).")  # fmt: skip
    if len(undecided):
        tell = undecided["games_to_tell"].dropna()
        more = (f"; about {count(tell.median())} skilled games would tell the median one" if len(tell) else "")
        out.append(f"{holding} hold for {play}; {len(undecided)} cannot tell yet: {skilled_n} games detect a change "
                   f"of {_detectable_text(rows)}{more}.")  # fmt: skip
    elif not len(marked):
        out.append(f"Every verdict holds for {play}: each measure's change lies within its threshold.")
    if not agrees:
        out.append(f"{bot} has not been shown to play as skilled players do (its card effects against the reference "
                   f"of skilled play, {SKILLED_REFERENCE_BOT}), so this says nothing of skilled play.")  # fmt: skip
    return " ".join(out)


def skill_settled_sentence(stopping, label: str = "") -> str:
    """Where a skill check played until settled stopped, in one sentence: the skilled
    games played, why it stopped and, when not every change is settled, how many are
    not, the first five, and the skilled games that would settle them at their present
    estimates (their ``games_to_tell``).

    Parameters
    ----------
    stopping : analysis.experiments.until_settled.Stopping
        Of :func:`analysis.experiments.check_skill.play_until_settled`: its
        ``sequences`` are :func:`analysis.skill_check.compare_measures` rows with
        ``state`` in :func:`analysis.settled.settled_state`'s words.
    label : str
        Names the run, when several were checked.
    """
    rows = stopping.sequences
    played = (f"{label_prefix(label, ': ')}Until settled: {count(stopping.games)} skilled games of at most "
              f"{count(stopping.max_games)} in {stopping.rounds} round{'s' * (stopping.rounds != 1)}")  # fmt: skip
    if stopping.reason == "settled":
        return (f"{played}, stopped because every measure's change is settled: {int((rows['state'] == FLAGGED).sum())} "
                f"surely beyond its threshold (depends on skill), {int((rows['state'] == NO_VERDICT).sum())} surely "
                f"within it (holds).")  # fmt: skip
    open_ = rows[rows["state"] == NOT_SETTLED]
    shown = "; ".join(open_["subject"][:5]) + (" …" if len(open_) > 5 else "")
    tell, games, stuck = open_["games_to_tell"].dropna(), int(rows["n"].max()), int(open_["games_to_tell"].isna().sum())
    need = []
    if len(tell):
        which = f"{len(tell)} of them" if stuck else "them"
        longer = f" (more than the run's {count(games)}: a longer run first)" if tell.max() > games else ""
        need.append(f"about {count(tell.max())} skilled games would settle {which}{longer}")
    if stuck:
        need.append(f"no number of skilled games would settle {f'the other {stuck}' if len(tell) else 'them'}, the "
                    f"main run's own interval being too wide")  # fmt: skip
    return (f"{played}, stopped at the most games with {len(open_)} of {len(rows)} measures not settled ({shown}): "
            f"at their present estimates {', and '.join(need)}.")  # fmt: skip


def no_skill_check_line(bots: str, command: str, bot: str, games: int, minutes: float | None) -> str:
    """The line the findings end with when no skill check ran: the verdicts are the
    run's bots', and the command that checks them, with its games and its estimated
    time on this machine."""
    took = f", about {minutes:.0f} minutes on this machine" if minutes is not None else ""
    return (f"Skill check — not played: these verdicts are for the run's bots ({bots}). To see which hold for skilled "
            f"play: {command} ({count(games)} games of {bot} in every seat{took}).")  # fmt: skip


SKILL_CHECK_ON_PAGE = "revachol skill-check RUN, RUN being the folder that holds this report's folder"
"""The skill check's command on the page, whose run folder's name carries the deck's hash."""


def skill_check_lines(check: pd.DataFrame | None, unchecked: pd.DataFrame | None = None,
                      on_page: bool = False) -> list[str]:  # fmt: skip
    """The skill check's sentences per run, under the Findings (page and terminal):
    the check's (``check``, :func:`analysis.skill_check.compare_measures`), or for a
    run with none, the line that says so and how to play it (``unchecked``,
    :func:`analysis.skill_check.unchecked`: in the terminal the command to copy, on
    the page, ``on_page``, :data:`SKILL_CHECK_ON_PAGE`). With several runs each names
    its run."""
    lines = []
    if check is not None and not check.empty:
        several = check["run"].nunique() > 1
        lines += [f"Skill check — {skill_check_sentence(rows, str(run) if several else '')}"
                  for run, rows in check.groupby("run", sort=False)]  # fmt: skip
    if unchecked is not None:
        lines += [no_skill_check_line(r["bots"], SKILL_CHECK_ON_PAGE if on_page else r["command"], r["bot"], r["games"],
                                      r["minutes"]) for _, r in unchecked.iterrows()]  # fmt: skip
    return lines
