"""The skill check: which verdicts hold when the players play well.

A run's skilled companion (:mod:`sim.run.skilled`) replays its games, on the same deck
and seeds, with a stronger bot (``expert``) in every seat. Each measure the
findings rest on is taken in both runs, the same way, and the two values are set
side by side:

========== ======================================================= ===============
kind       measure (table)                                          threshold
========== ======================================================= ===============
ally       effect on winning against the average ally, pp           ``threshold_pp``
           (:func:`analysis.cards.ally_strength`)
task       completion rate, pp (:func:`analysis.cards.task_outcomes`) 5 pp
first_     the first player's win rate minus fair ``1/players``, pp ``threshold_pp``
player     (:func:`analysis.seats.seat_balance`, R9.4)
length     mean turns per game (:func:`analysis.length.game_length`) 5 turns
morale     morale-loss events per game (R8.1,                      0.5 events
           :func:`analysis.morale.morale_per_game`)
========== ======================================================= ===============

The difference (skilled − main) is tested with a z-test whose standard error
combines the two 95% intervals' half-widths as if the runs were independent:
``se = √(se_main² + se_skilled²)``, ``se = (high − low) / (2 · 1.96)``. The two runs
share their deals, which makes their estimates positively correlated, so the true
standard error of the difference is smaller and the test is conservative. A
measure **depends on skill** when its difference is significant after
Benjamini–Hochberg at 5% across every measure of its run (one family: which of the
run's findings depend on skill) *and* at least its practical threshold: a
significant change too small to matter is not flagged.

What the check's games can see. The skilled companion may have played only the run's
first ``K`` games (``search`` costs about a third of a second of a core per game).
Each measure's **detectable change** is the smallest change of the difference that
the test finds with 80% power, ``(z_{1−a/2} + z_{0.8}) · se`` (Cohen 1988; Bloom
1995; :mod:`analysis.stats.power`), at the test's level ``a`` after
Benjamini–Hochberg (:func:`analysis.stats.power.bh_level`). Each measure then is in
one **state**:

* ``depends on skill``: marked, as above;
* ``holds``: its difference's interval at the level ``a`` lies wholly within
  ±threshold (an equivalence test, two one-sided tests, Schuirmann 1987) *and* its
  detectable change is under the threshold, so a change that matters would have been
  seen;
* ``cannot tell yet``: neither; ``games_to_tell`` gives the skilled games at which
  the interval would clear the threshold on the side of the estimate, with the main
  run's error as it is (``K · se_s² / ((gap / z)² − se_m²)``, the gap at least a
  tenth of the threshold); NaN when the main run's own interval is too wide for any
  number of skilled games.

**Played until settled** (``revachol skill-check --until-settled``,
:mod:`analysis.experiments.check_skill`), the skilled games grow in rounds and are
looked at after each, so a fixed interval would be read too often; the check's
companion then records its rule under :data:`SETTLED_KEY`, and each change gets an
anytime-valid interval instead (:func:`difference_sequence`): the skilled estimate's
confidence sequence at ``alpha/2`` (:func:`analysis.stats.sequential.sequence_interval`:
Waudby-Smith et al. 2024, Thm 2.2, with the normal-mixture boundary of Howard et al.
2021, eq. 14, at the rule's ``ρ``), the main run's fixed interval at ``alpha/2``
(``value ± z_{1−alpha/4} · se``: the main run is not looked at again), combined as
``[low_s − high_m, high_s − low_m]``. Both hold at once, at every number of skilled
games, with probability at least ``1 − alpha`` (a union bound; no independence
needed), and then so does the change, whenever the rounds stop. Its state is
:func:`analysis.settled.settled_state`'s in this module's words
(:data:`SETTLED_STATES`): **depends on skill** when the interval lies wholly beyond
±threshold, **holds** when wholly within it, **cannot tell yet** otherwise, each
measure at ``alpha`` (as :mod:`analysis.settled`; no Benjamini–Hochberg, whose
p-values, kept as the fixed test's, do not survive optional stopping). Its
``games_to_tell`` are the skilled games at which that interval would clear the
threshold (:func:`games_to_settle`).

A check says that the verdicts hold **for skilled play** only when its bot agrees
with skilled play (:data:`sim.bots.speed.AGREEING_BOTS`: ``skilled_play``) and no
measure is marked or undecided; with any other bot it speaks of that bot's play.

The task reward verdict itself (:mod:`analysis.task_calibration`) needs a
points-blind run for each rung; the check compares what skill changes about a
task, how often it is completed.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from analysis import cards, length, morale, seats
from analysis.cards import ally_strength, task_outcomes
from analysis.data.passes import prefetch
from analysis.data.runs import Run, companion_run, open_runs
from analysis.length import game_length
from analysis.morale import morale_per_game
from analysis.seats import first_player_edge, seat_balance
from analysis.settled import DEFAULT_ALPHA, FLAGGED, NO_VERDICT, NOT_SETTLED, settled_state
from analysis.stats.inference import ALPHA, bh_flags
from analysis.stats.power import RESOLUTION, Z_POWER, bh_level, standard_error
from analysis.stats.sequential import sequence_games, sequence_interval
from analysis.thresholds import DEFAULT_THRESHOLD_PP
from sim.bots.speed import (AGREEING_BOTS, SKILL_CHECK_MINUTES, SKILLED_CHUNK, SKILLED_REFERENCE_BOT, games_in,
                            minutes_for)
from sim.rundir import SKILLED_COMPANION

TASK_THRESHOLD_PP = 5.0  # a change of a task's completion rate (pp) that matters
LENGTH_THRESHOLD_TURNS = 5.0  # a change of mean turns per game that matters
MORALE_THRESHOLD_EVENTS = 0.5  # a change of morale-loss events per game that matters (about 5% of a game's)
TABLES = ("ally_strength", "task_outcomes", "seat_balance", "game_length", "morale_per_game")
"""The report tables the measures are read from."""
PASSES = (length.passes, morale.passes, cards.passes, seats.passes)
"""The passes over a run of :data:`TABLES`."""
COLUMNS = ("run", "bots", "kind", "subject", "unit", "value", "low", "high", "n", "threshold")
DEPENDS, HOLDS, CANNOT_TELL = "depends on skill", "holds", "cannot tell yet"
"""A measure's states (module docstring)."""
SETTLED_STATES = {FLAGGED: DEPENDS, NO_VERDICT: HOLDS, NOT_SETTLED: CANNOT_TELL}
"""A settled state (:func:`analysis.settled.settled_state`) in the skill check's words."""
SETTLED_KEY = "until_settled"
"""The manifest key of a run played in rounds until settled
(:data:`analysis.experiments.until_settled.KEY`, which the runner keeps on resume):
in the skilled companion's manifest, the rule of a check played until settled and
where it stopped (:mod:`analysis.experiments.check_skill`); with it, the check's
intervals are anytime-valid (module docstring)."""


