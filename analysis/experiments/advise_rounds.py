"""A screened edit played in rounds until its target's verdict is settled
(``revachol advise --until-settled``, issue 51; the rule: docs/EXPERIMENTS.md,
advise: *Until settled*).

Each round brings the edit's run on the search seed to more games and gives its
target's quantity an anytime-valid confidence sequence (Howard et al. 2021, eq. 14;
Waudby-Smith et al. 2024, Thm 2.2; :mod:`analysis.stats.sequential`), so that looking
after every round keeps its error rate.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from analysis.experiments.advise_measures import Measures
from analysis.experiments.until_settled import settle
from analysis.settled import BORDERLINE, FLAGGED, NO_VERDICT, all_settled, with_sequences


@dataclass(frozen=True)
class Trial:
    """A screened edit's target as ``--until-settled`` watches it:
    its card (``section``, ``index``); ``bar``, the best so far (the absolute value
    of its quantity in the deck edited, or in a closer edit that kept the edge);
    ``aim``, its threshold (:meth:`.advise_search.Settings.aim_of`); and ``side``, the sign of its
    quantity in the deck edited (+1 or −1); ``band``, the borderline band around the
    aim (``--borderline``, :func:`analysis.settled.settled_state`: a sequence wholly
    within it settles the target at its threshold; 0 for none). ``bar``, ``aim`` and
    ``band`` are in the quantity's unit: pp for an ally's effect, points for a task's
    gap."""

    section: str
    index: int
    bar: float
    aim: float
    side: float
    band: float = 0.0


def screened_in_rounds(play_to: Callable[[int], tuple[float, float, float]], measure: Callable[[], Measures],
                       trial: Trial, games: int, n_games: int, round_games: int, rho: float) -> Measures | str:  # fmt: skip
    """A screened edit played in rounds until it is dropped, settled, or played whole
    (``--until-settled``; docs/EXPERIMENTS.md, advise: *Until settled*).

    Parameters
    ----------
    play_to : callable
        Brings the edit's run to ``n`` games on the search seed (its points-blind
        companion too when the target is a task) and gives its target's quantity
        with its 95% interval (:func:`.advise_measures.quantity_bounds`: value, low,
        high; pp or points).
    measure : callable
        The edit's :class:`Measures` at the games played (its companion brought
        level first); called once, when the edit is not dropped.
    trial : Trial
        Its target, the best so far and the target's threshold.
    games, n_games, round_games : int
        The first round's games, at most, and per round.
    rho : float
        The boundary's mixture parameter, games (:func:`analysis.stats.sequential.mixture_rho`).

    Returns
    -------
    Measures or str
        Why it was dropped (at how many games, its confidence sequence) when the
        quantity's sequence (:func:`analysis.settled.with_sequences`) lay wholly
        beyond ``±bar`` before ``n_games``. Else its measures; ``settled`` says at
        how many games and why when the sequence lay wholly inside ``±aim``, wholly
        beyond it on ``side``, or wholly within ``band`` of it, before ``n_games``.
    """
    def look(n: int) -> pd.DataFrame:
        value, low, high = play_to(n)
        return with_sequences(pd.DataFrame({"subject": ["best so far", "threshold"], "value": value, "low": low,
                                            "high": high, "threshold": [trial.bar, trial.aim]}), n, rho,
                              band=[0.0, trial.band])  # fmt: skip

    def verdict(rows: pd.DataFrame) -> str:
        """``dropped``, ``settled`` (the target's verdict) or "" (play on)."""
        best, aim = rows.itertuples()
        if best.state == FLAGGED:
            return "dropped"
        if aim.state == NO_VERDICT:
            return f"inside ±{trial.aim:.2f} {{unit}}, its threshold: the edit fixes it"
        if aim.state == FLAGGED and np.sign(aim.value) == trial.side:
            return f"beyond ±{trial.aim:.2f} {{unit}}, its threshold, on the same side: it stays flagged"
        if aim.state == BORDERLINE:
            return f"within ±{trial.band:.2f} {{unit}} of ±{trial.aim:.2f} {{unit}}, its threshold: at the threshold"
        return ""

    stopping = settle(lambda _: None, look, games, n_games, round_games, done=lambda rows: bool(verdict(rows)))
    why = verdict(stopping.sequences)
    row = stopping.sequences.iloc[0]
    what, unit = ("effect", "pp") if trial.section == "allies" else ("gap from par", "points")
    sequence = (f"after {stopping.games:,} of {n_games:,} games: its {what}'s 95% confidence sequence "
                f"({row['cs_low']:+.2f} to {row['cs_high']:+.2f} {unit}) lies wholly ")  # fmt: skip
    if stopping.games >= n_games:
        return measure()
    if why == "dropped":
        return f"dropped {sequence}beyond ±{trial.bar:.2f} {unit}, the best so far"
    return replace(measure(), settled=f"settled {sequence}{why.format(unit=unit)}")


@dataclass(frozen=True)
class Guards:
    """What a whole deck of the search must keep (:meth:`.advise_search.Settings.guards`),
    as ``--until-settled`` watches it: the original's mean ``turns`` per game and the
    share ``tolerance`` its length may move by (:data:`.advise_search.LENGTH_TOLERANCE`);
    ``edge``, whether the first player's edge may not grow (False when the search
    relaxed it)."""

    turns: float
    tolerance: float
    edge: bool


def whole_in_rounds(play_to: Callable[[int], tuple[dict, dict]], measure: Callable[[], Measures], guards: Guards,
                    games: int, n_games: int, round_games: int, rho: float) -> tuple[Measures, str]:  # fmt: skip
    """A whole deck (a combination, a greedy step, a pair or a triple) played in rounds
    of the search seed (``--until-settled``; docs/EXPERIMENTS.md, advise: *Until settled*), stopped
    as soon as a guard is surely broken: the anytime-valid confidence sequence of its
    mean turns per game, relative to the original's, lies wholly beyond
    ``±tolerance``; or (with ``guards.edge``) that of its first player's edge change
    against the original, paired on the same games, lies wholly above 0. The fixed-n
    search refuses such a deck too (its interval, inside the sequence, then lies there).

    Parameters
    ----------
    play_to : callable
        Brings the deck's run (alone, no points-blind games) to ``n`` games and gives
        its mean turns per game and its paired edge change, each a dict of ``value``,
        ``low``, ``high`` (95%; turns, pp).
    measure : callable
        The deck's :class:`Measures` at the games played (its companion brought level
        first, unless a guard refuses it on its run alone); called once.
    guards : Guards
        The original's length and which guards hold.
    games, n_games, round_games, rho
        As :func:`screened_in_rounds`.

    Returns
    -------
    (Measures, str)
        Its measures, and when a guard stopped it before ``n_games``, the guard
        (``length``, ``edge``); else "".
    """
    def look(n: int) -> pd.DataFrame:
        length, edge = play_to(n)
        relative = [length[k] / guards.turns - 1 for k in ("value", "low", "high")]
        return with_sequences(pd.DataFrame({"subject": ["length", "edge"], "value": [relative[0], edge["value"]],
                                            "low": [relative[1], edge["low"]], "high": [relative[2], edge["high"]],
                                            "threshold": [guards.tolerance, 0.0]}), n, rho)  # fmt: skip

    def broken(rows: pd.DataFrame) -> str:
        length, edge = rows.itertuples()
        if length.state == FLAGGED:
            return "length"
        return "edge" if guards.edge and edge.cs_low > 0 else ""

    stopping = settle(lambda _: None, look, games, n_games, round_games, done=lambda rows: bool(broken(rows)))
    guard = broken(stopping.sequences) if stopping.games < n_games else ""
    if not guard:
        return measure(), ""
    row = stopping.sequences.set_index("subject").loc[guard]
    sequence = (f"{100 * row['cs_low']:+.1f}% to {100 * row['cs_high']:+.1f}%" if guard == "length" else
                f"{row['cs_low']:+.2f} to {row['cs_high']:+.2f} pp")  # fmt: skip
    return replace(measure(), settled=f"sure after {stopping.games:,} of {n_games:,} games (95% confidence "
                                      f"sequence {sequence})"), guard  # fmt: skip


def alone_in_rounds(play_to: Callable[[int], tuple[float, float, float]], measure: Callable[[], Measures],
                    threshold: float, games: int, n_games: int, round_games: int,
                    rho: float, band: float = 0.0) -> tuple[Measures, dict | None]:  # fmt: skip
    """An edit alone on the original deck on the hold-out seed (its own effect,
    ``advise --until-settled``) played in rounds until its card's verdict is settled:
    the anytime-valid confidence sequence of the card's quantity (an ally's effect,
    pp; a task's gap from par, points) lies wholly inside ``±threshold`` (the edit
    alone leaves it no verdict), wholly beyond it (it leaves, or gives, one) or
    wholly within ``band`` of it (at the threshold), as a run played until settled
    decides (:func:`analysis.settled.settled_state`).

    Parameters
    ----------
    play_to : callable
        Brings the edit's run (and its points-blind companion for a task) to ``n``
        games and gives the card's quantity with its 95% interval (value, low, high).
    measure : callable
        The deck's :class:`Measures` at the games played; called once.
    threshold : float
        The card's practical threshold, in its quantity's unit (the report's).
    games, n_games, round_games, rho
        As :func:`screened_in_rounds`; ``n_games``, the hold-out's games.
    band : float
        The borderline band around ``threshold``, in its unit; 0 for none.

    Returns
    -------
    (Measures, dict or None)
        Its measures, and when its verdict settled before ``n_games``, the sequence
        to show for the card instead of the interval: ``games``, ``low``, ``high``,
        ``state``; None when it played ``n_games``.
    """
    def look(n: int) -> pd.DataFrame:
        value, low, high = play_to(n)
        return with_sequences(pd.DataFrame({"subject": ["alone"], "value": [value], "low": [low], "high": [high],
                                            "threshold": [threshold]}), n, rho, band=band)  # fmt: skip

    stopping = settle(lambda _: None, look, games, n_games, round_games, done=all_settled)
    m = measure()
    if stopping.games >= n_games:
        return m, None
    row = stopping.sequences.iloc[0]
    return m, {"games": stopping.games, "low": float(row["cs_low"]), "high": float(row["cs_high"]),
               "state": row["state"]}  # fmt: skip
