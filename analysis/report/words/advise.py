"""The sentences of ``revachol advise`` (:mod:`analysis.experiments.advise_page`): its
headline, the leads of its lists and tables, what the search tried for a card that
resists and what would free it, the edge, the side effects and restricted play."""

from __future__ import annotations

import numpy as np
import pandas as pd

from collections import Counter
from typing import Any

from analysis.report.html import count, estimate, signed
from analysis.report.words.common import written_line
from analysis.report.words.compare import change_skill_text, verdict_change_sentence
from sim.cards import Ability, Deck, as_written


FREES = {  # a guard that refused an edit (advise's search.csv, refused_by): what would let it through
    "length": "a wider length guard (--target turns=LO..HI; by default the mean turns stay within 5%)",
    "edge": "a first player's edge allowed to grow (--target edge=LO..HI with a range above the original's edge; by "
            "default the edge is a guard that may not grow)",
    "validation": "a colour allowed to fall short of its demand (no flag: edit the tasks that demand that colour "
                  "first)",
    "max edits": "a higher --max-edits",
    "new verdict": "an edit of the card that would get the new verdict as well (a compensating pair)",
}
"""What would free a card that resists, by the guard that refused its edits (``advise``)."""


def free_text(refused_by: list[str], ability: str, rule: str, abilities: bool = False, weaker: bool = False) -> str:
    """The sentence, with a leading space, on what would free a card that resists:
    each guard that refused it loosened (:data:`FREES`), and, when ``advise`` ran
    without ``abilities`` (``--abilities``), an ability: its own changed
    (``ability``: its name, ``rule``: its id, e.g. A9), or one given to it when it is
    ``weaker``; empty when there is nothing to say."""
    ways = [FREES[guard] for guard in dict.fromkeys(refused_by) if guard in FREES]
    if ability and not abilities:
        ways.append(f"a change of its ability, {ability} ({rule}): --abilities lets advise remove, move or swap it "
                    f"(or edit it by hand and check the change with revachol compare)")  # fmt: skip
    elif weaker and not abilities:
        ways.append("an ability given to it: --abilities lets advise move or swap one to it")
    return f" What would free it: {'; or '.join(ways)}." if ways else ""


NO_SIDE_EFFECT = ("Nothing moved significantly between the original and the proposal on the hold-out games "
                  "(Benjamini–Hochberg at 5% within each family).")  # fmt: skip


def side_effects_lead(n: int) -> str:
    """The sentence above the list of an advice's side effects (``advise``)."""
    return (f"{n} measure{'s' * (n != 1)} moved significantly from the original to the proposal on the same hold-out "
            f"games (paired, Benjamini–Hochberg at 5% within each family: game length and morale loss, each turn-order "
            f"position's win rate, each task's completion, each ally's holders' win rate), largest standardised effect "
            f"first; every one is in side_effects.csv.")  # fmt: skip


def skilled_allies_text(bot: str, before: int, after: int, games: int) -> str:
    """One sentence: the allies with a verdict under ``bot`` in every seat on the
    hold-out's first ``games`` games, in the original and in the proposal
    (``advise --skill-check``)."""
    return (f"With {bot} in every seat on the first {count(games)} of the same fresh games, {before} "
            f"all{'y' if before == 1 else 'ies'} had a verdict in the original and {after} in the proposal.")  # fmt: skip


def plural(n: int, noun: str) -> str:
    """``1 edit``, ``3 edits``: ``n`` and ``noun``, with an s unless ``n`` is 1."""
    return f"{n} {noun}{'s' * (n != 1)}"


def zero_width(low: float, high: float) -> bool:
    """Whether an interval's bounds coincide (within 1e-9): no interval to show."""
    return bool(np.isfinite(low) and np.isfinite(high) and abs(high - low) <= 1e-9)


