"""Causal card value by restricted play (``revachol card-value``).

Following Jaffe et al. (AIIDE 2012), an ally's value is what a player loses when it
may not play that ally: seat 0's bot gets the restriction ``never=<ally>``
(:mod:`sim.bots.restrict`), every other seat and every deal stays the same (same
seed: common random numbers), and seat 0's win rate and score are compared game by
game with a baseline run where nobody is restricted. ``value = baseline - restricted``,
with a paired 95% CI and Benjamini-Hochberg flags across the allies.

Why it differs from the report's correlational measures (:mod:`analysis.cards`):
the held win rate and IWD say how often holders of an ally win, which mixes the
card's effect with everything that comes with holding it (more draws, longer games,
the bot's style). Restricted play changes one thing, whether the card may be played,
on the same deals, so the difference is the card's own effect for that bot. It is
also bot-dependent: a card that pays off only with planning is worth little to a
bot that does not plan.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.cards import ally_strength
from analysis.compare import paired_row
from analysis.runs import Run
from analysis.stats import bh_flags
from sim.cards import Deck, load_deck
from sim.runner import simulate


def _seat0(run_dir: Path) -> tuple[np.ndarray, np.ndarray]:
    """(won, score) of seat 0 in each game, in game order."""
    players = Run.open(run_dir).scan("players", "game", "seat", "won", "score").filter(seat=0).sort("game").collect()
    return players["won"].to_numpy().astype(np.float64), players["score"].to_numpy().astype(np.float64)


def card_values(
    cards: str | Path,
    n_games: int,
    out: str | Path,
    allies: Sequence[str] | None = None,
    bot: str = "greedy",
    players: int = 4,
    seed: int = 0,
    n_jobs: int = -1,
    progress: bool | None = None,
) -> pd.DataFrame:
    """Each ally's value to seat 0's ``bot`` (module docstring), one row per ally.

    Runs go to ``out/baseline`` and ``out/never-<ally id>``; complete runs are reused.

    Returns
    -------
    pandas.DataFrame
        ``ally``, ``n`` (games), ``win_rate_value`` (baseline - restricted win rate of
        seat 0, with ``_low``/``_high``), ``p``, ``significant`` (BH at 5%),
        ``score_value`` (points, with ``_low``/``_high``), and the baseline run's
        correlational ``iwd`` of the ally for comparison.

    Raises
    ------
    ValueError
        For an ally id that is not in the deck.
    """
    deck: Deck = load_deck(cards)
    ids = [a.id for a in deck.allies]
    chosen = list(allies) if allies else ids
    unknown = [a for a in chosen if a not in ids]
    if unknown:
        raise ValueError(f"{unknown[0]!r} is not an ally id of {cards}")
    out = Path(out)

    def play(name: str, first: str) -> Path:
        run_dir = out / name
        simulate(cards, n_games, run_dir, players, [first] + [bot] * (players - 1), seed, n_jobs,
                 resume=(run_dir / "manifest.json").exists(), progress=progress)  # fmt: skip
        return run_dir

    base_won, base_score = _seat0(play("baseline", bot))
    strength = ally_strength(out / "baseline").set_index("ally")
    rows = []
    for ally_id in chosen:
        won, score = _seat0(play(f"never-{ally_id}", f"{bot}:never={ally_id}"))
        name = deck.allies[ids.index(ally_id)].name
        win = paired_row("win rate", won, base_won, "share")  # baseline - restricted
        points = paired_row("score", score, base_score, "points")
        rows.append({
            "ally": name, "n": win["n"],
            "win_rate_value": win["difference"], "win_rate_value_low": win["difference_low"],
            "win_rate_value_high": win["difference_high"], "p": win["p"],
            "score_value": points["difference"], "score_value_low": points["difference_low"],
            "score_value_high": points["difference_high"],
            "iwd": strength.loc[ally_id, "iwd"],
        })  # fmt: skip
    table = pd.DataFrame(rows)
    table["significant"], table["q"] = bh_flags(table["p"].to_numpy())
    return table.sort_values("win_rate_value", ascending=False, ignore_index=True)
