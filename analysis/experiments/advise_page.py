"""The advisor's findings, first: sentences, tables, a forest plot, ``advice.html`` and
``advice.csv`` (:mod:`.advise`). The page is built as data (:func:`advice_page`,
:mod:`analysis.report.document`) and drawn by :mod:`analysis.report.render_page`.

Every figure here is from the hold-out games (the original and the proposal played
on a seed the search never used, ``holdout_games`` each). An ally's quantity is its
effect against the average ally (pp of win rate, 95% CI from the game-clustered
sandwich of :mod:`analysis.stats.ally_model`); a task's is its gap from the monotone
par of the other tasks (points, 95% CI from the game-clustered bootstrap of
:mod:`analysis.task_calibration`). The side effects (mean turns per game, the first
player's edge, morale-loss events per game) are paired differences on the same
games (:mod:`analysis.experiments.compare`). The search's own figures are shown last,
labelled in-sample.

An interval of zero width (a task whose par every bootstrap resample put at the same
reward) is no interval: its value is shown alone (:func:`quantity_text`). A cell with
nothing to say (``tried`` of a card no longer flagged) is empty, in ``advice.csv`` and
on the page, never ``nan``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from analysis.experiments.advise import Advice
from analysis.experiments.advise_edits import edit_count
from analysis.experiments.advise_measures import Measures, edge_seed
from analysis.experiments.advise_search import EDGE_TOLERANCE_PP, Settings
from analysis.experiments.compare import TOP_CHANGES, changes
from analysis.experiments.compare_verdicts import outcome
from analysis.report import document as doc
from analysis.report.html import estimate, figure_png, signed
from analysis.report.render_page import page_html
from analysis.report.writer import Files, write_files
from sim.cards import as_written
from analysis.report.words.advise import NO_SIDE_EFFECT, free_text, side_effects_lead, skilled_allies_text
from analysis.report.words.compare import SKILL_CHECK_TITLE, change_sentence, change_skill_text, verdict_change_sentence
from sim.cards import Ability

QUANTITY = {"ally": ("effect against the average ally", "pp"), "task": ("gap from par", "points")}


def _card_rows(m: Measures, kind: str) -> pd.DataFrame:
    """Per card: ``card``, ``name``, ``value``, ``low``, ``high`` (95%), ``verdict``."""
    if kind == "ally":
        t = m.allies
        return pd.DataFrame({"card": t["ally"], "name": t["name"], "value": t["effect_pp"], "low": t["effect_low_pp"],
                             "high": t["effect_high_pp"], "verdict": t["verdict"], "n": t["games"]})  # fmt: skip
    t = m.tasks
    return pd.DataFrame({"card": t["task"], "name": t["name"], "value": t["gap_points"],
                         "low": t["points"] - t["par_points_high"], "high": t["points"] - t["par_points_low"],
                         "verdict": t["verdict"], "n": t["difficulty_games"]})  # fmt: skip


def flagged_table(advice: Advice) -> pd.DataFrame:
    """Before and after of every flagged quantity on the hold-out: the cards with a
    verdict in either deck, and the cards edited. Columns ``kind``, ``card``,
    ``name``, ``quantity``, ``unit``, ``before`` with ``before_low``/``before_high``,
    ``verdict_before``, ``after`` with ``after_low``/``after_high``,
    ``verdict_after``, ``n`` (games)."""
    return _flagged(advice.before, advice.after, {c.card for c in advice.changes})


def _flagged(before: Measures, after: Measures, edited: set[str]) -> pd.DataFrame:
    """:func:`flagged_table` of any two decks' measures, ``edited`` the ids of the cards edited."""
    parts = []
    for kind in QUANTITY:
        a, b = _card_rows(before, kind), _card_rows(after, kind)
        keep = (a["verdict"] != "") | (b["verdict"] != "") | a["card"].isin(edited)
        parts.append(pd.DataFrame({
            "kind": kind, "card": a["card"], "name": a["name"], "quantity": QUANTITY[kind][0],
            "unit": QUANTITY[kind][1], "before": a["value"], "before_low": a["low"], "before_high": a["high"],
            "verdict_before": a["verdict"], "after": b["value"], "after_low": b["low"], "after_high": b["high"],
            "verdict_after": b["verdict"], "n": b["n"].astype(np.int64)})[keep])  # fmt: skip
    return pd.concat(parts, ignore_index=True)


def _side(m: Measures, key: str) -> tuple[float, float, float]:
    value = getattr(m, key)
    return value["value"], value["low"], value["high"]


