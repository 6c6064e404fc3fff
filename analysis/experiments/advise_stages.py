"""The advisor's stages (:func:`.advise.advise`), in the order it plays them: the
search on the search seed (:func:`search`), then on the hold-out seed the original and
the proposal (:func:`confirm`), their skilled companions (:func:`skill_check`), each
edit alone (:func:`own_effects`), restricted play (:func:`restricted_play`) and the
shorter proposals (:func:`short_list`).

Each stage reads the advice's :class:`.advise_runs.Plan` and plays its decks through
its :class:`.advise_runs.Runs`, which reuse a deck already played and count its games
once: a later stage that asks for a deck an earlier one played counts no game, so the
order is part of what :attr:`.advise.Advice.games` says.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from analysis.cards import ally_strength
from analysis.experiments.advise_edits import Change, Key, apply, changes, check, edit_count, shorter_proposals, tidy
from analysis.experiments.advise_measures import Measures, measure
from analysis.experiments.advise_rounds import alone_in_rounds
from analysis.experiments.advise_runs import Plan, Runs
from analysis.experiments.advise_search import Search
from analysis.experiments.check_skill import games_per_deck
from analysis.experiments.compare import changes_skill_check, comparison_tables
from sim.cards import Deck


@dataclass(frozen=True)
class Short:
    """One proposal of the short list (:func:`.advise.advise`): the ``edits`` edits of the
    proposal that the search ranked best, confirmed on the hold-out seed.

    Attributes
    ----------
    edits : int
        How many edits it holds, as a designer counts them (:func:`.advise_edits.edit_count`).
    changes : list of Change
        Its edits.
    proposal : Path or None
        ``out/proposal-K.yaml`` (``out/proposal.yaml`` for the full proposal), where it
        is written (:func:`.advise_page.advice_files`); None when these edits alone do
        not validate (nor any measure then).
    text : str or None
        Its card file: the original's text with only its values replaced; None when
        ``proposal`` is.
    after : Measures or None
        The deck on the hold-out seed, ``holdout_games`` games (and as many points-blind).
    differences : dict of pandas.DataFrame or None
        :func:`analysis.experiments.compare.comparison_tables` of the original's and
        its hold-out runs (paired on the same games, it − original).
    """

    edits: int
    changes: list[Change]
    proposal: Path | None
    text: str | None
    after: Measures | None = None
    differences: dict[str, pd.DataFrame] | None = None


@dataclass(frozen=True)
class Found:
    """What the search found (:func:`search`), in-sample.

    Attributes
    ----------
    search : Search
        The search, with its log and its settings as it ended (the edge maybe relaxed).
    current : Measures
        The proposal's measures on the search seed; the later stages' progress shows it.
    values : dict
        The proposal's values, in the order the search ranked them (best first).
    edits : list of Change
        Its edits, one per changed field.
    edited : str
        The card file with only the changed values replaced.
    deck : Deck
        The proposed deck.
    proposal : Path
        ``out/proposal.yaml``, where ``edited`` is written (:func:`.advise_page.advice_files`).
    """

    search: Search
    current: Measures
    values: dict[Key, Any]
    edits: list[Change]
    edited: str
    deck: Deck
    proposal: Path


@dataclass(frozen=True)
class HeldOut:
    """The original and the proposal on the hold-out seed (:func:`confirm`):
    ``dirs``, their run directories (``original``, ``proposal``); ``before`` and
    ``after``, their measures; ``differences``,
    :func:`analysis.experiments.compare.comparison_tables` of the two runs (proposal −
    original, paired on the same games)."""

    dirs: dict[str, Path]
    before: Measures
    after: Measures
    differences: dict[str, pd.DataFrame]


def search(plan: Plan, runs: Runs) -> Found:
    """Screen and combine edits on the search seed, starting from the original deck
    (:class:`.advise_search.Search`; the method: docs/EXPERIMENTS.md, advise: *The
    search*), and write the proposal, the card file with only the changed values
    replaced, to ``out/proposal.yaml``."""
    runs.stage = f"the original deck on {plan.n_games:,} games (and as many points-blind)"
    runs.bar(runs.stage, None, None)
    start = runs.play({})
    found = Search(runs.play, plan.settings, start, plan.allowed, plan.text, str(plan.cards), plan.limits, runs.show,
                   runs.check_edge, trial=runs.play)  # fmt: skip
    runs.search, runs.current = found, start
    found.record("original", start, "")
    values, current = found.run()
    values = tidy(plan.original, values)  # a symbol moved away and back is no edit
    edits = changes(plan.original, values)
    edited = apply(plan.text, values, str(plan.cards))
    deck = check(edited, str(plan.cards), plan.limits)
    return Found(found, current, values, edits, edited, deck, plan.out / "proposal.yaml")


def confirm(plan: Plan, runs: Runs, found: Found) -> HeldOut:
    """The original and the proposal on the hold-out seed, ``holdout_games`` games each
    (and as many points-blind): the advice's figures, which the search never saw."""
    runs.bar(f"confirming on the hold-out: the original and the proposal on {plan.holdout_games:,} fresh games each",
             found.search, found.current)  # fmt: skip
    dirs = {name: runs.run(deck, plan.out / "holdout" / deck.content_hash[:16], plan.fresh, plan.holdout_games,
                           "holdout")  # a deck's runs are its own
            for name, deck in (("original", plan.original), ("proposal", found.deck))}  # fmt: skip
    before, after = (measure(dirs[name], plan.threshold_pp, plan.threshold_points) for name in ("original", "proposal"))
    return HeldOut(dirs, before, after, comparison_tables(dirs["original"], dirs["proposal"]))


