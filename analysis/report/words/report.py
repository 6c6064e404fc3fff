"""Every word of the report page: the findings' sentences (by finding kind), the
sections' answers (by answer kind), their notes, table captions and figure alt
texts, the banners, the Findings block's and the provenance's sentences.

The section builders (:mod:`analysis.report.sections`) hand over data only
(:class:`analysis.report.model.Answer`, :class:`~analysis.report.model.Note`);
:func:`answer_text` and :func:`note_text` make their sentences, plain text that
:mod:`analysis.report.render` escapes into HTML. The skill check's sentences are
:mod:`analysis.report.words.skill`'s.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from analysis.data.runs import Run
from analysis.report.html import count, estimate, p_text, rounded, signed
from analysis.report.model import Answer, Note
from analysis.report.words.common import amount_text, label_prefix, measure_text
from analysis.report.words.skill import skill_check_finding, skill_check_sentence
from analysis.task_calibration import points_text
from sim import __version__
from sim.bots.speed import SKILLED_REFERENCE_BOT
from sim.rundir import POINTS_BLIND_COMPANION, SKILLED_COMPANION


# --- notes under the answers, by key ----------------------------------------------------------------------------

LENGTH_NOTE = (
    "Every game counts here, however it ended. In the game-length curve a truncated game is censored at the "
    "turn cap (it would have gone on); the hazard (in the CSV) is the share of the games still running that "
    "end at each turn (Isaksen, Gopstein & Nealen 2015). A game that ends without a morale-loss event will "
    "never have one, so the first-event curve is a cumulative incidence (Aalen–Johansen) with the end of the "
    "game as a competing risk, not a Kaplan–Meier curve that would censor it. Intervals are pointwise 95%: "
    "each turn's holds on its own, not the whole curve at once."
)
MORALE_NOTE = (
    "Every player rolls in every morale-loss event (R8.2), so a card's rolls are its events times the player "
    "count. A card is flagged when its observed save rate disagrees with the exact probability of its "
    "requirement after a Benjamini–Hochberg correction across the morale cards."
)
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
SEATS_NOTE = (
    "Seats are numbered at random (R2.2), so the advantage is measured by turn order (R9.4): position 1 is the "
    "first player. The χ² goodness-of-fit test asks whether every position wins equally often; the gaps "
    "between positions carry simultaneous 95% intervals (Bonferroni over the pairs). AdvantageP1 (Ludii) is "
    "the first player's win rate, also as a ratio to the fair 1/n. Balance (Ludii) = 1 − the largest gap "
    "between two positions' win rates; noise alone keeps it below 1, so it has no interval, only the value "
    "a fair table stays above. Tied on points: the top score was shared and R9.3's tie rules chose the "
    "winner; decided by dice: completed tasks tied too. A bot that plays every seat wins 1/n by "
    "construction and is shown without an interval."
)
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
SKILL_CHECK_NOTE = (
    "The skill check. The run's skilled companion replays its games (same deals and dice) with a stronger bot in "
    "every seat. Each measure of the findings is taken in both runs the same way: an ally's effect against the "
    "average ally, a task's completion rate, the first player's edge, the mean turns and the morale-loss events "
    "per game. Their difference has a z-test whose standard error adds the two intervals' as if the runs were "
    "independent; sharing the deals correlates them positively, so the test is conservative. A measure depends on "
    "skill when the difference survives Benjamini–Hochberg correction across the run's measures (q ≤ 0.05) and is "
    "at least its practical threshold: {thresholds}. The companion may have played only the run's first games: "
    "each measure then also has the smallest change those games detect with 80% power, and holds only when its "
    "difference's interval lies wholly within its threshold; otherwise the check cannot tell yet and gives the "
    "skilled games that would tell. A check played until settled (revachol skill-check --until-settled) looks at "
    "its skilled games after every round, so each change has an anytime-valid 95% interval instead (the skilled "
    "estimate's confidence sequence at 2.5% less the main run's fixed interval at 2.5%), and depends on skill when "
    "that interval lies wholly beyond its threshold, holds when it lies wholly within it, and cannot tell yet "
    "otherwise. A check speaks of skilled play only when its bot agrees with the reference of "
    f"skilled play ({SKILLED_REFERENCE_BOT}); with another bot, it speaks of that bot's play."
)
CLOSENESS_NOTE = (
    "Ludii's LeadChange, Drama and Decisiveness metrics, adapted to a game scored at its end: after every turn "
    "the engine notes which seats have the most points (R9.2); a lead change is a new seat leading alone "
    "(ties change nothing). Decisiveness is the turn the last lone leader took the lead over the game's turns; "
    "games no seat ever led alone are left out of it. Finished games only (R4 Reading)."
)


def _difficulty(runs: list[dict]) -> str:
    """The calibration note's sentence on how difficulty was measured, per run
    (``label``, ``blind``, ``points``, ``why``), each distinct sentence once."""
    notes = [label_prefix(run["label"]) + (BLIND.format(points=run["points"]) if run["blind"]
                                      else AS_PLAYED_NOTE.format(why=run["why"])) for run in runs]  # fmt: skip
    return " ".join(dict.fromkeys(notes))


NOTES = {  # key: the note, or a function of the note's facts
    "length": LENGTH_NOTE,
    "morale": MORALE_NOTE,
    "adaptation": ADAPTATION,
    "every_game": "Ally contributions and task figures count every game of the run.",
    "calibration": lambda threshold, runs: CALIBRATION.format(threshold=points_text(threshold),
                                                              difficulty=_difficulty(runs)),  # fmt: skip
    "seats": SEATS_NOTE,
    "skill": SKILL_NOTE,
    "by_bot": BY_BOT_NOTE,
    "skill_check": lambda thresholds: SKILL_CHECK_NOTE.format(thresholds=thresholds),
    "closeness": CLOSENESS_NOTE,
}


def note_text(note: Note) -> str:
    """The sentences of ``note`` (plain text). Raises KeyError for an unknown key."""
    words = NOTES[note.key]
    return words(**note.facts) if callable(words) else words


# --- tables and figures, by name ----------------------------------------------------------------------------------

CAPTIONS = {
    "flagged_allies": "The allies with a verdict, with what an edit would change: their symbols and ability (R1.2).",
    "skill_check": "Each measure of the findings under the run's bots and with the skilled bot in every seat on "
                   "the same games, their difference (skilled − run) and whether it depends on skill.",
    "game_length": "Turns and rounds per game.",
    "game_endings": "How games ended (RULES R9.1; stalled and truncated: R4 Reading).",
    "length_histogram": "Games per length.",
    "length_survival": "Kaplan–Meier curve of game length.",
    "first_event_incidence": "Cumulative incidence of the first morale-loss event (Aalen–Johansen; the end of a "
                             "game without one competes).",
    "morale_per_game": "Per game: morale-loss events, tasks completed and failed, and the failed share.",
    "morale_impact": "What morale loss decides: completed tasks and points lost to penalties, ties, dice-decided "
                     "games and games won with 0 points.",
    "win_rate_by_saves": "Win rate by number of morale-loss rolls that saved the player (dice luck alone).",
    "player_penalties": "Per player-game: penalties by type (R8.3), saves, tasks lost (intervals clustered by game).",
    "morale_cards": "Per morale card: events caused and save rate against the exact probability.",
    "morale_event_distribution": "Games by number of morale-loss events.",
    "ally_strength": "Allies by effect on win rate against the average ally, verdict, and 17lands-style win rates "
                     "(RULES R9.3 winner).",
    "ally_contributions": "Allies: task points completed by their squads, times taken by A6, times lent to A1 "
                          "(totals and per game).",
    "task_outcomes": "Tasks: completion and failure rates, completions lost to penalties, mean turn of completion.",
    "task_completers": "Tasks: share of completions by turn-order position (fair share 1/players).",
    "task_calibration": "Tasks by gap from par, most underpaid first: verdict, the tasks it is out of order with, "
                        "par, expected points per game, completion rates as played and points-blind, requirement.",
    "seat_win_rates": "Win rate by turn-order position.",
    "seat_balance": "χ² test of equal positions, Balance, AdvantageP1 and ties.",
    "seat_differences": "Gaps between the win rates of two positions, with simultaneous 95% intervals.",
    "score_summary": "Final scores (points, R9.2) by turn-order position.",
    "bot_win_rates": "Win rate by bot.",
    "score_histogram": "Final scores by turn-order position.",
    "closeness": "Margin, lead changes, decisiveness and comeback rate per game.",
    "margin_histogram": "Games per winning margin.",
    "skill_summary": "The stronger bot of each run: games won against its fair share, upsets and dice.",
    "skill_gradient": "Win rate per seat of every bot against fair (1/players).",
    "skill_trace": "Skill trace: the bot at each budget against itself at half of it.",
    "ally_strength_by_bot": "Allies by bot: each ally's effect against the average ally for the stronger and the "
                            "weaker bot, and the difference.",
}
EMPTY = {"morale_cards": "This deck has no morale cards."}  # a table's sentence when it has no rows
NO_ROWS = ("No rows: nothing of this kind happened in this run, or every game was left out (stalled or "
           "truncated).")  # fmt: skip
ALT_TEXTS = {
    "length_histogram": "Share of games by length in turns",
    "survival": "Kaplan–Meier curve of game length and cumulative incidence of the first morale-loss event",
    "morale_events": "Share of games by number of morale-loss events",
    "morale_saves": "Observed save rate of each morale card against its exact probability",
    "ally_strength": "Each ally's effect on win rate against the average ally, with its confidence interval",
    "task_outcomes": "Completion rate of each task",
    "task_calibration": "Each task's points against its points-blind completion rate, with the monotone par and "
                        "its band",
    "seat_win_rates": "Win rate by turn-order position",
    "scores": "Final score distribution by turn-order position",
    "margins": "Share of games by the winner's margin in points",
    "skill": "The stronger bot's win rate against fair, and the skill trace",
}


def empty_text(name: str) -> str:
    """What the page says instead of table ``name`` when it has no rows."""
    return EMPTY.get(name, NO_ROWS)


# --- the findings' sentences, by kind (analysis.report.findings) ------------------------------------------------


def _times(row: pd.Series) -> str:
    """The stronger bot's win rate over fair as ``2.1× fair (95% CI 1.9–2.3×)``."""
    places = 2 if row["win_rate_ratio_high"] - row["win_rate_ratio_low"] < 0.2 else 1
    return (f"{row['win_rate_ratio']:.{places}f}× fair (95% CI {row['win_rate_ratio_low']:.{places}f}–"
            f"{row['win_rate_ratio_high']:.{places}f}×)")  # fmt: skip