def summary_table(advice: Advice) -> pd.DataFrame:
    """The counts and the side effects on the hold-out: ``what``, ``unit``,
    ``before`` and ``after`` (with 95% bounds where they are estimates),
    ``difference`` with its paired 95% bounds (proposal − original, same games),
    ``n`` (games)."""
    games = advice.differences["games"].set_index("metric")
    seat = advice.differences["seats"].iloc[0]
    n = int(advice.before.length["games"])
    rows = [{"what": "allies with a verdict", "unit": "allies", "before": (advice.before.allies["verdict"] != "").sum(),
             "after": (advice.after.allies["verdict"] != "").sum(), "n": n},
            {"what": "tasks out of line", "unit": "tasks", "before": (advice.before.tasks["verdict"] != "").sum(),
             "after": (advice.after.tasks["verdict"] != "").sum(), "n": n}]  # fmt: skip
    for what, key, unit, paired in (("mean turns per game", "length", "turns", games.loc["turns per game"]),
                                    ("first player's edge over a fair seat", "edge", "pp", seat),
                                    ("morale-loss events per game", "morale", "events",
                                     games.loc["morale-loss events per game"])):  # fmt: skip
        (b, bl, bh), (a, al, ah) = _side(advice.before, key), _side(advice.after, key)
        scale = 100.0 if unit == "pp" else 1.0
        rows.append({"what": what, "unit": unit, "before": b, "before_low": bl, "before_high": bh, "after": a,
                     "after_low": al, "after_high": ah, "difference": scale * paired["difference"],
                     "difference_low": scale * paired["difference_low"],
                     "difference_high": scale * paired["difference_high"], "n": n})  # fmt: skip
    table = pd.DataFrame(rows)
    table["n"] = table["n"].astype(np.int64)
    return table


def zero_width(low: float, high: float) -> bool:
    """Whether an interval's bounds coincide (within 1e-9): no interval to show."""
    return bool(np.isfinite(low) and np.isfinite(high) and abs(high - low) <= 1e-9)


def quantity_text(value: float, low: float, high: float, unit: str, n: int | None = None) -> str:
    """A flagged quantity with its 95% CI: ``+4.2 pp (95% CI 3.5 to 4.8)`` (``unit``
    ``pp``), ``+1.0 points (95% CI 0.4–1.6)``; the value alone when the interval has
    zero width (``0.0 points``, module docstring) or no bounds."""
    if zero_width(low, high):
        low = high = np.nan
    if unit == "pp":
        return estimate(value / 100, low / 100, high / 100, "pp", n=n)
    return estimate(value, low, high, "", n=n, noun=unit)