def skilled_run(run: Run) -> tuple[Run | None, str]:
    """The run's skilled companion (:mod:`sim.run.skilled`), if it has a sound one: the
    run's games on its deck, any bots.

    Returns
    -------
    companion : Run or None
    why : str
        Empty with a companion; otherwise why there is none, as a sentence.
    """
    return companion_run(run, SKILLED_COMPANION, "skilled companion", run.deck.content_hash, same_bots=False,
                         first_games=True)  # fmt: skip


def skilled_bot(run: Run) -> str:
    """The bot of the skilled companion's seats, as the manifest records it."""
    return str(((run.manifest.get("companions") or {}).get(SKILLED_COMPANION) or {}).get("bot", ""))


def tables(runs: list[Run], include_unfinished: bool = False,
           threshold_pp: float = DEFAULT_THRESHOLD_PP) -> dict[str, pd.DataFrame]:  # fmt: skip
    """The tables of :data:`TABLES` for ``runs``, computed as the report computes them,
    after one read of each run's parts for all of them."""
    for run in runs:
        prefetch(run, [p for passes in PASSES for p in passes(run, include_unfinished)])
    return {"ally_strength": ally_strength(runs, include_unfinished, threshold_pp),
            "task_outcomes": task_outcomes(runs), "seat_balance": seat_balance(runs, include_unfinished, threshold_pp),
            "game_length": game_length(runs), "morale_per_game": morale_per_game(runs)}  # fmt: skip


