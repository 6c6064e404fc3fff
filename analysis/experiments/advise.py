"""Advise: which card edits fix what the report flags? (``revachol advise``)

Starting from the report's verdicts on a deck (allies stronger or weaker than the
average ally, :func:`analysis.cards.ally_strength`; tasks paying out of order with
their difficulty, :func:`analysis.task_calibration.task_calibration`), the advisor
proposes a small set of the designer's edits (:mod:`.advise_edits`) that brings each
flagged quantity inside its practical threshold, and checks it on fresh games.

The search, its guards and what makes one deck better than another are in
:mod:`.advise_search` (the method: docs/EXPERIMENTS.md, advise: *The search* and the
paragraphs after it); the measures of a deck, in :mod:`.advise_measures`; its stages,
in :mod:`.advise_stages`, playing their decks through :mod:`.advise_runs`.

No winner's curse. The proposal is chosen on the search seed, whose figures flatter
it; they are labelled in-sample. The original and the proposal are then played on
a hold-out seed (:func:`analysis.experiments.tune.holdout_seed`) with
``holdout_games`` games of their own each, and only those figures are the result
(:mod:`.advise_page`).
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from analysis.defaults import ADVISE_GAMES, ADVISE_HOLDOUT_GAMES
from analysis.cards import DEFAULT_THRESHOLD_PP
from analysis.experiments import advise_progress
from analysis.experiments import advise_stages as stage
from analysis.experiments.advise_edits import Change
from analysis.experiments.advise_measures import Measures
from analysis.experiments.advise_runs import Plan, Runs
from analysis.experiments.advise_stages import Short
from analysis.task_calibration import DEFAULT_THRESHOLD_POINTS
from analysis.thresholds import DEFAULT_BORDERLINE_PP
from sim.bots.speed import MAIN_JOB_BOT
from sim.cards import Deck

SHORT_LIST = (3, 6)  # the short list's sizes besides the full proposal (each one more deck on the hold-out)


def _diff(text: str, edited: str, old_name: str, new_name: str) -> str:
    return "".join(difflib.unified_diff(text.splitlines(keepends=True), edited.splitlines(keepends=True),
                                        fromfile=old_name, tofile=new_name))  # fmt: skip


@dataclass(frozen=True)
class Advice:
    """The proposal and its tables (:func:`advise`).

    Attributes
    ----------
    changes : list of Change
        The edits, one per changed field.
    deck : Deck
        The proposed deck.
    proposal : Path
        ``out/proposal.yaml``: the card file with only the changed values replaced.
    diff : str
        Unified diff of the card file against the proposal.
    before, after : Measures
        The original and the proposal on the hold-out seed.
    differences : dict of pandas.DataFrame
        :func:`analysis.experiments.compare.comparison_tables` of the hold-out runs
        (paired differences, proposal − original).
    search : pandas.DataFrame
        Every deck the search played (in-sample, search seed): ``stage``,
        ``edits``, ``excess``, ``guards_broken``, ``allies_beyond_aim``,
        ``tasks_beyond_aim``, ``turns``, ``edge_pp`` (the excess and the counts
        beyond the aim NaN for a deck read on its run alone: :class:`.advise_measures.Measures`).
    games : dict
        ``search`` (games the search used on the search seed, points-blind
        included, whether played now or reused from ``out``), ``edge`` (games of
        the edge checks on the edge seed), ``holdout`` (likewise on the hold-out
        seed, the original and the proposal), ``own`` (the edits alone, there),
        ``short list`` (the shorter proposals, there), ``candidates`` (decks played
        on the search seed), ``search at fixed n`` (the search's games had each of
        them been played on ``n_games``, as without ``round_games``: each deck's run,
        and one points-blind companion for each points-blind deck of the companions
        played, the others' chunks being taken from it).
    seed, holdout_seed, n_games, holdout_games : int
    edge_relaxed : bool
        No candidate kept the first player's edge, so the search weighed its
        growth instead of refusing it (docs/EXPERIMENTS.md, advise: *The first player's edge
        is a hard constraint*).
    only, max_edits
        The cards the search might edit (empty: every card) and the most edits the
        proposal might hold (None: no limit), as :func:`advise` was given them.
    abilities : bool
        Whether the search might edit the allies' abilities (``--abilities``).
    target_turns, target_edge : (float, float) or None
        The targets the search moved towards (``--target``): mean turns per game, the
        first player's edge (pp); None without.
    skill_check : pandas.DataFrame, optional
        With ``confirm_with``: :func:`analysis.experiments.compare.changes_skill_check`
        of the hold-out runs and their skilled companions (:mod:`sim.run.skilled`),
        each change under the run's bots and under ``confirmed_with``.
    skilled_allies : (int, int), optional
        With ``confirm_with``: the allies with a verdict under ``confirmed_with`` in
        the original and in the proposal, on the hold-out seed.
    confirmed_with : str
        The bot of the skilled companions ("" without them).
    alone : tuple of (Measures or None)
        With ``own_effects``: for each of :attr:`changes`, in order, the original deck
        with that edit alone on the hold-out seed and games (None when the edit alone
        does not validate); empty without.
    alone_sequences : tuple of (dict or None)
        With ``round_games``: for each of :attr:`alone`, its card's anytime-valid
        confidence sequence when the edit alone was stopped early, its verdict settled
        (``games``, ``low``, ``high``, ``state``; :func:`.advise_rounds.alone_in_rounds`),
        else None; empty without.
    short_list : tuple of Short
        The proposals of ``short_list``'s sizes (the best-ranked K edits that fit),
        fewest edits first, then the full proposal (:attr:`after`, :attr:`differences`).
    round_games : int or None
        ``--until-settled``: the screen's round (:func:`advise`); None without.
    restricted : pandas.DataFrame, optional
        With ``restricted_play``: each edited ally's restricted-play value in the
        original and the proposal and whether it passes the check
        (:func:`.advise_restricted.restricted_table`); None without.
    """

    changes: list[Change]
    deck: Deck
    proposal: Path
    diff: str
    before: Measures
    after: Measures
    differences: dict[str, pd.DataFrame]
    search: pd.DataFrame
    games: dict[str, int]
    seed: int
    holdout_seed: int
    n_games: int
    holdout_games: int
    edge_relaxed: bool = False
    only: tuple[str, ...] = ()
    max_edits: int | None = None
    abilities: bool = False
    target_turns: tuple[float, float] | None = None
    target_edge: tuple[float, float] | None = None
    skill_check: pd.DataFrame | None = None
    skilled_allies: tuple[int, int] | None = None
    confirmed_with: str = ""
    alone: tuple[Measures | None, ...] = ()
    alone_sequences: tuple[dict | None, ...] = ()
    short_list: tuple[Short, ...] = ()
    round_games: int | None = None
    restricted: pd.DataFrame | None = None

    @property
    def games_played(self) -> tuple[int, int]:
        """(games the advice played, as many at fixed n): every sample of :attr:`games`
        (points-blind included), and the same with each deck of the search played
        whole on ``n_games`` (they differ with ``--until-settled``, which drops edits
        early)."""
        played = sum(self.games.get(k, 0) for k in ("search", "edge", "holdout", "own", "short list", "restricted"))
        return played, (played - self.games["search"] + self.games["search at fixed n"] - self.games["own"]
                        + self.games.get("own at fixed n", self.games["own"]))  # fmt: skip


def advise(
    cards: str | Path,
    out: str | Path,
    n_games: int = ADVISE_GAMES,
    players: int = 4,
    bots: str | Sequence[str] = MAIN_JOB_BOT,
    seed: int = 0,
    threshold_pp: float = DEFAULT_THRESHOLD_PP,
    threshold_points: float = DEFAULT_THRESHOLD_POINTS,
    locks: Sequence[str] = (),
    only_estimated: bool = False,
    target_turns: tuple[float, float] | None = None,
    holdout_games: int = ADVISE_HOLDOUT_GAMES,
    n_jobs: int = -1,
    progress: bool = True,
    only: Sequence[str] = (),
    max_edits: int | None = None,
    confirm_with: str | None = None,
    confirm_games: int | None = None,
    own_effects: bool = True,
    short_list: Sequence[int] = SHORT_LIST,
    abilities: bool = False,
    target_edge: tuple[float, float] | None = None,
    round_games: int | None = None,
    restricted_play: int | None = None,
    borderline_pp: float = DEFAULT_BORDERLINE_PP,
) -> Advice:
    """Propose card edits that bring the flagged quantities inside their thresholds,
    and measure them on a hold-out seed (module docstring).

    Parameters
    ----------
    cards : path
        The card file; the proposal edits its text in place (comments kept).
    out : path
        Folder of the runs (``search/`` and ``holdout/``, one directory per deck named
        by its content hash, reused when run again) and of ``proposal.yaml``.
    n_games : int
        Games per deck on the search seed (each also played points-blind).
    players, bots, seed
        As :func:`sim.run.runner.simulate`; ``seed`` is the search seed.
    threshold_pp, threshold_points : float
        The report's practical thresholds: an ally's effect (pp of win rate), a
        task's gap from par (points).
    locks : sequence of str
        ``CARD.FIELD`` values never to edit (besides each card's ``locked:`` list).
    only_estimated : bool
        Edit only the fields a card lists under ``estimated:``.
    target_turns : (low, high), optional
        A range for mean turns per game (``--target turns=LO..HI``), instead of the
        ±5% guard: the search moves towards it (:meth:`.advise_search.Settings.miss`).
    holdout_games : int
        Games per deck on the hold-out seed.
    n_jobs : int
        Worker processes (joblib; results do not depend on it).
    progress : bool
        Show the search's progress: on a terminal a status line (candidates tried, the
        best so far), elsewhere one line per stage on standard error
        (:mod:`.advise_progress`).
    only : sequence of str
        Card ids (``--only CARD``): edit these cards alone; empty for every card.
    max_edits : int, optional
        The most edited fields the proposal may hold (``--max-edits K``), those the
        search ranks best (docs/EXPERIMENTS.md, advise: *The designer in control*); None for
        no limit.
    confirm_with : str, optional
        A bot specification (``--skill-check``: ``search``, the reference of skilled
        play; ``--confirm-with BOT``): the hold-out's first ``confirm_games`` games of
        the original and the proposal are also played with it in every seat (their
        skilled companions, :mod:`sim.run.skilled`: the same deals and dice), and
        :attr:`Advice.skill_check` says which of the proposal's changes depend on
        skill, with what those games can detect.
    confirm_games : int, optional
        The skilled games per deck; default the skill check's budget shared by the
        two decks (:func:`analysis.experiments.check_skill.games_per_deck`), at most
        ``holdout_games``.
    own_effects : bool
        Play each edit alone on the original deck on the hold-out seed and games (one
        deck of ``holdout_games`` games, and as many points-blind, per edit):
        :attr:`Advice.alone`, each edit's own effect.
    short_list : sequence of int
        Sizes K of the shorter proposals, in a designer's edits
        (:func:`.advise_edits.edit_count`: a move or a swap is one): the best-ranked
        edits that fit in K, a move, a swap or a chain of abilities kept whole and
        passed over when it does not fit (:func:`.advise_edits.shorter_proposals`),
        each played on the hold-out seed (one deck of ``holdout_games`` games, and as
        many points-blind, per K below the proposal's size) and written to
        ``out/proposal-K.yaml``: :attr:`Advice.short_list`.
    abilities : bool
        Also edit the allies' abilities (``--abilities``, A1-A9): remove one, move it
        to an ally that has none, or swap two (:func:`.advise_edits.candidate_edits`).
    target_edge : (low, high), optional
        A range for the first player's edge over a fair seat (pp, R9.4; ``--target
        edge=LO..HI``) that the search moves towards; its guard then refuses only a
        move away from the range (:meth:`.advise_search.Settings.edge_broken`).
    round_games : int, optional
        ``--until-settled``: the screen plays each edit in rounds of this many games
        (whole chunks, :func:`analysis.experiments.until_settled.round_plan`), up to
        ``n_games``, and stops it early once its target's confidence sequence shows it
        cannot beat the best so far (dropped) or its target's verdict is settled
        (inside the aim, or still beyond it; docs/EXPERIMENTS.md, advise: *Until
        settled*); every
        search-seed run then has chunks of the round's size. None plays every deck
        on ``n_games``.
    restricted_play : int, optional
        ``--restricted-play N``: value each edited ally by restricted play in the
        original and the proposal, ``N`` games per run on the hold-out seed, in
        ``out/restricted/`` (:mod:`.advise_restricted`): :attr:`Advice.restricted`.
        None (the default) skips it.
    borderline_pp : float
        With ``round_games``: a target whose confidence sequence lies wholly within
        this many pp of its threshold (a task's gap: the same fraction of its
        threshold) is settled at the threshold, as ``run --until-settled`` settles
        a verdict (:func:`analysis.settled.settled_state`); 0 turns it off.

    Returns
    -------
    Advice

    Raises
    ------
    sim.cards.DeckError
        When the card file does not validate.
    ValueError
        For a lock that names no card or field, an ``only`` id that names no card,
        ``max_edits`` below 1, or ``round_games`` as
        :func:`analysis.experiments.until_settled.round_plan` refuses it (one line each).
    """
    plan = Plan.of(cards, out, n_games, players, bots, seed, threshold_pp, threshold_points, locks, only_estimated,
                   target_turns, holdout_games, n_jobs, only, max_edits, abilities, target_edge, round_games,
                   borderline_pp)  # fmt: skip
    runs = Runs(plan)
    with advise_progress.progress(progress, n_games) as bar:
        runs.bar = bar
        found = stage.search(plan, runs)
        held = stage.confirm(plan, runs, found)
        skill_check, skilled_allies = stage.skill_check(plan, runs, found, held, confirm_with, confirm_games)
        alone, sequences = stage.own_effects(plan, runs, found, found.edits if own_effects else [])
        restricted = stage.restricted_play(plan, runs, found, held, restricted_play)
        shorter = stage.short_list(plan, runs, found, held, short_list)
    return Advice(
        changes=found.edits, deck=found.deck, proposal=found.proposal,
        diff=_diff(plan.text, found.edited, str(plan.cards), str(found.proposal)), before=held.before,
        after=held.after, differences=held.differences, search=pd.DataFrame(found.search.log), seed=seed,
        holdout_seed=plan.fresh, round_games=round_games, games=runs.counts(), n_games=n_games,
        holdout_games=holdout_games, edge_relaxed=found.search.settings.relaxed, only=tuple(only),
        max_edits=max_edits, abilities=abilities, target_turns=target_turns, target_edge=target_edge,
        confirmed_with=confirm_with or "", alone=alone, alone_sequences=sequences, short_list=shorter,
        restricted=restricted, skill_check=skill_check, skilled_allies=skilled_allies,
    )  # fmt: skip