def shown(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` as the page and the terminal show it: a zero-width interval's bounds blanked, so that a cell
    shows its value alone (:func:`quantity_text`)."""
    shown = table.copy()
    for low in [c for c in table.columns if c.endswith("_low") and f"{c[:-4]}_high" in table.columns]:
        high = f"{low[:-4]}_high"
        blank = [zero_width(a, b) for a, b in zip(table[low], table[high])]
        shown.loc[blank, [low, high]] = np.nan
    return shown


def verdict_counts(flagged: pd.DataFrame) -> dict[str, int]:
    """The verdicts of :func:`flagged_table` (allies and tasks) on the hold-out:
    ``before`` (``allies``, ``tasks``: of the original), ``fixed`` (a card with a
    verdict before and none after), ``left`` (a verdict before and after, a flipped
    one included) and ``created`` (none before, one after)."""
    before, after = flagged["verdict_before"] != "", flagged["verdict_after"] != ""
    return {"before": int(before.sum()), "allies": int((before & (flagged["kind"] == "ally")).sum()),
            "tasks": int((before & (flagged["kind"] == "task")).sum()), "fixed": int((before & ~after).sum()),
            "left": int((before & after).sum()), "created": int((~before & after).sum())}  # fmt: skip


def edits_lead(advice: Advice) -> str:
    """The line above the edits' sentences, which says once where their figures come
    from: ``On 100,000 fresh games per deck, with all 16 edits together:``."""
    count = edit_count(advice.changes)
    together = f", with all {count} edits together" if count > 1 else ""
    return f"On {advice.holdout_games:,} fresh games per deck{together}:"


def edit_sentences(advice: Advice) -> list[str]:
    """One plain sentence per edit, with the effect before and after on the hold-out
    games (:func:`edits_lead` says so once, above them). An ally's speaks as
    ``compare`` does (:func:`analysis.report.words.compare.verdict_change_sentence`): ``Remove
    the purple symbol from Evrart Claire. Evrart Claire: stronger than the average
    ally, +12.1 pp (95% CI …) → no verdict, +0.3 pp (…): fixed.``; a task's: ``…: its
    gap from par goes from … to ….``"""
    flagged = flagged_table(advice).set_index("card")
    out = []
    for change in advice.changes:
        if change.card not in flagged.index:  # a morale card: its effect is the side effects' table
            out.append(f"{change.sentence()}.")
            continue
        r = flagged.loc[change.card]
        if r["kind"] == "ally":
            out.append(f"{change.sentence()}. {verdict_change_sentence(_verdict_row(r))}")
            continue
        out.append(f"{change.sentence()}: its {r['quantity']} goes from "
                   f"{quantity_text(r['before'], r['before_low'], r['before_high'], r['unit'])} to "
                   f"{quantity_text(r['after'], r['after_low'], r['after_high'], r['unit'])}.")  # fmt: skip
    return out


def _verdict_row(r: pd.Series) -> pd.Series:
    """An edited ally's :func:`flagged_table` row as a comparison's verdict line
    (:func:`analysis.experiments.compare_verdicts.verdict_changes`' columns)."""
    return pd.Series({"name": r["name"], "edited": True, "verdict_a": r["verdict_before"],
                      "verdict_b": r["verdict_after"], "effect_a_pp": r["before"], "effect_a_low_pp": r["before_low"],
                      "effect_a_high_pp": r["before_high"], "effect_b_pp": r["after"],
                      "effect_b_low_pp": r["after_low"], "effect_b_high_pp": r["after_high"],
                      "outcome": outcome(r["verdict_before"], r["verdict_after"])})  # fmt: skip


def edits_table(advice: Advice) -> pd.DataFrame:
    """Each edit's own effect beside its effect in the full proposal, on the hold-out
    seed and games (issue 48 item 6; one-step deviations, as TAG's NTBEA tuning
    reports them): ``card``, ``name``, ``field``, ``edit`` (before → after),
    ``quantity``, ``unit`` (an ally's effect against the average ally in pp, a task's
    gap from par in points; empty for a morale card, whose effect is the side
    effects'), then the target's quantity with its 95% bounds in the ``original``,
    with the edit ``alone`` on the original deck (empty when not played, or when the
    edit alone does not validate) and ``in_proposal``; ``n`` (games per deck) and
    ``alone_n``, the games of the edit alone: fewer when ``--until-settled`` stopped it
    once its card's verdict settled, its bounds then its 95% confidence sequence
    (:attr:`.advise.Advice.alone_sequences`)."""
    rows = []
    for i, change in enumerate(advice.changes):
        row = {"card": change.card, "name": change.name, "field": change.field,
               "edit": f"{as_written(change.old)} → {as_written(change.new)}"}  # fmt: skip
        kind = {"allies": "ally", "tasks": "task"}.get(change.section)
        alone = advice.alone[i] if i < len(advice.alone) else None
        sequence = advice.alone_sequences[i] if i < len(advice.alone_sequences) else None
        if kind is not None:
            row |= {"quantity": QUANTITY[kind][0], "unit": QUANTITY[kind][1]}
            for column, m in (("original", advice.before), ("alone", alone), ("in_proposal", advice.after)):
                card = _card_rows(m, kind).iloc[change.index] if m is not None else {}
                row |= {column: card.get("value", np.nan), f"{column}_low": card.get("low", np.nan),
                        f"{column}_high": card.get("high", np.nan)}  # fmt: skip
            if sequence is not None:
                row |= {"alone_low": sequence["low"], "alone_high": sequence["high"]}
        rows.append(row | {"n": advice.holdout_games,
                           "alone_n": (sequence or {}).get("games", advice.holdout_games) if alone is not None else np.nan})
    columns = ["card", "name", "field", "edit", "quantity", "unit"] + [
        f"{c}{end}" for c in ("original", "alone", "in_proposal") for end in ("", "_low", "_high")] + ["n", "alone_n"]
    table = pd.DataFrame(rows, columns=columns)
    table[["quantity", "unit"]] = table[["quantity", "unit"]].fillna("")
    return table


def own_effects_lead(advice: Advice) -> str:
    """The line above the edits' table: where its figures come from and what they cost."""
    stopped = sum(sequence is not None for sequence in advice.alone_sequences)
    early = (f" {stopped} of the edits alone stopped before then, once their card's verdict was settled: "
             "their bounds are the 95% confidence sequence at the games played (alone_n)." if stopped else "")
    return (f"Each edit alone on the original deck (its own effect) beside the full proposal, on the same "
            f"{advice.holdout_games:,} fresh games per deck of the hold-out seed {advice.holdout_seed}: "
            f"{advice.games.get('own', 0):,} games for the edits alone (with points-blind companions for the task edits; "
            f"an ally's effect needs none).{early} "
            + QUANTITY_NOTE)  # fmt: skip


def dominated(table: pd.DataFrame) -> pd.Series:
    """The Pareto front of the short list: for each row of ``table`` (``edits``,
    ``verdicts`` left and created, ``side_effects``, all counts, fewer better), the
    ``edits`` of the first row that dominates it (no more of each and fewer of one),
    or 0 when none does (it is on the front)."""
    values = table[["edits", "verdicts", "side_effects"]].to_numpy()
    out = []
    for row in values:
        by = [int(other[0]) for other in values if (other <= row).all() and (other < row).any()]
        out.append(by[0] if by else 0)
    return pd.Series(out, index=table.index, name="dominated_by", dtype=np.int64)


def short_list_table(advice: Advice) -> pd.DataFrame:
    """The short list on the hold-out seed (:attr:`Advice.short_list`), fewest edits
    first: ``edits``, ``file``, ``fixed``, ``left``, ``created`` (verdicts,
    :func:`verdict_counts`), ``verdicts`` (left + created), ``side_effects``
    (compare's significant changes against the original on the same games,
    :func:`analysis.experiments.compare.changes`), ``n`` (games per deck),
    ``dominated_by`` (``3 edits``: a proposal with no more edits, verdicts and side
    effects and fewer of one; empty on the Pareto front, :func:`dominated`). A prefix that does
    not validate is left out (:func:`short_list_lead` says so)."""
    rows = []
    for short in advice.short_list:
        if short.after is None:
            continue
        counts = verdict_counts(_flagged(advice.before, short.after, {c.card for c in short.changes}))
        rows.append({"edits": short.edits, "file": short.proposal.name, "fixed": counts["fixed"],
                     "left": counts["left"], "created": counts["created"],
                     "verdicts": counts["left"] + counts["created"],
                     "side_effects": len(changes(short.differences)), "n": advice.holdout_games})  # fmt: skip
    table = pd.DataFrame(rows, columns=["edits", "file", "fixed", "left", "created", "verdicts", "side_effects", "n"])
    table["dominated_by"] = [f"{k} edit{'s' * (k != 1)}" if k else "" for k in dominated(table)] if len(table) else ""
    return table


def short_list_lead(advice: Advice, table: pd.DataFrame) -> str:
    """The short list's sentence: which proposals are on the front, which are dominated
    and by which, which prefixes did not validate, and the games they used."""
    front = ", ".join(f"{k}" for k in table.loc[table["dominated_by"] == "", "edits"])
    beaten = [f"{r['edits']} (by {r['dominated_by']})" for _, r in table[table["dominated_by"] != ""].iterrows()]
    invalid = [f"{s.edits}" for s in advice.short_list if s.after is None]
    return (f"Shorter proposals: the K edits the search ranked best (a move or a swap counts as one), each played "
            f"on the same "
            f"{advice.holdout_games:,} fresh games per deck ({advice.games.get('short list', 0):,} games for the "
            f"shorter ones, points-blind companions included). On the front (no other proposal is as good on "
            f"edits, verdicts left or created and side effects, and better on one): {front or 'none'} edits"
            + (f"; dominated: {', '.join(beaten)}" if beaten else "; none dominated")
            + (f"; the best {', '.join(invalid)} edits alone do not validate" if invalid else "") + ".")  # fmt: skip


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
        return (f"{name} still has a verdict, {still}: no edit was tried for it (on the search seed it was inside the aim, "
                "its fields are locked, or the proposal already held --max-edits edits).")  # fmt: skip
    last = rows.drop_duplicates("edits", keep="last")
    parts = [f"{row['edit'] or row['edits']}, " + (f"refused ({row['refused_by']}): {row['why']}" if row["refused_by"] else row["why"])
             for _, row in last.iterrows()]  # fmt: skip
    return f"{name} still has a verdict, {still}. Tried: " + "; ".join(parts) + "."


def resist_sentences(advice: Advice) -> list[str]:
    """One sentence per card flagged in the proposal on the hold-out: the edits the
    search tried for it and the guard that refused each, with its numbers
    (:func:`tried_sentence`)."""
    flagged = flagged_table(advice)
    still = flagged[flagged["verdict_after"] != ""]
    thresholds = {"ally": float(advice.after.allies["threshold_pp"].iloc[0]),
                  "task": float(advice.after.tasks["threshold_points"].iloc[0])}  # fmt: skip
    return [tried_sentence(advice.search, r["card"], r["name"], f"{r['verdict_after']} "
                           f"({quantity_text(r['after'], r['after_low'], r['after_high'], r['unit'])} on the hold-out)",
                           advice.only)
            + nearest_fix(advice.search, r["card"], r["name"], thresholds[r["kind"]], r["unit"], r["after"])
            + _frees(advice, r["card"], r["verdict_after"] == "weaker")
            for _, r in still.iterrows()]  # fmt: skip


GUARD_WORDS = {"edge": "the first player's edge grew", "length": "it moved game length beyond the guard",
               "new verdict": "it put another card beyond the aim", "excess": "the deck was no better overall"}  # fmt: skip
"""Why a guard refused an edit, in a few words (:meth:`.advise_search.Search.refusal`)."""


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


def _frees(advice: Advice, card: str, weaker: bool) -> str:
    """What would free a card that resists (:func:`analysis.report.words.advise.free_text`):
    the guards that refused its edits in the search's log, and, without
    ``--abilities``, its ability, if any, or one given to it when it is ``weaker``."""
    refused = advice.search.loc[advice.search["card"] == card, "refused_by"] if len(advice.search) else pd.Series()
    ability = next((a.ability for a in advice.deck.allies if a.id == card), None) or ""
    return free_text([str(r) for r in refused if r], ability, f"A{Ability[ability.upper()].value}" if ability else "",
                     advice.abilities, weaker)  # fmt: skip


def plot_forest(flagged: pd.DataFrame) -> Figure:
    """Forest plot: each flagged quantity before (grey) and after (blue) with its 95%
    CI; one panel for the allies (pp), one for the tasks (points)."""
    kinds = [k for k in QUANTITY if (flagged["kind"] == k).any()]
    figure = Figure(figsize=(7.5, 0.9 + 0.32 * max(1, len(flagged))), layout="constrained")
    axes = figure.subplots(len(kinds) or 1, 1, squeeze=False,
                           height_ratios=[max(1, (flagged["kind"] == k).sum()) for k in kinds] or None)[:, 0]  # fmt: skip
    for ax, kind in zip(axes, kinds):
        rows = flagged[flagged["kind"] == kind].reset_index(drop=True)
        y = np.arange(len(rows))[::-1]
        for side, colour, shift in (("before", "0.6", 0.15), ("after", "tab:blue", -0.15)):
            x, low, high = (rows[c].to_numpy(np.float64) for c in (side, f"{side}_low", f"{side}_high"))
            ax.errorbar(x, y + shift, xerr=np.vstack([x - low, high - x]), fmt="o", color=colour, capsize=2,
                        label=side)  # fmt: skip
        ax.axvline(0, color="black", lw=0.8)
        ax.set_yticks(y, rows["name"])
        ax.set_xlabel(f"{QUANTITY[kind][0]} ({QUANTITY[kind][1]}, 95% CI)")
        ax.grid(axis="x", alpha=0.3)
        ax.legend(loc="lower right", fontsize="small")
    figure.suptitle("Hold-out games: the original (before) and the proposal (after)")
    return figure


def edge_note(advice: Advice) -> str:
    """How the search held the first player's edge (docs/EXPERIMENTS.md, advise: *The first
    player's edge is a hard constraint*): a hard
    constraint (towards ``--target edge=LO..HI`` when given), or relaxed because no
    candidate kept it."""
    if advice.edge_relaxed:
        return (f"No candidate kept the first player's edge (on the search seed, every edit that moved a flagged "
                f"card towards its threshold grew it significantly or by more than {EDGE_TOLERANCE_PP} pp), so the search "
                "relaxed that constraint and weighed the edge's growth against the verdicts it fixes instead.")  # fmt: skip
    if advice.target_edge is not None:
        low, high = advice.target_edge
        return (f"The search moved the first player's edge towards {low:g} to {high:g} pp (--target) and refused every "
                "candidate whose edge moved away from that range, outside it, against the original's (its paired 95% "
                f"CI beyond 0, or its estimate beyond {EDGE_TOLERANCE_PP} pp): screened on the search seed, and "
                f"checked on {advice.holdout_games:,} games of a seed of its own before any deck was accepted.")  # fmt: skip
    return ("The search refused every candidate whose first player's edge grew against the original's (its paired "
            f"95% CI above 0, or its estimate above {EDGE_TOLERANCE_PP} pp): screened on the search seed, and checked "
            f"on {advice.holdout_games:,} games of a seed of its own before any deck was accepted.")  # fmt: skip


def headline(advice: Advice, summary: pd.DataFrame, counts: dict[str, int]) -> str:
    """The page's first sentence: how many edits, and on the hold-out games the
    verdicts before and how many the proposal fixed, left and created
    (:func:`verdict_counts`), the change of game length and of the first player's
    edge, each with its paired 95% CI, the edge judged by the search's rule
    (:meth:`.advise_search.Settings.edge_grew`); then, for each ``--target``, whether
    the proposal reached it (:func:`_target_sentence`)."""
    rows = summary.set_index("what")
    turns, edge = rows.loc["mean turns per game"], rows.loc["first player's edge over a fair seat"]
    longer = 100 * turns["difference"] / turns["before"]
    grew = Settings().edge_grew({"value": edge["difference"], "low": edge["difference_low"]})
    edge_words = "larger" if grew else "not larger"
    count = edit_count(advice.changes)
    return (f"{count} edit{'s' * (count != 1)} to the cards' data. On "
            f"{advice.holdout_games:,} fresh games per deck: {_verdicts(counts)}; games "
            f"{signed(longer, 1)}% longer ({signed(turns['difference'], 2)} turns, 95% CI "
            f"{signed(turns['difference_low'], 2)} to {signed(turns['difference_high'], 2)}); the first player's edge "
            f"{signed(edge['difference'], 2)} pp (95% CI {signed(edge['difference_low'], 2)} to "
            f"{signed(edge['difference_high'], 2)}), {edge_words}."
            + "".join(_target_sentence(rows.loc[what], bounds, name, unit) for bounds, what, name, unit in (
                (advice.target_turns, "mean turns per game", "mean turns per game", "turns"),
                (advice.target_edge, "first player's edge over a fair seat", "the first player's edge", "pp"))
                if bounds is not None))  # fmt: skip


def _target_sentence(row: pd.Series, bounds: tuple[float, float], name: str, unit: str) -> str:
    """`` Target for mean turns per game, 50 to 60 turns: reached, 55.20 turns (95% CI
    55.00 to 55.40).``: the proposal's measure on the hold-out (``row``, a
    :func:`summary_table` row) reached when its estimate lies inside ``bounds``."""
    reached = "reached" if bounds[0] <= row["after"] <= bounds[1] else "not reached"
    return (f" Target for {name}, {bounds[0]:g} to {bounds[1]:g} {unit}: {reached}, {row['after']:.2f} {unit} "
            f"(95% CI {row['after_low']:.2f} to {row['after_high']:.2f}).")  # fmt: skip


def _verdicts(counts: dict[str, int]) -> str:
    """``15 verdicts before (14 allies, 1 task): 13 fixed, 2 left, 3 created by the proposal``."""
    allies = f"{counts['allies']} all{'y' if counts['allies'] == 1 else 'ies'}"
    tasks = f"{counts['tasks']} task{'s' * (counts['tasks'] != 1)}"
    return (f"{counts['before']} verdict{'s' * (counts['before'] != 1)} before ({allies}, {tasks}): "
            f"{counts['fixed']} fixed, {counts['left']} left, {counts['created']} created by the proposal")


QUANTITY_NOTE = ("An ally's quantity is its effect against the average ally (pp), a task's its gap from par (points); "
                 "each with its 95% CI, n in games.")  # fmt: skip


def _side_effects_blocks(side: pd.DataFrame) -> list[doc.Block]:
    """The page's list of every significant change on the hold-out (compare's paired
    machinery: :func:`analysis.experiments.compare.changes`), largest effect first."""
    if side.empty:
        return [doc.Heading("Every side effect on the hold-out"), doc.answer(NO_SIDE_EFFECT)]
    return [doc.Heading("Every side effect on the hold-out"), doc.answer(side_effects_lead(len(side))),
            doc.Lines(tuple(change_sentence(row) for _, row in side.iterrows()), ordered=True)]  # fmt: skip


def _skill_check_blocks(advice: Advice) -> list[doc.Block]:
    """The page's section on the proposal under ``--skill-check`` (empty without it)."""
    if advice.skill_check is None:
        return []
    allies = skilled_allies_text(advice.confirmed_with, *advice.skilled_allies, advice.skill_check["skilled_n"].max())
    return [doc.Heading(SKILL_CHECK_TITLE),
            doc.answer(f"{allies} {change_skill_text(advice.skill_check, advice.confirmed_with)}"),
            doc.Table(advice.skill_check, hide=("p_value", "skilled_bot", "n", "skilled_n"),
                      wide=(doc.ESTIMATES,))]  # fmt: skip


def restricted_sentence(table: pd.DataFrame) -> str:
    """``advise --restricted-play``'s check (:mod:`.advise_restricted`) in a sentence,
    the allies that fail named with both values (pp, 95% CI of the proposal's)."""
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


def _restricted_blocks(advice: Advice) -> list[doc.Block]:
    """The page's section on the edited allies valued by restricted play
    (``--restricted-play``; empty without it)."""
    if advice.restricted is None:
        return []
    return [doc.Heading("Restricted play"), doc.answer(restricted_sentence(advice.restricted)),
            doc.Table(advice.restricted, hide=("reference", "n"), wide=(doc.ESTIMATES,))]  # fmt: skip


def advice_page(advice: Advice, command: str = "") -> tuple[doc.Page, dict[str, pd.DataFrame]]:
    """The advisor's page, data only (:mod:`analysis.report.document`), and its tables by
    file name: ``advice.csv`` (flagged quantities, then the summary rows),
    ``search.csv`` (the search's decks, in-sample), ``side_effects.csv``,
    ``edits.csv``, ``short_list.csv`` and, with ``--restricted-play``,
    ``restricted.csv``. ``command``, when given, is named at the top of the provenance."""
    flagged, summary, side = flagged_table(advice), summary_table(advice), changes(advice.differences)
    resisting = resist_sentences(advice)
    flagged["tried"] = ""  # an empty cell for a card no longer flagged (never "nan")
    flagged.loc[flagged["verdict_after"] != "", "tried"] = resisting
    sample = f"hold-out (seed {advice.holdout_seed})"
    table = pd.concat([flagged.assign(sample=sample),
                       summary.rename(columns={"what": "name"}).assign(kind="summary", sample=sample)],
                      ignore_index=True)  # fmt: skip
    sentences = edit_sentences(advice) or ["No edit is proposed: no flagged quantity could be moved towards its "
                                           "threshold by the edits allowed."]  # fmt: skip
    provenance = (*(("Command: ", doc.Code(command), ". ") if command else ()), "Proposal: ",
                  doc.Code(str(advice.proposal)),
                  f". Every figure below, unless labelled in-sample, is from {advice.holdout_games:,} fresh games per "
                  f"deck on the hold-out seed {advice.holdout_seed}, which the search never used (and as many with "
                  "every task paying alike).")  # fmt: skip
    edits, short = edits_table(advice), short_list_table(advice)
    is_count = summary["unit"].isin(["allies", "tasks"])  # whole numbers, shown as such
    counts = summary[is_count]
    estimates = (doc.ESTIMATES,)
    blocks = [doc.Heading("What should I change?", 1), doc.answer(headline(advice, summary, verdict_counts(flagged))),
              doc.Heading("Shorter proposals"), doc.answer(short_list_lead(advice, short)),
              doc.Table(short, wide=estimates),
              doc.Heading("The edits"), *([doc.plain(edits_lead(advice))] if advice.changes else []),
              doc.Lines(tuple(sentences)),
              # the own effects' lead names each kind's quantity (QUANTITY_NOTE): its column is hidden
              *([doc.Heading("Each edit's own effect"), doc.note(own_effects_lead(advice)),
                 doc.Table(shown(edits), hide=("quantity",) + (() if any(advice.alone_sequences) else ("alone_n",)),
                           wide=estimates)] if advice.alone else []),
              *([doc.Heading("The cards that resist"), doc.Lines(tuple(resisting))] if resisting else []),
              *_restricted_blocks(advice),
              doc.note(*provenance),
              doc.note(edge_note(advice)),
              doc.Heading("Every flagged quantity, before and after"),
              doc.note(QUANTITY_NOTE),
              doc.Table(shown(flagged), hide=("quantity",), wide=(doc.ESTIMATES, doc.SENTENCES)),
              doc.Figure(figure_png(plot_forest(flagged)), "forest plot"),
              doc.Heading("Counts and side effects"),
              doc.Table(counts[["what", "before", "after", "n"]].astype({"before": np.int64, "after": np.int64})),
              doc.Table(shown(summary[~is_count]), wide=estimates),
              *_side_effects_blocks(side),
              *_skill_check_blocks(advice),
              doc.Heading("The proposal's diff"), doc.Diff(advice.diff),
              doc.Heading(f"The search (in-sample: seed {advice.seed}, {advice.n_games:,} games per deck)"),
              doc.note(f"{advice.games['candidates']} decks played, {advice.games['search']:,} games on the search "
                       f"seed, {advice.games['edge']:,} in the edge checks, {advice.games['holdout']:,} on the "
                       f"hold-out seed for the original and the proposal, {advice.games.get('own', 0):,} for the edits "
                       f"alone and {advice.games.get('short list', 0):,} for the shorter proposals (points-blind "
                       "companions included). These figures chose the proposal and flatter it."),
              doc.Table(advice.search, wide=())]  # fmt: skip
    restricted = {} if advice.restricted is None else {"restricted.csv": advice.restricted}
    csv = {"search.csv": advice.search, "advice.csv": table, "side_effects.csv": side, "edits.csv": edits,
           "short_list.csv": short, **restricted}  # fmt: skip
    return doc.Page("What should I change? Card edits, confirmed on fresh games", tuple(blocks)), csv


def write_advice(advice: Advice, out: str | Path, command: str = "") -> tuple[Path, Path]:
    """Write ``advice.html`` (:func:`advice_page`, drawn by
    :func:`analysis.report.render_page.page_html`) and its CSV files to ``out``;
    returns the paths of the page and of ``advice.csv``.

    Raises
    ------
    OSError
        As :func:`analysis.report.writer.write_files`.
    """
    document, csv = advice_page(advice, command)
    written = write_files(Files(csv, texts={"advice.html": page_html(document)}), out)
    return written["advice.html"], written["advice.csv"]


def advice_brief(advice: Advice, seconds: float, files: tuple[Path, Path], top: int = TOP_CHANGES) -> doc.Page:
    """What ``revachol advise`` prints (:func:`analysis.report.terminal.print_page`),
    data only: the proposal's diff, the headline, the shorter proposals, each edit
    with its effect, the edits alone, the cards that resist, the edge, the ``top``
    largest side effects, restricted play and the skill check when played, the
    before/after table on the hold-out, the games played (in ``seconds``) and the
    ``files`` written (advice.html, advice.csv)."""
    summary, short, side = summary_table(advice), short_list_table(advice), changes(advice.differences)
    hold_out = advice.holdout_seed
    restricted = (f"restricted play: {advice.games['restricted']:,} games; " if "restricted" in advice.games else "")
    played, whole = advice.games_played
    whole_note = (f" ({whole:,} had each of these decks and edits alone played whole; a run without --until-settled "
                  "takes its own path)") if advice.round_games is not None else ""  # fmt: skip
    blocks = [
        doc.Diff(advice.diff) if advice.diff else
        doc.plain("No edit proposed: nothing flagged could be moved towards its threshold by the edits allowed."),
        doc.answer(headline(advice, summary, verdict_counts(flagged_table(advice)))),
        doc.plain(short_list_lead(advice, short)), doc.plain(f"Shorter proposals on the hold-out seed {hold_out}"),
        doc.Table(short),
        *([doc.plain(edits_lead(advice))] if advice.changes else []), doc.Lines(tuple(edit_sentences(advice))),
        *([doc.plain(own_effects_lead(advice)), doc.plain(f"Each edit's own effect on the hold-out seed {hold_out}"),
           doc.Table(shown(edits_table(advice)))] if advice.alone else []),
        doc.Lines(tuple(resist_sentences(advice))),
        doc.plain(edge_note(advice)),
        doc.plain(side_effects_lead(len(side)) if len(side) else NO_SIDE_EFFECT),
        doc.Lines(tuple(change_sentence(row) for _, row in side.head(top).iterrows())),
        *([doc.plain(restricted_sentence(advice.restricted))] if advice.restricted is not None else []),
        *_skill_check_blocks(advice)[1:2],
        doc.plain(f"Hold-out seed {hold_out}: {advice.holdout_games:,} fresh games per deck, original (before) and "
                  "proposal (after); differences paired on the same games"),
        doc.Table(shown(summary)),
        doc.plain(f"search: {advice.games['candidates']} decks, {advice.games['search']:,} games on seed {advice.seed} "
                  f"(in-sample); edge checks: {advice.games['edge']:,} games on seed {edge_seed(advice.seed)}; "
                  f"hold-out: {advice.games['holdout']:,} games; {restricted}{seconds:,.0f} s"),
        doc.plain(f"games played: {played:,}{whole_note}"),
        doc.plain(f"written: {advice.proposal}, {files[1]}"), doc.plain(f"advice: {files[0]}"),
    ]  # fmt: skip
    return doc.Page("advise", tuple(blocks))