def skill_verdict(row: pd.Series) -> str:
    """One sentence, without its full stop: how often the stronger bot wins against
    fair, the upsets, and the dice (a :func:`analysis.skill.skill_summary` row)."""
    rate = estimate(row["win_rate"], row["win_rate_low"], row["win_rate_high"], n=row["games"])
    upset = estimate(row["upset_rate"], row["upset_rate_low"], row["upset_rate_high"])
    dice = estimate(row["decided_by_dice_rate"], row["decided_by_dice_rate_low"], row["decided_by_dice_rate_high"])
    return (f"{row['strong']} in {row['seats']} of {row['players']} seats wins {_times(row)}: {rate} of games "
            f"against a fair {100 * row['fair_rate']:.1f}%; {row['weak']} still win {upset}, and R9.3's die roll "
            f"decides {dice} of games")  # fmt: skip


def _ally_finding(r: pd.Series) -> str:
    effect = estimate(r["effect_pp"] / 100, r["effect_low_pp"] / 100, r["effect_high_pp"] / 100, "pp",
                      n=r["games"], noun="win rate")  # fmt: skip
    return f"{r['name']} is {r['verdict']} than the average ally: {effect}."


def _task_finding(r: pd.Series) -> str:
    how = {"underpays": "less than tasks as easy or easier", "overpays": "more than tasks as hard or harder"}
    par = estimate(r["par_points"], r["par_points_low"], r["par_points_high"], "", noun="points",
                   n=r["difficulty_games"], n_of=f"games, difficulty {r['difficulty']}")  # fmt: skip
    return f"{r['out_of_order_with']} It pays {points_text(r['gap_points'])} {how[r['verdict']]}: a par of {par}."