def _frame(table: pd.DataFrame, kind, subject, unit, value, low, high, n, threshold) -> pd.DataFrame:
    return pd.DataFrame(dict(zip(COLUMNS, (table["run"], table["bots"], kind, subject, unit, value, low, high, n,
                                           threshold))))  # fmt: skip


def measures(tables: dict[str, pd.DataFrame], threshold_pp: float = DEFAULT_THRESHOLD_PP) -> pd.DataFrame:
    """The measures of the module docstring's table, one row each, from the report's
    :data:`TABLES`.

    Returns
    -------
    pandas.DataFrame
        ``run``, ``bots`` (the run's bot mix), ``kind`` (``ally``, ``task``, ``first_player``, ``length``, ``morale``), ``subject`` (the ally's or task's name,
        ``first player``, ``game length``, ``morale-loss events``), ``unit`` (pp,
        turns, events), ``value`` with its 95% ``low``/``high``, ``n`` (games) and
        ``threshold`` (in ``unit``).
    """
    ally, task = tables["ally_strength"], tables["task_outcomes"]
    seat = tables["seat_balance"][tables["seat_balance"]["games"] > 0]
    turns = tables["game_length"][tables["game_length"]["measure"] == "turns"]
    morale = tables["morale_per_game"][tables["morale_per_game"]["measure"] == "morale_events"]
    edge = first_player_edge(seat)
    parts = [
        _frame(ally, "ally", ally["name"], "pp", ally["effect_pp"], ally["effect_low_pp"],
               ally["effect_high_pp"], ally["games"], threshold_pp),
        _frame(task, "task", task["name"], "pp", 100 * task["completion_rate"], 100 * task["completion_rate_low"],
               100 * task["completion_rate_high"], task["games"], TASK_THRESHOLD_PP),
        _frame(seat, "first_player", "first player", "pp", *edge, seat["games"], threshold_pp),
        _frame(turns, "length", "game length", "turns", turns["mean"], turns["mean_low"], turns["mean_high"],
               turns["games"], LENGTH_THRESHOLD_TURNS),
        _frame(morale, "morale", "morale-loss events", "events", morale["mean"], morale["mean_low"],
               morale["mean_high"], morale["games"], MORALE_THRESHOLD_EVENTS),
    ]  # fmt: skip
    return pd.concat([p for p in parts if len(p)], ignore_index=True)


