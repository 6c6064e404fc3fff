"""Design comparison: what did my change do? (``revachol compare A.yaml B.yaml``)

Two runs that played the same games (same root seed, bots, players and rule
options; decks of equal sizes) share each game's deal and dice (common random
numbers, :mod:`sim.rng`). Each metric is then compared *per game*: the difference
``B - A`` of game ``g`` removes most of the game-to-game noise that two independent
runs would keep, so a much smaller sample gives the same precision.

For a per-game quantity ``x`` (turns, morale-loss events, a task's completion, a
seat's win), the estimate is the mean of the paired differences
``d_g = x_B(g) - x_A(g)`` with the t interval of ``scipy.stats.ttest_rel`` (95%).
Counts and lengths are tested with that paired t-test; paired 0/1 outcomes (a
seat's win, a task's completion, a tie decided by dice) with the exact McNemar test
(:func:`analysis.stats.inference.mcnemar_pvalue`). Each ally's holders' win rate is a rate
over player rows: its difference ``wins_B/holders_B − wins_A/holders_A`` has the
game-clustered delta-method interval of :mod:`analysis.stats.clustered` (per-game totals
of both runs, so the pairing is in the covariance) and a t-test of that estimate.

Families. Benjamini–Hochberg at 5% runs once per quantity, over its subjects: the
game metrics, the win rate by turn-order position (position 1 is AdvantageP1,
RULES R9.4, and appears only there), each task's completion, each ally's holders'
win rate. No metric is counted twice: tasks fail only in morale-loss events, one
task each (R8.1), so tasks failed per game equals morale-loss events per game, and
tasks completed per game is the task count minus it; both are left out.

Effect size. Changes are ranked by the standardised paired difference (Cohen's
``d_z``: the mean difference over the standard deviation of the per-game
differences, ``se·√n``), comparable across units. Every table also gives the
interval two *independent* runs of the same size would give (normal approximation
of Welch), so the gain from pairing is measured, not claimed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from scipy import stats

from analysis.stats.clustered import GameMoments, ratio_columns, ratio_difference_columns
from analysis.report import document as doc
from analysis.report.html import figure_png
from analysis.report.render_page import page_html
from analysis.report.words.compare import (NOTHING_MOVED, SAME_VALUES, SKILL_CHECK_TITLE, brief_title, change_sentence,
                                           change_skill_text, moved_lead, moved_sentence, one_deck_only_sentence,
                                           page_heading, pairing_note, stopping_note, verdict_change_lines,
                                           verdicts_lead)
from analysis.experiments.compare_verdicts import task_verdict_changes, verdict_changes
from analysis.report.result import Result
from analysis.report.writer import Files
from analysis.data.runs import Run
from analysis.data.stream import Batch, Columns, add_totals, batches, in_step
from analysis.stats.inference import ALPHA, bh_flags
from analysis.stats.paired import PairedMoments, paired_columns, standardised
from analysis.experiments.until_settled import Stopping, recorder, round_plan, settle, settle_rule
from analysis.settled import DEFAULT_ALPHA, with_sequences
from analysis.skill_check import LENGTH_THRESHOLD_TURNS, MORALE_THRESHOLD_EVENTS, compare_measures, skilled_run
from analysis.thresholds import DEFAULT_BORDERLINE_PP, DEFAULT_THRESHOLD_PP
from sim.bots.speed import MAIN_JOB_BOT
from sim.cards import as_written
from sim.rundir import RunError
from sim.rundir.schema import TASK_COMPLETED, TASK_LOST

PAGE = "compare.html"
SAME = ("n_games", "n_players", "bots", "root_seed", "rule_options", "rules_version")
GAME_METRICS = {  # column: (label, unit); tasks_failed ≡ morale_events and tasks_completed ≡ tasks − failed (R8.1)
    "turns": ("turns per game", "turns"),
    "rounds": ("rounds per game", "rounds"),
    "morale_events": ("morale-loss events per game", "events"),
    "tie_broken_by_dice": ("games decided by dice", "share"),
}
SKILL_THRESHOLDS = {"share": DEFAULT_THRESHOLD_PP, "turns": LENGTH_THRESHOLD_TURNS,
                    "events": MORALE_THRESHOLD_EVENTS}  # fmt: skip
"""The practical threshold of a change's difference between two bots, by unit (a
share's in pp; rounds: the turns' over the players), as :mod:`analysis.skill_check`
uses them."""
SETTLED_KEY = "compare_until_settled"
"""The key, in both runs' manifests, of the rule of a comparison played until settled
and where it stopped (:func:`run_comparison`); not ``until_settled``, which says the
run's own verdicts were watched."""
FAMILIES = {  # table: (title, subject column or None)
    "games": ("Game length, morale loss, ties", None),
    "seats": ("Win rate by turn-order position (position 1: AdvantageP1)", None),
    "tasks": ("Task completion", "task"),
    "allies": ("Allies: holders' win rate", "ally"),
}