def _first_player_finding(r: pd.Series, fair: float) -> str:
    return (f"The first player wins {estimate(r['advantage_p1'], r['advantage_p1_low'], r['advantage_p1_high'], n=r['games'], noun='of games')} "
            f"against {100 * fair:.1f}% for a fair seat: {signed(100 * (r['advantage_p1'] - fair), 1)} pp.")  # fmt: skip


def _length_finding(r: pd.Series, target: tuple[float, float] | None) -> str:
    against = "" if target is None else f", against a target of {target[0]:g}–{target[1]:g} turns"
    return f"A game lasts {estimate(r['mean'], r['mean_low'], r['mean_high'], '', n=r['games'], noun='turns')} on average{against}."


UNDECIDED = {  # a verdict's subject kind (analysis.report.findings.subjects): what its measure is, as a sentence names it
    "ally": "{subject}: its effect against the average ally",
    "task": "{subject}: its gap from par",
    "first_player": "The first player's edge over a fair seat",
}


def _undecided_finding(r: pd.Series) -> str:
    what = UNDECIDED[r["kind"]].format(subject=r["subject"])
    return (f"{what}, {measure_text('', r['value'], r['low'], r['high'], r['unit'])}, cannot be told from the "
            f"±{amount_text(r['threshold'], r['unit'])} threshold at this n ({count(r['n'])} games): about "
            f"{count(r['games_to_decide'])} games would decide it.")  # fmt: skip