def compare_measures(main: pd.DataFrame, skilled: pd.DataFrame, bot: dict[str, str],
                     rules: dict[str, dict] | None = None) -> pd.DataFrame:  # fmt: skip
    """Each measure under the run's bots and under its skilled companion's, their
    difference and the "depends on skill" mark (module docstring).

    Parameters
    ----------
    main, skilled : pandas.DataFrame
        :func:`measures` of the runs and of their companions, the companions' rows
        keyed by their run's name.
    bot : dict
        Each run's skilled bot (:func:`skilled_bot`).
    rules : dict, optional
        Each run's rule of a check played until settled (its companion's
        :data:`SETTLED_KEY` record: ``rho_games``, ``alpha``): that run's rows take
        the anytime-valid interval, its state and ``games_to_tell``
        (:func:`settled_columns`).

    Returns
    -------
    pandas.DataFrame
        One row per run and measure found in both: ``run``, ``bots``, ``kind``, ``subject``,
        ``unit``, ``threshold``; ``value``/``low``/``high``/``n`` (the run's bots);
        ``skilled_bot``; ``skilled``/``skilled_low``/``skilled_high``/``skilled_n``;
        ``difference`` (skilled − main, in ``unit``) with its 95% bounds;
        ``p_value`` (two-sided z), ``q_value`` (BH across the run's measures),
        ``depends_on_skill`` (q < 0.05 and ``|difference| ≥ threshold``),
        ``detectable`` (the change found with 80% power, in ``unit``), ``state``
        (:data:`DEPENDS`, :data:`HOLDS` or :data:`CANNOT_TELL`), ``games_to_tell``
        (skilled games, for a measure that cannot tell yet) and ``skilled_play``
        (the skilled bot agrees with skilled play, :data:`sim.bots.speed.AGREEING_BOTS`);
        ``until_settled`` (the row's interval, state and games to tell are those of a
        check played until settled); module docstring.
    """
    renamed = skilled.drop(columns=["bots", "unit", "threshold"]).rename(
        columns={"value": "skilled", "low": "skilled_low", "high": "skilled_high", "n": "skilled_n"})
    out = main.merge(renamed, on=["run", "kind", "subject"], how="inner", validate="one_to_one")
    out.insert(5, "skilled_bot", out["run"].map(bot))
    z = stats.norm.ppf(1 - ALPHA / 2)
    se_main, se_skilled = standard_error(out["low"], out["high"]), standard_error(out["skilled_low"], out["skilled_high"])
    se = np.hypot(se_main, se_skilled)
    out["difference"] = out["skilled"] - out["value"]
    out["difference_low"], out["difference_high"] = out["difference"] - z * se, out["difference"] + z * se
    with np.errstate(divide="ignore", invalid="ignore"):
        p = 2 * stats.norm.sf(np.abs(out["difference"] / se))
    out["p_value"] = np.where(se > 0, p, np.where(out["difference"] == 0, 1.0, 0.0))  # no spread: exact
    out["q_value"], level = np.nan, np.full(len(out), ALPHA)
    for _, rows in out.groupby("run", sort=False):
        out.loc[rows.index, "q_value"] = bh_flags(rows["p_value"].to_numpy())[1]
        level[out.index.get_indexer(rows.index)] = bh_level(rows["p_value"].to_numpy())
    out["depends_on_skill"] = (out["q_value"] < ALPHA) & (out["difference"].abs() >= out["threshold"])
    z_level = stats.norm.ppf(1 - level / 2)
    out["detectable"] = (z_level + Z_POWER) * se
    # holds: the interval lies within ±threshold, and the games could have seen a change of the threshold
    holds = (out["difference"].abs() + z_level * se < out["threshold"]) & (out["detectable"] < out["threshold"])
    out["state"] = np.where(out["depends_on_skill"], DEPENDS, np.where(holds, HOLDS, CANNOT_TELL))
    out["games_to_tell"] = np.where(out["state"] == CANNOT_TELL,
                                    games_to_tell(out["skilled_n"], out["difference"], se_main, se_skilled,
                                                  out["threshold"], z_level), np.nan)  # fmt: skip
    out["skilled_play"] = out["skilled_bot"].isin(AGREEING_BOTS)
    out["until_settled"] = out["run"].isin(list(rules or {}))
    for run, rows in out[out["until_settled"]].groupby("run", sort=False):
        settled = settled_columns(rows, rules[run]["rho_games"], rules[run]["alpha"])
        out.loc[rows.index, settled.columns] = settled
    return out


def _main_half(rows: pd.DataFrame, alpha: float) -> np.ndarray:
    """The half-width of the main run's fixed interval at ``alpha/2``,
    ``z_{1−alpha/4} · se``, from its 95% ``low``/``high`` (module docstring)."""
    return stats.norm.ppf(1 - alpha / 4) * standard_error(rows["low"], rows["high"])


