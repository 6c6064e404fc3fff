"""Design comparison: what did my change do? (``revachol compare A.yaml B.yaml``)

Two runs that played the same games (same root seed, bots, players and rule
options; decks of equal sizes) share each game's deal and dice (common random
numbers, :mod:`sim.rng`). Each metric is then compared *per game*: the difference
``B - A`` of game ``g`` removes most of the game-to-game noise that two independent
runs would keep, so a much smaller sample gives the same precision.

For a per-game quantity ``x`` (turns, morale-loss events, a task's completion, a
seat's win, a card holder's win), the estimate is the mean of the paired
differences ``d_g = x_B(g) - x_A(g)`` with a t interval (95%) and a paired t-test
(``scipy.stats.ttest_rel``); each family of tests (game metrics, seats, tasks,
allies) is corrected with Benjamini-Hochberg at 5%. Every table also gives the
interval two *independent* runs of the same size would give (normal approximation of Welch), so the gain
from pairing is measured, not claimed.

Per-ally strength is the holders' win rate of each game: among the players who held
the ally in hand (the 17lands GIH adaptation of :mod:`analysis.cards`), the share who
won; games where no player held it in one of the runs are left out of that ally's
pairs.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl
from scipy import stats

from analysis.html import page, table_html
from analysis.load import SORT_KEYS
from analysis.runs import Run
from analysis.stats import bh_flags
from sim.runner import RunError
from sim.state import TASK_COMPLETED, TASK_LOST

SAME = ("n_games", "n_players", "bots", "root_seed", "rule_options", "rules_version")
GAME_METRICS = {  # column: (label, unit)
    "turns": ("turns per game", "turns"),
    "rounds": ("rounds per game", "rounds"),
    "morale_events": ("morale-loss events per game", "events"),
    "tasks_completed": ("tasks completed per game", "tasks"),
    "tasks_failed": ("tasks failed per game", "tasks"),
    "tie_broken_by_dice": ("games decided by dice", "share"),
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
    """Mean A, mean B, paired difference B - A with its t interval and p-value, and
    the half-width two independent runs of this size would give (normal approximation
    of Welch's interval)."""
    keep = ~(np.isnan(x_a) | np.isnan(x_b))
    x_a, x_b = x_a[keep].astype(np.float64), x_b[keep].astype(np.float64)
    n = x_a.size
    d = x_b - x_a
    mean, sd = d.mean() if n else np.nan, d.std(ddof=1) if n > 1 else np.nan
    half = stats.t.ppf(0.975, n - 1) * sd / np.sqrt(n) if n > 1 else np.nan
    p = stats.ttest_rel(x_b, x_a).pvalue if n > 1 and sd > 0 else (1.0 if n > 1 else np.nan)
    independent = 1.96 * np.sqrt(x_a.var(ddof=1) / n + x_b.var(ddof=1) / n) if n > 1 else np.nan
    return {
        "metric": name, "unit": unit, "n": n, "a": x_a.mean() if n else np.nan, "b": x_b.mean() if n else np.nan,
        "difference": mean, "difference_low": mean - half, "difference_high": mean + half, "p": p,
        "independent_half_width": independent,
        "paired_half_width": half,
    }  # fmt: skip


def _with_flags(rows: list[dict]) -> pd.DataFrame:
    table = pd.DataFrame(rows)
    table["significant"], table["q"] = bh_flags(table["p"].to_numpy())
    return table


def _table(run: Run, table: str, *columns: str) -> pl.DataFrame:
    """Columns of a run's table in game (and turn) order, so that runs pair up."""
    keys = SORT_KEYS[table]
    return run.scan(table, *keys, *columns).sort(keys).collect()


def _finished(run: Run) -> np.ndarray:
    """bool (games,): games that ended by R9.1, neither stalled nor truncated."""
    games = _table(run, "games", "stalled", "truncated")
    return ((games["stalled"] == 0) & (games["truncated"] == 0)).to_numpy()


def game_differences(a: Run, b: Run) -> pd.DataFrame:
    """Paired differences of the per-game metrics (:data:`GAME_METRICS`), and the
    first player's win (AdvantageP1, RULES R9.4), with BH flags across them."""
    check_paired(a, b)
    ga, gb = (_table(run, "games", *GAME_METRICS, "winner") for run in (a, b))
    rows = [paired_row(label, ga[c].to_numpy().astype(np.float64), gb[c].to_numpy().astype(np.float64), unit)
            for c, (label, unit) in GAME_METRICS.items()]  # fmt: skip
    both = _finished(a) & _finished(b)
    first_a = np.where(both, ga["winner"].to_numpy() == 0, np.nan)
    first_b = np.where(both, gb["winner"].to_numpy() == 0, np.nan)
    rows.append(paired_row("first player's win rate (AdvantageP1)", first_a, first_b, "share"))
    return _with_flags(rows)


def _players(run: Run) -> tuple[np.ndarray, np.ndarray]:
    """(won, held): int (games, players) and bool (games, players, allies), by turn order."""
    players = _table(run, "players", "won", "held")
    n = run.players
    won = players["won"].to_numpy().reshape(-1, n)
    held = players["held"].to_numpy().reshape(won.shape[0], n, -1)
    return won, held


def seat_differences(a: Run, b: Run) -> pd.DataFrame:
    """Paired differences of each turn-order position's win rate (RULES R9.4)."""
    check_paired(a, b)
    both = _finished(a) & _finished(b)
    won_a, won_b = _players(a)[0].astype(np.float64), _players(b)[0].astype(np.float64)
    won_a[~both], won_b[~both] = np.nan, np.nan
    rows = [paired_row(f"win rate of turn-order position {k + 1}", won_a[:, k], won_b[:, k], "share")
            for k in range(a.players)]  # fmt: skip
    return _with_flags(rows)


def task_differences(a: Run, b: Run) -> pd.DataFrame:
    """Paired differences of each task's completion (completed, lost ones included)
    and failure, per game."""
    check_paired(a, b)
    status = [_table(run, "cards", "task_status")["task_status"].to_numpy() for run in (a, b)]
    rows = []
    for t, task in enumerate(b.deck.tasks):
        done = [np.isin(s[:, t], (TASK_COMPLETED, TASK_LOST)).astype(np.float64) for s in status]
        rows.append({"task": task.name, **paired_row("completed", done[0], done[1], "share")})
    return _with_flags(rows)


def ally_differences(a: Run, b: Run) -> pd.DataFrame:
    """Paired differences of each ally's holders' win rate, per game."""
    check_paired(a, b)
    both = _finished(a) & _finished(b)
    rates = []
    for run in (a, b):
        won, held = _players(run)
        holders = held.sum(axis=1).astype(np.float64)
        wins = (held & (won[:, :, None] == 1)).sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            rate = np.where(holders > 0, wins / holders, np.nan)
        rate[~both] = np.nan
        rates.append(rate)
    rows = [{"ally": ally.name, **paired_row("holders' win rate", rates[0][:, i], rates[1][:, i], "share")}
            for i, ally in enumerate(b.deck.allies)]  # fmt: skip
    return _with_flags(rows)


def pairing_gain(games: pd.DataFrame) -> float:
    """Median ratio of the independent-runs interval width to the paired one, over
    the game metrics: how many times narrower pairing makes the interval."""
    ratio = games["independent_half_width"] / games["paired_half_width"]
    return float(np.nanmedian(ratio.replace([np.inf, -np.inf], np.nan)))


def comparison_tables(a_dir: str | Path, b_dir: str | Path) -> dict[str, pd.DataFrame]:
    """Every comparison table of two paired run directories."""
    a, b = Run.open(a_dir), Run.open(b_dir)
    return {
        "games": game_differences(a, b),
        "seats": seat_differences(a, b),
        "tasks": task_differences(a, b),
        "allies": ally_differences(a, b),
    }


def _answer(tables: dict[str, pd.DataFrame]) -> str:
    moved = []
    for name, table in tables.items():
        for _, row in table[table["significant"]].iterrows():
            subject = row.get("task", row.get("ally", ""))
            label = f"{subject}: {row['metric']}" if isinstance(subject, str) and subject else row["metric"]
            moved.append(f"{label} {row['a']:.3g} → {row['b']:.3g}")
    if not moved:
        return "Nothing moved significantly (paired tests, Benjamini–Hochberg at 5% within each table)."
    return f"{len(moved)} measures moved significantly: " + "; ".join(moved[:12]) + ("; …" if len(moved) > 12 else "")


def write_comparison(a_dir: str | Path, b_dir: str | Path, out: str | Path) -> Path:
    """Write ``compare.html`` (what moved, then every table) and the tables as CSV."""
    from html import escape

    out = Path(out)
    (out / "tables").mkdir(parents=True, exist_ok=True)
    tables = comparison_tables(a_dir, b_dir)
    for name, table in tables.items():
        table.to_csv(out / "tables" / f"compare_{name}.csv", index=False)
    gain = pairing_gain(tables["games"])
    body = [
        f"<h1>What changed from {escape(Path(a_dir).name)} to {escape(Path(b_dir).name)}</h1>",
        f'<p class="answer">{escape(_answer(tables))}</p>',
        f'<p class="note">Both decks played the same {int(tables["games"]["n"].max()):,} games (same seeds, bots and '
        f"rules; common random numbers). Differences are B − A with paired 95% CIs; on the game metrics pairing "
        f"makes the interval {gain:.1f}× narrower than two independent runs of this size would.</p>",
    ]
    for name, title in (("games", "Game length, morale loss, tasks, AdvantageP1"), ("seats", "Seat advantage"),
                        ("tasks", "Tasks"), ("allies", "Allies")):  # fmt: skip
        table = tables[name]
        if name in ("tasks", "allies"):
            table = table.sort_values("p")
        body += [f"<h2>{title}</h2>", table_html(table, hide=("q", "independent_half_width", "paired_half_width"))]
    path = out / "compare.html"
    path.write_text(page("Design comparison", "\n".join(body)), encoding="utf-8")
    return path


def run_comparison(cards_a: str | Path, cards_b: str | Path, n_games: int, out: str | Path, players: int = 4,
                   bots: str | Sequence[str] = "greedy", seed: int = 0, n_jobs: int = -1,
                   progress: bool | None = None) -> Path:  # fmt: skip
    """Play the same games under both card files (``out/a``, ``out/b``; existing
    complete runs are reused) and write the comparison; returns the HTML path."""
    from sim.runner import simulate

    out = Path(out)
    for cards, name in ((cards_a, "a"), (cards_b, "b")):
        run_dir = out / name
        simulate(cards, n_games, run_dir, players, bots, seed, n_jobs, resume=(run_dir / "manifest.json").exists(),
                 progress=progress)  # fmt: skip
    return write_comparison(out / "a", out / "b", out)