def undecided_clause(threshold: float, unit: str, games: float) -> str:
    """The sentence a finding gains when its 95% CI holds its practical threshold, with
    a leading space: how many games would settle it (:func:`analysis.stats.power.games_to_decide`)."""
    return f" Its CI holds the ±{amount_text(threshold, unit)} threshold: about {count(games)} games would settle it."


def stopping_sentence(record: dict) -> str:
    """The finding of a run played until settled, from its manifest's ``until_settled``
    record (:mod:`analysis.experiments.until_settled`): where it stopped and why."""
    games, most = count(record["games"]), count(record["max_games"])
    threshold = amount_text(record["threshold_pp"], "pp")
    near = len(record.get("borderline", []))
    at = (f"; {near} at the threshold, within ±{amount_text(record.get('borderline_pp', 0.0), 'pp')} of it"
          if near else "")  # fmt: skip
    if record["stopped"] == "settled":
        return (f"The run was stopped when every verdict was settled, at {games} games (of at most {most}): each "
                f"ally's and the first player's 95% confidence sequence lies wholly beyond or wholly within the "
                f"±{threshold} threshold{at}.")  # fmt: skip
    return (f"The run reached its most games ({most}) before every verdict was settled: "
            f"{len(record.get('not_settled', []))} not settled{at}.")


def at_threshold_clause(games: int, band_pp: float) -> str:
    """The clause, with a leading space, of a finding whose verdict a run played until
    settled settled at the threshold (:data:`analysis.settled.BORDERLINE`)."""
    return (f" At the threshold: at {count(games)} games its confidence sequence lies within "
            f"±{amount_text(band_pp, 'pp')} of it, too near for its side to matter.")  # fmt: skip


def at_threshold_sentence(subject: str, kind: str, games: int, band_pp: float) -> str:
    """The finding of a verdict settled at the threshold that has no finding of its own."""
    return f"{UNDECIDED[kind].format(subject=subject)} sits at the threshold.{at_threshold_clause(games, band_pp)}"


def not_settled_clause(games: int) -> str:
    """The clause, with a leading space, of a finding whose verdict a run played until
    settled left not settled at its most games."""
    return f" Not settled at {count(games)} games: its confidence sequence still holds the threshold."


def not_settled_sentence(subject: str, kind: str, games: int) -> str:
    """The finding of a verdict not settled at a run's most games that has no finding of its own."""
    return f"{UNDECIDED[kind].format(subject=subject)} is not settled.{not_settled_clause(games)}"


FINDINGS = {  # kind: its sentence, a function of the table's row (and the finding's extra facts)
    "ally": _ally_finding,
    "task": _task_finding,
    "first_player": _first_player_finding,
    "length": _length_finding,
    "penalties": lambda r: (f"Penalties (R8.3) take back {estimate(r['value'], r['value_low'], r['value_high'], n=r['n'], n_of='task points', noun='of the task points completed')}."),  # fmt: skip
    "dice": lambda r: (f"{estimate(r['decided_by_dice_rate'], r['decided_by_dice_rate_low'], r['decided_by_dice_rate_high'], n=r['games'], noun='of games')} "
                       f"are decided by the die roll after a tie (R9.3)."),  # fmt: skip
    "skill": lambda r: f"{skill_verdict(r)}.",
    "depends_on_skill": skill_check_finding,
    "undecided": _undecided_finding,
}


def finding_sentence(kind: str, row: pd.Series, **facts) -> str:
    """The sentence of a finding of ``kind`` (:data:`analysis.report.findings.SECTIONS`)
    read from ``row`` of its table, with its number, 95% CI and n; ``facts``: the
    first player's ``fair`` rate, the length's ``target`` range. Raises KeyError for
    an unknown kind."""
    return FINDINGS[kind](row, **facts)


# --- the sections' answers, by kind: (answer, details) ------------------------------------------------------------

def _value(row: pd.Series, column: str, unit: str = "%", **text) -> str:
    """``row[column]`` with its interval (``estimate``'s ``n``, ``n_of``, ``noun``, ``least``)."""
    return estimate(row[column], row[f"{column}_low"], row[f"{column}_high"], unit, **text)


def _pp(row: pd.Series, base: str = "effect") -> str:
    """``row``'s ``<base>_pp`` with its ``<base>_low_pp``/``<base>_high_pp`` interval."""
    return estimate(row[f"{base}_pp"] / 100, row[f"{base}_low_pp"] / 100, row[f"{base}_high_pp"] / 100, "pp")