def difference_sequence(rows: pd.DataFrame, rho: float, alpha: float = DEFAULT_ALPHA) -> tuple[np.ndarray, np.ndarray]:
    """Each change's anytime-valid interval while the skilled games grow and the main
    run stays as it is (module docstring): the skilled estimate's confidence sequence
    at ``alpha/2`` at its games, ``[low_s, high_s]``
    (:func:`analysis.stats.sequential.sequence_interval`; Waudby-Smith et al. 2024,
    Thm 2.2; Howard et al. 2021, eq. 14), and the main estimate's fixed interval at
    ``alpha/2``, ``[low_m, high_m] = value ± z_{1−alpha/4} · se``, combined as
    ``[low_s − high_m, high_s − low_m]``. By a union bound both hold together, at
    every number of skilled games, with probability at least ``1 − alpha``, and then
    the change skilled − main lies in the interval.

    Parameters
    ----------
    rows : pandas.DataFrame
        :func:`compare_measures`'s ``value``, ``low``, ``high`` (main, 95%) and
        ``skilled``, ``skilled_low``, ``skilled_high`` (95%), ``skilled_n`` (the
        skilled games of each estimate: the sequence's time).
    rho : float
        The boundary's mixture parameter, games (the rule's ``rho_games``).
    alpha : float
        The interval's error rate over every look at once.

    Returns
    -------
    low, high : ndarray of float64, shape (len(rows),)
        In each row's unit; NaN where an estimate or its interval is.

    Raises
    ------
    ValueError
        As :func:`analysis.stats.sequential.sequence_interval` (e.g. no skilled game).
    """
    low, high = np.full(len(rows), np.nan), np.full(len(rows), np.nan)
    for games, at in rows.groupby("skilled_n").indices.items():
        skilled = rows.iloc[at]
        low[at], high[at] = sequence_interval(skilled["skilled"], skilled["skilled_low"], skilled["skilled_high"],
                                              int(games), rho, alpha / 2)  # fmt: skip
    half, value = _main_half(rows, alpha), rows["value"].to_numpy(np.float64)
    return low - (value + half), high - (value - half)


def settled_columns(rows: pd.DataFrame, rho: float, alpha: float = DEFAULT_ALPHA) -> pd.DataFrame:
    """The columns of :func:`compare_measures`'s ``rows`` that a check played until
    settled replaces: ``difference_low``/``difference_high`` (:func:`difference_sequence`),
    ``state`` (:func:`analysis.settled.settled_state` in :data:`SETTLED_STATES`'
    words), ``depends_on_skill`` (the state is :data:`DEPENDS`) and ``games_to_tell``
    (:func:`games_to_settle`, for a measure that cannot tell yet); indexed as ``rows``.

    Raises
    ------
    ValueError
        As :func:`difference_sequence`.
    """
    low, high = difference_sequence(rows, rho, alpha)
    state = pd.Series(settled_state(low, high, rows["threshold"]), rows.index).map(SETTLED_STATES)
    return pd.DataFrame({"difference_low": low, "difference_high": high, "state": state,
                         "depends_on_skill": state == DEPENDS,
                         "games_to_tell": np.where(state == CANNOT_TELL, games_to_settle(rows, rho, alpha), np.nan)},
                        index=rows.index)  # fmt: skip


def _gap(difference, threshold) -> np.ndarray:
    """How far each difference lies from its threshold, at least a tenth of it
    (:data:`analysis.stats.power.RESOLUTION`: that close is as good as on it)."""
    threshold = np.asarray(threshold, np.float64)
    return np.maximum(np.abs(np.abs(np.asarray(difference, np.float64)) - threshold), RESOLUTION * threshold)


def _in_chunks(needed, games) -> np.ndarray:
    """``needed`` skilled games, at least the ``games`` played, rounded up to whole
    chunks of :data:`sim.bots.speed.SKILLED_CHUNK` (NaN stays NaN)."""
    return np.ceil(np.maximum(needed, np.asarray(games, np.float64)) / SKILLED_CHUNK) * SKILLED_CHUNK


def games_to_settle(rows: pd.DataFrame, rho: float, alpha: float = DEFAULT_ALPHA) -> np.ndarray:
    """The skilled games at which each change's anytime-valid interval
    (:func:`difference_sequence`) would clear its threshold on the side of the
    estimate, the difference and the main run's interval kept and the skilled
    estimate's standard deviation per game, ``se_s · sqrt(K)``, as at its ``K`` games
    (:func:`analysis.stats.sequential.sequence_games`).

    Parameters
    ----------
    rows, rho, alpha
        As :func:`difference_sequence`, with ``difference`` and ``threshold``.

    Returns
    -------
    ndarray of float64, shape (len(rows),)
        Games, in whole chunks of :data:`sim.bots.speed.SKILLED_CHUNK`; NaN where no
        number of skilled games would do (the main run's own interval is too wide).
    """
    sd = standard_error(rows["skilled_low"], rows["skilled_high"]) * np.sqrt(rows["skilled_n"].to_numpy(np.float64))
    room = _gap(rows["difference"], rows["threshold"]) - _main_half(rows, alpha)
    return _in_chunks(sequence_games(sd, room, rho, alpha / 2), rows["skilled_n"])