def quantity_text(value: float, low: float, high: float, unit: str, n: int | None = None) -> str:
    """A flagged quantity with its 95% CI: ``+4.2 pp (95% CI 3.5 to 4.8)`` (``unit``
    ``pp``), ``+1.0 points (95% CI 0.4–1.6)``; the value alone when the interval has
    zero width (``0.0 points``: a task whose par every bootstrap resample put at the
    same reward) or no bounds."""
    if zero_width(low, high):
        low = high = np.nan
    if unit == "pp":
        return estimate(value / 100, low / 100, high / 100, "pp", n=n)
    return estimate(value, low, high, "", n=n, noun=unit)


QUANTITY_NOTE = ("An ally's quantity is its effect against the average ally (pp), a task's its gap from par (points); "
                 "each with its 95% CI, n in games.")  # fmt: skip


def _verdicts(counts: dict[str, int]) -> str:
    """``15 verdicts before (14 allies, 1 task): 13 fixed, 2 left, 3 created by the proposal``."""
    allies = f"{counts['allies']} all{'y' if counts['allies'] == 1 else 'ies'}"
    tasks = plural(counts["tasks"], "task")
    return (f"{plural(counts['before'], 'verdict')} before ({allies}, {tasks}): "
            f"{counts['fixed']} fixed, {counts['left']} left, {counts['created']} created by the proposal")


def target_sentence(row: pd.Series, bounds: tuple[float, float], name: str, unit: str) -> str:
    """`` Target for mean turns per game, 50 to 60 turns: reached, 55.20 turns (95% CI
    55.00 to 55.40).``: the proposal's measure on the hold-out (``row``, a
    :func:`analysis.experiments.advise_page.summary_table` row) reached when its
    estimate lies inside ``bounds``."""
    reached = "reached" if bounds[0] <= row["after"] <= bounds[1] else "not reached"
    return (f" Target for {name}, {bounds[0]:g} to {bounds[1]:g} {unit}: {reached}, {row['after']:.2f} {unit} "
            f"(95% CI {row['after_low']:.2f} to {row['after_high']:.2f}).")  # fmt: skip


def headline_sentence(edits: int, games: int, counts: dict[str, int], turns: pd.Series, edge: pd.Series,
                      grew: bool) -> str:  # fmt: skip
    """The advice's first sentence, without its targets: ``edits`` to the cards, on
    ``games`` fresh games per deck the verdicts before and what the proposal did to
    them (``counts``: :func:`analysis.experiments.advise_page.verdict_counts`), the
    change of game length (``turns``) and of the first player's edge (``edge``, its
    summary rows) with their paired 95% CIs, and whether the edge ``grew``."""
    longer = 100 * turns["difference"] / turns["before"]
    return (f"{plural(edits, 'edit')} to the cards' data. On {games:,} fresh games per deck: {_verdicts(counts)}; "
            f"games {signed(longer, 1)}% longer ({signed(turns['difference'], 2)} turns, 95% CI "
            f"{signed(turns['difference_low'], 2)} to {signed(turns['difference_high'], 2)}); the first player's edge "
            f"{signed(edge['difference'], 2)} pp (95% CI {signed(edge['difference_low'], 2)} to "
            f"{signed(edge['difference_high'], 2)}), {'larger' if grew else 'not larger'}.")  # fmt: skip


def edits_lead(edits: int, games: int) -> str:
    """The line above the edits' sentences, which says once where their figures come
    from: ``On 100,000 fresh games per deck, with all 16 edits together:``."""
    together = f", with all {edits} edits together" if edits > 1 else ""
    return f"On {games:,} fresh games per deck{together}:"


def edit_sentence(edit: str, row: pd.Series | None = None, verdicts: pd.Series | None = None) -> str:
    """One edit (``edit``, its plain words) with its effect on the hold-out: an ally's
    as ``compare`` says it (``verdicts``, a verdict line's row:
    :func:`analysis.report.words.compare.verdict_change_sentence`), a task's
    quantity before and after (``row``, a flagged row); a morale card's alone, its
    effect being the side effects'."""
    if verdicts is not None:
        return f"{edit}. {verdict_change_sentence(verdicts)}"
    if row is None:
        return f"{edit}."
    return (f"{edit}: its {row['quantity']} goes from "
            f"{quantity_text(row['before'], row['before_low'], row['before_high'], row['unit'])} to "
            f"{quantity_text(row['after'], row['after_low'], row['after_high'], row['unit'])}.")  # fmt: skip