def _never(rows: pd.DataFrame, column: str, what: str, lacking: str) -> str:
    """A sentence, with a leading space, naming the cards of ``rows`` whose ``column``
    is 0 (an ally nobody held, a task nobody completed); empty when there is none."""
    never = rows.loc[rows[column] == 0, "name"]
    if never.empty:
        return ""
    return f" Never {what} ({len(never)} of {len(rows)}), so {lacking}: {', '.join(map(str, never))}."


def _detectable(mde, games: int, what: str, unit: str, by: str = "") -> str:
    """The sentence, with a leading space, on the effect flagged with 80% power at the
    run's ``games`` (:mod:`analysis.stats.power`): ``what`` with ``{size}`` for the
    median of ``mde`` (array_like, one per subject, in ``unit``), and its range ``by``
    subject when it has one; empty when no subject has one."""
    mde = pd.Series(mde, dtype="float64").dropna()
    if mde.empty:
        return ""
    low, high = amount_text(mde.min(), unit, ".1f"), amount_text(mde.max(), unit, ".1f")
    spread = f" ({low.split(' ')[0]}–{high} by {by})" if by and low != high else ""
    size = what.format(size=amount_text(mde.median(), unit, ".1f"))
    return f" At this n ({count(games)} games) {size} would be flagged with 80% power{spread}."


def _length(a: Answer, turns, rounds, ended, median_end, median_event, target=None, mde=float("nan")) -> tuple[str, str]:
    end = (f"half the games are over by turn {median_end}" if median_end
           else "fewer than half the games end before the turn cap")  # fmt: skip
    event = (f"half have had their first morale-loss event by turn {median_event}" if median_event
             else "more than half never have a morale-loss event")  # fmt: skip
    capped = " (means and percentiles count truncated games at the cap)" if ended.loc["truncated", "count"] else ""
    detectable = ("" if target is None else
                  _detectable([mde], turns["games"], f"a mean {{size}} outside the target of {target[0]:g}–{target[1]:g} "
                              f"turns", "turns"))  # fmt: skip
    return (f"{label_prefix(a.label)}A game lasts {_value(turns, 'mean', '', noun='turns', n=turns['games'])} on "
            f"average; {_value(ended.loc['stalled'], 'share')} of games stalled and "
            f"{_value(ended.loc['truncated'], 'share')} were truncated at the turn cap.{detectable}",
            f"That is {_value(rounds, 'mean', '', noun='rounds')} on average, and 90% of games last "
            f"{turns['p5']:.0f}–{turns['p95']:.0f} turns{capped}. By the Kaplan–Meier curve {end}, and by the "
            f"cumulative incidence curve {event}.")  # fmt: skip


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


def _morale(a: Answer, events, failed, saves, impact, by_saves) -> tuple[str, str]:
    disagree = saves[saves["disagrees"]]
    if saves.empty:
        verdict = "this deck has no morale cards, so no save is ever rolled (R8.2)"
    elif disagree.empty:
        verdict = f"all {len(saves)} morale cards save at the rate their dice requirement gives"
    else:
        listed = "; ".join(f"{r['name']} saves {_value(r, 'save_rate', n=r['rolls'], n_of='rolls')} "
                           f"against {r['exact']}" for _, r in disagree.iterrows())  # fmt: skip
        verdict = (f"{len(disagree)} of {len(saves)} morale cards save at a rate their requirement does not "
                   f"give: {listed}")  # fmt: skip
    return (f"{label_prefix(a.label)}A game has "
            f"{_value(events, 'mean', '', noun='morale-loss events', n=events['games'])} on average, and "
            f"{_value(failed, 'mean')} of its resolved tasks fail.",
            f"{_impact_text(impact, by_saves)} Dice: {verdict} (exact binomial tests, Benjamini–Hochberg q = 0.05).")  # fmt: skip


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


def _cards(a: Answer, allies, hardest, easiest) -> tuple[str, str]:
    detectable = _detectable(allies.get("mde_pp"), allies["games"].iloc[0], "an ally effect of ±{size}", "pp", "ally")
    return (f"{label_prefix(a.label)}{_strength_answer(allies)}.{detectable}",
            f"Tasks: the completion rate ranges from {_value(hardest, 'completion_rate', n=hardest['games'])} for "
            f"{hardest['name']} to {_value(easiest, 'completion_rate')} for {easiest['name']}."
            f"{_never(allies[allies['player_games'] > 0], 'held_n', 'held by any player', 'no held win rate')}")  # fmt: skip


