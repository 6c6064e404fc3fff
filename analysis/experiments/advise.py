"""Advise: which card edits fix what the report flags? (``revachol advise``)

Starting from the report's verdicts on a deck (allies stronger or weaker than the
average ally, :func:`analysis.cards.ally_strength`; tasks paying out of order with
their difficulty, :func:`analysis.task_calibration.task_calibration`), the advisor
proposes a small set of the designer's edits (:mod:`.advise_edits`) that brings each
flagged quantity inside its practical threshold, and checks it on fresh games.

The search, its guards and what makes one deck better than another are in
:mod:`.advise_search`; the measures of a deck, in :mod:`.advise_measures`.

No winner's curse. The proposal is chosen on the search seed, whose figures flatter
it; they are labelled in-sample. The original and the proposal are then played on
a hold-out seed (:func:`analysis.experiments.tune.holdout_seed`) with
``holdout_games`` games of their own each, and only those figures are the result
(:mod:`.advise_page`).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pandas as pd

from analysis.cards import DEFAULT_THRESHOLD_PP, ally_strength
from analysis.experiments.advise_edits import (Change, Key, Limits, Lock, apply, changes, check, editable, edit_count,
                                                only_cards, shorter_proposals, tidy)
from analysis.experiments.advise_measures import (Measures, edge_change, edge_seed, mean_turns, measure,
                                                   quantity_bounds)
from analysis.experiments.advise_progress import progress as stages
from analysis.experiments.advise_rounds import Guards, Trial, alone_in_rounds, screened_in_rounds, whole_in_rounds
from analysis.experiments.advise_search import AIM, LENGTH_TOLERANCE, Search, Settings
from analysis.experiments.check_skill import games_per_deck
from analysis.experiments.compare import changes_skill_check, comparison_tables
from analysis.experiments.tune import holdout_seed
from analysis.experiments.until_settled import round_plan
from analysis.stats.sequential import mixture_rho
from analysis.report.writer import Files, write_files
from analysis.task_calibration import DEFAULT_THRESHOLD_POINTS
from analysis.thresholds import DEFAULT_BORDERLINE_PP
from sim.cards import Deck, load_deck
from sim.rundir import read_manifest

DEFAULT_GAMES = 50_000  # games per deck on the search seed (and as many points-blind); at 20,000 the
# search's noise left 6 allies with a verdict on the default deck's hold-out, at 50,000 2 (docs/EXPERIMENTS.md)
HOLDOUT_GAMES = 100_000  # games per deck on the hold-out seed (and as many points-blind)
SHORT_LIST = (3, 6)  # the short list's sizes besides the full proposal (each one more deck on the hold-out)


@dataclass(frozen=True)
class Short:
    """One proposal of the short list (:func:`advise`): the ``edits`` edits of the
    proposal that the search ranked best, confirmed on the hold-out seed.

    Attributes
    ----------
    edits : int
        How many edits it holds, as a designer counts them (:func:`.advise_edits.edit_count`).
    changes : list of Change
        Its edits.
    proposal : Path or None
        ``out/proposal-K.yaml`` (``out/proposal.yaml`` for the full proposal); None
        when these edits alone do not validate (nor any measure then).
    after : Measures or None
        The deck on the hold-out seed, ``holdout_games`` games (and as many points-blind).
    differences : dict of pandas.DataFrame or None
        :func:`analysis.experiments.compare.comparison_tables` of the original's and
        its hold-out runs (paired on the same games, it − original).
    """

    edits: int
    changes: list[Change]
    proposal: Path | None
    after: Measures | None = None
    differences: dict[str, pd.DataFrame] | None = None


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
        growth instead of refusing it (:mod:`.advise_search`).
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
    n_games: int = DEFAULT_GAMES,
    players: int = 4,
    bots: str | Sequence[str] = "greedy",
    seed: int = 0,
    threshold_pp: float = DEFAULT_THRESHOLD_PP,
    threshold_points: float = DEFAULT_THRESHOLD_POINTS,
    locks: Sequence[str] = (),
    only_estimated: bool = False,
    target_turns: tuple[float, float] | None = None,
    holdout_games: int = HOLDOUT_GAMES,
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
        search ranks best (:mod:`.advise_search`); None for no limit.
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
        (inside the aim, or still beyond it; :mod:`.advise_search`); every
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
    from analysis.experiments.advise_restricted import restricted_check, restricted_games
    from sim.run.points_blind import play_points_blind, points_blind_deck
    from sim.run.runner import DEFAULT_CHUNK, borrowed_games, simulate
    from sim.run.skilled import play_skilled

    cards, out = Path(cards), Path(out)
    text = cards.read_text(encoding="utf-8")
    original = load_deck(cards)
    if max_edits is not None and max_edits < 1:
        raise ValueError(f"--max-edits {max_edits}: the proposal must be allowed at least 1 edit")
    search_chunk = DEFAULT_CHUNK if round_games is None else round_plan(n_games, round_games, "--games")
    rho = None if round_games is None else mixture_rho(round_games)  # the sequence is tightest at the first look
    allowed = editable(original, [Lock.parse(lock, original, str(cards)) for lock in locks], only_estimated,
                       only_cards(only, original, str(cards)), abilities)  # fmt: skip
    limits = Limits.of(original)
    settings = Settings(threshold_pp, threshold_points, AIM, target_turns, target_edge, max_edits=max_edits,
                        borderline_pp=borderline_pp)  # fmt: skip
    played: dict[str, Measures | str] = {}  # by deck: its measures, or why it was dropped early
    games = {"search": 0, "edge": 0, "holdout": 0, "own": 0, "short list": 0}
    edge_runs: set[str] = set()
    status: dict[str, Any] = {"stage": f"the original deck on {n_games:,} games (and as many points-blind)",
                              "bar": lambda *_: None, "search": None, "current": None}  # fmt: skip

    counted: dict[Path, int] = {}  # the games counted so far of each run and companion played or reused
    refused: dict[str, str] = {}  # whole decks a guard stopped early (--until-settled), by the guard

    blind_runs: dict[str, list[Path]] = {}  # the companions played, by their points-blind deck's hash
    search_blinds: set[str] = set()  # the points-blind decks of the search's companions

    def run(deck: Deck, run_dir: Path, run_seed: int, n: int, sample: str, blind: bool = True) -> Path:
        """Play (or reuse) the run in ``run_dir`` to ``n`` games and, with ``blind``, its
        points-blind companion, counting their games under ``sample``. The companion
        takes the chunks it shares with another deck's (a deck that differs only in
        its tasks' points has the same points-blind deck, :func:`sim.run.points_blind.points_blind_deck`)
        instead of playing them again, and they are not counted."""
        simulate(deck, n, run_dir, players, bots, run_seed, n_jobs, resume=(run_dir / "manifest.json").exists(),
                 progress=False, chunk_size=search_chunk)  # fmt: skip
        games[sample] += n - counted.get(run_dir, 0)  # played now or reused from out, each game once
        counted[run_dir] = n
        if blind:
            blind_deck = points_blind_deck(deck).content_hash
            donors = blind_runs.setdefault(blind_deck, [])
            if sample == "search":
                search_blinds.add(blind_deck)
            companion = play_points_blind(run_dir, n_jobs, progress=False, donors=donors)
            games[sample] += n - counted.get(companion, 0) - borrowed_games(companion)
            counted[companion] = n
            if companion not in donors:
                donors.append(companion)
        return run_dir

    def held(run_dir: Path) -> int:
        """The games a run in rounds starts from: what ``run_dir`` holds (reused), else one round."""
        return read_manifest(run_dir)["n_games"] if (run_dir / "manifest.json").exists() else round_games

    def whole_at(deck: Deck, run_dir: Path, run_seed: int, sample: str, blind: bool = True) -> Callable[[], Measures]:
        """The :func:`measure` of a run in rounds at the games it holds, with ``blind``
        its points-blind companion brought level first."""
        return lambda: measure(run(deck, run_dir, run_seed, held(run_dir), sample, blind), threshold_pp,
                               threshold_points)  # fmt: skip

    def quantity_to(deck: Deck, run_dir: Path, run_seed: int, sample: str, section: str, index: int,
                    blind: bool) -> Callable[[int], tuple[float, float, float]]:  # fmt: skip
        """A round's ``play_to``: bring the run (with ``blind``, its points-blind
        companion too) to ``n`` games and give the card's quantity with its 95% interval
        (:func:`.advise_measures.quantity_bounds`)."""
        def play_to(n: int) -> tuple[float, float, float]:
            run(deck, run_dir, run_seed, n, sample, blind)
            return quantity_bounds(run_dir, section, index, threshold_pp, threshold_points)

        return play_to

    def measured(deck: Deck, run_dir: Path, tasks: bool, n: int | None = None) -> Measures:
        """:func:`measure` of the deck at ``n`` games of the search seed (None: those its
        run holds); without ``tasks``, of the run alone (its points-blind companion not
        played). A screened ally's edit is
        measured so: the screen reads only its effect, length and edge, and its tasks
        are measured when its deck is asked for whole; a task's gap needs the companion."""
        n = held(run_dir) if n is None else n
        return measure(run(deck, run_dir, seed, n, "search", tasks), threshold_pp, threshold_points, tasks=tasks)

    def judged(deck: Deck, run_dir: Path, values: dict[Key, Any], n: int | None = None) -> Measures:
        """A whole deck's measures (:func:`measured`): its run alone first, and when it
        breaks the length guard or the first player's edge against the original
        (:meth:`.advise_search.Settings.guards`), which refuse it whatever its excess,
        nothing more; else its tasks too, its companion played. Its ``edge_change``
        is set; ``values`` are not empty (the original is no candidate)."""
        m = replace(measured(deck, run_dir, False, n), edge_change=edge_change(out / "search" / first, run_dir))
        if status["search"].settings.guards(m, status["search"].original):
            return m
        return replace(measured(deck, run_dir, True, n), edge_change=m.edge_change)

    def in_rounds(deck: Deck, run_dir: Path, trial: Trial) -> Measures | str:
        """A screened edit played in rounds (:func:`.advise_rounds.screened_in_rounds`):
        each round plays the run alone when the target is an ally (its effect needs
        no points-blind games) and measures the target's quantity alone; its
        :func:`measured` measures are taken once, when the edit is not dropped."""
        blind = trial.section == "tasks"
        play_to = quantity_to(deck, run_dir, seed, "search", trial.section, trial.index, blind)
        return screened_in_rounds(play_to, lambda: measured(deck, run_dir, blind), trial, min(held(run_dir), n_games),
                                  n_games, round_games, rho)  # fmt: skip

    def guards(values: dict[Key, Any]) -> Guards | None:
        """What ``--until-settled`` watches a whole deck of ``values`` for
        (:func:`.advise_rounds.whole_in_rounds`); None plays it whole on ``n_games``:
        without the rule, for the original deck, and with a ``--target`` (the guards
        then measure distances from its range, not a sure break)."""
        if round_games is None or not values or target_turns is not None or target_edge is not None:
            return None
        return Guards(status["search"].original.length["value"], LENGTH_TOLERANCE,
                      not status["search"].settings.relaxed)  # fmt: skip

    def whole_rounds(deck: Deck, run_dir: Path, watched: Guards, values: dict[Key, Any]) -> tuple[Measures, str]:
        """A whole deck in rounds (:func:`.advise_rounds.whole_in_rounds`): each round
        plays the run alone and reads its length and its edge change; its
        :func:`judged` measures are taken once, at the games played."""
        def play_to(n: int) -> tuple[dict, dict]:
            run(deck, run_dir, seed, n, "search", blind=False)
            return mean_turns(run_dir), edge_change(out / "search" / first, run_dir)

        return whole_in_rounds(play_to, lambda: judged(deck, run_dir, values), watched, min(held(run_dir), n_games),
                               n_games, round_games, rho)  # fmt: skip

    def alone_values(change: Change) -> dict[Key, Any]:
        """The values of one edit of the proposal alone (both fields of a move or a swap)."""
        return {key: values[key] for key in change.keys}

    def alone_deck(change: Change) -> Deck | None:
        """The original deck with one edit of the proposal alone (None when it does not validate)."""
        return check(apply(text, alone_values(change), str(cards)), str(cards), limits)

    def alone_of(change: Change) -> tuple[Measures | None, dict | None]:
        """One edit alone on the original deck on the hold-out seed (None when it does
        not validate), and with ``--until-settled`` its own effect's confidence
        sequence when its verdict settled before ``holdout_games``
        (:func:`.advise_rounds.alone_in_rounds`), else None. An ally's effect needs no
        points-blind games; a task's gap does."""
        blind = change.section == "tasks"
        if round_games is None:
            return _confirm(text, alone_values(change), str(cards), limits, fresh, holdout_games, "own", out, run,
                            threshold_pp, threshold_points, blind)[1], None  # fmt: skip
        deck = alone_deck(change)
        if deck is None:
            return None, None
        run_dir = out / "holdout" / deck.content_hash[:16]
        play_to = quantity_to(deck, run_dir, fresh, "own", change.section, change.index, blind)
        threshold = threshold_pp if change.section == "allies" else threshold_points
        return alone_in_rounds(play_to, whole_at(deck, run_dir, fresh, "own", blind), threshold,
                               min(held(run_dir), holdout_games), holdout_games, round_games, rho,
                               settings.band_of(change.section))  # fmt: skip

    def check_edge(values: dict[Key, Any]) -> dict:
        """The first player's edge change on the edge seed, ``holdout_games`` games each."""
        dirs = []
        for deck in (original, check(apply(text, values, str(cards)), str(cards), limits)):
            dirs.append(out / "edge" / deck.content_hash[:16])
            if str(dirs[-1]) not in edge_runs:
                simulate(deck, holdout_games, dirs[-1], players, bots, edge_seed(seed), n_jobs,
                         resume=(dirs[-1] / "manifest.json").exists(), progress=False)  # fmt: skip
                edge_runs.add(str(dirs[-1]))
                games["edge"] += holdout_games
        return edge_change(*dirs)

    def play(values: dict[Key, Any], trial: Trial | None = None) -> Measures | str | None:
        """The deck of ``values`` on the search seed, ``n_games`` games. With ``trial``,
        a screened edit (:func:`measured`): with ``--until-settled`` in rounds, maybe
        dropped (why, a string) or settled early. A screened edit asked for whole
        later (greedy's first step) is brought whole then."""
        deck = check(apply(text, tidy(original, values), str(cards)), f"{cards} (candidate)", limits)
        if deck is None:
            return None
        name = deck.content_hash[:16]
        stopped = (name in played and (isinstance(played[name], str) or played[name].settled)
                   and not (name in refused and (refused[name] == "length" or not status["search"].settings.relaxed)))
        # a deck a guard surely refused is never played further, unless the search relaxed the edge that refused it
        partial = (name in played and not isinstance(played[name], str) and played[name].tasks is None
                   and not status["search"].settings.guards(played[name], status["search"].original))
        # a screened ally's edit, its tasks not measured, that no guard refuses: measured whole when asked for
        if name not in played or (trial is None and (stopped or partial)):  # dropped, settled early or partial
            run_dir = out / "search" / name  # asked for whole
            if not values:  # the original
                played[name] = measured(deck, run_dir, True, n_games)
            elif trial is None and guards(values) is not None:
                played[name], guard = whole_rounds(deck, run_dir, guards(values), values)
                if guard:
                    refused[name] = guard
            elif trial is None:
                played[name] = judged(deck, run_dir, values, n_games)
            else:
                m = measured(deck, run_dir, trial.section == "tasks", n_games) if round_games is None else \
                    in_rounds(deck, run_dir, trial)  # fmt: skip
                if isinstance(m, str):  # dropped
                    played[name] = m
                    return m
                played[name] = replace(m, edge_change=edge_change(out / "search" / first, run_dir))
            status["bar"](status["stage"], status["search"], status["current"])
        return played[name]

    first = check(text, str(cards), limits).content_hash[:16]
    with stages(progress, n_games) as bar:
        status["bar"] = bar
        bar(status["stage"], None, None)
        start = play({})

        def show(stage: str, best: Measures) -> None:
            status.update(stage=stage, current=best)
            bar(stage, search, best)

        search = Search(play, settings, start, allowed, text, str(cards), limits, show, check_edge, trial=play)
        status.update(search=search, current=start)
        search.record("original", start, "")
        values, current = search.run()
        values = tidy(original, values)  # a symbol moved away and back is no edit
        edits = changes(original, values)

        edited = apply(text, values, str(cards))
        proposal_deck = check(edited, str(cards), limits)
        proposal = write_files(Files(texts={"proposal.yaml": edited}), out)["proposal.yaml"]
        fresh = holdout_seed(seed)
        bar(f"confirming on the hold-out: the original and the proposal on {holdout_games:,} fresh games each",
            search, current)  # fmt: skip
        runs = {name: run(deck, out / "holdout" / deck.content_hash[:16], fresh, holdout_games, "holdout")
                for name, deck in (("original", original), ("proposal", proposal_deck))}  # a deck's runs are its own
        before, after = (measure(runs[name], threshold_pp, threshold_points) for name in ("original", "proposal"))
        differences = comparison_tables(runs["original"], runs["proposal"])
        skilled = {}
        if confirm_with:
            k = min(confirm_games, holdout_games) if confirm_games else games_per_deck(players, confirm_with,
                                                                                      most=holdout_games)  # fmt: skip
            bar(f"confirming with {confirm_with} in every seat: the first {k:,} of the same fresh games", search,
                current)  # fmt: skip
            skilled = {name: play_skilled(runs[name], n_jobs, progress=False, bot=confirm_with, games=k)
                       for name in runs}  # fmt: skip
            games["holdout"] += 2 * k
        deviations = edits if own_effects else []  # an ability moved or swapped: both fields
        if deviations:
            bar(f"each edit alone ({len(deviations)} deck{'s' * (len(deviations) != 1)}) on the same {holdout_games:,} "
                "fresh games", search, current)  # fmt: skip
        own = [alone_of(change) for change in deviations]
        alone = tuple(m for m, _ in own)
        sequences = tuple(sequence for _, sequence in own) if round_games is not None else ()
        # at fixed n: the run of each deck alone not already played on the hold-out (the original, the proposal), and a
        # companion for each task's edit whose points-blind deck has none there
        alone_decks = [(change.section, alone_deck(change)) for change, m in zip(deviations, alone) if m is not None]
        held_out = (original, proposal_deck)
        new_runs = {deck.content_hash for _, deck in alone_decks} - {deck.content_hash for deck in held_out}
        new_blinds = ({points_blind_deck(deck).content_hash for section, deck in alone_decks if section == "tasks"}
                      - {points_blind_deck(deck).content_hash for deck in held_out})  # fmt: skip
        games["own at fixed n"] = holdout_games * (len(new_runs) + len(new_blinds))
        restricted = None
        allies = list(dict.fromkeys(i for change in edits for section, i, _ in change.keys if section == "allies"))
        if restricted_play and allies:
            bar(f"restricted play: {len(allies)} edited all{'ies' if len(allies) != 1 else 'y'} in both decks on "
                f"{restricted_play:,} fresh games per run", search, current)  # fmt: skip
            fell = before.allies["effect_pp"].to_numpy() > after.allies["effect_pp"].to_numpy()
            restricted = restricted_check(cards, proposal, {original.allies[i].name: bool(fell[i]) for i in allies},
                                          {a.name: a.id for a in original.allies}, restricted_play,
                                          out / "restricted", bots, players, fresh, n_jobs)  # fmt: skip
            games["restricted"] = restricted_games(len(allies), restricted_play)
        shorter = []
        prefixes = {k: {key: values[key] for key in values if key in fields}  # the search's order: best-ranked first
                    for k, fields in shorter_proposals(edits, values, short_list).items()}
        for k, prefix in prefixes.items():
            bar(f"the short list: the best {k} edits on the same {holdout_games:,} fresh games", search, current)
            run_dir, m = _confirm(text, prefix, str(cards), limits, fresh, holdout_games, "short list", out, run,
                                  threshold_pp, threshold_points)  # fmt: skip
            written = (write_files(Files(texts={f"proposal-{k}.yaml": apply(text, prefix, str(cards))}), out)
                       [f"proposal-{k}.yaml"] if m is not None else None)  # fmt: skip
            shorter.append(Short(k, changes(original, prefix), written, m,
                                 comparison_tables(runs["original"], run_dir) if m is not None else None))  # fmt: skip
        shorter.append(Short(edit_count(edits), edits, proposal, after, differences))
    return Advice(
        changes=edits, deck=proposal_deck, proposal=proposal,
        diff=_diff(text, edited, str(cards), str(proposal)), before=before, after=after, differences=differences,
        search=pd.DataFrame(search.log), seed=seed, holdout_seed=fresh, round_games=round_games,
        games={**games, "candidates": len(played), "search at fixed n": n_games * (len(played) + len(search_blinds))},
        n_games=n_games, holdout_games=holdout_games, edge_relaxed=search.settings.relaxed, only=tuple(only),
        max_edits=max_edits, abilities=abilities, target_turns=target_turns, target_edge=target_edge,
        confirmed_with=confirm_with or "", alone=alone, alone_sequences=sequences,
        short_list=tuple(shorter), restricted=restricted,
        skill_check=changes_skill_check(differences, comparison_tables(skilled["original"], skilled["proposal"]),
                                        confirm_with, players) if skilled else None,
        skilled_allies=tuple(int((ally_strength(skilled[name], threshold_pp=threshold_pp)["verdict"] != "").sum())
                             for name in ("original", "proposal")) if skilled else None,
    )  # fmt: skip



def _confirm(text: str, values: dict[Key, Any], file: str, limits: Limits, fresh: int, n: int,
             sample: str, out: Path, run, threshold_pp: float, threshold_points: float,
             blind: bool = True) -> tuple[Path | None, Measures | None]:  # fmt: skip
    """The card file with ``values`` in place, played by ``run`` on the hold-out seed
    ``fresh`` (``n`` games, and with ``blind`` as many points-blind, counted under
    ``sample``) in ``out/holdout/`` (a deck already played is reused): its run
    directory and measures, or (None, None) when it does not validate. Without the
    points-blind games the tasks' gaps are judged on the difficulty as played
    (:func:`analysis.task_calibration.points_blind_run`): only the allies' effects
    are then to be read."""
    deck = check(apply(text, values, file), file, limits)
    if deck is None:
        return None, None
    run_dir = run(deck, out / "holdout" / deck.content_hash[:16], fresh, n, sample, blind)
    return run_dir, measure(run_dir, threshold_pp, threshold_points)