def skill_check(plan: Plan, runs: Runs, found: Found, held: HeldOut, bot: str | None,
                games: int | None) -> tuple[pd.DataFrame | None, tuple[int, int] | None]:  # fmt: skip
    """With ``bot``, the hold-out's first ``games`` games of the original and the
    proposal played again with it in every seat (their skilled companions,
    :mod:`sim.run.skilled`: the same deals and dice; default the skill check's budget
    shared by the two decks, :func:`analysis.experiments.check_skill.games_per_deck`, at
    most ``holdout_games``).

    Returns
    -------
    (pandas.DataFrame, (int, int)) or (None, None)
        :attr:`.advise.Advice.skill_check` and :attr:`.advise.Advice.skilled_allies`;
        (None, None) without ``bot``.
    """
    from sim.run.skilled import play_skilled

    if not bot:
        return None, None
    k = min(games, plan.holdout_games) if games else games_per_deck(plan.players, bot, most=plan.holdout_games)
    runs.bar(f"confirming with {bot} in every seat: the first {k:,} of the same fresh games", found.search,
             found.current)  # fmt: skip
    skilled = {name: play_skilled(held.dirs[name], plan.n_jobs, progress=False, bot=bot, games=k)
               for name in held.dirs}  # fmt: skip
    runs.games["holdout"] += 2 * k
    table = changes_skill_check(held.differences, comparison_tables(skilled["original"], skilled["proposal"]), bot,
                                plan.players)  # fmt: skip
    return table, tuple(int((ally_strength(skilled[name], threshold_pp=plan.threshold_pp)["verdict"] != "").sum())
                        for name in ("original", "proposal"))  # fmt: skip


def _alone_deck(plan: Plan, found: Found, change: Change) -> Deck | None:
    """The original deck with one edit of the proposal alone (both fields of a move or
    a swap); None when it does not validate."""
    return check(apply(plan.text, {key: found.values[key] for key in change.keys}, str(plan.cards)), str(plan.cards),
                 plan.limits)  # fmt: skip


def _alone_of(plan: Plan, runs: Runs, found: Found, change: Change) -> tuple[Measures | None, dict | None]:
    """One edit alone on the original deck on the hold-out seed (None when it does
    not validate), and with ``--until-settled`` its own effect's confidence
    sequence when its verdict settled before ``holdout_games``
    (:func:`.advise_rounds.alone_in_rounds`), else None. An ally's effect needs no
    points-blind games; a task's gap does."""
    blind = change.section == "tasks"
    if plan.round_games is None:
        return runs.on_holdout({key: found.values[key] for key in change.keys}, "own", blind)[1], None
    deck = _alone_deck(plan, found, change)
    if deck is None:
        return None, None
    run_dir = plan.out / "holdout" / deck.content_hash[:16]
    play_to = runs.quantity_to(deck, run_dir, plan.fresh, "own", change.section, change.index, blind)
    threshold = plan.threshold_pp if change.section == "allies" else plan.threshold_points
    return alone_in_rounds(play_to, runs.whole_at(deck, run_dir, plan.fresh, "own", blind), threshold,
                           min(runs.held(run_dir), plan.holdout_games), plan.holdout_games, plan.round_games, plan.rho,
                           plan.settings.band_of(change.section))  # fmt: skip