def check_paired(a: Run, b: Run) -> None:
    """Raise :class:`RunError` unless ``b`` played the same games as ``a``."""
    differ = [key for key in SAME if a.manifest.get(key) != b.manifest.get(key)]
    if differ:
        raise RunError(f"{a.path} and {b.path} did not play the same games ({', '.join(differ)} differ)")
    sizes = [(len(r.deck.allies), len(r.deck.tasks), len(r.deck.morale)) for r in (a, b)]
    if sizes[0] != sizes[1]:
        raise RunError(f"decks of different sizes ({sizes[0]} and {sizes[1]}) do not share deals; compare equal sizes")


def paired_row(name: str, x_a: np.ndarray, x_b: np.ndarray, unit: str) -> dict:
    """Paired comparison of one per-game quantity given whole (module docstring):
    :func:`analysis.stats.paired.paired_columns` of ``x_a``, ``x_b`` (float
    ``(games,)``, NaN in either leaves the game out)."""
    return paired_columns(name, PairedMoments.of(x_a, x_b), unit)


def _with_flags(rows: list[dict]) -> pd.DataFrame:
    """The rows as one Benjamini–Hochberg family: ``significant`` and ``q_value``."""
    table = pd.DataFrame(rows)
    table["significant"], table["q_value"] = bh_flags(table["p_value"].to_numpy())
    return table


def paired_batches(a: Run, b: Run, columns: Columns) -> Iterator[tuple[Batch, Batch, np.ndarray]]:
    """``(batch of A, batch of B, finished)`` of the same games, chunk by chunk:
    ``finished`` bool (games,) marks the games both runs finished (neither stalled
    nor truncated, R4 Reading)."""
    check_paired(a, b)
    for batch_a, batch_b in in_step(batches(a, columns), batches(b, columns)):
        yield batch_a, batch_b, ~(batch_a.unfinished | batch_b.unfinished)


def _paired_sums(pairs: Iterator[tuple[Batch, Batch, np.ndarray]], per_game: Callable[[Batch, np.ndarray], dict],
                 per_game_b: Callable[[Batch, np.ndarray], dict] | None = None) -> dict:  # fmt: skip
    """``PairedMoments`` of each named per-game quantity ``per_game(batch, finished)``
    (float (games,), NaN for a game left out), summed over the pairs of batches;
    ``per_game_b``, when given, reads B's batch (a card at another position in B)."""
    total: dict = {}
    for batch_a, batch_b, finished in pairs:
        x_a, x_b = per_game(batch_a, finished), (per_game_b or per_game)(batch_b, finished)
        total = add_totals(total or None, {key: PairedMoments.of(x_a[key], x_b[key]) for key in x_a})
    return total


def game_differences(a: Run, b: Run) -> pd.DataFrame:
    """Paired differences of the per-game metrics (:data:`GAME_METRICS`), one BH family."""
    moments = _paired_sums(paired_batches(a, b, Columns(games=tuple(GAME_METRICS))),
                           lambda batch, _: {c: batch.games[c].astype(np.float64) for c in GAME_METRICS})  # fmt: skip
    return _with_flags([paired_columns(label, moments[c], unit) for c, (label, unit) in GAME_METRICS.items()])


def seat_differences(a: Run, b: Run) -> pd.DataFrame:
    """Paired differences of each turn-order position's win rate over the games both
    runs finished (RULES R9.4); position 1's is AdvantageP1. One BH family."""

    def won(batch: Batch, finished: np.ndarray) -> dict[str, np.ndarray]:
        return {k: np.where(finished, batch.players["won"][:, k], np.nan) for k in range(a.players)}

    moments = _paired_sums(paired_batches(a, b, Columns(players=("won",))), won)
    rows = [paired_columns(f"win rate of turn-order position {k + 1}" + (" (AdvantageP1)" if k == 0 else ""),
                           moments[k], "share") for k in range(a.players)]  # fmt: skip
    return _with_flags(rows)