NO_EDIT_PAGE = "No edit is proposed: no flagged quantity could be moved towards its threshold by the edits allowed."
NO_EDIT_BRIEF = "No edit proposed: nothing flagged could be moved towards its threshold by the edits allowed."


def own_effects_lead(stopped: int, games: int, seed: int, own_games: int) -> str:
    """The line above the edits' table: where its figures come from (``games`` per
    deck on the hold-out ``seed``) and what they cost (``own_games``); ``stopped``:
    the edits alone that ``--until-settled`` stopped early."""
    early = (f" {stopped} of the edits alone stopped before then, once their card's verdict was settled: "
             "their bounds are the 95% confidence sequence at the games played (alone_n)." if stopped else "")
    return (f"Each edit alone on the original deck (its own effect) beside the full proposal, on the same "
            f"{games:,} fresh games per deck of the hold-out seed {seed}: {own_games:,} games for the edits alone "
            f"(with points-blind companions for the task edits; an ally's effect needs none).{early} "
            + QUANTITY_NOTE)  # fmt: skip


def short_list_lead(table: pd.DataFrame, invalid: list[int], games: int, short_games: int) -> str:
    """The short list's sentence: which proposals are on the front, which are
    dominated and by which (``table``:
    :func:`analysis.experiments.advise_page.short_list_table`), which prefixes did not
    validate (``invalid``, their edits), and the games they used."""
    front = ", ".join(f"{k}" for k in table.loc[table["dominated_by"] == "", "edits"])
    beaten = [f"{r['edits']} (by {r['dominated_by']})" for _, r in table[table["dominated_by"] != ""].iterrows()]
    return (f"Shorter proposals: the K edits the search ranked best (a move or a swap counts as one), each played "
            f"on the same {games:,} fresh games per deck ({short_games:,} games for the shorter ones, points-blind "
            f"companions included). On the front (no other proposal is as good on edits, verdicts left or created "
            f"and side effects, and better on one): {front or 'none'} edits"
            + (f"; dominated: {', '.join(beaten)}" if beaten else "; none dominated")
            + (f"; the best {', '.join(map(str, invalid))} edits alone do not validate" if invalid else "")
            + ".")  # fmt: skip


def still_text(row: pd.Series) -> str:
    """A card's verdict and figure on the hold-out, as :func:`tried_sentence` says it
    (a flagged row)."""
    return (f"{row['verdict_after']} ({quantity_text(row['after'], row['after_low'], row['after_high'], row['unit'])}"
            f" on the hold-out)")  # fmt: skip


def tried_sentence(search: pd.DataFrame, card: str, name: str, still: str, only: tuple[str, ...] = ()) -> str:
    """What the search tried for a card still flagged, from its log (``search.csv``):
    ``Evrart Claire still has a verdict, stronger (+11.5 pp …). Tried: Remove the purple symbol
    from Evrart Claire, refused: the first player's edge grew by +0.30 pp (95% CI
    +0.02 to +0.58) on the edge seed; …``. Each edit once, with its last outcome;
    ``still`` is the card's verdict and figure on the hold-out; ``only``: the cards
    ``--only`` named (a card left out is told so)."""
    if only and card not in only:
        return f"{name} still has a verdict, {still}: --only left it out."
    attempts = search["stage"].str.startswith(("combined", "greedy", "pair", "triple", "screen"))
    rows = search[(search["card"] == card) & attempts]
    rows = rows[~(rows["stage"].str.startswith("screen") & (rows["refused_by"] == ""))]  # a screen's fair try goes on
    if rows.empty:
        return (f"{name} still has a verdict, {still}: no edit was tried for it (on the search seed it was inside the "
                "aim, its fields are locked, or the proposal already held --max-edits edits).")  # fmt: skip
    last = rows.drop_duplicates("edits", keep="last")
    parts = [f"{row['edit'] or row['edits']}, "
             + (f"refused ({row['refused_by']}): {row['why']}" if row["refused_by"] else row["why"])
             for _, row in last.iterrows()]  # fmt: skip
    return f"{name} still has a verdict, {still}. Tried: " + "; ".join(parts) + "."