def own_effects(plan: Plan, runs: Runs, found: Found,
                deviations: list[Change]) -> tuple[tuple[Measures | None, ...], tuple[dict | None, ...]]:  # fmt: skip
    """Each edit of ``deviations`` (the proposal's, or none) alone on the original deck,
    on the hold-out's seed and games (a one-step deviation), and the games they would
    have played at fixed n, counted as ``own at fixed n`` (0 for none).

    Returns
    -------
    (tuple, tuple)
        :attr:`.advise.Advice.alone` and :attr:`.advise.Advice.alone_sequences`.
    """
    from sim.run.points_blind import points_blind_deck

    if deviations:
        runs.bar(f"each edit alone ({len(deviations)} deck{'s' * (len(deviations) != 1)}) on the same "
                 f"{plan.holdout_games:,} fresh games", found.search, found.current)  # fmt: skip
    own = [_alone_of(plan, runs, found, change) for change in deviations]
    alone = tuple(m for m, _ in own)
    sequences = tuple(sequence for _, sequence in own) if plan.round_games is not None else ()
    # at fixed n: the run of each deck alone not already played on the hold-out (the original, the proposal), and a
    # companion for each task's edit whose points-blind deck has none there
    alone_decks = [(change.section, _alone_deck(plan, found, change))
                   for change, m in zip(deviations, alone) if m is not None]  # fmt: skip
    held_out = (plan.original, found.deck)
    new_runs = {deck.content_hash for _, deck in alone_decks} - {deck.content_hash for deck in held_out}
    new_blinds = ({points_blind_deck(deck).content_hash for section, deck in alone_decks if section == "tasks"}
                  - {points_blind_deck(deck).content_hash for deck in held_out})  # fmt: skip
    runs.games["own at fixed n"] = plan.holdout_games * (len(new_runs) + len(new_blinds))
    return alone, sequences


def restricted_play(plan: Plan, runs: Runs, found: Found, held: HeldOut, games: int | None) -> pd.DataFrame | None:
    """With ``games``, each edited ally valued by restricted play in the original and
    the proposal, ``games`` games per run on the hold-out seed, in ``out/restricted/``
    (:func:`.advise_restricted.restricted_check`): :attr:`.advise.Advice.restricted`;
    None without, or when no ally was edited."""
    from analysis.experiments.advise_restricted import restricted_check, restricted_games

    allies = list(dict.fromkeys(i for change in found.edits for section, i, _ in change.keys if section == "allies"))
    if not (games and allies):
        return None
    runs.bar(f"restricted play: {len(allies)} edited all{'ies' if len(allies) != 1 else 'y'} in both decks on "
             f"{games:,} fresh games per run", found.search, found.current)  # fmt: skip
    fell = held.before.allies["effect_pp"].to_numpy() > held.after.allies["effect_pp"].to_numpy()
    original = plan.original
    table = restricted_check(plan.cards, found.deck, {original.allies[i].name: bool(fell[i]) for i in allies},
                             {a.name: a.id for a in original.allies}, games, plan.out / "restricted", plan.bots,
                             plan.players, plan.fresh, plan.n_jobs)  # fmt: skip
    runs.games["restricted"] = restricted_games(len(allies), games)
    return table


def short_list(plan: Plan, runs: Runs, found: Found, held: HeldOut, sizes: Sequence[int]) -> tuple[Short, ...]:
    """For each size K of ``sizes`` below the proposal's, the best-ranked edits that fit
    in K (:func:`.advise_edits.shorter_proposals`) on the hold-out's seed and games,
    each to be written to ``out/proposal-K.yaml`` when it validates; then the full proposal:
    :attr:`.advise.Advice.short_list`."""
    shorter = []
    prefixes = {k: {key: found.values[key] for key in found.values if key in fields}  # the search's order: best first
                for k, fields in shorter_proposals(found.edits, found.values, sizes).items()}  # fmt: skip
    for k, prefix in prefixes.items():
        runs.bar(f"the short list: the best {k} edits on the same {plan.holdout_games:,} fresh games", found.search,
                 found.current)  # fmt: skip
        run_dir, m = runs.on_holdout(prefix, "short list")
        text = apply(plan.text, prefix, str(plan.cards)) if m is not None else None
        shorter.append(Short(k, changes(plan.original, prefix), plan.out / f"proposal-{k}.yaml" if text else None, text,
                             m, comparison_tables(held.dirs["original"], run_dir) if m is not None else None))  # fmt: skip
    shorter.append(Short(edit_count(found.edits), found.edits, found.proposal, found.edited, held.after,
                         held.differences))  # fmt: skip
    return tuple(shorter)