def matched(cards_a: Sequence, cards_b: Sequence) -> tuple[np.ndarray, np.ndarray]:
    """The cards both decks hold, matched by id, never by position: a deck whose cards
    are in another order, or whose card has a new display name, pairs each card with
    itself (R1.1: a card is its id).

    Returns
    -------
    tuple of ndarray of int64, shape (cards both hold,)
        The positions in A's and in B's section of those cards, in B's order; a card in
        one deck only is in neither (:func:`one_deck_only` names it).
    """
    where_a = {card.id: k for k, card in enumerate(cards_a)}
    pairs = [(where_a[card.id], k) for k, card in enumerate(cards_b) if card.id in where_a]
    positions = np.array(pairs, np.int64).reshape(-1, 2)
    return positions[:, 0], positions[:, 1]


def one_deck_only(a: Run, b: Run) -> dict[str, list[str]]:
    """The allies and tasks in one deck only, by id: ``added`` (in B only) and
    ``removed`` (in A only), as ``"Name (id)"``; they have no paired row."""
    out: dict[str, list[str]] = {"added": [], "removed": []}
    for section in ("allies", "tasks"):
        cards_a, cards_b = getattr(a.deck, section), getattr(b.deck, section)
        ids_a, ids_b = {card.id for card in cards_a}, {card.id for card in cards_b}
        out["added"] += [f"{card.name} ({card.id})" for card in cards_b if card.id not in ids_a]
        out["removed"] += [f"{card.name} ({card.id})" for card in cards_a if card.id not in ids_b]
    return out


def task_differences(a: Run, b: Run) -> pd.DataFrame:
    """Paired differences of each task's completion per game (completed, lost ones
    included; exact McNemar tests), each task of both decks matched by id
    (:func:`matched`). One BH family."""
    at_a, at_b = matched(a.deck.tasks, b.deck.tasks)

    def done(positions: np.ndarray) -> Callable[[Batch, np.ndarray], dict[int, np.ndarray]]:
        def per_game(batch: Batch, _) -> dict[int, np.ndarray]:
            completed = np.isin(batch.cards["task_status"], (TASK_COMPLETED, TASK_LOST)).astype(np.float64)
            return {k: completed[:, t] for k, t in enumerate(positions)}

        return per_game

    moments = _paired_sums(paired_batches(a, b, Columns(cards=("task_status",))), done(at_a), done(at_b))
    rows = [{"task": b.deck.tasks[t].name, "id": b.deck.tasks[t].id,
             **paired_columns("completion", moments[k], "share")} for k, t in enumerate(at_b)]  # fmt: skip
    return _with_flags(rows)


