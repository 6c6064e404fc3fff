"""Sweep: vary one field of one card over a list of values and measure the response
(``revachol sweep``).

Each value is a run of its own on the same seed, bots and players (common random
numbers, so neighbouring values differ by the change, not by luck). The metrics are
read from the report's tables, so each point carries its n and 95% CI:

==================  ===============================================  ============
metric              source                                           card kinds
==================  ===============================================  ============
``turns``           mean turns per game (:mod:`analysis.length`)     any
``advantage_p1``    first player's win rate (:mod:`analysis.seats`)  any
``completion_rate`` share of games the task is completed             task
``failure_rate``    share of games the task fails                    task
``held_wr``         win rate of the ally's holders                   ally
``play_rate``       share of player-games that play the ally         ally
``save_rate``       saves per roll against the morale card           morale card
``events_per_game`` morale-loss events the card causes per game      morale card
==================  ===============================================  ============

The ``n`` column says what was counted (``n_of``): games, holders (player-games
holding the ally, for the held WR), player-games (play rate) or rolls (save rate).

Adjacent values are compared on the same games (:func:`adjacent_differences`): the
paired difference of each metric between neighbouring values, with the paired 95%
CI of :mod:`analysis.experiments.compare` (paired t for counts and lengths, exact McNemar for a
game's 0/1 outcome, game-clustered delta method for rates over player rows and
rolls). It is much narrower than the two points' own intervals suggest.
"""

from __future__ import annotations

import functools
import operator
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import yaml
from matplotlib.figure import Figure

from analysis.cards import ally_strength, task_outcomes
from analysis.data.runs import Run
from analysis.data.stream import Batch, Columns, add_totals
from analysis.experiments.compare import pair_moments, paired_batches, rate_difference
from analysis.stats.clustered import GameMoments
from analysis.stats.paired import PairedMoments, paired_columns
from analysis.report.html import figure_png
from analysis.report import document as doc
from analysis.report.writer import Files
from analysis.report.figures import plain
from analysis.report.words.common import written_line
from analysis.report.words.experiments import SWEEP_DIFFERENCES, sweep_title
from analysis.length import game_length
from analysis.morale import morale_cards
from analysis.seats import seat_balance
from sim.bots.speed import MAIN_JOB_BOT
from sim.cards import as_written, dump_yaml, load_deck, parse_deck
from sim.run.runner import simulate
from sim.rundir.schema import TASK_COMPLETED, TASK_FAILED, TASK_LOST

SECTION_KEY = {"tasks": "task", "allies": "ally", "morale": "card"}
CARD_METRICS = {
    "tasks": ("completion_rate", "failure_rate"),
    "allies": ("held_wr", "play_rate"),
    "morale": ("save_rate", "events_per_game"),
}
TABLES = {
    "completion_rate": task_outcomes, "failure_rate": task_outcomes, "held_wr": ally_strength,
    "play_rate": ally_strength, "save_rate": morale_cards, "events_per_game": morale_cards,
}  # fmt: skip


def _locate(data: dict, card_id: str) -> tuple[str, int]:
    for section in ("allies", "tasks", "morale"):
        for index, card in enumerate(data[section]):
            if card["id"] == card_id:
                return section, index
    raise ValueError(f"no card with id {card_id!r} in the deck")


N_OF = {  # metric: (column of its table holding n, what n counts)
    "turns": ("games", "games"), "advantage_p1": ("games", "games"), "completion_rate": ("games", "games"),
    "failure_rate": ("games", "games"), "held_wr": ("held_n", "holders"), "play_rate": ("player_games", "player-games"),
    "save_rate": ("rolls", "rolls"), "events_per_game": ("games", "games"),
}  # fmt: skip
UNITS = {"turns": "turns", "events_per_game": "events"}  # the others are shares
WIN_METRICS = ("advantage_p1", "held_wr", "play_rate")  # over finished games, as in the report's tables


def _metric(run_dir: Path, metric: str, section: str, card_id: str) -> dict:
    if metric == "turns":
        row, column = game_length(run_dir).set_index("measure").loc["turns"], "mean"
    elif metric == "advantage_p1":
        row, column = seat_balance(run_dir).iloc[0], metric
    else:
        row, column = TABLES[metric](run_dir).set_index(SECTION_KEY[section]).loc[card_id], metric
    n_column, n_of = N_OF[metric]
    return {"unit": UNITS.get(metric, "share"), "estimate": row[column], "low": row[f"{column}_low"],
            "high": row[f"{column}_high"], "n": int(row[n_column]), "n_of": n_of}  # fmt: skip