def _tasks(a: Answer, rows, flagged, completions, threshold_points, low, high) -> tuple[str, str]:
    threshold = points_text(threshold_points)
    if not completions.any():
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
    never = _never(rows.assign(completions=completions), "completions", "completed",
                   "their par rests on the other tasks alone") if completions.any() else ""  # fmt: skip
    if completions.any():
        answer += _detectable(rows.get("mde_points"), rows["difficulty_games"].iloc[0],
                              "a task paying ±{size} out of order with its difficulty", "points", "task")  # fmt: skip
    return (f"{label_prefix(a.label)}{answer}",
            f"Expected points per game range from {_value(low, 'expected_points', '', n=low['games'])} "
            f"for {low['name']} to {_value(high, 'expected_points', '')} for {high['name']}.{never}")  # fmt: skip


def _seats(a: Answer, row, baseline, by_bot) -> tuple[str, str]:
    if not row["games"]:
        return (f"{label_prefix(a.label)}No game is left for win rates: all were stalled or truncated "
                f"(see --include-unfinished).", "")  # fmt: skip
    bot_rates = [f"{r['bot']} wins {_value(r, 'win_rate', n=r['player_games'], n_of='player-games')}"
                 for _, r in by_bot.iterrows() if not r["by_construction"]]  # fmt: skip
    bot_text = f" By bot: {'; '.join(bot_rates)}." if len(bot_rates) > 1 else ""
    ratio = estimate(row["advantage_p1_ratio"], row["advantage_p1_ratio_low"], row["advantage_p1_ratio_high"], "",
                     least=2)  # fmt: skip
    fair_test = (f"a χ² test rejects equal positions (p = {p_text(row['chi2_p_value'])})" if row["chi2_p_value"] < 0.05
                 else f"a χ² test finds no difference between positions (p = {p_text(row['chi2_p_value'])})")  # fmt: skip
    return (f"{label_prefix(a.label)}The first player wins {_value(row, 'advantage_p1', n=row['games'])} "
            f"against {estimate(baseline, float('nan'), float('nan'))} for a fair seat, {ratio} times the fair "
            f"rate; {fair_test}.{_detectable([row.get('mde_pp')], row['games'], 'a first-player edge of ±{size}', 'pp')}",
            f"Balance is {rounded(row['balance'], 3):.3f} (a fair table of this size stays above {rounded(row['balance_fair_5'], 3):.3f} in "
            f"95% of runs); {_value(row, 'tied_on_points_rate')} of games are tied on points and "
            f"{_value(row, 'decided_by_dice_rate')} are decided by dice (R9.3).{bot_text}")  # fmt: skip


def _closeness(a: Answer, m) -> tuple[str, str]:
    if not a.n:
        return (f"{label_prefix(a.label)}No game has a winner (all were stalled or truncated), so there is no margin "
                f"or lead to measure.", "")  # fmt: skip
    return (f"{label_prefix(a.label)}The winner finishes {_value(m.loc['margin'], 'value', '', noun='points', n=a.n)} "
            f"ahead of the runner-up on average, and {_value(m.loc['comeback_rate'], 'value')} of winners were "
            f"behind at the half-way turn.",
            f"The lead changes hands {_value(m.loc['lead_changes'], 'value', '', noun='times')} per game, and the "
            f"final lead is taken {_value(m.loc['decisiveness'], 'value', n=m.loc['decisiveness', 'games'])} of "
            f"the way through the game (later means more open to the end).")  # fmt: skip


def _no_skill(a: Answer, mixed) -> tuple[str, str]:
    return (f"No game is left to compare the bots of {', '.join(mixed)} (all were stalled or truncated)." if mixed
            else "Every seat plays the same bot, so there is no skill to measure: mix bots (revachol skill, or one "
                 "--bot per seat) to set a stronger bot against a weaker one.", "")  # fmt: skip


def _widest(a: Answer, row, several) -> tuple[str, str]:
    lead = f"At its widest ({row['run']}, {row['players']} players), " if several else ""
    return f"{lead}{skill_verdict(row)}.", ""


def _skill(a: Answer, row, threshold_pp, gradient, by_saves) -> tuple[str, str]:
    beaten = "" if row["beats"] else f" It does not beat them by {threshold_pp:g} pp with confidence."
    per_bot = "; ".join(f"{r['bot']} wins {_value(r, 'win_rate', n=r['player_games'], n_of='player-games')} "
                        f"per seat" for _, r in gradient.iterrows())  # fmt: skip
    return (f"{label_prefix(a.label)}{row['strong']} against {row['weak']}: {_pp(row, 'gain')} over its fair "
            f"share.{beaten}",
            f"Per bot: {per_bot}.{_saves_text(by_saves)}")  # fmt: skip


