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
reward) is no interval: its value is shown alone (:func:`analysis.report.words.advise.quantity_text`). A cell with
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
from analysis.report.html import figure_png
from analysis.report.render_page import page_html
from analysis.report.writer import Files
from sim.cards import as_written
import analysis.report.words.advise as words
from analysis.report.words.advise import (NO_SIDE_EFFECT, QUANTITY_NOTE, change_text, edit_sentence, free_text, nearest_fix,
                                          restricted_sentence, side_effects_lead, still_text, tried_sentence,
                                          zero_width)
from analysis.report.words.compare import SKILL_CHECK_TITLE, change_sentence
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


def shown(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` as the page and the terminal show it: a zero-width interval's bounds blanked, so that a cell
    shows its value alone (:func:`analysis.report.words.advise.quantity_text`)."""
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


def _edits_lead(advice: Advice) -> str:
    """The line above the edits' sentences (:func:`analysis.report.words.advise.edits_lead`)."""
    return words.edits_lead(edit_count(advice.changes), advice.holdout_games)


def edit_sentences(advice: Advice) -> list[str]:
    """One plain sentence per edit, with the effect before and after on the hold-out
    games (:func:`edits_lead` says so once, above them). An ally's speaks as
    ``compare`` does (:func:`analysis.report.words.advise.edit_sentence`): ``Remove
    the purple symbol from Evrart Claire. Evrart Claire: stronger than the average
    ally, +12.1 pp (95% CI …) → no verdict, +0.3 pp (…): fixed.``; a task's: ``…: its
    gap from par goes from … to ….``"""
    flagged = flagged_table(advice).set_index("card")
    out = []
    for change in advice.changes:
        if change.card not in flagged.index:  # a morale card: its effect is the side effects' table
            out.append(edit_sentence(change_text(change)))
            continue
        r = flagged.loc[change.card]
        out.append(edit_sentence(change_text(change), verdicts=_verdict_row(r)) if r["kind"] == "ally"
                   else edit_sentence(change_text(change), r))  # fmt: skip
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
    """The line above the edits' table (:func:`analysis.report.words.advise.own_effects_lead`)."""
    stopped = sum(sequence is not None for sequence in advice.alone_sequences)
    return words.own_effects_lead(stopped, advice.holdout_games, advice.holdout_seed, advice.games.get("own", 0))


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
    table["dominated_by"] = [words.plural(k, "edit") if k else "" for k in dominated(table)] if len(table) else ""
    return table


def short_list_lead(advice: Advice, table: pd.DataFrame) -> str:
    """The short list's sentence (:func:`analysis.report.words.advise.short_list_lead`): which
    proposals of ``table`` are on the front, which are dominated and by which, which
    prefixes did not validate, and the games they used."""
    invalid = [s.edits for s in advice.short_list if s.after is None]
    return words.short_list_lead(table, invalid, advice.holdout_games, advice.games.get("short list", 0))


def resist_sentences(advice: Advice) -> list[str]:
    """One sentence per card flagged in the proposal on the hold-out: the edits the
    search tried for it and the guard that refused each, with its numbers
    (:func:`analysis.report.words.advise.tried_sentence`)."""
    flagged = flagged_table(advice)
    still = flagged[flagged["verdict_after"] != ""]
    thresholds = {"ally": float(advice.after.allies["threshold_pp"].iloc[0]),
                  "task": float(advice.after.tasks["threshold_points"].iloc[0])}  # fmt: skip
    return [tried_sentence(advice.search, r["card"], r["name"], still_text(r), advice.only)
            + nearest_fix(advice.search, r["card"], r["name"], thresholds[r["kind"]], r["unit"], r["after"])
            + _frees(advice, r["card"], r["verdict_after"] == "weaker")
            for _, r in still.iterrows()]  # fmt: skip


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
    """How the search held the first player's edge (:func:`analysis.report.words.advise.edge_note`)."""
    return words.edge_note(advice.edge_relaxed, advice.target_edge, advice.holdout_games, EDGE_TOLERANCE_PP)


def headline(advice: Advice, summary: pd.DataFrame, counts: dict[str, int]) -> str:
    """The page's first sentence: how many edits, and on the hold-out games the
    verdicts before and how many the proposal fixed, left and created
    (:func:`verdict_counts`), the change of game length and of the first player's
    edge, each with its paired 95% CI, the edge judged by the search's rule
    (:meth:`.advise_search.Settings.edge_grew`); then, for each ``--target``, whether
    the proposal reached it (:func:`analysis.report.words.advise.target_sentence`)."""
    rows = summary.set_index("what")
    turns, edge = rows.loc["mean turns per game"], rows.loc["first player's edge over a fair seat"]
    grew = Settings().edge_grew({"value": edge["difference"], "low": edge["difference_low"]})
    return (words.headline_sentence(edit_count(advice.changes), advice.holdout_games, counts, turns, edge, grew)
            + "".join(words.target_sentence(rows.loc[what], bounds, name, unit) for bounds, what, name, unit in (
                (advice.target_turns, "mean turns per game", "mean turns per game", "turns"),
                (advice.target_edge, "first player's edge over a fair seat", "the first player's edge", "pp"))
                if bounds is not None))  # fmt: skip


def _side_effects_blocks(side: pd.DataFrame) -> list[doc.Block]:
    """The page's list of every significant change on the hold-out (compare's paired
    machinery: :func:`analysis.experiments.compare.changes`), largest effect first."""
    if side.empty:
        return [doc.Heading("Every side effect on the hold-out"), doc.answer(NO_SIDE_EFFECT)]
    return [doc.Heading("Every side effect on the hold-out"), doc.answer(side_effects_lead(len(side))),
            doc.Lines(tuple(change_sentence(row) for _, row in side.iterrows()), ordered=True)]  # fmt: skip


def _skill_check_answer(advice: Advice) -> list[doc.Block]:
    """The answer of the proposal's skill check (``--skill-check``; empty without it),
    on the page and in the brief."""
    if advice.skill_check is None:
        return []
    return [doc.answer(words.skill_check_text(advice.confirmed_with, *advice.skilled_allies,
                                              advice.skill_check["skilled_n"].max(), advice.skill_check))]  # fmt: skip


def _skill_check_blocks(advice: Advice) -> list[doc.Block]:
    """The page's section on the proposal under ``--skill-check`` (empty without it)."""
    if advice.skill_check is None:
        return []
    return [doc.Heading(SKILL_CHECK_TITLE), *_skill_check_answer(advice),
            doc.Table(advice.skill_check, hide=("p_value", "skilled_bot", "n", "skilled_n"),
                      wide=(doc.ESTIMATES,))]  # fmt: skip


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
    sentences = edit_sentences(advice) or [words.NO_EDIT_PAGE]
    provenance = (*(("Command: ", doc.Code(command), ". ") if command else ()), "Proposal: ",
                  doc.Code(str(advice.proposal)), words.holdout_note(advice.holdout_games, advice.holdout_seed))
    edits, short = edits_table(advice), short_list_table(advice)
    is_count = summary["unit"].isin(["allies", "tasks"])  # whole numbers, shown as such
    counts = summary[is_count]
    estimates = (doc.ESTIMATES,)
    blocks = [doc.Heading("What should I change?", 1), doc.answer(headline(advice, summary, verdict_counts(flagged))),
              doc.Heading("Shorter proposals"), doc.answer(short_list_lead(advice, short)),
              doc.Table(short, wide=estimates),
              doc.Heading("The edits"), *([doc.plain(_edits_lead(advice))] if advice.changes else []),
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
              doc.Heading(words.search_heading(advice.seed, advice.n_games)),
              doc.note(words.search_note(advice.games)),
              doc.Table(advice.search, wide=())]  # fmt: skip
    restricted = {} if advice.restricted is None else {"restricted.csv": advice.restricted}
    csv = {"search.csv": advice.search, "advice.csv": table, "side_effects.csv": side, "edits.csv": edits,
           "short_list.csv": short, **restricted}  # fmt: skip
    return doc.Page("What should I change? Card edits, confirmed on fresh games", tuple(blocks)), csv


ADVICE_PAGE, ADVICE_CSV = "advice.html", "advice.csv"


def advice_files(advice: Advice, command: str = "") -> Files:
    """The advice's files, not yet written: ``advice.html`` (:func:`advice_page`, drawn
    by :func:`analysis.report.render_page.page_html`), its CSV files, and the card files
    of the proposal and of each shorter proposal (``proposal.yaml``,
    ``proposal-K.yaml``: :attr:`.advise_stages.Short.text`); ``command`` is shown on the
    page as the command that made it."""
    document, csv = advice_page(advice, command)
    proposals = {short.proposal.name: short.text for short in advice.short_list if short.proposal is not None}
    return Files(csv, texts={**proposals, ADVICE_PAGE: page_html(document)})


def advice_brief(advice: Advice, seconds: float, files: tuple[Path, Path], top: int = TOP_CHANGES) -> doc.Page:
    """What ``revachol advise`` prints (:func:`analysis.report.terminal.print_page`),
    data only: the proposal's diff, the headline, the shorter proposals, each edit
    with its effect, the edits alone, the cards that resist, the edge, the ``top``
    largest side effects, restricted play and the skill check when played, the
    before/after table on the hold-out, the games played (in ``seconds``) and the
    ``files`` written (advice.html, advice.csv)."""
    summary, short, side = summary_table(advice), short_list_table(advice), changes(advice.differences)
    hold_out = advice.holdout_seed
    played, whole = advice.games_played
    games_lines = words.brief_games_lines(advice.games, advice.seed, edge_seed(advice.seed), seconds, played,
                                          whole if advice.round_games is not None else None)  # fmt: skip
    blocks = [
        doc.Diff(advice.diff) if advice.diff else doc.plain(words.NO_EDIT_BRIEF),
        doc.answer(headline(advice, summary, verdict_counts(flagged_table(advice)))),
        doc.plain(short_list_lead(advice, short)), doc.plain(words.short_list_title(hold_out)),
        doc.Table(short),
        *([doc.plain(_edits_lead(advice))] if advice.changes else []), doc.Lines(tuple(edit_sentences(advice))),
        *([doc.plain(own_effects_lead(advice)), doc.plain(words.own_effects_title(hold_out)),
           doc.Table(shown(edits_table(advice)))] if advice.alone else []),
        doc.Lines(tuple(resist_sentences(advice))),
        doc.plain(edge_note(advice)),
        doc.plain(side_effects_lead(len(side)) if len(side) else NO_SIDE_EFFECT),
        doc.Lines(tuple(change_sentence(row) for _, row in side.head(top).iterrows())),
        *([doc.plain(restricted_sentence(advice.restricted))] if advice.restricted is not None else []),
        *_skill_check_answer(advice),
        doc.plain(words.holdout_title(hold_out, advice.holdout_games)),
        doc.Table(shown(summary)),
        *map(doc.plain, games_lines),
        *map(doc.plain, words.written_lines(advice.proposal, files[1], files[0])),
    ]  # fmt: skip
    return doc.Page("advise", tuple(blocks))
