"""The balance report: one self-contained HTML page, its tables as CSV, its figures
as PNG.

Layout of ``out`` (default ``RUN_DIR/report``)::

    report.html          warnings (estimated values, incomplete runs), the Findings
                         block, one section per question, provenance at the end
    tables/<name>.csv    every table, raw numbers (rates as fractions), named after
                         the function of analysis.length/morale/cards/seats/
                         task_calibration/findings
    figures/<name>.png   the figures embedded in the page

The Findings block (:mod:`analysis.report.findings`) opens the page: one sentence per
finding, most important first, each linking to its section. Each section opens with
a one-sentence answer per run, then its figures and tables; tables sort by any
column in the page (:func:`analysis.report.html.sortable_html`). Every rate or mean carries
its n and a 95% confidence interval (:mod:`analysis.stats.inference`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from html import escape
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd

from analysis import cards, closeness, length, morale, seats, skill
from analysis.report.figures import (plot_ally_strength, plot_length_histogram, plot_margins, plot_morale_events,
                                     plot_morale_saves, plot_scores, plot_seat_win_rates, plot_skill, plot_survival,
                                     plot_task_calibration, plot_task_outcomes)
from analysis.report.findings import FINDINGS_SHOWN, findings, skill_verdict
from analysis.report.csv_cells import write_csv
from analysis.report.html import count, estimate, figure_png, image_html, page, present, sortable_html, sortable_script
from analysis.task_calibration import DEFAULT_THRESHOLD_POINTS, points_text, task_calibration
from analysis.task_calibration import passes as task_passes
from analysis.data.progress import ReadProgress
from analysis.data.runs import Run, RunsLike, open_runs
from analysis.data.passes import prefetch
from analysis.data.stream import reading
from sim import __version__
from sim.rundir import POINTS_BLIND_COMPANION

REPORT_FILE = "report.html"


@dataclass(frozen=True)
class WrittenReport:
    """What :func:`build_report` wrote, with the tables it wrote, for a caller that
    shows them (the command line prints the findings) without reading the CSV back."""

    path: Path  # the HTML page, ``out/report.html``
    findings: pd.DataFrame  # :func:`analysis.report.findings.findings`, the block the page opens with (tables/findings.csv)
    tables: dict[str, pd.DataFrame]  # every section's table by name, as written to tables/<name>.csv


@dataclass
class Table:
    """A table of a section: written as ``tables/<name>.csv``, shown in the page
    unless ``shown`` is False (long tables: CSV only)."""

    name: str  # the table function's name, and the CSV's
    frame: pd.DataFrame
    caption: str
    hide: tuple[str, ...] = ()
    shown: bool = True  # in the page; always written as CSV
    display: str | None = None  # HTML to show instead of the table itself
    empty: str = "No rows: nothing of this kind happened in this run, or every game was left out (stalled or truncated)."  # shown instead of a table without rows


@dataclass
class Section:
    """One question of the report: per run a one-sentence answer and the details
    behind it, then notes, figures and tables."""

    title: str
    answers: list[tuple[str, str]]  # (answer, details) per run, plain text
    notes: list[str] = field(default_factory=list)  # plain text
    figures: list[tuple[str, object, str]] = field(default_factory=list)  # (name, Figure, alt text)
    tables: list[Table] = field(default_factory=list)


def _rows(frame: pd.DataFrame, run: Run) -> pd.DataFrame:
    return frame[frame["run"] == run.name]


def _prefix(runs: list[Run], run: Run) -> str:
    return f"{run.label} — " if len(runs) > 1 else ""


def _value(row: pd.Series, column: str, unit: str = "%", **text) -> str:
    """``row[column]`` with its interval (``estimate``'s ``n``, ``n_of``, ``noun``, ``least``)."""
    return estimate(row[column], row[f"{column}_low"], row[f"{column}_high"], unit, **text)


def _median_turn(curve: pd.DataFrame) -> str | None:
    """The first turn at which the Kaplan–Meier curve reaches 50%, if it does."""
    reached = curve[curve["survival"] <= 0.5]
    return None if reached.empty else str(int(reached["turn"].iloc[0]))


def _length_section(runs: list[Run]) -> Section:
    summary, endings = length.game_length(runs), length.game_endings(runs)
    histogram = length.length_histogram(runs)
    survival, first_event = length.length_survival(runs), length.first_event_incidence(runs)
    answers = []
    for run in runs:
        turns, rounds = (_rows(summary, run).set_index("measure").loc[m] for m in ("turns", "rounds"))
        ended = _rows(endings, run).set_index("ending")
        median_end = _median_turn(_rows(survival, run))
        median_event = _median_turn(_rows(first_event, run).assign(survival=lambda f: 1 - f["incidence"]))
        end = (f"half the games are over by turn {median_end}" if median_end
               else "fewer than half the games end before the turn cap")  # fmt: skip
        event = (f"half have had their first morale-loss event by turn {median_event}" if median_event
                 else "more than half never have a morale-loss event")  # fmt: skip
        capped = " (means and percentiles count truncated games at the cap)" if ended.loc["truncated", "count"] else ""
        answers.append((
            f"{_prefix(runs, run)}A game lasts {_value(turns, 'mean', '', noun='turns', n=turns['games'])} on "
            f"average; {_value(ended.loc['stalled'], 'share')} of games stalled and "
            f"{_value(ended.loc['truncated'], 'share')} were truncated at the turn cap.",
            f"That is {_value(rounds, 'mean', '', noun='rounds')} on average, and 90% of games last "
            f"{turns['p5']:.0f}–{turns['p95']:.0f} turns{capped}. By the Kaplan–Meier curve {end}, and by the "
            f"cumulative incidence curve {event}.",
        ))  # fmt: skip
    return Section(
        "Game length",
        answers,
        ["Every game counts here, however it ended. In the game-length curve a truncated game is censored at the "
         "turn cap (it would have gone on); the hazard (in the CSV) is the share of the games still running that "
         "end at each turn (Isaksen, Gopstein & Nealen 2015). A game that ends without a morale-loss event will "
         "never have one, so the first-event curve is a cumulative incidence (Aalen–Johansen) with the end of the "
         "game as a competing risk, not a Kaplan–Meier curve that would censor it. Intervals are pointwise 95%: "
         "each turn's holds on its own, not the whole curve at once."],
        [("length_histogram", plot_length_histogram(histogram), "Share of games by length in turns"),
         ("survival", plot_survival(survival, first_event),
          "Kaplan–Meier curve of game length and cumulative incidence of the first morale-loss event")],
        [Table("game_length", summary, "Turns and rounds per game."),
         Table("game_endings", endings, "How games ended (RULES R9.1; stalled and truncated: R4 Reading)."),
         Table("length_histogram", histogram, "Games per length.", shown=False),
         Table("length_survival", survival, "Kaplan–Meier curve of game length.", shown=False),
         Table("first_event_incidence", first_event, "Cumulative incidence of the first morale-loss event "
               "(Aalen–Johansen; the end of a game without one competes).", shown=False)],
    )  # fmt: skip


def _saves_text(by_saves: pd.DataFrame) -> str:
    """A sentence on the win rate of players saved 0 and 1 times (:func:`analysis.morale.win_rate_by_saves`),
    with a leading space; empty when the run has no player saved once."""
    saves = by_saves.set_index("saves")
    if not {0, 1} <= set(saves.index):
        return ""
    return (f" Players the dice never saved win {_value(saves.loc[0], 'win_rate', n=saves.loc[0, 'player_games'], n_of='player-games')}"
            f", those saved once {_value(saves.loc[1], 'win_rate', n=saves.loc[1, 'player_games'], n_of='player-games')}.")  # fmt: skip


def _impact_text(impact: pd.DataFrame, by_saves: pd.DataFrame) -> str:
    """Plain sentences on what morale loss decides (:func:`analysis.morale.morale_impact`)."""
    m = impact.set_index("measure")
    luck = _saves_text(by_saves)
    if not m.loc["tasks_lost_share", "n"]:
        ties = (f" {_value(m.loc['tied_on_points'], 'value')} of games are tied on points."
                if m.loc["tied_on_points", "n"] else " No game has a winner.")  # fmt: skip
        return f"No task was completed, so penalties had nothing to take back.{ties}"
    return (f"Penalties take back {_value(m.loc['tasks_lost_share'], 'value', n=m.loc['tasks_lost_share', 'n'], n_of='completed tasks')}"
            f" of completed tasks and {_value(m.loc['points_lost_share'], 'value')} of their points.{luck} "
            f"{_value(m.loc['tied_on_points'], 'value')} of games are tied on points, "
            f"{_value(m.loc['decided_by_dice'], 'value')} are decided by R9.3's die roll and "
            f"{_value(m.loc['won_with_zero_points'], 'value')} are won with 0 points.")  # fmt: skip


def _morale_section(runs: list[Run], include_unfinished: bool) -> Section:
    per_game, events = morale.morale_per_game(runs), morale.morale_event_distribution(runs)
    penalties, saves = morale.player_penalties(runs), morale.morale_cards(runs)
    impact = morale.morale_impact(runs, include_unfinished)
    by_saves = morale.win_rate_by_saves(runs, include_unfinished)
    answers = []
    for run in runs:
        measures = _rows(per_game, run).set_index("measure")
        events_ = measures.loc["morale_events"]
        rows = _rows(saves, run)
        disagree = rows[rows["disagrees"]]
        if rows.empty:
            verdict = "this deck has no morale cards, so no save is ever rolled (R8.2)"
        elif disagree.empty:
            verdict = f"all {len(rows)} morale cards save at the rate their dice requirement gives"
        else:
            listed = "; ".join(f"{r['name']} saves {_value(r, 'save_rate', n=r['rolls'], n_of='rolls')} "
                               f"against {r['exact']}" for _, r in disagree.iterrows())  # fmt: skip
            verdict = (f"{len(disagree)} of {len(rows)} morale cards save at a rate their requirement does not "
                       f"give: {listed}")  # fmt: skip
        answers.append((
            f"{_prefix(runs, run)}A game has "
            f"{_value(events_, 'mean', '', noun='morale-loss events', n=events_['games'])} on average, and "
            f"{_value(measures.loc['failed_share'], 'mean')} of its resolved tasks fail.",
            f"{_impact_text(_rows(impact, run), _rows(by_saves, run))} "
            f"Dice: {verdict} (exact binomial tests, Benjamini–Hochberg q = 0.05).",
        ))  # fmt: skip
    return Section(
        "Morale loss",
        answers,
        ["Every player rolls in every morale-loss event (R8.2), so a card's rolls are its events times the player "
         "count. A card is flagged when its observed save rate disagrees with the exact probability of its "
         "requirement after a Benjamini–Hochberg correction across the morale cards."],
        [("morale_events", plot_morale_events(events), "Share of games by number of morale-loss events")]
        + ([("morale_saves", plot_morale_saves(saves),
             "Observed save rate of each morale card against its exact probability")] if len(saves) else []),
        [Table("morale_per_game", per_game,
               "Per game: morale-loss events, tasks completed and failed, and the failed share."),
         Table("morale_impact", impact, "What morale loss decides: completed tasks and points lost to penalties, "
               "ties, dice-decided games and games won with 0 points."),
         Table("win_rate_by_saves", by_saves, "Win rate by number of morale-loss rolls that saved the player "
               "(dice luck alone)."),
         Table("player_penalties", penalties, "Per player-game: penalties by type (R8.3), saves, tasks lost "
               "(intervals clustered by game)."),
         Table("morale_cards", saves, "Per morale card: events caused and save rate against the exact probability.",
               hide=("card", "probability", "p_value", "games"), empty="This deck has no morale cards."),
         Table("morale_event_distribution", events, "Games by number of morale-loss events.", shown=False)],
    )  # fmt: skip


ADAPTATION = (
    "How the verdicts are made. Holding more allies goes with losing (a player draws when it cannot complete "
    "tasks), so the average ally's held win rate is below 1/n and a test against 1/n would flag almost every "
    "ally. Each ally is measured instead against the average ally of the deck: a conditional logit of the game's "
    "winner on the allies each player held and its turn order, with one stratum per game (McFadden 1974), "
    "centred on the mean ally and read as percentage points of win rate for an average player. An ally is "
    "stronger or weaker when a Benjamini–Hochberg correction across the allies keeps its test (q ≤ 0.05) and "
    "its effect is at least the practical threshold. Beside it, 17lands' ratings adapted (a row is a "
    "player-game): OH WR, the win rate of the players dealt the ally at R3.2 (random deals, so free of the "
    "held-count confound; its average over allies is exactly 1/n); held WR (≈ GIH WR), never-held WR (≈ GNS WR), "
    "IWD = their difference, played WR and play rate, with intervals clustered by game. Held rates are "
    "associations; revachol card-value measures cause by restricted play (Jaffe et al. 2012)."
)


def _pp(row: pd.Series, base: str = "effect") -> str:
    """``row``'s ``<base>_pp`` with its ``<base>_low_pp``/``<base>_high_pp`` interval."""
    return estimate(row[f"{base}_pp"] / 100, row[f"{base}_low_pp"] / 100, row[f"{base}_high_pp"] / 100, "pp")


def _strength_answer(rows: pd.DataFrame) -> str:
    if not rows["player_games"].iloc[0]:
        return "No game is left for win rates (all were stalled or truncated; see --include-unfinished)"
    threshold = f"{rows['threshold_pp'].iloc[0]:g} pp"
    flagged = rows[rows["verdict"] != ""].sort_values("effect_pp", ascending=False)
    games = f"n = {count(rows['games'].iloc[0])} games"
    if flagged.empty:
        return (f"No ally differs from the average ally by {threshold} or more after Benjamini–Hochberg "
                f"correction ({len(rows)} allies, {games})")  # fmt: skip
    parts = [f"{kind}: " + ", ".join(f"{r['name']} {_pp(r)}" for _, r in group.iterrows())
             for kind, group in (("stronger", flagged[flagged["verdict"] == "stronger"]),
                                 ("weaker", flagged[flagged["verdict"] == "weaker"].iloc[::-1])) if len(group)]  # fmt: skip
    return (f"{len(flagged)} of {len(rows)} allies differ from the average ally by at least {threshold} of win "
            f"rate ({games}); {'; '.join(parts)}")  # fmt: skip


def _never(rows: pd.DataFrame, column: str, what: str, lacking: str) -> str:
    """A sentence, with a leading space, naming the cards of ``rows`` whose ``column``
    is 0 (an ally nobody held, a task nobody completed); empty when there is none."""
    never = rows.loc[rows[column] == 0, "name"]
    if never.empty:
        return ""
    return f" Never {what} ({len(never)} of {len(rows)}), so {lacking}: {', '.join(map(str, never))}."


def _completers_display(completers: pd.DataFrame) -> str:
    """Which position completes each task, one share and one interval column per
    position (run by run), sortable."""
    parts = []
    for run, rows in completers.groupby("run", sort=False):
        cells = present(rows, ("task", "completions", "count", "baseline"), compact=True).assign(
            position=rows["position"].to_numpy(), name=rows["name"].to_numpy())  # fmt: skip
        values = [c for c in cells.columns if c.startswith("share")]
        wide = cells.pivot_table(index="name", columns="position", values=values, aggfunc="first", sort=False)
        wide.columns = [f"position {p} {'95% CI' if 'CI' in v else '(%)'}" for v, p in wide.columns]
        wide = wide[sorted(wide.columns, key=lambda c: (int(c.split()[1]), "CI" in c))]
        wide.insert(0, "completions", rows.drop_duplicates("name").set_index("name")["completions"])
        title = f"<p class='note'>{escape(str(run))}</p>" if completers["run"].nunique() > 1 else ""
        parts.append(title + sortable_html(wide.reset_index()))
    return "\n".join(parts)


def _cards_section(runs: list[Run], include_unfinished: bool, threshold_pp: float, outcomes: pd.DataFrame,
                   bot: str | None = None) -> Section:  # fmt: skip
    strength = cards.ally_strength(runs, include_unfinished, threshold_pp, bot).sort_values(
        ["run", "effect_pp"], ascending=[True, False], kind="stable")
    contributions = cards.ally_contributions(runs)
    completers = cards.task_completers(runs)
    answers = []
    for run in runs:
        tasks, allies = _rows(outcomes, run), _rows(strength, run)
        easiest, hardest = tasks.loc[tasks["completion_rate"].idxmax()], tasks.loc[tasks["completion_rate"].idxmin()]
        answers.append((
            f"{_prefix(runs, run)}{_strength_answer(allies)}.",
            f"Tasks: the completion rate ranges from {_value(hardest, 'completion_rate', n=hardest['games'])} for "
            f"{hardest['name']} to {_value(easiest, 'completion_rate')} for {easiest['name']}."
            f"{_never(allies[allies['player_games'] > 0], 'held_n', 'held by any player', 'no held win rate')}",
        ))  # fmt: skip
    return Section(
        "Card strength",
        answers,
        [ADAPTATION, "Ally contributions and task figures count every game of the run."],
        [("ally_strength", plot_ally_strength(strength),
          "Each ally's effect on win rate against the average ally, with its confidence interval"),
         ("task_outcomes", plot_task_outcomes(outcomes), "Completion rate of each task")],
        [Table("ally_strength", strength, "Allies by effect on win rate against the average ally, verdict, "
               "and 17lands-style win rates (RULES R9.3 winner).",
               hide=("ally", "estimated", "baseline", "p_value", "threshold_pp", "games")),
         Table("ally_contributions", contributions, "Allies: task points completed by their squads, times taken by "
               "A6, times lent to A1 (totals and per game).", hide=("ally", "symbols", "estimated")),
         Table("task_outcomes", outcomes, "Tasks: completion and failure rates, completions lost to penalties, "
               "mean turn of completion.", hide=("task", "estimated")),
         Table("task_completers", completers,
               "Tasks: share of completions by turn-order position (fair share 1/players).",
               display=_completers_display(completers))],
    )  # fmt: skip


CALIBRATION = (
    "How a task's reward is judged: each task is set against the monotone (isotonic) fit of points on difficulty "
    "over the other tasks, and overpays when it pays at least {threshold} more than the tasks as hard or harder, or "
    "underpays when it pays at least that much less than the tasks as easy or easier, significant after a "
    "Benjamini–Hochberg correction (q ≤ 0.05; game-clustered bootstrap). {difficulty} Expected points = points × "
    "completion rate × (1 − share of completions lost to penalties): what the task is worth per game."
)
BLIND = ("Difficulty is the completion rate in a companion run of the same games with every task paying "
         "{points} points (the deck's mean, rounded: the engine scores whole points), so that it does not reflect "
         "the bots chasing the reward.")  # fmt: skip
AS_PLAYED_NOTE = ("Difficulty is the completion rate as played ({why}: run `revachol run` to play it), so a "
                  "low-paying task the bots pass over looks harder than it is.")  # fmt: skip


def _difficulty_sentence(runs: list[Run], calibration: pd.DataFrame) -> str:
    notes = []
    for run in runs:
        rows = _rows(calibration, run)
        if (rows["difficulty"] == "points-blind").all():
            points = (run.manifest.get("companions") or {}).get(POINTS_BLIND_COMPANION, {}).get("task_points")
            notes.append(_prefix(runs, run) + BLIND.format(points=points))
        else:
            notes.append(_prefix(runs, run) + AS_PLAYED_NOTE.format(why=rows["difficulty_note"].iloc[0]))
    return " ".join(dict.fromkeys(notes))


def _tasks_section(runs: list[Run], outcomes: pd.DataFrame, threshold_points: float) -> Section:
    calibration = task_calibration(runs, threshold_points, outcomes).sort_values(["run", "gap_points"], kind="stable")
    threshold = points_text(threshold_points)
    answers = []
    for run in runs:
        rows = _rows(calibration, run)
        flagged = rows[rows["verdict"] != ""].sort_values("gap_points")
        completed = _rows(outcomes, run).set_index("task")["completions"]
        if not completed.any():
            answer = ("No task was ever completed in this run, so no reward can be set against its difficulty "
                      f"({len(rows)} tasks).")  # fmt: skip
        elif flagged.empty:
            answer = (f"No task pays {threshold} or more out of order with its difficulty: none pays that much more "
                      f"than tasks as hard or harder, or less than tasks as easy or easier ({len(rows)} tasks).")  # fmt: skip
        else:
            answer = f"{len(flagged)} of {len(rows)} tasks pay out of order with their difficulty: " + " ".join(
                f"{r['out_of_order_with']} It {r['verdict']} by {points_text(r['gap_points'])} (par "
                f"{estimate(r['par_points'], r['par_points_low'], r['par_points_high'], '')})."
                for _, r in flagged.iterrows())  # fmt: skip
        low, high = rows.loc[rows["expected_points"].idxmin()], rows.loc[rows["expected_points"].idxmax()]
        never = _never(rows.assign(completions=completed.reindex(rows["task"]).to_numpy()), "completions",
                       "completed", "their par rests on the other tasks alone") if completed.any() else ""  # fmt: skip
        answers.append((f"{_prefix(runs, run)}{answer}",
                        f"Expected points per game range from {_value(low, 'expected_points', '', n=low['games'])} "
                        f"for {low['name']} to {_value(high, 'expected_points', '')} for {high['name']}.{never}"))  # fmt: skip
    return Section(
        "Task rewards",
        answers,
        [CALIBRATION.format(threshold=threshold, difficulty=_difficulty_sentence(runs, calibration))],
        [("task_calibration", plot_task_calibration(calibration),
          "Each task's points against its points-blind completion rate, with the monotone par and its band")],
        [Table("task_calibration", calibration, "Tasks by gap from par, most underpaid first: verdict, the tasks it "
               "is out of order with, par, expected points per game, completion rates as played and points-blind, "
               "requirement.",
               hide=("task", "p_value", "threshold_points", "games", "difficulty_games", "difficulty_note",
                     "fit_points", "fit_points_low", "fit_points_high"))],
    )  # fmt: skip


def _closeness_section(runs: list[Run]) -> Section:
    summary, margins = closeness.closeness(runs), closeness.margin_histogram(runs)
    answers = []
    for run in runs:
        m = _rows(summary, run).set_index("measure")
        games = m.loc["margin", "games"]
        if not games:
            answers.append((f"{_prefix(runs, run)}No game has a winner (all were stalled or truncated), so there "
                            f"is no margin or lead to measure.", ""))  # fmt: skip
            continue
        answers.append((
            f"{_prefix(runs, run)}The winner finishes {_value(m.loc['margin'], 'value', '', noun='points', n=games)} "
            f"ahead of the runner-up on average, and {_value(m.loc['comeback_rate'], 'value')} of winners were "
            f"behind at the half-way turn.",
            f"The lead changes hands {_value(m.loc['lead_changes'], 'value', '', noun='times')} per game, and the "
            f"final lead is taken {_value(m.loc['decisiveness'], 'value', n=m.loc['decisiveness', 'games'])} of "
            f"the way through the game (later means more open to the end).",
        ))  # fmt: skip
    return Section(
        "Closeness and drama",
        answers,
        ["Ludii's LeadChange, Drama and Decisiveness metrics, adapted to a game scored at its end: after every turn "
         "the engine notes which seats have the most points (R9.2); a lead change is a new seat leading alone "
         "(ties change nothing). Decisiveness is the turn the last lone leader took the lead over the game's turns; "
         "games no seat ever led alone are left out of it. Finished games only (R4 Reading)."],
        [("margins", plot_margins(margins), "Share of games by the winner's margin in points")],
        [Table("closeness", summary, "Margin, lead changes, decisiveness and comeback rate per game."),
         Table("margin_histogram", margins, "Games per winning margin.", shown=False)],
    )  # fmt: skip


SKILL_NOTE = (
    "How skill is measured. A run that mixes bots sets a stronger bot against weaker ones: the bot of a single "
    "seat when every other seat plays one other bot (as revachol skill plays its ladder), else the bot with the "
    "highest win rate per seat. Its win rate is the share of games won by any of its seats, against the fair "
    "share of its seats (seats / players), with a Wilson interval; the upset rate is the share the weaker bots "
    "win. Per bot, the win rate per seat pools a bot's seats, with intervals clustered by game. The skill trace "
    "(Ludii's SkillTrace) plays a bot at budget b in one seat against itself at b/2, as b doubles: the gain "
    "pays when its interval clears fair and its gain reaches the practical threshold, and flattens at the first "
    "budget from which no larger budget pays. "
    "Luck: R9.3's die roll (completed tasks tied too) and the morale saves (R8.2), pure dice."
)


BY_BOT_NOTE = (
    "Allies by bot. In a run of two bots, one conditional logit of the winner gives each bot its own ally effects "
    "against its own average ally (the Card strength section's model, with an ally block per bot); an ally is "
    "flagged when the difference between the stronger and the weaker bot's effect survives a Benjamini–Hochberg "
    "correction across the allies (q ≤ 0.05) and is at least the practical threshold. It says which cards reward "
    "skill; revachol card-value --bot STRONG --bot WEAK measures one bot's value of each card by restricted play."
)


def _by_bot_answer(rows: pd.DataFrame, prefix: str) -> tuple[str, str]:
    """Sentences on the allies the two bots of a run value differently (:func:`analysis.skill.ally_strength_by_bot`)."""
    strong, weak = rows["strong"].iloc[0], rows["weak"].iloc[0]
    flagged = rows[rows["verdict"] != ""].sort_values("difference_pp", ascending=False)
    threshold = f"{rows['threshold_pp'].iloc[0]:g} pp"
    if flagged.empty:
        return (f"{prefix}No ally's effect on winning differs between {strong} and {weak} by {threshold} or more "
                f"after Benjamini–Hochberg correction ({len(rows)} allies, n = {count(rows['games'].iloc[0])} "
                f"games).", "")  # fmt: skip
    listed = "; ".join(f"{r['name']} {_pp(r, 'difference')}"
                       for _, r in flagged.iterrows())  # fmt: skip
    return (f"{prefix}{len(flagged)} of {len(rows)} allies are worth a different amount to {strong} than to "
            f"{weak} (effect for {strong} minus for {weak}, at least {threshold}): {listed}.",
            f"n = {count(rows['games'].iloc[0])} games.")  # fmt: skip


def _trace_answer(trace: pd.DataFrame) -> tuple[str, str]:
    flat = int(trace["flattens_at"].iloc[0])
    points = "; ".join(f"budget {int(r['budget'])} against {int(r['budget']) // 2}: {_value(r, 'win_rate', n=r['games'])}"
                       for _, r in trace.iterrows())  # fmt: skip
    last = int(trace["budget"].iloc[-1])
    first, threshold = int(trace["budget"].iloc[0]), f"{trace['threshold_pp'].iloc[0]:g} pp"
    if not flat:
        verdict = f"more thinking still pays at budget {last}, the largest played"
    elif flat == first:
        verdict = (f"already at budget {first}, the smallest played, doubling the budget gains less than {threshold} "
                   f"or nothing significant")  # fmt: skip
    else:
        verdict = (f"more thinking stops paying at budget {flat}: doubling the budget there or beyond gains less than "
                   f"{threshold} or nothing significant")  # fmt: skip
    bot = str(trace["strong"].iloc[0]).split(":")[0]
    answer = f"Skill trace ({bot} at budget b against itself at b/2, {trace['players'].iloc[0]} players): {verdict}."
    return answer, f"Win rate of the stronger seat: {points}."


def _skill_section(runs: list[Run], include_unfinished: bool, threshold_pp: float, by_saves: pd.DataFrame,
                   trace_points) -> Section:  # fmt: skip
    summary = skill.skill_summary(runs, include_unfinished, threshold_pp)
    summary = summary[summary["games"] > 0] if len(summary) else summary  # a run of stalled games compares nothing
    trace = (skill.skill_trace(trace_points, include_unfinished, threshold_pp).assign(threshold_pp=threshold_pp)
             if trace_points else pd.DataFrame())  # fmt: skip
    if summary.empty and trace.empty:  # one bot in every seat, or no game left to compare the bots on
        mixed = [run.label for run in runs if len(set(run.bot_names)) > 1]
        return Section("Skill and luck", [(
            f"No game is left to compare the bots of {', '.join(mixed)} (all were stalled or truncated)." if mixed
            else "Every seat plays the same bot, so there is no skill to measure: mix bots (revachol skill, or one "
                 "--bot per seat) to set a stronger bot against a weaker one.", "")])  # fmt: skip
    gradient = skill.skill_gradient(runs, include_unfinished)
    answers = []
    if len(summary):
        top = summary.loc[summary["win_rate_ratio"].idxmax()]
        lead = f"At its widest ({top['run']}, {top['players']} players), " if len(summary) > 1 else ""
        answers.append((f"{lead}{skill_verdict(top)}.", ""))
    for _, row in summary.iterrows():
        run = next(r for r in runs if r.name == row["run"])
        beaten = "" if row["beats"] else (f" It does not beat them by {threshold_pp:g} pp with confidence.")
        per_bot = "; ".join(f"{r['bot']} wins {_value(r, 'win_rate', n=r['player_games'], n_of='player-games')} "
                            f"per seat" for _, r in _rows(gradient, run).iterrows())  # fmt: skip
        answers.append((f"{_prefix(runs, run)}{row['strong']} against {row['weak']}: "
                        f"{_pp(row, 'gain')} over its fair share.{beaten}",
                        f"Per bot: {per_bot}.{_saves_text(_rows(by_saves, run))}"))  # fmt: skip
    if len(trace):
        answers.append(_trace_answer(trace))
    by_bot = skill.ally_strength_by_bot(runs, include_unfinished, threshold_pp)
    for run_name, rows in (by_bot.groupby("run", sort=False) if len(by_bot) else ()):
        answers.append(_by_bot_answer(rows, f"{run_name}: " if len(runs) > 1 else ""))
    tables = [Table("skill_summary", summary, "The stronger bot of each run: games won against its fair share, "
                    "upsets and dice.", hide=("p_value",))] if len(summary) else []  # fmt: skip
    if len(gradient):
        tables.append(Table("skill_gradient", gradient, "Win rate per seat of every bot against fair (1/players)."))
    if len(trace):
        tables.append(Table("skill_trace", trace, "Skill trace: the bot at each budget against itself at half of it.",
                            hide=("run", "bots", "threshold_pp")))  # fmt: skip
    if len(by_bot):
        tables.append(Table("ally_strength_by_bot", by_bot.sort_values(["run", "difference_pp"], kind="stable"),
                            "Allies by bot: each ally's effect against the average ally for the stronger and the "
                            "weaker bot, and the difference.", hide=("ally", "symbols", "estimated", "p_value",
                                                                     "threshold_pp", "games")))  # fmt: skip
    return Section("Skill and luck", answers, [SKILL_NOTE, BY_BOT_NOTE],
                   [("skill", plot_skill(summary, trace), "The stronger bot's win rate against fair, and "
                     "the skill trace")], tables)  # fmt: skip


def _seats_section(runs: list[Run], include_unfinished: bool) -> Section:
    win_rates, summary = seats.seat_win_rates(runs, include_unfinished), seats.seat_balance(runs, include_unfinished)
    scores, histogram = seats.score_summary(runs, include_unfinished), seats.score_histogram(runs, include_unfinished)
    bots, gaps = seats.bot_win_rates(runs, include_unfinished), seats.seat_differences(runs, include_unfinished)
    answers = []
    for run in runs:
        row = _rows(summary, run).iloc[0]
        fair = estimate(run.baseline, np.nan, np.nan)
        by_bot = _rows(bots, run)
        bot_rates = [f"{r['bot']} wins {_value(r, 'win_rate', n=r['player_games'], n_of='player-games')}"
                     for _, r in by_bot.iterrows() if not r["by_construction"]]  # fmt: skip
        bot_text = f" By bot: {'; '.join(bot_rates)}." if len(bot_rates) > 1 else ""
        if not row["games"]:
            answers.append((f"{_prefix(runs, run)}No game is left for win rates: all were stalled or truncated "
                            f"(see --include-unfinished).", ""))  # fmt: skip
            continue
        ratio = estimate(row["advantage_p1_ratio"], row["advantage_p1_ratio_low"], row["advantage_p1_ratio_high"], "",
                         least=2)  # fmt: skip
        fair_test = (f"a χ² test rejects equal positions (p = {row['chi2_p_value']:.2g})" if row["chi2_p_value"] < 0.05
                     else f"a χ² test finds no difference between positions (p = {row['chi2_p_value']:.2g})")  # fmt: skip
        answers.append((
            f"{_prefix(runs, run)}The first player wins {_value(row, 'advantage_p1', n=row['games'])} "
            f"against {fair} for a fair seat, {ratio} times the fair rate; {fair_test}.",
            f"Balance is {row['balance']:.3f} (a fair table of this size stays above {row['balance_fair_5']:.3f} in "
            f"95% of runs); {_value(row, 'tied_on_points_rate')} of games are tied on points and "
            f"{_value(row, 'decided_by_dice_rate')} are decided by dice (R9.3).{bot_text}",
        ))  # fmt: skip
    return Section(
        "Seat advantage",
        answers,
        ["Seats are numbered at random (R2.2), so the advantage is measured by turn order (R9.4): position 1 is the "
         "first player. The χ² goodness-of-fit test asks whether every position wins equally often; the gaps "
         "between positions carry simultaneous 95% intervals (Bonferroni over the pairs). AdvantageP1 (Ludii) is "
         "the first player's win rate, also as a ratio to the fair 1/n. Balance (Ludii) = 1 − the largest gap "
         "between two positions' win rates; noise alone keeps it below 1, so it has no interval, only the value "
         "a fair table stays above. Tied on points: the top score was shared and R9.3's tie rules chose the "
         "winner; decided by dice: completed tasks tied too. A bot that plays every seat wins 1/n by "
         "construction and is shown without an interval."],
        [("seat_win_rates", plot_seat_win_rates(win_rates), "Win rate by turn-order position"),
         ("scores", plot_scores(histogram), "Final score distribution by turn-order position")],
        [Table("seat_win_rates", win_rates, "Win rate by turn-order position."),
         Table("seat_balance", summary, "χ² test of equal positions, Balance, AdvantageP1 and ties."),
         Table("seat_differences", gaps, "Gaps between the win rates of two positions, with simultaneous 95% "
               "intervals."),
         Table("score_summary", scores, "Final scores (points, R9.2) by turn-order position."),
         Table("bot_win_rates", bots, "Win rate by bot."),
         Table("score_histogram", histogram, "Final scores by turn-order position.", shown=False)],
    )  # fmt: skip


def _estimated_line(run: Run) -> str | None:
    deck = run.deck
    if not deck.has_estimates:
        return None
    groups = {"allies": deck.allies, "tasks": deck.tasks, "morale cards": deck.morale}
    marked = sum(bool(card.estimated) for cards_ in groups.values() for card in cards_)
    total = sum(len(cards_) for cards_ in groups.values())
    fields = "; ".join(f"{name}: {', '.join(sorted({f for card in cards_ for f in card.estimated}))}"
                       for name, cards_ in groups.items() if any(card.estimated for card in cards_))  # fmt: skip
    return (f"This deck holds estimated values: {marked} of {total} cards list estimated fields ({fields}). "
            f"The figures describe these estimates, not the printed game (RULES R1 Reading).")


def _companion_text(manifest: dict) -> str:
    """The manifest's record of the points-blind companion (sim.points_blind), as text."""
    blind = (manifest.get("companions") or {}).get(POINTS_BLIND_COMPANION)
    if not isinstance(blind, dict):
        return "none (task difficulty from completion as played)"
    return f"{blind.get('dir')}/: the same games with every task paying {blind.get('task_points')} points"


def _provenance(run: Run, include_unfinished: bool) -> str:
    m, games = run.manifest, run.games
    timings = m.get("timings", {})
    wall = sum(r.get("wall_seconds", 0.0) for r in timings.get("runs", []))
    rows = [
        ("run directory", str(run.path)),
        ("toolkit version", f"{m.get('toolkit_version')} (report made with {__version__})"),
        ("rules version", m.get("rules_version")),
        ("deck hash", m.get("deck_hash")),
        ("card file", m.get("cards_file")),
        ("games", f"{count(games)} in the tables ({count(m.get('n_games', 0))} requested)"),
        ("players", m.get("n_players")),
        ("bots", f"{run.bots} (by seat: {', '.join(run.bot_names)})"),
        ("root seed", m.get("root_seed")),
        ("rule options", ", ".join(f"{k} = {v}" for k, v in m.get("rule_options", {}).items())),
        ("status", f"{m.get('status')}, finished {m.get('finished', '–')}"),
        ("timings", f"{wall:,.1f} s wall over {len(timings.get('runs', []))} session(s), "
                    f"{timings.get('chunk_seconds', 0.0):,.1f} s in workers, backend {m.get('backend', '–')}"),
        ("points-blind companion", _companion_text(m)),
    ]  # fmt: skip
    body = "".join(f"<tr><td>{escape(k)}</td><td>{escape(str(v))}</td></tr>" for k, v in rows)
    unfinished = len(run.unfinished)
    if include_unfinished:
        note = f"Win rates and scores count the {count(unfinished)} stalled and truncated games (asked for)."
    else:
        note = (f"Win rates and scores leave out stalled and truncated games (RULES R4 Reading): "
                f"{count(unfinished)} in this run. Pass --include-unfinished to count them.")  # fmt: skip
    return (f"<h3>{escape(run.label)}</h3>\n<table class='provenance'>{body}</table>\n"
            f"<p class='note'>{escape(note)}</p>\n")  # fmt: skip


def _warnings(runs: list[Run]) -> str:
    """The banners that stay on top: estimated card values, incomplete runs."""
    warnings = []
    for run in runs:
        m, games = run.manifest, run.games
        if m.get("status") != "complete" or games != m.get("n_games"):
            warnings.append(f"{_prefix(runs, run)}This run is not complete: {count(games)} of "
                            f"{count(m.get('n_games', 0))} games are in its tables.")  # fmt: skip
    decks = {run.deck.content_hash: run for run in runs}  # runs of one deck share its banner
    for run in decks.values():
        estimated = _estimated_line(run)
        if estimated:
            warnings.append(f"{_prefix(runs, run) if len(decks) > 1 else ''}{estimated}")
    return "".join(f"<p class='warning'>{escape(w)}</p>\n" for w in warnings)


def _anchor(title: str) -> str:
    return title.lower().replace(" ", "-")


def _findings_html(table: pd.DataFrame) -> str:
    """The Findings block: the first :data:`FINDINGS_SHOWN` findings, then the rest
    folded; each sentence links to its section."""
    items = [f"<li>{escape(r['sentence'])} <a href='#{_anchor(r['section'])}'>{escape(r['section'])} →</a></li>"
             for _, r in table.iterrows()]  # fmt: skip
    shown, rest = items[:FINDINGS_SHOWN], items[FINDINGS_SHOWN:]
    folded = (f"<details><summary>{len(rest)} more finding{'s' * (len(rest) != 1)}</summary>"
              f"<ol start='{FINDINGS_SHOWN + 1}'>{''.join(rest)}</ol></details>") if rest else ""  # fmt: skip
    return (f"<section id='findings'><h2>Findings</h2>\n<p class='note'>Most important first: ranked by the "
            f"distance from fair (or from the target) in units of the practical threshold. As CSV: "
            f"<a href='tables/findings.csv'>tables/findings.csv</a></p>\n"
            f"<ol class='findings'>{''.join(shown)}</ol>{folded}</section>")  # fmt: skip


def _section_html(section: Section, pngs: dict[str, bytes]) -> str:
    parts = [f"<h2 id='{_anchor(section.title)}'>{escape(section.title)}</h2>"]
    for answer, details in section.answers:
        parts.append(f"<p class='answer'>{escape(answer)}</p>")
        parts.append(f"<p>{escape(details)}</p>" if details else "")
    parts += [f"<p class='note'>{escape(note)}</p>" for note in section.notes]
    parts += [image_html(pngs[name], alt) for name, _, alt in section.figures]
    for table in section.tables:
        link = f"<a href='tables/{table.name}.csv'>tables/{table.name}.csv</a>"
        if table.frame.empty:  # an odd deck or run: one plain sentence instead of a table
            parts.append(f"<p class='note'>{escape(table.caption)} {escape(table.empty)} Header only: {link}</p>")
        elif table.shown:
            parts.append(f"<h3>{escape(table.caption)}</h3>")
            parts.append(table.display or sortable_html(present(table.frame, table.hide, compact=True)))
            parts.append(f"<p class='note'>As CSV: {link}</p>")
        else:
            parts.append(f"<p class='note'>{escape(table.caption)} Full table: {link}</p>")
    return "\n".join(parts)


def _made(display: ReadProgress, title: str, make: Callable[..., Section | None], *args) -> Section | None:
    """``make(*args)``, its passes over the runs shown under ``title``."""
    with display.in_section(title):
        return make(*args)


def default_report_dir(runs: list[Run]) -> Path:
    """``<run>/report`` for one run; for several, a folder of its own beside the
    first, ``comparison-<run>+<run>…``, so that no run's own report is overwritten."""
    if len(runs) == 1:
        return runs[0].path / "report"
    return runs[0].path.parent / ("comparison-" + "+".join(run.name for run in runs))


TABLE_PASSES = (length.passes, morale.passes, cards.passes, task_passes, seats.passes, closeness.passes)
"""The passes over a run of the report's tables, computed in one read of its parts."""


def build_report(runs: RunsLike, out: str | Path | None = None, include_unfinished: bool = False,
                 threshold_pp: float = cards.DEFAULT_THRESHOLD_PP, threshold_points: float = DEFAULT_THRESHOLD_POINTS,
                 target_turns: tuple[float, float] | None = None,
                 skill_trace: Sequence[tuple[int, str | Path]] = (), bot: str | None = None,
                 progress: bool | None = None, scheduler: str | None = None,
                 dask_local: int | None = None, workers: int | None = None) -> WrittenReport:  # fmt: skip
    """Write the balance report of one or several runs.

    Parameters
    ----------
    runs : run directory, Run, or a sequence of them
        Several runs split every figure by run (player count, bot mix, deck).
    out : path, optional
        Directory to write (created); default: :func:`default_report_dir`.
    include_unfinished : bool
        Count stalled and truncated games in win rates and scores (RULES R4
        Reading leaves them out by default).
    threshold_pp : float
        Smallest effect on win rate (percentage points) that earns an ally a
        verdict (:func:`analysis.cards.verdicts`), and of the first player's edge
        that counts as a finding's unit of distance (:mod:`analysis.report.findings`).
    threshold_points : float
        Smallest gap from par, in points, that earns a task a verdict
        (:mod:`analysis.task_calibration`).
    target_turns : (low, high), optional
        The designer's target range of mean turns per game, for the findings.
    skill_trace : sequence of (budget, run directory)
        The skill trace's runs (:func:`analysis.experiments.ladder.plan`), for the
        section "Skill and luck" (:mod:`analysis.skill`); that section shows when
        they are given or a run mixes bots.
    bot : str, optional
        Card strength from the player rows of this bot only
        (:func:`analysis.cards.ally_strength`).
    progress : bool, optional
        Show the parts read, rows/s and ETA on stderr (:mod:`analysis.data.progress`);
        default: when stderr is a terminal and the runs hold a million games or more.
    scheduler, dask_local : optional
        Accumulate the statistics on the Dask cluster at this address, or on a new
        LocalCluster of this many workers (:func:`analysis.data.stream.reading`); the
        tables are the same as without.
    workers : int, optional
        Local processes reading the parts side by side (default: every core from
        :data:`analysis.data.pool.PARALLEL_GAMES` games on); the tables are the same
        whatever their number.

    Returns
    -------
    WrittenReport
        The HTML file, ``out/report.html``, with the findings and the sections'
        tables written beside it (pandas DataFrames, as in ``out/tables/``).

    Raises
    ------
    sim.rundir.RunError, sim.cards.DeckError
        For a directory that is not a readable run (see :func:`analysis.data.runs.open_runs`).
    ValueError
        When ``bot`` plays no seat of a run, or ``workers`` is below 1.
    """
    if "matplotlib.pyplot" not in sys.modules:  # headless (the CLI); a notebook keeps its backend, as the
        matplotlib.use("Agg")  # figures are drawn on Figure objects and never through pyplot
    runs = open_runs(runs)
    out = Path(out) if out is not None else default_report_dir(runs)
    (out / "tables").mkdir(parents=True, exist_ok=True)
    (out / "figures").mkdir(parents=True, exist_ok=True)
    with reading(runs, progress, scheduler, dask_local, workers) as display:
        with display.in_section("Reading the run"):  # every table's pass in one read of the parts
            for run in runs:
                prefetch(run, [p for passes in TABLE_PASSES for p in passes(run, include_unfinished)])
        with display.in_section("Task outcomes"):
            outcomes = cards.task_outcomes(runs)
        sections = [_made(display, "Game length", _length_section, runs),
                    _made(display, "Morale loss", _morale_section, runs, include_unfinished),
                    _made(display, "Card strength", _cards_section, runs, include_unfinished, threshold_pp, outcomes, bot),
                    _made(display, "Task rewards", _tasks_section, runs, outcomes, threshold_points),
                    _made(display, "Seat advantage", _seats_section, runs, include_unfinished),
                    _made(display, "Closeness and drama", _closeness_section, runs)]  # fmt: skip
        by_saves = next(t.frame for t in sections[1].tables if t.name == "win_rate_by_saves")
        skill_section = _made(display, "Skill and luck", _skill_section, runs, include_unfinished, threshold_pp,
                              by_saves, skill_trace)  # fmt: skip
    sections = sections[:5] + ([skill_section] if skill_section else []) + sections[5:]  # after seats
    tables = {table.name: table.frame for section in sections for table in section.tables}
    found = findings(tables["ally_strength"], tables["task_calibration"], tables["seat_balance"],
                     tables["game_length"], tables["morale_impact"], threshold_pp, target_turns,
                     skill=tables.get("skill_summary"))  # fmt: skip
    write_csv(found, out / "tables" / "findings.csv")
    pngs = {}
    for section in sections:
        for table in section.tables:
            write_csv(table.frame, out / "tables" / f"{table.name}.csv")
        for name, figure, _ in section.figures:
            pngs[name] = figure_png(figure)
            (out / "figures" / f"{name}.png").write_bytes(pngs[name])
    made = datetime.now(timezone.utc).isoformat(timespec="seconds")
    labels = "; ".join(run.label for run in runs)
    # Many runs (a skill ladder): a short title; the runs are listed under Provenance.
    title = f"Balance report — {labels}" if len(runs) <= 2 else f"Balance report — {len(runs)} runs of one deck"
    contents = " · ".join(f"<a href='#{_anchor(t)}'>{escape(t)}</a>" for t in [s.title for s in sections] + ["Provenance"])
    body = "\n".join([
        f"<h1>{escape(title)}</h1>",
        f"<p class='note'>Made {escape(made)}. Every rate and mean carries its sample size and a 95% confidence "
        f"interval. Sections: {contents}</p>",
        _warnings(runs),
        _findings_html(found),
        *(_section_html(section, pngs) for section in sections),
        "<h2 id='provenance'>Provenance</h2>",
        *(_provenance(run, include_unfinished) for run in runs),
    ])  # fmt: skip
    path = out / REPORT_FILE
    path.write_text(page(title, body, sortable_script()), encoding="utf-8")
    return WrittenReport(path, found, tables)