def _per_game(batch: Batch, metric: str, index: int, players: int) -> np.ndarray:
    """The metric's per-game data in a batch: float64 (games,) for a per-game
    quantity, (games, 2) of (successes, trials) for a rate over player rows or rolls."""
    if metric == "turns":
        return batch.games["turns"].astype(np.float64)
    if metric == "advantage_p1":  # the first player's win (R9.4): turn-order position 1
        return (batch.games["winner"] == 0).astype(np.float64)
    if metric in ("completion_rate", "failure_rate"):
        done = (TASK_COMPLETED, TASK_LOST) if metric == "completion_rate" else (TASK_FAILED,)
        return np.isin(batch.cards["task_status"][:, index], done).astype(np.float64)
    if metric in ("save_rate", "events_per_game"):
        events = batch.cards["morale_events"][:, index].astype(np.float64)
        if metric == "events_per_game":
            return events
        return np.stack([batch.cards["morale_saves"][:, index], events * players], axis=-1).astype(float)
    if metric == "play_rate":
        plays = batch.players["played"][:, :, index]
        return np.stack([plays.sum(1), np.full(plays.shape[0], players)], axis=-1).astype(np.float64)
    held, won = batch.players["held"][:, :, index], batch.players["won"] == 1
    return np.stack([(held & won).sum(1), held.sum(1)], axis=-1).astype(np.float64)


COLUMNS = {  # metric: the columns its per-game data reads
    "turns": Columns(games=("turns",)), "advantage_p1": Columns(games=("winner",)),
    "completion_rate": Columns(cards=("task_status",)), "failure_rate": Columns(cards=("task_status",)),
    "save_rate": Columns(cards=("morale_events", "morale_saves")), "events_per_game": Columns(cards=("morale_events",)),
    "play_rate": Columns(players=("played",)), "held_wr": Columns(players=("held", "won")),
}  # fmt: skip


def _paired_moments(a: Run, b: Run, metrics: Sequence[str], index: int) -> dict[str, PairedMoments | GameMoments]:
    """Per metric, the moments of its per-game data under ``a`` and ``b`` over the
    games it counts (win rates: the games both runs finished, R4 Reading), in one
    pass over both runs: :class:`PairedMoments` for a per-game quantity,
    :func:`analysis.experiments.compare.pair_moments` for a rate."""
    columns = functools.reduce(operator.or_, (COLUMNS[m] for m in metrics))
    total = None
    for batch_a, batch_b, finished in paired_batches(a, b, columns):
        part = {}
        for metric in metrics:
            keep = finished if metric in WIN_METRICS else slice(None)
            x_a, x_b = (_per_game(batch, metric, index, a.players)[keep] for batch in (batch_a, batch_b))
            part[metric] = PairedMoments.of(x_a, x_b) if x_a.ndim == 1 else pair_moments(x_a, x_b)
        total = add_totals(total, part)
    return total


def adjacent_differences(run_dirs: Sequence[Path], values: Sequence[Any], metrics: Sequence[str], section: str,
                         index: int) -> pd.DataFrame:  # fmt: skip
    """Paired differences of each metric between neighbouring values (module docstring).

    Parameters
    ----------
    run_dirs, values : sequences of equal length
        The sweep's runs, in the order of the values.
    metrics : sequence of str
    section, index : the card's section of the deck and its position there.

    Returns
    -------
    pandas.DataFrame
        One row per (pair of neighbours, metric): ``from``, ``to``, ``metric``,
        ``unit``, ``n`` and ``n_of`` (what was counted; for rates over player rows
        and rolls, under the ``to`` value), ``a``, ``b``, ``difference`` (to − from)
        with ``difference_low``/``difference_high`` (95%), ``p_value``.
    """
    runs = [Run.open(d) for d in run_dirs]
    rows = []
    for (value_a, a), (value_b, b) in zip(zip(values, runs), zip(values[1:], runs[1:])):
        moments = _paired_moments(a, b, metrics, index)
        for metric in metrics:
            unit, n_of = UNITS.get(metric, "share"), N_OF[metric][1]
            if isinstance(moments[metric], PairedMoments):
                row = paired_columns(metric, moments[metric], unit)
            else:
                row = {"metric": metric, "unit": unit, **rate_difference(moments[metric])}
                row["n"] = row["trials_b"]
            rows.append({"from": value_a, "to": value_b, **{k: row[k] for k in (
                "metric", "unit", "n", "a", "b", "difference", "difference_low", "difference_high", "p_value")},
                "n_of": n_of})  # fmt: skip
    table = pd.DataFrame(rows)
    table["n"] = table["n"].astype(np.int64)
    return table


def run_label(position: int, field: str, value: Any) -> str:
    """The run folder of a value: ``01-symbols=red-blue``. Only letters, digits,
    ``-``, ``_``, ``.`` and ``=`` (no ``[``, ``*`` or ``?`` that a reader of Parquet
    globs would expand); the position keeps distinct values apart."""
    slug = re.sub(r"[^A-Za-z0-9_.=-]+", "-", as_written(value)).strip("-") or "value"
    return f"{position:02d}-{field}={slug}"


