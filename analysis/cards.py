"""Card strength: allies against the average ally, their 17lands-style win rates, their
contributions, and tasks by how often and when they are completed.

How an ally's strength is measured, and why not against 1/n
-----------------------------------------------------------
With ``n`` players exactly one wins each game (R9.3), so the pooled win rate is
``1/n``. Testing each ally's held win rate against ``1/n`` looks natural and is wrong:
players who hold more allies win less (they drew because they could not complete
tasks), so the *average* ally's held win rate sits below ``1/n``, and such a test flags
almost every ally, even allies identical by construction (it flagged 32 of 40 on the
default deck, and 36–39 of 40 with ally labels shuffled at random). The verdict here
tests each ally against **the average ally** instead:

* **effect_pp** — a conditional logit of "this player won" on the allies the player
  held and its turn order, with one stratum per game, centred on the mean ally and
  read as percentage points of win rate for an average player
  (:mod:`analysis.stats.ally_model`). Comparing players of the same game with the same
  number of allies held removes the held-count confound; the game is the unit.
* **verdict** — ``stronger`` or ``weaker`` when the Wald test of the effect against
  the average ally is rejected after a Benjamini–Hochberg correction across the
  deck's allies (q ≤ 0.05) *and* the effect is at least the practical threshold
  (``threshold_pp``, default ±2 pp); otherwise empty. Significance alone is not
  enough: with a million games a 0.3 pp difference is significant and of no
  consequence to a designer.

The 17lands card ratings (17lands.com/card_data), adapted, stand beside it. The unit
is a *player-game* instead of a deck-game:

* **OH WR** (opening-hand win rate): the win rate of the players dealt the ally at
  R3.2. Deals are random, so it is free of the held-count confound; every player is
  dealt exactly three allies, so the average ally's OH WR is exactly ``1/n``. An
  ally is in at most one opening hand per game, so its rows come from distinct games
  and a Wilson interval is right.
* **held WR** ≈ GIH WR (games-in-hand): the ally was ever in that player's hand.
  **never-held WR** ≈ GNS WR. **IWD** = held WR − never-held WR (improvement when
  drawn), in percentage points. An ally that reached the player's squads only
  through another player's A6 swap counts as never held.
* **played WR** and **play rate**: the player put the ally on the table from hand.

Held, never-held and played rates, the play rate and IWD pool the players of one
game, who share it, so their intervals are game-clustered (:mod:`analysis.stats.clustered`).
These rates are associations: holding an ally also goes with drawing more, which is
why IWD of a neutral ally sits below 0 and no verdict rests on them. The causal
measure by restricted play — the same deals with one seat forbidden to play the ally
(Jaffe et al. 2012, "Evaluating competitive game balance with restricted play") — is
``revachol card-value`` (:mod:`analysis.experiments.card_value`).

Win-rate figures leave out stalled and truncated games unless ``include_unfinished``
(RULES R4 Reading); contributions and task figures count every game.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.data.player_games import bot_labels
from analysis.data.runs import Run, RunsLike, per_run
from analysis.data.spool import AllySpool, Packed
from analysis.data.passes import Pass, totals_of
from analysis.data.stream import SIDE, Batch, Columns, Totals, reduce_run
from analysis.stats.ally_model import ally_effects_by_group, informative_counts
from analysis.stats.clustered import GameMoments, ratio_columns, ratio_difference_columns
from analysis.stats.inference import bh_flags, mean_columns_from_sums, rate_columns
from analysis.stats.power import bh_level, detectable_from_interval
from analysis.thresholds import DEFAULT_THRESHOLD_PP
from sim.rundir.schema import TASK_COMPLETED, TASK_FAILED, TASK_LOST

CONTRIBUTIONS = {  # column of the cards table: name in the report
    "ally_points_completed": "points_completed",  # task points completed by squads holding the ally (points)
    "ally_taken_by_swap": "taken_by_a6",  # times taken from a squad by an A6 swap
    "ally_lent_to_borrow": "lent_to_a1",  # times an A1 ally borrowed its symbol
}


def ally_columns(run: Run) -> dict[str, list]:
    """The ally columns of the card tables: ``ally`` (id), ``name``, ``ability``, ``symbols``, ``estimated``."""
    allies = run.deck.allies
    return {
        "ally": [ally.id for ally in allies],
        "name": [ally.name for ally in allies],
        "ability": [ally.ability or "" for ally in allies],
        "symbols": [" + ".join(ally.symbols) for ally in allies],
        "estimated": [", ".join(ally.estimated) for ally in allies],
    }


def verdicts(effect_pp, p_value, threshold_pp: float = DEFAULT_THRESHOLD_PP) -> tuple[np.ndarray, np.ndarray]:
    """One verdict per ally: ``stronger`` or ``weaker`` where the test against the
    average ally is rejected after Benjamini–Hochberg across the allies (q ≤ 0.05)
    and ``|effect_pp| ≥ threshold_pp``; empty otherwise.

    Parameters
    ----------
    effect_pp, p_value : array_like of float, shape (A,)
        Effects (percentage points of win rate) and their p-values; NaN p-values
        are left out of the family and get no verdict.
    threshold_pp : float
        Practical threshold, percentage points.

    Returns
    -------
    verdict : ndarray of str, shape (A,)
    q_value : ndarray of float64, shape (A,)
        BH-adjusted p-values.
    """
    effect_pp = np.asarray(effect_pp, np.float64)
    flagged, q_value = bh_flags(p_value)
    big = np.abs(np.nan_to_num(effect_pp)) >= threshold_pp
    return np.where(flagged & big, np.where(effect_pp > 0, "stronger", "weaker"), ""), q_value


# Per ally and game, the moments of (holder wins, holders, play wins, plays, wins, rows counted) give the
# three rates' moments as linear maps (GameMoments.linear): held against never held, played, play rate.
_HELD = np.array([[1, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0], [-1, 0, 0, 0, 1, 0], [0, -1, 0, 0, 0, 1]])
_PLAYED, _PLAY_RATE = np.eye(6)[[2, 3]], np.eye(6)[[3, 5]]


def _ally_moments(held: np.ndarray, played: np.ndarray, won: np.ndarray, rows: np.ndarray) -> dict[str, GameMoments]:
    """Per-game, per-ally totals of one batch of games for the game-clustered rates.

    ``held``, ``played`` are ``bool (G, n, A)``, ``won`` and ``rows`` (the player rows
    counted) ``bool (G, n)``. The per-game totals are laid out ``(A, 7, G)``, the last
    row all ones, so that one matrix product per ally gives its cross-products and
    its totals (the products with the ones)."""
    players_first = (1, 2, 0)  # (n, A, G): sums over the players are sums of contiguous (A, G) slices
    w = (won & rows).T[:, None, :]
    h, p = (np.ascontiguousarray(a.transpose(players_first)) for a in (held, played))
    if not rows.all():
        h, p = h & rows.T[:, None, :], p & rows.T[:, None, :]
    base = np.empty((held.shape[2], 7, held.shape[0]))
    for k, per_player in enumerate((h & w, h, p & w, p)):
        base[:, k, :] = per_player.sum(0, dtype=np.uint8)
    base[:, 4, :], base[:, 5, :], base[:, 6, :] = w[:, 0].sum(0), rows.sum(1), 1  # every ally: the game's wins, rows
    products = base @ base.transpose(0, 2, 1)
    moments = GameMoments(products[:, :6, 6], products[:, :6, :6], held.shape[0])
    return {"held": moments.linear(_HELD), "played": moments.linear(_PLAYED), "play_rate": moments.linear(_PLAY_RATE)}


def ally_strength(runs: RunsLike, include_unfinished: bool = False, threshold_pp: float = DEFAULT_THRESHOLD_PP,
                  bot: str | None = None) -> pd.DataFrame:  # fmt: skip
    """Each ally's effect on winning against the average ally with its verdict, and
    the 17lands-style rates beside it (module docstring).

    Parameters
    ----------
    include_unfinished : bool
        Count stalled and truncated games (left out by default, RULES R4 Reading).
    threshold_pp : float
        Smallest effect, in percentage points of win rate, that earns a verdict.
    bot : str, optional
        Only the player rows played by this bot specification (as the run's
        manifest spells it): its effects come from the model with one ally block
        per bot group (:func:`analysis.stats.ally_model.ally_effects_by_group`,
        this bot against the others), its rates from its own rows.

    Returns
    -------
    pandas.DataFrame
        One row per run and ally: ``ally`` (id), ``name``, ``ability``, ``symbols``,
        ``estimated``; ``effect_pp`` with ``effect_low_pp``/``effect_high_pp``
        (95%), ``p_value`` and ``q_value`` (BH-adjusted across the deck's allies),
        ``verdict`` (``stronger``, ``weaker`` or empty), ``mde_pp`` (the effect,
        pp, that would earn a verdict with 80% power at the run's games: the
        Benjamini–Hochberg level of the deck's allies and ``threshold_pp``,
        :func:`analysis.stats.power.detectable_effect`), ``informative_games``;
        ``games``, ``player_games``; ``opening_n`` with ``opening_wr`` (Wilson);
        ``held_n`` with ``held_wr``, ``never_held_n`` with ``never_held_wr``,
        ``iwd`` (held − never held), ``played_n`` with ``played_wr``, and
        ``play_rate``, each with game-clustered ``_low``/``_high`` bounds; rates
        are fractions, IWD a difference of fractions (×100 for pp);
        ``baseline`` (1/players), ``threshold_pp``.

    Raises
    ------
    ValueError
        When ``bot`` plays no seat of a run (naming the run's bots).
    """

    def one(run: Run) -> pd.DataFrame:
        extra = ("opening",) if "opening" in run.scan("players").collect_schema().names() else ()  # older runs lack it
        bots, index, labels = bot_labels(run)
        if bot is not None and bot not in bots:
            raise ValueError(f"{run.path}: no seat plays the bot {bot!r}; this run's bots: {', '.join(bots)}")
        member = labels == bots.index(bot) if bot is not None else np.ones(len(labels), bool)  # the rows counted
        groups = 2 if bot is not None and len(bots) > 1 else 1  # this bot's rows (group 1) against the others

        def totals(batch: Batch) -> dict:
            held, won = batch.players["held"], batch.players["won"].astype(bool)
            rows = member[batch.players[index]]
            group, winner = rows.astype(np.int64) * (groups - 1), won.argmax(1)
            out = {SIDE: Packed.of(held, winner, group),  # to the spool: the logit's passes read it, not the parts
                   "games": np.int64(batch.size), "player_games": rows.sum(dtype=np.int64),
                   **_ally_moments(held, batch.players["played"], won, rows),
                   **informative_counts(held, winner, group, groups)}  # fmt: skip
            if extra:
                opening = batch.players["opening"] & rows[:, :, None]
                out["opening_n"], out["opening_wins"] = opening.sum((0, 1)), (opening & won[:, :, None]).sum((0, 1))
            return out

        with AllySpool() as spool:
            columns = Columns(players=("held", "played", "won", index, *extra))
            moments = reduce_run(run, columns, totals, include_unfinished, side=spool.append)
            effects = ally_effects_by_group(spool, run.players, groups, moments)[0][groups - 1]
        verdict, q_value = verdicts(effects["effect_pp"], effects["p_value"], threshold_pp)
        mde = detectable_from_interval(effects["effect_low_pp"], effects["effect_high_pp"], threshold_pp,
                                       bh_level(effects["p_value"]))  # fmt: skip
        none = np.zeros(len(run.deck.allies), np.int64)
        opening_n, opening_wins = moments.get("opening_n", none), moments.get("opening_wins", none)
        return pd.DataFrame({
            **ally_columns(run),
            "effect_pp": effects["effect_pp"],
            "effect_low_pp": effects["effect_low_pp"],
            "effect_high_pp": effects["effect_high_pp"],
            "p_value": effects["p_value"],
            "q_value": q_value,
            "verdict": verdict,
            "mde_pp": mde,
            "informative_games": effects["informative_games"].astype(np.int64),
            "games": moments["games"],
            "player_games": moments["player_games"],
            "opening_n": opening_n,
            **rate_columns("opening_wr", opening_wins, opening_n),
            "held_n": moments["held"].total[:, 1].astype(np.int64),
            **ratio_columns("held_wr", moments["held"].select(0, 1)),
            "never_held_n": moments["held"].total[:, 3].astype(np.int64),
            **ratio_columns("never_held_wr", moments["held"].select(2, 3)),
            **ratio_difference_columns("iwd", moments["held"]),
            "played_n": moments["played"].total[:, 1].astype(np.int64),
            **ratio_columns("played_wr", moments["played"]),
            **ratio_columns("play_rate", moments["play_rate"]),
            "baseline": run.baseline,
            "threshold_pp": threshold_pp,
        })  # fmt: skip

    return per_run(runs, one)


def _contribution_sums(batch: Batch) -> dict[str, np.ndarray]:
    sums: dict[str, np.ndarray] = {"games": np.int64(batch.size)}
    for column, name in CONTRIBUTIONS.items():
        values = batch.cards[column].astype(np.int64)
        sums[name], sums[f"{name}_sq"] = values.sum(0), (values**2).sum(0)
    return sums


CONTRIBUTIONS_PASS = Pass("contributions", Columns(cards=tuple(CONTRIBUTIONS)), _contribution_sums)
"""The pass of :func:`ally_contributions`."""


def ally_contributions(runs: RunsLike) -> pd.DataFrame:
    """What each ally did on the table, over every game of the run.

    Returns
    -------
    pandas.DataFrame
        One row per run and ally: ``ally``, ``name``, ``ability``, ``symbols``,
        ``estimated``, ``games``; for each of ``points`` (task points completed by
        squads holding it), ``taken_by_a6`` (times taken by A6) and ``lent_to_a1``
        (times its symbol was borrowed by A1): the run's total and the mean per
        game (``<name>_per_game``) with its t interval.
    """

    def one(run: Run) -> pd.DataFrame:
        s = totals_of(run, CONTRIBUTIONS_PASS)
        columns: dict[str, object] = {**ally_columns(run), "games": s["games"]}
        for name in CONTRIBUTIONS.values():
            columns[name] = s[name]
            columns.update(mean_columns_from_sums(f"{name}_per_game", s[name], s[f"{name}_sq"], s["games"]))
        return pd.DataFrame(columns)

    return per_run(runs, one)


def _task_sums(players: int, points: np.ndarray):
    def sums(batch: Batch) -> Totals:
        status = batch.cards["task_status"]
        completed, lost = (status == TASK_COMPLETED) | (status == TASK_LOST), status == TASK_LOST
        turn = np.where(completed, batch.cards["task_turn"], 0).astype(np.int64)
        by = batch.cards["task_completed_by"]
        per_game = [lost.sum(1), completed.sum(1), (lost * points).sum(1), (completed * points).sum(1)]
        return {
            "games": np.int64(batch.size),
            "completed": completed.sum(0, dtype=np.int64),
            "failed": (status == TASK_FAILED).sum(0, dtype=np.int64),
            "lost": (status == TASK_LOST).sum(0, dtype=np.int64),
            "turn": turn.sum(0),
            "turn_sq": (turn**2).sum(0),
            "by_position": np.stack([((by == order) & completed).sum(0, dtype=np.int64) for order in range(players)]),
            "lost_moments": GameMoments.of(np.stack(per_game, axis=1)),
        }

    return sums


def _task_columns(run: Run) -> dict[str, list]:
    tasks = run.deck.tasks
    return {
        "task": [task.id for task in tasks],
        "name": [task.name for task in tasks],
        "points": [task.points for task in tasks],
        "requires": [", ".join(task.requires) for task in tasks],
        "special": [task.special for task in tasks],
        "estimated": [", ".join(task.estimated) for task in tasks],
    }


def task_totals(run: Run) -> Totals:
    """Task totals over every game of the run, in one pass shared by the tables that
    read them.

    Returns
    -------
    dict
        ``games``; per task, int64 ``(T,)``: ``completed`` (lost ones included),
        ``failed`` (R8.1), ``lost`` (R8.3), ``turn`` and ``turn_sq`` (sums of the
        turns of completion and of their squares); ``by_position`` ``(players, T)``
        (completions by turn-order position); ``lost_moments``
        (:class:`~analysis.stats.clustered.GameMoments` of each game's completed
        tasks lost, completed, and the points of both).
    """
    return totals_of(run, task_totals_pass(run))


def task_totals_pass(run: Run) -> Pass:
    """The pass of :func:`task_totals`."""
    points = np.array([task.points for task in run.deck.tasks], np.float64)
    return Pass("task totals", Columns(cards=("task_status", "task_turn", "task_completed_by")),
                _task_sums(run.players, points))  # fmt: skip


def task_outcomes(runs: RunsLike) -> pd.DataFrame:
    """How often each task is completed or fails (R8.1), and on which turn it is
    completed, over every game of the run.

    Returns
    -------
    pandas.DataFrame
        One row per run and task: ``task``, ``name``, ``points``, ``requires``,
        ``special``, ``estimated``, ``games``; ``completion_rate`` and
        ``failure_rate`` (shares of games) with Wilson intervals; ``completions``;
        ``lost_rate`` (share of its completions later lost to a penalty, R8.3);
        ``completion_turn`` (mean turn of completion, turns) with its t interval.
        In finished games a task that is neither completed nor failed was never
        revealed.
    """

    def one(run: Run) -> pd.DataFrame:
        s = task_totals(run)
        return pd.DataFrame({
            **_task_columns(run),
            "games": s["games"],
            **rate_columns("completion_rate", s["completed"], s["games"]),
            **rate_columns("failure_rate", s["failed"], s["games"]),
            "completions": s["completed"],
            **rate_columns("lost_rate", s["lost"], s["completed"]),
            **mean_columns_from_sums("completion_turn", s["turn"], s["turn_sq"], s["completed"]),
        })  # fmt: skip

    return per_run(runs, one)


def task_completers(runs: RunsLike) -> pd.DataFrame:
    """Which turn-order position (R9.4) completes each task.

    Returns
    -------
    pandas.DataFrame
        One row per run, task and position: ``task``, ``name``, ``position`` (1 =
        the first player), ``completions`` (of the task), ``count`` (by that
        position), ``share`` with its Wilson interval, ``baseline`` (1/players).
    """

    def one(run: Run) -> pd.DataFrame:
        s = task_totals(run)
        columns = _task_columns(run)
        count = s["by_position"].T.ravel()  # task-major: task 0 positions 1..n, task 1 …
        completions = np.repeat(s["completed"], run.players)
        return pd.DataFrame({
            "task": np.repeat(columns["task"], run.players),
            "name": np.repeat(columns["name"], run.players),
            "position": np.tile(np.arange(1, run.players + 1), len(columns["task"])),
            "completions": completions,
            "count": count,
            **rate_columns("share", count, completions),
            "baseline": run.baseline,
        })  # fmt: skip

    return per_run(runs, one)


def passes(run: Run, include_unfinished: bool = False) -> list[Pass]:
    """The passes over ``run`` of this module's report tables, for
    :func:`analysis.data.passes.prefetch`."""
    return [CONTRIBUTIONS_PASS, task_totals_pass(run)]