def games_to_tell(games, difference, se_main, se_skilled, threshold, z) -> np.ndarray:
    """The skilled games at which a difference's interval ``difference ± z·se`` clears
    its threshold on the side of the estimate, the main run's error ``se_main`` kept
    and the skilled run's ``se_skilled`` shrinking as ``1/√games`` (module docstring).

    Parameters
    ----------
    games : array_like of int, shape (k,)
        The skilled games played.
    difference, se_main, se_skilled, threshold, z : array_like of float, shape (k,)
        The difference, both runs' standard errors and the threshold in the
        measure's unit; ``z`` the interval's critical value.

    Returns
    -------
    ndarray of float64, shape (k,)
        Games, rounded up to whole chunks of :data:`sim.bots.speed.SKILLED_CHUNK`; NaN where no number of
        skilled games would do (the main run's own error is too large).
    """
    games = np.asarray(games, np.float64)
    room = (_gap(difference, threshold) / np.asarray(z, np.float64)) ** 2 - np.asarray(se_main, np.float64) ** 2
    with np.errstate(divide="ignore", invalid="ignore"):
        needed = np.where(room > 0, games * np.asarray(se_skilled, np.float64) ** 2 / room, np.nan)
    return _in_chunks(needed, games)


def skill_check(runs: list[Run], include_unfinished: bool = False, threshold_pp: float = DEFAULT_THRESHOLD_PP,
                main_tables: dict[str, pd.DataFrame] | None = None) -> pd.DataFrame:  # fmt: skip
    """The skill check of the runs that have a sound skilled companion.

    Parameters
    ----------
    runs : list of Run
    include_unfinished : bool
        Count stalled and truncated games (RULES R4 Reading leaves them out).
    threshold_pp : float
        Practical threshold of an ally's effect and the first player's edge (pp).
    main_tables : dict, optional
        The runs' :data:`TABLES` when the report has them already.

    Returns
    -------
    pandas.DataFrame
        :func:`compare_measures`'s rows, those of a companion played until settled with
        its rule (:data:`SETTLED_KEY`); empty when no run has a skilled companion.
    """
    pairs = [(run, skilled_run(run)[0]) for run in open_runs(runs)]
    pairs = [(run, companion) for run, companion in pairs if companion is not None]
    if not pairs:
        return pd.DataFrame()
    mains = [run for run, _ in pairs]
    main = measures(main_tables or tables(mains, include_unfinished, threshold_pp), threshold_pp)
    main = main[main["run"].isin([run.name for run in mains])]
    skilled = pd.concat([measures(tables([c], include_unfinished, threshold_pp), threshold_pp).assign(run=run.name)
                         for run, c in pairs], ignore_index=True)  # every companion is named "skilled"
    rules = {run.name: c.manifest[SETTLED_KEY] for run, c in pairs if isinstance(c.manifest.get(SETTLED_KEY), dict)}
    return compare_measures(main, skilled, {run.name: skilled_bot(run) for run in mains}, rules)


def unchecked(runs: list[Run]) -> pd.DataFrame:
    """The runs without a skill check, and what would check them: the default
    ``revachol skill-check`` (``search`` in every seat for
    :data:`sim.bots.speed.SKILL_CHECK_MINUTES` of this machine's cores).

    Returns
    -------
    pandas.DataFrame
        One row per run without a sound skilled companion: ``run``, ``bots`` (the run's
        bot mix), ``command``, ``bot`` (the check's), ``games`` (skilled games in the
        budget) and ``minutes`` (their estimated time here).
    """
    rows = []
    for run in open_runs(runs):
        if skilled_run(run)[0] is not None:
            continue
        games = min(games_in(SKILL_CHECK_MINUTES, run.players), int(run.manifest.get("n_games", 0)) or 1)
        rows.append({"run": run.name, "bots": run.bots, "command": f"revachol skill-check {run.path}",
                     "bot": SKILLED_REFERENCE_BOT, "games": games,
                     "minutes": minutes_for(games, run.players, SKILLED_REFERENCE_BOT)})  # fmt: skip
    return pd.DataFrame(rows, columns=["run", "bots", "command", "bot", "games", "minutes"])