GUARD_WORDS = {"edge": "the first player's edge grew", "length": "it moved game length beyond the guard",
               "new verdict": "it put another card beyond the aim", "excess": "the deck was no better overall"}  # fmt: skip
"""Why a guard refused an edit, in a few words (:meth:`analysis.experiments.advise_search.Search.refusal`)."""


def nearest_fix(search: pd.DataFrame, card: str, name: str, threshold: float, unit: str, now: float) -> str:
    """The one refused edit that would have fixed a card that resists, from the search's
    log (``target_after``, in-sample): `` The change that would bring Evrart Claire within
    ±2 pp: Evrart Claire loses A9 forced draw (+0.9 pp in-sample); not taken: the first
    player's edge grew.`` The edit whose quantity lies nearest zero among those a guard
    refused (:data:`GUARD_WORDS`) while the card stood on the side it stands on now
    (``target_before`` of ``now``'s sign: a card turned from weaker to stronger is not told
    the edits that would have strengthened it); when none comes within ``threshold``, the
    nearest is named as such. Empty when no such edit was measured for the card."""
    if "target_after" not in search or search.empty:
        return ""
    rows = search[(search["card"] == card) & search["refused_by"].isin(list(GUARD_WORDS))
                  & search["target_after"].notna() & (np.sign(search["target_before"]) == np.sign(now))]  # fmt: skip
    if rows.empty:
        return ""
    row = rows.loc[rows["target_after"].abs().idxmin()]
    value = f"{row['target_after']:+.1f} {unit} in-sample"
    if abs(row["target_after"]) < threshold:
        return (f" The change that would bring {name} within ±{threshold:g} {unit}: {row['edit'] or row['edits']} "
                f"({value}); not taken: {GUARD_WORDS[row['refused_by']]}.")  # fmt: skip
    return (f" No edit tried brings {name} within ±{threshold:g} {unit}; the nearest, {row['edit'] or row['edits']}, "
            f"leaves it at {value} (refused: {GUARD_WORDS[row['refused_by']]}).")  # fmt: skip


def edge_note(relaxed: bool, target: tuple[float, float] | None, games: int, tolerance_pp: float) -> str:
    """How the search held the first player's edge (docs/EXPERIMENTS.md, advise: *The first
    player's edge is a hard constraint*): a hard constraint (towards ``target``,
    ``--target edge=LO..HI``, when given), or ``relaxed`` because no candidate kept
    it; ``games``: the hold-out's per deck, ``tolerance_pp``: the growth the search
    let pass (:data:`analysis.experiments.advise_search.EDGE_TOLERANCE_PP`)."""
    if relaxed:
        return (f"No candidate kept the first player's edge (on the search seed, every edit that moved a flagged "
                f"card towards its threshold grew it significantly or by more than {tolerance_pp} pp), so the "
                "search relaxed that constraint and weighed the edge's growth against the verdicts it fixes "
                "instead.")  # fmt: skip
    if target is not None:
        low, high = target
        return (f"The search moved the first player's edge towards {low:g} to {high:g} pp (--target) and refused "
                "every candidate whose edge moved away from that range, outside it, against the original's (its "
                f"paired 95% CI beyond 0, or its estimate beyond {tolerance_pp} pp): screened on the search seed, and "
                f"checked on {games:,} games of a seed of its own before any deck was accepted.")  # fmt: skip
    return ("The search refused every candidate whose first player's edge grew against the original's (its paired "
            f"95% CI above 0, or its estimate above {tolerance_pp} pp): screened on the search seed, and checked "
            f"on {games:,} games of a seed of its own before any deck was accepted.")  # fmt: skip


