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
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import yaml
from matplotlib.figure import Figure

from analysis.cards import ally_strength, task_outcomes
from analysis.figures import plain
from analysis.length import game_length
from analysis.morale import morale_cards
from analysis.seats import seat_balance
from sim.cards import load_deck, parse_deck
from sim.runner import simulate

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


def _metric(run_dir: Path, metric: str, section: str, card_id: str) -> dict:
    if metric == "turns":
        row = game_length(run_dir).set_index("measure").loc["turns"]
        return {"estimate": row["mean"], "low": row["mean_low"], "high": row["mean_high"], "n": row["games"]}
    if metric == "advantage_p1":
        row = seat_balance(run_dir).iloc[0]
        return {"estimate": row[metric], "low": row[f"{metric}_low"], "high": row[f"{metric}_high"], "n": row["games"]}
    table = TABLES[metric](run_dir)
    row = table.set_index(SECTION_KEY[section]).loc[card_id]
    n = row.get("games", row.get("player_games"))
    return {"estimate": row[metric], "low": row[f"{metric}_low"], "high": row[f"{metric}_high"], "n": n}


def sweep(
    cards: str | Path,
    card_id: str,
    field: str,
    values: Sequence[Any],
    n_games: int,
    out: str | Path,
    metrics: Sequence[str] | None = None,
    players: int = 4,
    bots: str | Sequence[str] = "greedy",
    seed: int = 0,
    n_jobs: int = -1,
    progress: bool | None = None,
) -> pd.DataFrame:
    """Play ``n_games`` games for each value of ``field`` of card ``card_id``.

    Runs go to ``out/<field>=<value>`` (complete runs are reused).

    Returns
    -------
    pandas.DataFrame
        One row per (value, metric): ``value``, ``metric``, ``estimate``, ``low``,
        ``high`` (95% CI) and ``n``.

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
    rows = []
    for value in values:
        changed = yaml.safe_load(yaml.safe_dump(data))
        changed[section][index][field] = value
        label = f"{field}={yaml.safe_dump(value, default_flow_style=True).strip().replace('/', '_')}"
        deck = parse_deck(yaml.safe_dump(changed, sort_keys=False), f"{cards} with {card_id}.{label}")
        run_dir = Path(out) / label
        simulate(deck, n_games, run_dir, players, bots, seed, n_jobs, resume=(run_dir / "manifest.json").exists(),
                 progress=progress)  # fmt: skip
        rows += [{"value": value, "metric": m, **_metric(run_dir, m, section, card_id)} for m in chosen]
    return pd.DataFrame(rows)


def plot_sweep(table: pd.DataFrame, card_id: str, field: str) -> Figure:
    """One panel per metric: the estimate at each value with its 95% CI."""
    metrics = list(dict.fromkeys(table["metric"]))
    figure = Figure(figsize=(4.2 * len(metrics), 3.4), layout="constrained")
    axes = figure.subplots(1, len(metrics), squeeze=False)[0]
    for ax, metric in zip(axes, metrics):
        rows = table[table["metric"] == metric]
        labels = [plain(v) for v in rows["value"]]
        x = range(len(labels))
        ax.errorbar(x, rows["estimate"], yerr=[rows["estimate"] - rows["low"], rows["high"] - rows["estimate"]],
                    marker="o", capsize=3)  # fmt: skip
        ax.set_xticks(list(x), labels)
        ax.set_xlabel(f"{card_id}.{field}")
        ax.set_ylabel(metric.replace("_", " ") + (" (turns)" if metric == "turns" else " (share)"))
        ax.grid(alpha=0.3)
    figure.suptitle(f"Sweep of {card_id}.{field} (95% CIs)")
    return figure