def _trace_answer(a: Answer, trace) -> tuple[str, str]:
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


def _by_bot_answer(a: Answer, rows) -> tuple[str, str]:
    """Sentences on the allies the two bots of a run value differently (:func:`analysis.skill.ally_strength_by_bot`)."""
    prefix = label_prefix(a.label, ": ")
    strong, weak = rows["strong"].iloc[0], rows["weak"].iloc[0]
    flagged = rows[rows["verdict"] != ""].sort_values("difference_pp", ascending=False)
    threshold = f"{rows['threshold_pp'].iloc[0]:g} pp"
    if flagged.empty:
        return (f"{prefix}No ally's effect on winning differs between {strong} and {weak} by {threshold} or more "
                f"after Benjamini–Hochberg correction ({len(rows)} allies, n = {count(rows['games'].iloc[0])} "
                f"games).", "")  # fmt: skip
    listed = "; ".join(f"{r['name']} {_pp(r, 'difference')}" for _, r in flagged.iterrows())
    return (f"{prefix}{len(flagged)} of {len(rows)} allies are worth a different amount to {strong} than to "
            f"{weak} (effect for {strong} minus for {weak}, at least {threshold}): {listed}.",
            f"n = {count(rows['games'].iloc[0])} games.")  # fmt: skip


def _skill_check_answer(a: Answer, rows) -> tuple[str, str]:
    """Sentences on the skill check of one run (:func:`analysis.skill_check.compare_measures`)."""
    return skill_check_sentence(rows, a.label), ""


ANSWERS = {  # kind: its words, a function of the Answer and its facts
    "length": _length, "morale": _morale, "cards": _cards, "tasks": _tasks, "seats": _seats,
    "closeness": _closeness, "no_skill": _no_skill, "widest_skill": _widest, "skill": _skill,
    "skill_trace": _trace_answer, "ally_strength_by_bot": _by_bot_answer, "skill_check": _skill_check_answer,
}


def answer_text(answer: Answer) -> tuple[str, str]:
    """The answer's sentence and the sentences of its details ("" when none), plain
    text. Raises KeyError for an unknown kind."""
    return ANSWERS[answer.kind](answer, **answer.facts)


# --- the page around the sections ---------------------------------------------------------------------------------

def title(runs: list[Run]) -> str:
    """The page's title: the deck file, then each run's players, bots and games (the
    run directories, whose names carry the deck's hash, are listed under Provenance);
    for many runs (a skill ladder) a short one."""
    deck = Path(str(runs[0].manifest.get("cards_file", runs[0].name))).name
    if len(runs) > 2:
        return f"Balance report — {deck}, {len(runs)} runs"
    plays = "; ".join(f"{run.players} players, {run.bots}, {count(run.manifest['n_games'])} games" for run in runs)
    return f"Balance report — {deck}: {plays}"


def finding_headers(skilled_bot: str | None) -> list[str]:
    """The column heads of the findings table (:func:`finding_cells`), with the skilled
    value's when a skill check ran."""
    return ["#", "Finding", "Value (95% CI)", "n", *([f"With {skilled_bot} in every seat"] if skilled_bot else []),
            "Section"]  # fmt: skip


def finding_claim(sentence: str) -> str:
    """A finding's claim: its sentence up to its first number's clause (``: ``, `` (``
    or ``; ``), the value and interval being the table's own columns."""
    cuts = [i for i in (sentence.find(": "), sentence.find(" ("), sentence.find("; ")) if i > 0]
    return sentence[: min(cuts)] if cuts else sentence.rstrip(".")


def _finding_value(value: float, low: float, high: float, unit: str) -> str:
    if low == high:  # a zero-width interval (a task's gap from a par of equal tasks) is no CI
        low = high = float("nan")
    return estimate(value, low, high, "%") if unit == "share" else measure_text("", value, low, high, unit)


def finding_cells(r: pd.Series, skilled: bool) -> list[str]:
    """One finding's cells in the findings table (:func:`finding_headers` but ``#``
    and the section): the claim (a task's: its reward against its par, the value
    being the gap in points), the value with its 95% CI in the finding's unit, n, and
    the skilled value when ``skilled``; "–" where a finding has none."""
    n = count(r["n"]) if pd.notna(r["n"]) else "–"
    claim = (f"{r['subject']} pays {'less' if r['value'] < 0 else 'more'} than tasks as hard (its par)"
             if r["kind"] == "task" else finding_claim(r["sentence"]))  # fmt: skip
    cells = [claim, _finding_value(r["value"], r["low"], r["high"], r["unit"]), n]
    if skilled:
        cells.append(_finding_value(r["skilled_value"], r["skilled_low"], r["skilled_high"], r["unit"])
                     if pd.notna(r.get("skilled_value")) else "–")  # fmt: skip
    return cells