def holders_moments(won: np.ndarray, held: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """Per-game (holder wins, holders) of each ally, float64 (games, allies, 2), zero
    in the games not kept. ``won`` is (games, players), ``held`` (games, players, allies)."""
    holders = held.sum(axis=1)
    wins = (held & (won[:, :, None] == 1)).sum(axis=1)
    return np.stack([wins, holders], axis=-1).astype(np.float64) * keep[:, None, None]


def pair_moments(z_a: np.ndarray, z_b: np.ndarray) -> GameMoments:
    """The moments of per-game ``(successes, trials)`` under A and B of the same
    games, shape (games, ..., 2) each, as :func:`rate_difference` takes them."""
    return GameMoments.of(np.concatenate([z_b, z_a], axis=-1))  # (wins_B, trials_B, wins_A, trials_A)


def rate_difference(moments: GameMoments) -> dict[str, np.ndarray]:
    """A rate over player rows (or rolls) under A and B and its difference B − A,
    clustered by game: the delta method of :func:`analysis.stats.clustered.ratio_difference_columns`
    on the per-game totals of both runs, so the pairing sits in the covariance.

    Parameters
    ----------
    moments : GameMoments
        :func:`pair_moments` of the per-game (successes, trials) of each subject
        under A and under B, summed over the games; shape ``(..., 4)``.

    Returns
    -------
    dict of ndarray, shape (...)
        ``a``, ``b`` (rates), ``trials_a``, ``trials_b``, ``difference`` with
        ``difference_low``/``difference_high``, ``p_value`` (t-test of the estimate,
        ``G − 1`` degrees of freedom), ``effect_size`` (difference / (se·√G)),
        ``independent_half_width``, ``paired_half_width``.
    """
    rate_a, rate_b = ratio_columns("a", moments.select(2, 3)), ratio_columns("b", moments.select(0, 1))
    columns = ratio_difference_columns("difference", moments)
    dof = max(moments.games - 1, 1)
    t = stats.t.ppf(1 - ALPHA / 2, dof)
    with np.errstate(divide="ignore", invalid="ignore"):
        se = (columns["difference_high"] - columns["difference"]) / t
        p = np.where(se > 0, 2 * stats.t.sf(np.abs(columns["difference"] / se), dof), np.nan)
    effect = np.array([standardised(d, e * np.sqrt(moments.games)) for d, e in zip(np.ravel(columns["difference"]),
                                                                                   np.ravel(se))])  # fmt: skip
    half = [(r[f"{k}_high"] - r[f"{k}_low"]) / 2 for k, r in (("a", rate_a), ("b", rate_b))]
    return {"a": rate_a["a"], "b": rate_b["b"], "trials_a": moments.total[..., 3], "trials_b": moments.total[..., 1],
            **columns, "p_value": p, "effect_size": effect.reshape(np.shape(se)),
            "independent_half_width": np.hypot(*half), "paired_half_width": t * se}  # fmt: skip


def ally_differences(a: Run, b: Run) -> pd.DataFrame:
    """Each ally's holders' win rate under A and B and its difference, clustered by
    game (:func:`rate_difference`), over the games both runs finished, each ally of
    both decks matched by id (:func:`matched`). One BH family."""
    at_a, at_b = matched(a.deck.allies, b.deck.allies)
    moments = None
    for batch_a, batch_b, both in paired_batches(a, b, Columns(players=("won", "held"))):
        z_a, z_b = (holders_moments(x.players["won"], x.players["held"][:, :, at], both)[both]
                    for x, at in ((batch_a, at_a), (batch_b, at_b)))  # fmt: skip
        moments = add_totals(moments, {"z": pair_moments(z_a, z_b)})
    columns = rate_difference(moments["z"])
    table = pd.DataFrame({"ally": [b.deck.allies[k].name for k in at_b], "id": [b.deck.allies[k].id for k in at_b],
                          "metric": "holders' win rate",
                          "unit": "share", "n": int(moments["z"].games), "holders_a": columns.pop("trials_a").astype(np.int64),
                          "holders_b": columns.pop("trials_b").astype(np.int64), **columns})  # fmt: skip
    table["significant"], table["q_value"] = bh_flags(table["p_value"].to_numpy())
    return table


def pairing_gain(games: pd.DataFrame) -> float:
    """Median ratio of the independent-runs interval width to the paired one, over
    the game metrics: how many times narrower pairing makes the interval."""
    ratio = (games["independent_half_width"] / games["paired_half_width"]).replace([np.inf, -np.inf], np.nan)
    return float(ratio.median())  # NaN when every paired interval has zero width (identical games)


def comparison_tables(a_dir: str | Path, b_dir: str | Path) -> dict[str, pd.DataFrame]:
    """Every comparison table of two paired run directories, one BH family each
    (:data:`FAMILIES`)."""
    a, b = Run.open(a_dir), Run.open(b_dir)
    return {
        "games": game_differences(a, b),
        "seats": seat_differences(a, b),
        "tasks": task_differences(a, b),
        "allies": ally_differences(a, b),
    }


def changes(tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """The significant changes of every family in one table, largest standardised
    effect first: ``what`` (subject and metric), ``unit``, ``a``, ``b``,
    ``difference`` with its bounds, ``p_value``, ``q_value``, ``effect_size``."""
    parts = []
    for name, table in tables.items():
        subject = FAMILIES[name][1]
        moved = table[table["significant"]]
        what = (moved[subject] + ": " + moved["metric"]) if subject else moved["metric"]
        if len(moved):
            parts.append(moved.assign(what=what))
    columns = ["what", "unit", "a", "b", "difference", "difference_low", "difference_high", "p_value", "q_value",
               "effect_size"]  # fmt: skip
    out = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=columns)
    out = out.reindex(columns=columns)
    return out.iloc[np.argsort(-np.abs(out["effect_size"].to_numpy(np.float64)), kind="stable")].reset_index(drop=True)


def change_measures(tables: dict[str, pd.DataFrame], run: str, players: int) -> pd.DataFrame:
    """Every paired difference B − A of a comparison as
    :func:`analysis.skill_check.measures` rows (``kind`` the family, ``subject`` the
    subject and metric, ``value`` the difference with its bounds), each with its
    practical threshold (:data:`SKILL_THRESHOLDS`), so that the differences under two
    bots can be compared as the report's skill check compares its measures."""
    parts = []
    for name, table in tables.items():
        subject = FAMILIES[name][1]
        what = (table[subject] + ": " + table["metric"]) if subject else table["metric"]
        threshold = table["unit"].map(lambda unit: SKILL_THRESHOLDS.get(unit, np.nan))
        if name == "games":
            threshold = threshold.where(table["unit"] != "rounds", LENGTH_THRESHOLD_TURNS / players)
        share = (table["unit"] == "share").to_numpy()
        scale = np.where(share, 100.0, 1.0)  # a share's change in pp
        parts.append(pd.DataFrame({"run": run, "bots": "", "kind": name, "subject": what,
                                   "unit": np.where(share, "pp", table["unit"]), "value": scale * table["difference"],
                                   "low": scale * table["difference_low"], "high": scale * table["difference_high"],
                                   "n": table["n"], "threshold": threshold}))  # fmt: skip
    return pd.concat(parts, ignore_index=True)


def changes_skill_check(tables: dict[str, pd.DataFrame], skilled: dict[str, pd.DataFrame], bot: str,
                        players: int) -> pd.DataFrame:  # fmt: skip
    """Which changes of a comparison depend on skill: each paired difference B − A
    under the run's bots and under ``bot`` in every seat (the decks' skilled
    companions, :mod:`sim.run.skilled`), their difference (skilled − run) with the
    report's test and mark (:func:`analysis.skill_check.compare_measures`: a
    conservative z-test, Benjamini–Hochberg across every change, and at least the
    unit's practical threshold).

    Returns
    -------
    pandas.DataFrame
        :func:`analysis.skill_check.compare_measures`'s columns, ``value`` being the
        change under the run's bots and ``skilled`` under ``bot``; changes that
        depend on skill first, then by size over the threshold.
    """
    check = compare_measures(change_measures(tables, "comparison", players),
                             change_measures(skilled, "comparison", players), {"comparison": bot})  # fmt: skip
    check = check.drop(columns=["run", "bots"])
    size = check["difference"].abs() / check["threshold"]
    return check.iloc[np.lexsort((-size.fillna(0).to_numpy(), ~check["depends_on_skill"].to_numpy()))].reset_index(drop=True)


def card_diff(a: Run, b: Run) -> pd.DataFrame:
    """What differs between the two decks: one row per (card, field) with ``old``
    and ``new`` as written in YAML; cards matched by id, a card in one deck only
    shows ``(absent)`` on the other side."""
    def flat(run: Run) -> dict[tuple[str, str], str]:
        out = {}
        for section, cards in run.deck.to_yaml_data().items():
            for card in cards if isinstance(cards, list) else ():
                for field, value in card.items():
                    if field not in ("id", "estimated"):
                        out[(card["id"], field)] = as_written(value)
        return out

    old, new = flat(a), flat(b)
    order = list(dict.fromkeys(card for card, _ in [*old, *new]))
    keys = sorted(set(old) | set(new), key=lambda key: (order.index(key[0]), key[1]))
    rows = [{"card": card, "field": field, "old": old.get((card, field), "(absent)"),
             "new": new.get((card, field), "(absent)")}
            for card, field in keys if old.get((card, field)) != new.get((card, field))]  # fmt: skip
    return pd.DataFrame(rows, columns=["card", "field", "old", "new"])


def plot_forest(moved: pd.DataFrame) -> Figure:
    """Forest plot of the significant changes: each difference B − A with its 95% CI,
    largest effect on top, one panel per unit (rates in percentage points)."""
    units = list(dict.fromkeys(moved["unit"]))
    heights = [max(1.0, 0.32 * (moved["unit"] == u).sum() + 0.6) for u in units]
    figure = Figure(figsize=(8.5, sum(heights) + 0.4), layout="constrained")
    axes = figure.subplots(len(units), 1, squeeze=False, gridspec_kw={"height_ratios": heights})[:, 0]
    for ax, unit in zip(axes, units):
        rows = moved[moved["unit"] == unit].iloc[::-1]
        scale = 100.0 if unit == "share" else 1.0
        y = np.arange(len(rows))
        value = scale * rows["difference"].to_numpy(np.float64)
        error = scale * np.abs(rows[["difference_low", "difference_high"]].to_numpy(np.float64).T - value / scale)
        ax.errorbar(value, y, xerr=error, fmt="o", capsize=3)
        ax.axvline(0, color="grey", lw=1)
        ax.set_yticks(y, rows["what"].tolist())
        ax.set_xlabel("difference B − A (pp)" if unit == "share" else f"difference B − A ({unit})")
        ax.grid(axis="x", alpha=0.3)
    figure.suptitle("Significant changes (paired 95% CIs)")
    return figure


@dataclass(frozen=True)
class Comparison:
    """A written comparison: its page and the significant changes the page lists."""

    page: Path  # ``compare.html``
    changes: pd.DataFrame  # :func:`changes` of the comparison's tables, as in ``tables/compare_changes.csv``
    skill_check: pd.DataFrame | None = None  # changes_skill_check, when both decks have a skilled companion
    stopping: Stopping | None = None  # where a comparison played until settled stopped (change_sequences' rows)
    verdicts: pd.DataFrame | None = None  # compare_verdicts.verdict_changes: each changed ally's verdict before → after
    task_verdicts: pd.DataFrame | None = None  # compare_verdicts.task_verdict_changes: the same for tasks


def change_sequences(a_dir: str | Path, b_dir: str | Path, players: int, games: int, rho: float,
                     alpha: float = DEFAULT_ALPHA, borderline_pp: float = 0.0) -> pd.DataFrame:  # fmt: skip
    """Every paired change B − A of two runs (:func:`change_measures`: a share's in
    pp, turns, rounds, events) with its confidence sequence at ``games`` games and its
    state against the unit's practical threshold (:func:`analysis.settled.with_sequences`):
    ``flagged``, the change lies wholly beyond it; ``no verdict``, wholly inside; ``at
    the threshold``, wholly within the borderline band of it, ``borderline_pp`` for a
    share and the same fraction of the threshold in the other units.

    Raises
    ------
    sim.rundir.RunError
        As :func:`comparison_tables`.
    ValueError
        As :func:`analysis.stats.sequential.sequence_interval`.
    """
    rows = change_measures(comparison_tables(a_dir, b_dir), "comparison", players)
    return with_sequences(rows, games, rho, alpha, rows["threshold"] * (borderline_pp / DEFAULT_THRESHOLD_PP))


def skilled_tables(a: Run, b: Run) -> tuple[dict[str, pd.DataFrame] | None, str]:
    """The comparison tables of the two decks' skilled companions (:mod:`sim.run.skilled`)
    and their bot, or ``(None, "")`` unless both decks have a sound one with the
    same bot."""
    (skilled_a, _), (skilled_b, _) = skilled_run(a), skilled_run(b)
    if skilled_a is None or skilled_b is None or skilled_a.bot_names != skilled_b.bot_names:
        return None, ""
    return comparison_tables(skilled_a.path, skilled_b.path), skilled_a.bot_names[0]


def comparison_page(a_dir: str | Path, b_dir: str | Path, note: str = "") -> tuple[doc.Page, dict[str, pd.DataFrame]]:
    """The page of a comparison, data only (:mod:`analysis.report.document`), and its
    tables by the path of their CSV (``tables/compare_<name>.csv``: every family's,
    ``changes``, ``verdicts``, ``task_verdicts`` and, when both decks have a skilled
    companion, ``skill_check``).

    The page names both card files, then says for each edited ally, and each whose
    verdict changed, its verdict before and after in the report's measure
    (:mod:`analysis.experiments.compare_verdicts`), shows the card diff, lists every significant
    change largest effect first, draws them as a forest plot, then every family's
    table. ``note`` (plain text) is shown under the title, e.g. how the runs were
    chosen.

    Raises
    ------
    sim.rundir.RunError
        As :func:`comparison_tables`.
    """
    a, b = Run.open(a_dir), Run.open(b_dir)
    tables = comparison_tables(a_dir, b_dir)
    moved, diff, unpaired = changes(tables), card_diff(a, b), one_deck_only_sentence(one_deck_only(a, b))
    allies, tasks = tables["allies"], tables["tasks"]
    verdicts = verdict_changes(a, b, set(diff["card"]), set(allies.loc[allies["significant"], "id"]))
    task_verdicts = task_verdict_changes(a, b, set(diff["card"]), set(tasks.loc[tasks["significant"], "id"]))
    skilled, bot = skilled_tables(a, b)
    check = changes_skill_check(tables, skilled, bot, a.players) if skilled else None
    csv = {f"tables/compare_{name}.csv": table for name, table in
           [*tables.items(), ("changes", moved), ("verdicts", verdicts), ("task_verdicts", task_verdicts),
            *([("skill_check", check)] if check is not None else [])]}  # fmt: skip
    files = [str(run.manifest.get("cards_file", run.path)) for run in (a, b)]
    gain = pairing_gain(tables["games"])
    blocks = [
        doc.Heading(page_heading(*files), 1),
        *([doc.note(note)] if note else []),
        doc.Heading("Did the edit work?"),
        doc.answer(verdicts_lead(verdicts, task_verdicts)),
        *([doc.Lines(tuple(verdict_change_lines(verdicts, task_verdicts)), ordered=True)]
          if len(verdicts) + len(task_verdicts) else []),
        doc.Heading("The change"),
        doc.Table(diff.rename(columns={"old": "old (A)", "new": "new (B)"})) if len(diff) else
        doc.plain(SAME_VALUES),
        *([doc.note(unpaired)] if unpaired else []),
        doc.Heading("What moved"),
    ]  # fmt: skip
    if len(moved):
        blocks += [doc.answer(moved_sentence(len(moved))),
                   doc.Lines(tuple(change_sentence(row) for _, row in moved.iterrows()), ordered=True),
                   doc.Figure(figure_png(plot_forest(moved)), "forest plot of the significant changes")]  # fmt: skip
    else:
        blocks.append(doc.answer(NOTHING_MOVED))
    blocks.append(doc.note(pairing_note(int(tables["games"]["n"].max()), gain)))
    if check is not None:
        blocks += [doc.Heading(SKILL_CHECK_TITLE), doc.answer(change_skill_text(check, bot)),
                   doc.Table(check, hide=("p_value", "skilled_bot", "n", "skilled_n"))]  # fmt: skip
    for name, (title, _) in FAMILIES.items():
        table = tables[name].sort_values("p_value") if name in ("tasks", "allies") else tables[name]
        blocks += [doc.Heading(title), doc.Table(table, hide=("independent_half_width", "paired_half_width",
                                                              "effect_size"))]  # fmt: skip
    return doc.Page("Design comparison", tuple(blocks)), csv


TOP_CHANGES = 10
"""The significant changes ``revachol compare`` prints, largest first (the page lists every one)."""


def comparison_brief(comparison: Comparison, a: str, b: str, top: int = TOP_CHANGES) -> doc.Page:
    """What ``revachol compare`` prints (:func:`analysis.report.terminal.print_page`),
    data only: where a comparison played until settled stopped, each changed card's
    verdict before → after (:mod:`analysis.experiments.compare_verdicts`), the ``top``
    largest significant changes as a table, which changes depend on skill, and the
    page's path; ``a`` and ``b`` name the card files."""
    blocks: list[doc.Block] = []
    if comparison.stopping is not None:
        blocks.append(doc.plain(stopping_note(comparison.stopping)))
    verdicts, tasks = comparison.verdicts, comparison.task_verdicts
    blocks += [doc.answer(verdicts_lead(verdicts, tasks)), doc.Lines(tuple(verdict_change_lines(verdicts, tasks)))]
    blocks.append(doc.answer(moved_lead(a, b, len(comparison.changes), top)))
    if len(comparison.changes):
        blocks.append(doc.Table(comparison.changes.head(top), hide=("effect_size",)))
    check = comparison.skill_check
    if check is not None:
        blocks.append(doc.answer(change_skill_text(check, str(check["skilled_bot"].iloc[0]))))
    blocks.append(doc.plain(str(comparison.page)))
    return doc.Page(brief_title(a, b), tuple(blocks))


def comparison_of(a_dir: str | Path, b_dir: str | Path, out: str | Path, note: str = "") -> tuple[Comparison, Files]:
    """The comparison of two runs and its files, not yet written: ``compare.html``
    (:func:`comparison_page`, drawn by :func:`analysis.report.render_page.page_html`)
    and the tables as CSV under ``tables/``, to go under ``out``. ``note`` (plain text)
    is shown under the title.

    Returns
    -------
    Comparison, Files
        The page's path and the significant changes (:func:`changes`), and the files.

    Raises
    ------
    sim.rundir.RunError
        As :func:`comparison_tables`.
    """
    document, csv = comparison_page(a_dir, b_dir, note)
    comparison = Comparison(Path(out) / PAGE, csv["tables/compare_changes.csv"],
                            csv.get("tables/compare_skill_check.csv"), verdicts=csv["tables/compare_verdicts.csv"],
                            task_verdicts=csv["tables/compare_task_verdicts.csv"])  # fmt: skip
    return comparison, Files(csv, texts={PAGE: page_html(document)})


def run_comparison(cards_a: str | Path, cards_b: str | Path, n_games: int, out: str | Path, players: int = 4,
                   bots: str | Sequence[str] = MAIN_JOB_BOT, seed: int = 0, n_jobs: int = -1,
                   progress: bool | None = None, skill_check: str | None = None, max_games: int | None = None,
                   round_games: int | None = None, skill_games: int | None = None,
                   borderline_pp: float = DEFAULT_BORDERLINE_PP) -> Result[Comparison]:  # fmt: skip
    """Play the same games under both card files (``out/a``, ``out/b``; existing
    complete runs are reused) and return the comparison (:func:`comparison_of`), its
    brief (:func:`comparison_brief`) and its files, for :func:`analysis.workflows.deliver`.
    With ``skill_check`` (a bot specification, e.g. ``search``), also play them with
    that bot in every seat (each deck's skilled companion, :mod:`sim.run.skilled`; the
    first ``skill_games`` games only, when given), so that the page says which changes
    depend on skill (:func:`changes_skill_check`).

    Until settled. With ``max_games``, ``n_games`` is ignored: both decks play
    rounds of ``round_games`` games on the same seeds
    (:func:`analysis.experiments.until_settled.settle`, common random numbers kept,
    since game ``i`` is the same whatever the run's size) until every change of
    :func:`change_sequences` is settled, or ``max_games`` games per deck. Both runs'
    manifests record the rule and where it stopped under :data:`SETTLED_KEY` (the
    practical thresholds by unit beside it); a resumed comparison with
    ``max_games`` raised continues under the same boundary. A change whose sequence
    lies wholly within the borderline band of its threshold (``borderline_pp`` for a
    share, the same fraction of the threshold in other units) is settled at it.

    Raises
    ------
    ValueError
        As :func:`analysis.experiments.until_settled.round_plan` and
        :func:`analysis.experiments.until_settled.settle_rule`.
    sim.rundir.RunError, sim.run.runner.RunStopped
        As :func:`sim.run.runner.simulate` and :func:`check_paired`.
    """
    from sim.run.runner import simulate
    from sim.run.skilled import play_skilled

    out = Path(out)
    dirs = (out / "a", out / "b")
    how = dict(n_jobs=n_jobs, progress=progress)
    if max_games is not None:
        how["chunk_size"] = round_plan(max_games, round_games)

    def play(n: int) -> None:
        for cards, run_dir in zip((cards_a, cards_b), dirs):
            simulate(cards, n, run_dir, players, bots, seed, resume=(run_dir / "manifest.json").exists(), **how)

    stopping = None
    if max_games is None:
        play(n_games)
    else:
        rule, games = settle_rule(dirs[0], max_games, DEFAULT_ALPHA, DEFAULT_THRESHOLD_PP, SETTLED_KEY, borderline_pp)
        rule["thresholds"] = {**SKILL_THRESHOLDS, "rounds": LENGTH_THRESHOLD_TURNS / players}
        stopping = settle(play, lambda n: change_sequences(*dirs, players, n, rule["rho_games"],
                                                           borderline_pp=borderline_pp),
                          games or round_games, max_games, round_games, record=recorder(dirs, rule, SETTLED_KEY))  # fmt: skip
    if skill_check:
        for run_dir in dirs:
            play_skilled(run_dir, n_jobs, progress, bot=skill_check, games=skill_games)
    comparison, files = comparison_of(*dirs, out, stopping_note(stopping) if stopping else "")
    comparison = replace(comparison, stopping=stopping)
    return Result(comparison, comparison_brief(comparison, Path(cards_a).name, Path(cards_b).name), files, out)