def restricted_sentence(table: pd.DataFrame) -> str:
    """``advise --restricted-play``'s check (:mod:`analysis.experiments.advise_restricted`)
    in a sentence, the allies that fail named with both values (pp, 95% CI of the
    proposal's)."""
    first = table.iloc[0]
    lead = (f"Restricted play (seat 0 may not play the ally; {first['n']:,} games per run on the hold-out seed, "
            f"against {first['reference']}, the plain ally nearest the average in both decks): "
            f"{int(table['agrees'].sum())} of {len(table)} edited allies move toward zero without crossing it "
            "beyond their 95% CI")  # fmt: skip
    failing = table[~table["agrees"]]
    if failing.empty:
        return lead + "."
    named = "; ".join(f"{r['ally']} ({r['edit']}) {signed(r['before_pp'], 1)} → "
                      f"{estimate(r['after_pp'] / 100, r['after_low_pp'] / 100, r['after_high_pp'] / 100, 'pp')}"
                      + (", across zero" if r["crossed"] else ", no closer to zero") for _, r in failing.iterrows())
    return f"{lead}; {len(failing)} do not: {named}."


def skill_check_text(bot: str, before: int, after: int, games: int, check: pd.DataFrame) -> str:
    """``advise --skill-check``'s answer: the allies with a verdict under ``bot``
    (:func:`skilled_allies_text`), then the changes that depend on skill
    (:func:`analysis.report.words.compare.change_skill_text`)."""
    return f"{skilled_allies_text(bot, before, after, games)} {change_skill_text(check, bot)}"


def holdout_note(games: int, seed: int) -> str:
    """The provenance's sentence after the proposal's path: where every figure is from."""
    return (f". Every figure below, unless labelled in-sample, is from {games:,} fresh games per deck on the "
            f"hold-out seed {seed}, which the search never used (and as many with every task paying "
            "alike).")  # fmt: skip


def search_heading(seed: int, games: int) -> str:
    """The heading of the page's in-sample section: the search's seed and games per deck."""
    return f"The search (in-sample: seed {seed}, {games:,} games per deck)"


def search_note(games: dict[str, int]) -> str:
    """The games the advice played, by stage (``Advice.games``), and that its in-sample
    figures flatter the proposal."""
    return (f"{games['candidates']} decks played, {games['search']:,} games on the search seed, {games['edge']:,} in "
            f"the edge checks, {games['holdout']:,} on the hold-out seed for the original and the proposal, "
            f"{games.get('own', 0):,} for the edits alone and {games.get('short list', 0):,} for the shorter "
            "proposals (points-blind companions included). These figures chose the proposal and flatter "
            "it.")  # fmt: skip


def short_list_title(seed: int) -> str:
    """The title of the short list's table in the terminal."""
    return f"Shorter proposals on the hold-out seed {seed}"


def own_effects_title(seed: int) -> str:
    """The title of the edits' own effects' table in the terminal."""
    return f"Each edit's own effect on the hold-out seed {seed}"


def holdout_title(seed: int, games: int) -> str:
    """The title of the before/after table in the terminal."""
    return (f"Hold-out seed {seed}: {games:,} fresh games per deck, original (before) and proposal (after); "
            "differences paired on the same games")


def brief_games_lines(games: dict[str, int], seed: int, edge_seed: int, seconds: float, played: int,
                      whole: int | None) -> tuple[str, str]:  # fmt: skip
    """The terminal's lines on the games played: by stage (``games``, ``Advice.games``;
    the search on ``seed``, the edge checks on ``edge_seed``) and in ``seconds``, then
    in all (``played``; ``whole``: those playing each deck whole would have cost, for
    a run in rounds, else None)."""
    restricted = f"restricted play: {games['restricted']:,} games; " if "restricted" in games else ""
    whole_note = (f" ({whole:,} had each of these decks and edits alone played whole; a run without --until-settled "
                  "takes its own path)") if whole is not None else ""  # fmt: skip
    return (f"search: {games['candidates']} decks, {games['search']:,} games on seed {seed} (in-sample); edge "
            f"checks: {games['edge']:,} games on seed {edge_seed}; hold-out: {games['holdout']:,} games; "
            f"{restricted}{seconds:,.0f} s", f"games played: {played:,}{whole_note}")  # fmt: skip


