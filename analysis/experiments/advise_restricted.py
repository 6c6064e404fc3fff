"""The proposal checked by restricted play (``advise --restricted-play N``, issue 48).

The search steers by the report's effect against the average ally (presence: how
often holders win, :func:`analysis.cards.ally_strength`). Restricted play (Jaffe et
al., AIIDE 2012; :mod:`.card_value`) asks another question of the same edit: how much
does seat 0 lose when it may not play the ally? Each edited ally is valued in the
original and in the proposal, ``N`` games per run on the hold-out seed, against one
reference for both decks: the plain ally nearest the average in both
(:func:`.card_value.nearest_plain_ally`, each deck given the other as its
``reference_deck``). The check the issue states: each weakened or strengthened ally's
value *moves toward zero* (``|after| < |before|``) and *does not cross it by more than
its CI* (the proposal's 95% interval does not lie wholly on the other side of zero
from the original's estimate).

Why it can disagree with the hold-out. The search lands each card inside 0.75 of the
practical threshold on the presence measure; restricted play at 20,000 games resolves
about ±0.35 pp, roughly ±1.4 pp of presence effect, and its zero (a plain ally near
the average) sits a few tenths away from presence's. On the default deck with
``--abilities``, 16 of 19 edited allies passed on the hold-out seed and 3 weakened
ones crossed zero (docs/EXPERIMENTS.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.experiments.card_value import card_values
from sim.cards import Deck

VALUE = ("win_rate_value", "win_rate_value_low", "win_rate_value_high")


def restricted_table(before: pd.DataFrame, after: pd.DataFrame, weakened: dict[str, bool]) -> pd.DataFrame:
    """Each edited ally's restricted-play value in the original and the proposal, and
    whether it passes the check (module docstring).

    Parameters
    ----------
    before, after : pandas.DataFrame
        :func:`.card_value.card_values` of the original and of the proposal, against
        one reference (``ally``, ``reference_id``, ``n`` and :data:`VALUE`, shares).
    weakened : dict
        Per ally name, whether the proposal weakened it (its hold-out effect fell),
        in the order the table keeps.

    Returns
    -------
    pandas.DataFrame
        One row per ally, those that fail the check first, else in the order of
        ``weakened``: ``ally`` (name), ``edit`` ("weakened", "strengthened"),
        ``reference`` (name), ``n`` (games per run), ``before_pp``,
        ``before_low_pp``, ``before_high_pp``, ``after_pp``, ``after_low_pp``,
        ``after_high_pp`` (pp, 95% CIs),
        ``toward_zero`` and ``crossed`` (bool) and ``agrees`` (toward zero and not
        crossed).
    """
    old, new = (t.set_index("ally") for t in (before, after))
    rows = []
    for name, fell in weakened.items():
        b, a = (100 * t.loc[name, list(VALUE)].to_numpy(np.float64) for t in (old, new))
        crossed = bool((b[0] > 0 and a[2] < 0) or (b[0] < 0 and a[1] > 0))
        rows.append({"ally": name, "edit": "weakened" if fell else "strengthened",
                     "reference": new.loc[name, "reference"], "n": int(new.loc[name, "n"]),
                     "before_pp": b[0], "before_low_pp": b[1], "before_high_pp": b[2],
                     "after_pp": a[0], "after_low_pp": a[1], "after_high_pp": a[2],
                     "toward_zero": bool(abs(a[0]) < abs(b[0])), "crossed": crossed})  # fmt: skip
    table = pd.DataFrame(rows)
    table["agrees"] = table["toward_zero"] & ~table["crossed"]
    return table.sort_values("agrees", kind="stable", ignore_index=True)  # those that fail first


def restricted_check(cards: str | Path, proposal: Deck, weakened: dict[str, bool], ids: dict[str, str],
                     n_games: int, out: str | Path, bots: str | Sequence[str], players: int, seed: int,
                     n_jobs: int) -> pd.DataFrame:  # fmt: skip
    """Play restricted play for the edited allies in both decks, the card file and the
    proposed deck (``out/original`` and ``out/proposal``, ``n_games`` games per run on ``seed``; seat 0's bot is the first
    of ``bots``, every other seat the last) and give :func:`restricted_table`. ``ids``:
    each ally name's id.

    Raises
    ------
    ValueError
        When no ally is plain in both decks (:func:`.card_value.nearest_plain_ally`).
    """
    spec = [bots] if isinstance(bots, str) else list(bots)
    allies = [ids[name] for name in weakened]
    before, after = (card_values(deck, n_games, Path(out) / name, allies, spec[0], players, seed, n_jobs, False,
                                 opponents=spec[-1], reference_deck=other)
                     for name, deck, other in (("original", cards, proposal), ("proposal", proposal, cards)))  # fmt: skip
    return restricted_table(before, after, weakened)


def restricted_games(allies: int, n_games: int) -> int:
    """Games the check plays: in each deck a baseline, the other deck's baseline, the
    reference restricted and each ally restricted, ``n_games`` each."""
    return 2 * (3 + allies) * n_games