HOW_TO_READ_TITLE = "How to read this"
HOW_TO_READ = (
    "pp: percentage points of win rate. An ally's effect compares the players who held it with the players who held "
    "the average ally, in the same games: holding more cards goes with losing, so a fair ally is one as good as the "
    "average one, not one whose holders win 1 in n.",
    "A verdict (stronger, weaker, a reward out of line) needs the effect to be significant and at least the practical "
    "threshold, 2 pp unless the run says otherwise: with many games a tiny effect is significant and of no "
    "consequence. Significance is corrected for the many cards tested at once (Benjamini–Hochberg).",
    "Every value carries its 95% confidence interval and n, the games (or task points) it rests on; intervals over "
    "players are clustered by game.",
)
"""The findings' method in plain sentences, folded under :data:`HOW_TO_READ_TITLE`."""


MADE = "Made {made}. Every rate and mean carries its sample size and a 95% confidence interval."
SECTION_MORE = "Details, figures and tables"
PROVENANCE_MORE = "Runs, seeds, bots and versions"
FINDINGS_NOTE = ("Most important first: ranked by the distance from fair (or from the target) in units of the "
                 "practical threshold. As CSV: ")  # fmt: skip
AS_CSV, FULL_TABLE, HEADER_ONLY = "As CSV: ", "Full table: ", "Header only: "


def more_findings(n: int) -> str:
    """The fold of the findings after the first ones: ``3 more findings``."""
    return f"{n} more finding{'s' * (n != 1)}"


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


def warnings(runs: list[Run]) -> list[str]:
    """The banners that stay on top: incomplete runs, estimated card values (once
    per deck)."""
    found = []
    several = len(runs) > 1
    for run in runs:
        m, games = run.manifest, run.games
        if m.get("status") != "complete" or games != m.get("n_games"):
            found.append(f"{label_prefix(run.label if several else '')}This run is not complete: {count(games)} of "
                         f"{count(m.get('n_games', 0))} games are in its tables.")  # fmt: skip
    decks = {run.deck.content_hash: run for run in runs}  # runs of one deck share its banner
    for run in decks.values():
        estimated = _estimated_line(run)
        if estimated:
            found.append(f"{label_prefix(run.label if len(decks) > 1 else '')}{estimated}")
    return found


def _companion_text(manifest: dict) -> str:
    """The manifest's record of the points-blind (sim.run.points_blind) and skilled
    (sim.run.skilled) companions, as text."""
    companions = manifest.get("companions") or {}
    blind, skilled = companions.get(POINTS_BLIND_COMPANION), companions.get(SKILLED_COMPANION)
    text = (f"{blind.get('dir')}/: the same games with every task paying {blind.get('task_points')} points"
            if isinstance(blind, dict) else "none (task difficulty from completion as played)")  # fmt: skip
    if isinstance(skilled, dict):
        text += f"; {skilled.get('dir')}/: the same games with {skilled.get('bot')} in every seat (the skill check)"
    return text


def provenance(run: Run, include_unfinished: bool) -> tuple[list[tuple[str, str]], str]:
    """The provenance of ``run`` as (name, value) rows, and the note on the games
    its win rates leave out."""
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
    unfinished = len(run.unfinished)
    if include_unfinished:
        note = f"Win rates and scores count the {count(unfinished)} stalled and truncated games (asked for)."
    else:
        note = (f"Win rates and scores leave out stalled and truncated games (RULES R4 Reading): "
                f"{count(unfinished)} in this run. Pass --include-unfinished to count them.")  # fmt: skip
    return rows, note


def findings_heading(shown: int, total: int) -> str:
    """The line over the findings a command prints: ``Findings, most important first
    (8 of 12; all in the report):``, or ``Findings: none.``."""
    more = f" ({shown} of {total}; all in the report)" if total > shown else ""
    return f"Findings, most important first{more}:" if total else "Findings: none."


def report_line(path) -> str:
    """The last line of a command that wrote a report: ``report: PATH``."""
    return f"report: {path}"


SKILL_CHECK_TABLE = "The skill check, measure by measure"
"""The title of ``revachol skill-check``'s table (:func:`analysis.report.brief.skill_check_table`)."""