def written_lines(proposal, table, page) -> tuple[str, str]:
    """The terminal's last lines: the files written (the proposal, ``advice.csv``) and the page."""
    return written_line([proposal, table]), f"advice: {page}"


def ability_words(name: str) -> str:
    """An ability as the rules name it: ``A9 forced draw`` (RULES A1-A9)."""
    return f"A{Ability[name.upper()].value} {name.replace('_', ' ')}"


def change_text(change) -> str:
    """An edit (:class:`analysis.experiments.advise_edits.Change`) in plain words: ``Remove the purple symbol from Evrart Claire``,
    ``Evrart Claire gives A9 forced draw to Glen``, ``Move Evrart Claire's yellow
    symbol to Glen`` (its partner's: ``Glen takes Evrart Claire's yellow symbol``)."""
    if change.field == "ability":
        return _ability_text(change)
    if change.field == "symbols" and change.partner:
        if change.symbol_lost:
            return f"Move {change.name}'s {change.symbol_lost} symbol to {change.partner}"
        return f"{change.name} takes {change.partner}'s {change.symbol_gained} symbol"
    if change.field == "points":
        verb = "Raise" if change.new > change.old else "Lower"
        return f"{verb} {change.name}'s points from {change.old} to {change.new}"
    if change.field == "save":
        return f"Change {change.name}'s save from {as_written(change.old)} to {as_written(change.new)}"
    added, removed = Counter(change.new) - Counter(change.old), Counter(change.old) - Counter(change.new)
    noun = "symbol" if change.field == "symbols" else "required symbol"
    parts = []
    for old, new in zip(sorted(removed.elements()), sorted(added.elements())):
        parts.append(f"recolour {change.name}'s {old} {noun} to {new}")
    extra_removed = list(removed.elements())[len(list(added.elements())):]
    extra_added = list(added.elements())[len(list(removed.elements())):]
    parts += [f"remove the {s} {noun} from {change.name}" for s in sorted(extra_removed)]
    parts += [f"add a {s} {noun} to {change.name}" for s in sorted(extra_added)]
    text = "; ".join(parts) or f"change {change.name}'s {change.field}"
    return text[0].upper() + text[1:]


def _ability_text(change) -> str:
    """``Evrart Claire loses A9 forced draw``, ``… gives A9 forced draw to Glen``,
    ``Glen takes A9 forced draw from Evrart Claire``, ``… swaps A9 forced draw for
    Glen's A5 stays``, ``Glen gains A9 forced draw``."""
    old, new = (ability_words(a) if a else "" for a in (change.old, change.new))
    if change.partner and old and new:
        return f"{change.name} swaps {old} for {change.partner}'s {new}"
    if change.partner:
        return f"{change.name} gives {old} to {change.partner}" if old else f"{change.name} takes {new} from {change.partner}"
    return f"{change.name} loses {old}" if not new else f"{change.name} gains {new}" + (f" instead of {old}" * bool(old))


def restore_text(original: Deck, key: tuple[str, int, str], value: Any) -> str:
    """An edit that gives ``key``'s field back its ``value`` in the ``original`` (an
    earlier round's edit undone; :func:`.advise_edits.changes` sees no change in it) in
    plain words: ``Give Frittte clerk back its symbols in the original: [yellow,
    purple]``, ``Give Egg Head back its ability in the original: none``."""
    words = (ability_words(value) if value else "none") if key[2] == "ability" else as_written(value)
    return f"Give {getattr(original, key[0])[key[1]].name} back its {key[2]} in the original: {words}"