def sweep(
    cards: str | Path,
    card_id: str,
    field: str,
    values: Sequence[Any],
    n_games: int,
    out: str | Path,
    metrics: Sequence[str] | None = None,
    players: int = 4,
    bots: str | Sequence[str] = MAIN_JOB_BOT,
    seed: int = 0,
    n_jobs: int = -1,
    progress: bool | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Play ``n_games`` games for each value of ``field`` of card ``card_id``.

    Runs go to ``out/<position>-<field>=<value>`` (:func:`run_label`; complete runs
    are reused).

    Returns
    -------
    points : pandas.DataFrame
        One row per (value, metric): ``value``, ``metric``, ``unit``, ``estimate``,
        ``low``, ``high`` (95% CI), ``n`` and ``n_of`` (what ``n`` counts).
    differences : pandas.DataFrame
        The paired differences between neighbouring values (:func:`adjacent_differences`).

    Raises
    ------
    ValueError
        For an unknown card or metric, or a metric that does not apply to the card.
    sim.cards.DeckError
        When a value is not valid for the field (the message names card and field).
    """
    data = load_deck(cards).to_yaml_data()
    section, index = _locate(data, card_id)
    chosen = list(metrics or (*CARD_METRICS[section], "turns"))
    for metric in chosen:
        if metric not in ("turns", "advantage_p1") and metric not in CARD_METRICS[section]:
            valid = ", ".join((*CARD_METRICS[section], "turns", "advantage_p1"))
            raise ValueError(f"metric {metric!r} does not apply to {card_id}; valid: {valid}")
    rows, run_dirs = [], []
    for position, value in enumerate(values, 1):
        changed = yaml.safe_load(yaml.safe_dump(data))
        changed[section][index][field] = value
        label = run_label(position, field, value)
        deck = parse_deck(dump_yaml(changed), f"{cards} with {card_id}.{field} = {as_written(value)}")
        run_dir = Path(out) / label
        simulate(deck, n_games, run_dir, players, bots, seed, n_jobs, resume=(run_dir / "manifest.json").exists(),
                 progress=progress)  # fmt: skip
        run_dirs.append(run_dir)
        rows += [{"value": value, "metric": m, **_metric(run_dir, m, section, card_id)} for m in chosen]
    return pd.DataFrame(rows), adjacent_differences(run_dirs, list(values), chosen, section, index)


def plot_sweep(table: pd.DataFrame, card_id: str, field: str) -> Figure:
    """One panel per metric: the estimate at each value with its 95% CI."""
    metrics = list(dict.fromkeys(table["metric"]))
    figure = Figure(figsize=(4.2 * len(metrics), 3.4), layout="constrained")
    axes = figure.subplots(1, len(metrics), squeeze=False)[0]
    for ax, metric in zip(axes, metrics):
        rows = table[table["metric"] == metric]
        labels = [plain(as_written(v)) for v in rows["value"]]
        x = range(len(labels))
        ax.errorbar(x, rows["estimate"], yerr=[rows["estimate"] - rows["low"], rows["high"] - rows["estimate"]],
                    marker="o", capsize=3)  # fmt: skip
        ax.set_xticks(list(x), labels)
        ax.set_xlabel(f"{card_id}.{field}")
        ax.set_ylabel(metric.replace("_", " ") + (" (turns)" if metric == "turns" else " (share)"))
        ax.grid(alpha=0.3)
    figure.suptitle(f"Sweep of {card_id}.{field} (95% CIs)")
    return figure


SWEEP_FILES = ("sweep.csv", "sweep_differences.csv", "sweep.png")
"""The files of a sweep, in the order :func:`sweep_brief` lists them."""


def sweep_files(table: pd.DataFrame, differences: pd.DataFrame, card_id: str, field: str) -> Files:
    """:func:`sweep`'s tables and their figure, not yet written: ``sweep.csv``
    (``table``), ``sweep_differences.csv`` (``differences``), both without index, and
    ``sweep.png`` (:func:`plot_sweep`)."""
    return Files({"sweep.csv": table, "sweep_differences.csv": differences},
                 {"sweep.png": figure_png(plot_sweep(table, card_id, field))})  # fmt: skip


def sweep_brief(table: pd.DataFrame, differences: pd.DataFrame, card: str, field: str,
                written: Sequence[Path]) -> doc.Page:  # fmt: skip
    """What ``revachol sweep`` prints (:func:`analysis.report.terminal.print_page`), data
    only: each value of ``card``.``field`` with its metrics (95% CIs, n), the paired
    difference between neighbouring values (same games), and the files written."""
    shown = table.rename(columns={"low": "estimate_low", "high": "estimate_high"})
    steps = differences.assign(step=[f"{as_written(a)} → {as_written(b)}"
                                     for a, b in zip(differences["from"], differences["to"])])  # fmt: skip
    return doc.Page(f"sweep {card}.{field}", (
        doc.plain(sweep_title(card, field)),
        doc.Table(shown.assign(value=[as_written(v) for v in table["value"]])),
        doc.plain(SWEEP_DIFFERENCES),
        doc.Table(steps[["step", "metric", "unit", "a", "b", "difference", "difference_low", "difference_high",
                         "p_value", "n", "n_of"]]),
        doc.plain(written_line(written)),
    ))  # fmt: skip
