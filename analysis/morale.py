"""Morale loss: morale-loss events per game, failed tasks, penalties, and each morale
card's events and saves against the exact probability of its requirement.

Sources: the ``games`` table (``morale_events``, ``tasks_completed``,
``tasks_failed``), the ``players`` table (penalties by type, ``saves``,
``tasks_lost``), and the ``cards`` table (``morale_events``, ``morale_saves``: one
array entry per morale card, in the deck's order). RULES R7 (the track), R8 (the
event: every player rolls both dice, R8.2; penalties, R8.3).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.cards import task_totals
from analysis.data.runs import Run, RunsLike, per_run
from analysis.data.passes import Pass, totals_of
from analysis.data.stream import Batch, Columns, Totals
from analysis.seats import game_counts
from analysis.stats.clustered import CountMoments, ratio_columns
from analysis.stats.histogram import Histogram
from analysis.stats.inference import bh_flags, binomial_pvalues, mean_columns_from_sums, rate_columns
from analysis.stats.per_player import per_player_pass, summarise_per_player
from sim.cards import as_written

PER_GAME = {  # column: (what, unit)
    "morale_events": ("morale-loss events", "events"),
    "tasks_completed": ("tasks completed (lost ones included)", "tasks"),
    "tasks_failed": ("tasks failed in morale-loss events (R8.1)", "tasks"),
    "failed_share": ("share of resolved tasks that failed: failed / (failed + completed)", "share"),
}
PER_PLAYER_GAME = {  # column of the players table: what (R8.3)
    "penalties_squad_ally": "penalties: an ally from a squad",
    "penalties_completed_task": "penalties: a completed task",
    "penalties_hand_ally": "penalties: an ally from hand",
    "penalties_nothing_lost": "penalties with no such card to give up (of the above)",
    "saves": "saves (morale-loss rolls that saved the player)",
    "tasks_lost": "completed tasks lost to penalties",
}


def _histograms(batch: Batch) -> Totals:
    failed, completed = batch.games["tasks_failed"], batch.games["tasks_completed"]
    resolved = failed + completed
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(resolved > 0, failed / resolved, np.nan)  # no task resolved: left out
    return {**{c: Histogram.of(batch.games[c]) for c in PER_GAME if c != "failed_share"},
            "failed_share": Histogram.of(share)}  # fmt: skip


def per_game_pass(run: Run) -> Pass:
    """The pass of :func:`morale_per_game`: the histogram of every :data:`PER_GAME`
    measure over every game of the run."""
    return Pass("morale per game", Columns(games=("morale_events", "tasks_completed", "tasks_failed")), _histograms)


def morale_per_game(runs: RunsLike) -> pd.DataFrame:
    """Morale-loss events and task fates per game.

    The failed share is computed per game, then averaged over games, so its
    interval treats games (not tasks, which are not independent within a game) as
    the units. Games that resolved no task are left out of it.

    Returns
    -------
    pandas.DataFrame
        One row per run and measure: ``measure``, ``what``, ``unit`` (events, tasks,
        or share as a fraction), ``games``, ``mean`` with its t interval, ``sd``,
        ``median``, ``p5`` … ``p95``, ``min``, ``max``.
    """

    def one(run: Run) -> pd.DataFrame:
        counts = totals_of(run, per_game_pass(run))
        return pd.DataFrame([{"measure": column, "what": what, "unit": unit,
                              **{key: value[0] for key, value in counts[column].summary("games").items()}}
                             for column, (what, unit) in PER_GAME.items()])  # fmt: skip

    return per_run(runs, one)


def morale_event_distribution(runs: RunsLike) -> pd.DataFrame:
    """How many morale-loss events games have.

    Returns
    -------
    pandas.DataFrame
        One row per run and number of events: ``morale_events``, ``games``,
        ``count``, ``share`` with its Wilson interval.
    """
    return per_run(runs, lambda run: totals_of(run, per_game_pass(run))["morale_events"].distribution("morale_events", "games"))


def player_penalties(runs: RunsLike) -> pd.DataFrame:
    """Per player-game: penalties suffered by type (R8.3), saves (R8.2) and completed
    tasks lost to penalties, over every game.

    The players of a game face the same morale cards, so the mean's interval is
    game-clustered (:func:`analysis.stats.per_player.summarise_per_player`).

    Returns
    -------
    pandas.DataFrame
        One row per run and measure: ``measure``, ``what``, ``player_games``,
        ``games``, ``mean`` (per player-game) with its interval, ``sd``,
        ``median``, ``p5`` … ``p95``, ``min``, ``max``.
    """
    return per_run(runs, lambda run: summarise_per_player(run, PER_PLAYER_GAME))


def morale_impact(runs: RunsLike, include_unfinished: bool = False) -> pd.DataFrame:
    """How much morale loss decides: what penalties take back, and how games are won.

    * ``tasks_lost_share``: completed tasks later lost to a penalty (R8.3), of all
      completed tasks; ``points_lost_share``: their points, of all completed task
      points. Ratios over games, with game-clustered intervals
      (:mod:`analysis.stats.clustered`); every game counts.
    * ``tied_on_points``, ``decided_by_dice`` (R9.3's die roll chose the winner)
      and ``won_with_zero_points``: shares of games, with Wilson intervals; stalled
      and truncated games are left out unless ``include_unfinished`` (R4 Reading).

    Returns
    -------
    pandas.DataFrame
        One row per run and measure: ``measure``, ``what``, ``n`` and ``n_of`` (what
        was counted: completed tasks, task points, games), ``value`` (a fraction)
        with ``value_low``/``value_high``.
    """

    def one(run: Run) -> pd.DataFrame:
        moments = task_totals(run)["lost_moments"]
        counts = game_counts(run, include_unfinished)
        games, tied, dice, zero = (counts[key] for key in ("games", "tied", "dice", "zero"))
        rows = [("tasks_lost_share", "completed tasks later lost to penalties (R8.3)", moments.select(0, 1), "completed tasks"),
                ("points_lost_share", "completed task points later lost to penalties", moments.select(2, 3), "task points")]  # fmt: skip
        out = [{"measure": m, "what": w, "n": float(mo.total[1]), "n_of": of,
                **{k.replace("share", "value"): float(v) for k, v in ratio_columns("share", mo).items()}}
               for m, w, mo, of in rows]  # fmt: skip
        for measure, what, count in (("tied_on_points", "games whose top score was shared (R9.3)", tied),
                                     ("decided_by_dice", "games whose winner R9.3's die roll chose", dice),
                                     ("won_with_zero_points", "games won with 0 points", zero)):  # fmt: skip
            rates = rate_columns("value", [count], [games])
            out.append({"measure": measure, "what": what, "n": float(games), "n_of": "games",
                        **{k: float(v[0]) for k, v in rates.items()}})  # fmt: skip
        return pd.DataFrame(out)

    return per_run(runs, one)


def _by_saves(batch: Batch) -> Totals:
    """Per game and number of saves ``s``: the wins and the players saved ``s`` times."""
    saves, won = batch.players["saves"], batch.players["won"].astype(bool)
    with_saves = saves[..., None] == np.arange(int(saves.max()) + 1 if saves.size else 0)  # (G, n, values)
    return {"moments": CountMoments.of(np.stack([(with_saves & won[..., None]).sum(1), with_saves.sum(1)], axis=-1))}


def by_saves_pass(include_unfinished: bool = False) -> Pass:
    """The pass of :func:`win_rate_by_saves`."""
    return Pass(("by saves", include_unfinished), Columns(players=("saves", "won")), _by_saves, include_unfinished)


def win_rate_by_saves(runs: RunsLike, include_unfinished: bool = False) -> pd.DataFrame:
    """Win rate of the players who were saved 0, 1, 2 … times by the dice (R8.2).

    A save is pure dice luck, so this shows how much the morale dice decide. The
    players of a game share it, so intervals are game-clustered.

    Returns
    -------
    pandas.DataFrame
        One row per run and number of saves: ``saves``, ``player_games``, ``wins``,
        ``win_rate`` with ``win_rate_low``/``win_rate_high``, ``baseline`` (1/n).
    """

    def one(run: Run) -> pd.DataFrame:
        moments = totals_of(run, by_saves_pass(include_unfinished))["moments"]
        values = np.arange(moments.values)
        return pd.DataFrame({"saves": values, "player_games": moments.total[:, 1].astype(np.int64),
                             "wins": moments.total[:, 0].astype(np.int64), **ratio_columns("win_rate", moments),
                             "baseline": run.baseline})  # fmt: skip

    return per_run(runs, one)


def _card_sums(batch: Batch) -> Totals:
    events = batch.cards["morale_events"].astype(np.int64)
    return {"games": np.int64(batch.size), "events": events.sum(0), "events_sq": (events**2).sum(0),
            "saves": batch.cards["morale_saves"].sum(0, dtype=np.int64)}  # fmt: skip


CARDS_PASS = Pass("morale cards", Columns(cards=("morale_events", "morale_saves")), _card_sums)
"""The pass of :func:`morale_cards`."""


def morale_cards(runs: RunsLike) -> pd.DataFrame:
    """Per morale card: the events it caused and its observed save rate against the
    exact probability of its requirement (R8.2, R8 Reading; ``Save.probability``).

    Every player rolls in every event (R8.2), so a card's rolls are its events times
    the player count, and each roll is an independent throw of two dice: the save
    rate gets a Wilson interval and a two-sided exact binomial test against the
    exact probability. ``disagrees`` flags the cards whose test is rejected after a
    Benjamini–Hochberg correction across the run's morale cards (q = 0.05): a sign
    that the simulator does not roll as the card says.

    Returns
    -------
    pandas.DataFrame
        One row per run and morale card: ``card`` (id), ``name``, ``penalty``,
        ``save`` (the requirement as written in ``cards.yaml``), ``exact`` (e.g. ``1/36``), ``probability`` (exact, as
        a fraction), ``estimated`` (fields the deck marks as estimates),
        ``games``, ``events`` (total), ``events_per_game`` with its t interval,
        ``rolls``, ``saves``, ``save_rate`` with its Wilson interval, ``p_value``,
        ``q_value`` (BH-adjusted), ``disagrees``.
    """

    def one(run: Run) -> pd.DataFrame:
        cards = run.deck.morale
        sums = totals_of(run, CARDS_PASS)
        # The record keeps one column even for a deck without morale cards.
        events, events_sq, saves = (sums[key][: len(cards)] for key in ("events", "events_sq", "saves"))
        probability = np.array([float(card.save.probability) for card in cards])
        rolls = events * run.players
        p_value = binomial_pvalues(saves, rolls, probability)
        disagrees, q_value = bh_flags(p_value)
        return pd.DataFrame({
            "card": [card.id for card in cards],
            "name": [card.name for card in cards],
            "penalty": [card.penalty for card in cards],
            "save": [as_written(raw["save"]) for raw in run.deck.to_yaml_data()["morale"]],
            "exact": [f"{card.save.probability * 36}/36" for card in cards],
            "probability": probability,
            "estimated": [", ".join(card.estimated) for card in cards],
            "games": sums["games"],
            "events": events,
            **mean_columns_from_sums("events_per_game", events, events_sq, sums["games"]),
            "rolls": rolls,
            "saves": saves,
            **rate_columns("save_rate", saves, rolls),
            "p_value": p_value,
            "q_value": q_value,
            "disagrees": disagrees,
        })  # fmt: skip

    return per_run(runs, one)


def passes(run: Run, include_unfinished: bool = False) -> list[Pass]:
    """The passes over ``run`` of this module's report tables, for
    :func:`analysis.data.passes.prefetch`."""
    return [per_game_pass(run), per_player_pass(tuple(PER_PLAYER_GAME)), by_saves_pass(include_unfinished), CARDS_PASS]
