"""The advisor's search (:mod:`.advise`): which edits it tries, and when one deck
is better than another (:class:`Settings`, :class:`Search`).

The method (common random numbers, the rounds' targets, screen and combination, the
polishing round, pair moves, ``--max-edits``, the guards and the excess, ``--target``
and ``--until-settled``) is told in docs/EXPERIMENTS.md, advise: *The search* and the
paragraphs after it, with the figures behind each choice.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from analysis.cards import DEFAULT_THRESHOLD_PP, verdicts
from analysis.experiments.advise_edits import (STRENGTHEN, WEAKEN, Key, Limits, apply, candidate_edits, changes, check,
                                                edit_count)
from analysis.experiments.advise_measures import Measures, quantity
from analysis.experiments.advise_rounds import Trial
from analysis.experiments.tune import Target, parse_range
from analysis.report.words.advise import change_text, restore_text
from analysis.task_calibration import DEFAULT_THRESHOLD_POINTS
from sim.cards import Deck, parse_deck

AIM = 0.75  # the search aims each quantity inside this share of its threshold
LENGTH_TOLERANCE = 0.05  # mean game length may move this share from the original's
ROUNDS = 3  # screen-and-combine rounds
EDGE_TOLERANCE_PP = 0.25  # a paired growth of the first player's edge beyond this is larger
# (docs/EXPERIMENTS.md, advise: *The first player's edge is a hard constraint*)
INVALID = ("the deck does not validate (or leaves a colour short of its demand, or gives an ability to more allies "
           "than the original)")
PAIRS = 3  # pair moves tried per card whose best edit a guard refused (docs/EXPERIMENTS.md, advise: *Pair moves*)
Edit = dict[Key, Any]  # one designer's edit: the values it sets (two allies' fields for a move or a swap)


TARGETS = "write edge=LO..HI (the first player's edge, pp) or turns=LO..HI (mean turns per game), e.g. edge=-1..1"
EDGE_RANGE_PP = 100.0  # the first player's edge lies within ±100 pp


def parse_targets(texts: Sequence[str]) -> dict[str, tuple[float, float]]:
    """``--target`` (repeatable), ``tune``'s syntax (:class:`analysis.experiments.tune.Target`):
    ``edge=LO..HI`` (the first player's edge over a fair seat, pp, R9.4) or
    ``turns=LO..HI`` (mean turns per game); ``{"edge": (low, high), "turns": …}``.

    Raises
    ------
    ValueError
        One line naming the target and what is valid: another metric, bounds that are
        not numbers, LO above HI, turns below 0 or an edge beyond ±100 pp, or a metric
        given twice.
    """
    out = {}
    for text in texts:
        name, eq, bounds = text.partition("=")
        if not eq or name not in ("edge", "turns"):
            raise ValueError(f"--target {text!r}: {TARGETS}")
        if name in out:
            raise ValueError(f"--target {text!r}: a second target for {name}; give one range per measure")
        try:
            target = Target.parse(text) if name == "turns" else Target(name, *parse_range(text, bounds))
        except ValueError as exc:
            raise ValueError(f"--{exc}") from None
        if name == "edge" and not -EDGE_RANGE_PP <= target.low <= target.high <= EDGE_RANGE_PP:
            raise ValueError(f"--target {text!r}: the edge lies in [-100, 100] pp with LO <= HI, e.g. edge=-1..1")
        out[name] = (target.low, target.high)
    return out


@dataclass(frozen=True)
class Settings:
    """The thresholds and guards of one search; ``relaxed``: the edge is weighed,
    not a guard; ``max_edits``: the most edits a deck may hold (:func:`.advise_edits.edit_count`), None for no
    limit; ``target_turns`` (mean turns per game) and ``target_edge`` (the first
    player's edge, pp): ranges the search moves towards (``--target``;
    docs/EXPERIMENTS.md, advise: *Targets*)."""

    threshold_pp: float = DEFAULT_THRESHOLD_PP
    threshold_points: float = DEFAULT_THRESHOLD_POINTS
    aim: float = AIM
    target_turns: tuple[float, float] | None = None
    target_edge: tuple[float, float] | None = None
    edge_tolerance_pp: float = EDGE_TOLERANCE_PP
    relaxed: bool = False
    max_edits: int | None = None
    borderline_pp: float = 0.0

    def aim_of(self, section: str) -> float:
        """The threshold a target of ``section`` is aimed inside: ``aim`` × its
        practical threshold, pp for an ally's effect, points for a task's gap."""
        return self.aim * (self.threshold_pp if section == "allies" else self.threshold_points)

    def band_of(self, section: str) -> float:
        """The borderline band around a threshold of ``section`` (``--until-settled``'s
        ``--borderline``, :func:`analysis.settled.settled_state`): ``borderline_pp``
        for an ally's effect, the same fraction of the practical threshold for a
        task's gap, in points."""
        return self.borderline_pp * (1.0 if section == "allies" else self.threshold_points / self.threshold_pp)

    def targets(self, m: Measures) -> list[tuple[str, int, int]]:
        """``(section, index, direction)`` of the cards beyond the aim (docs/EXPERIMENTS.md, advise: *The search*)."""
        out = []
        allies = m.allies
        verdict, _ = verdicts(allies["effect_pp"], allies["p_value"], self.aim_of("allies"))
        out += [("allies", i, WEAKEN if v == "stronger" else STRENGTHEN) for i, v in enumerate(verdict) if v]
        gap = m.tasks["gap_points"].to_numpy(np.float64)
        out += [("tasks", i, -1 if g > 0 else +1) for i, g in enumerate(gap) if abs(g) >= self.aim_of("tasks")]
        return out

    def excess(self, m: Measures, original: Measures) -> float:
        """How far the quantities lie beyond the aim, the first player's edge above
        the original's (without ``target_edge``) and the targets' measures outside
        their ranges (:meth:`miss`), in thresholds (docs/EXPERIMENTS.md, advise: *Which deck is
        better*)."""
        effect = np.abs(np.nan_to_num(m.allies["effect_pp"].to_numpy(np.float64)))
        gap = np.abs(np.nan_to_num(m.tasks["gap_points"].to_numpy(np.float64)))
        grown = max(m.edge_change["value"], 0.0) if self.target_edge is None else 0.0
        return float(np.maximum(effect - self.aim * self.threshold_pp, 0).sum() / self.threshold_pp
                     + np.maximum(gap - self.aim * self.threshold_points, 0).sum() / self.threshold_points
                     + grown / self.threshold_pp + self.miss(m, original))  # fmt: skip

    def miss(self, m: Measures, original: Measures) -> float:
        """How far the targets' measures lie outside their ranges, in thresholds (0
        inside, or without targets): the first player's edge (the original's plus
        its paired change, pp, R9.4) over ``threshold_pp``; mean turns per game over
        :data:`LENGTH_TOLERANCE` × the original's."""
        out = 0.0
        if self.target_edge is not None:
            out += _outside(original.edge["value"] + m.edge_change["value"], self.target_edge) / self.threshold_pp
        if self.target_turns is not None:
            out += _outside(m.length["value"], self.target_turns) / (LENGTH_TOLERANCE * original.length["value"])
        return out

    def edge_grew(self, change: dict) -> bool:
        """Is the first player's edge larger than the original's, by its paired change
        (:func:`edge_change`, pp)? Its 95% interval lies above 0, or its estimate
        exceeds ``edge_tolerance_pp`` (docs/EXPERIMENTS.md, advise: *The first player's edge is a
        hard constraint*)."""
        return bool(change["low"] > 0 or change["value"] > self.edge_tolerance_pp)

    def edge_broken(self, change: dict, start: float) -> bool:
        """Does the first player's edge move the wrong way, by its paired change (pp)
        from the original's ``start`` (pp, R9.4)? Without ``target_edge``: it grew
        (:meth:`edge_grew`). With one: never when it lands inside the range; above
        the range when it grew, below it when it shrank by the same rule."""
        if self.target_edge is None:
            return self.edge_grew(change)
        level, (low, high) = start + change["value"], self.target_edge
        if level < low:
            return self.edge_grew({"value": -change["value"], "low": -change["high"]})
        return level > high and self.edge_grew(change)

    def guards(self, m: Measures, original: Measures) -> list[str]:
        """The guards ``m`` breaks against the original, in order: ``length``, then
        ``edge`` unless ``relaxed`` (empty when it keeps them)."""
        broken = []
        turns = m.length["value"]
        if self.target_turns is not None:
            low, high = self.target_turns
            if not low <= turns <= high and abs(turns - np.clip(turns, low, high)) > abs(
                    original.length["value"] - np.clip(original.length["value"], low, high)):
                broken.append("length")
        elif abs(turns / original.length["value"] - 1) > LENGTH_TOLERANCE:
            broken.append("length")
        if not self.relaxed and self.edge_broken(m.edge_change, original.edge["value"]):
            broken.append("edge")
        return broken

    def created(self, m: Measures, original: Measures) -> set[tuple[str, int, int]]:
        """The cards ``m`` puts beyond the aim that the original did not, or beyond it
        the other way (a weaker ally made stronger): the verdicts a proposal would
        create (issue 48)."""
        return set(self.targets(m)) - set(self.targets(original))

    def score(self, m: Measures, original: Measures) -> tuple[bool, bool, float]:
        """Lower is better: the length guard broken, then the edge, then the excess
        (infinite for a deck whose tasks were not measured: one a guard refused before
        its points-blind companion was played, never better than a deck that keeps it)."""
        broken = self.guards(m, original)
        return "length" in broken, "edge" in broken, self.excess(m, original) if m.tasks is not None else math.inf


@dataclass
class Search:
    """The state of one search: the decks played on the search seed, and its log.

    ``play(values)`` gives the :class:`Measures` of the card file ``text`` with
    ``values`` in place on the search seed (None for a deck that does not validate);
    ``status(stage, best)`` shows the progress. ``check(values)`` gives the paired
    change of the first player's edge (:func:`edge_change`) on the edge seed's games,
    None to skip that check. ``trial(values, trial)`` plays a screened edit as
    ``play`` does, but may leave the tasks unmeasured for an ally's edit
    (:attr:`.advise_measures.Measures.tasks` None: the screen reads only its target,
    length and edge, and ``play`` brings the deck whole when it is asked for), and
    with ``--until-settled`` may stop it early
    (:func:`.advise_rounds.screened_in_rounds`): it gives why, a string, when the edit was dropped
    (its target's quantity is sure to lie beyond ``±bar``, the best so far), and
    measures whose ``settled`` says why when its target's verdict was settled (module
    docstring); None plays every edit whole.
    ``edge_refused`` counts the edits and decks refused for the edge alone.
    ``limits``: what no deck may do that the original does not
    (:class:`.advise_edits.Limits`); None takes the original's, from ``text``.
    """

    play: Callable[[dict[Key, Any]], Measures | None]
    settings: Settings
    original: Measures
    allowed: set[Key]
    text: str = ""
    file: str = "cards.yaml"
    limits: Limits | None = None
    status: Callable[[str, Measures], None] = lambda *_: None
    check: Callable[[dict[Key, Any]], dict] | None = None
    trial: Callable[[dict[Key, Any], Trial], Measures | str | None] | None = None
    log: list[dict] = field(default_factory=list)
    tried: int = 0
    edge_refused: int = 0
    screened: list[tuple[Edit, Measures]] = field(default_factory=list)
    refused: dict[tuple[str, int], tuple[Edit, str, Measures]] = field(default_factory=dict)
    moves: set[tuple[str, ...]] = field(default_factory=set)
    deck: Deck | None = None

    def record(self, stage: str, m: Measures | None, note: str, card: str = "", refused_by: str = "",
               why: str = "", edit: str = "", target: Key | None = None,
               before: float | None = None) -> None:  # fmt: skip
        """One row of the log (``search.csv``): a deck played, and, for an attempt at a
        target, its ``card`` (id), the guard that refused it (``refused_by``: ``edge``,
        ``length``, ``new verdict``, ``excess``, ``no closer``, ``dropped early``,
        ``validation``, ``max edits``; empty when accepted), ``why``, with its numbers, ``edit`` in a
        designer's words, and ``target_after``: the target's quantity on this deck (in-sample; an
        ally's effect in pp, a task's gap from par in points) and ``target_before`` (``before``)
        on the deck it was tried on, so that the page can name the refused edit that would have
        fixed a card that resists."""
        row = {"stage": stage, "edits": note, "card": card, "edit": edit, "refused_by": refused_by, "why": why,
               "edge_relaxed": self.settings.relaxed}  # fmt: skip
        if m is not None and target is not None:  # a task's gap is blank on a deck whose tasks were not measured
            row |= {"target_before": before,
                    "target_after": None if target[0] == "tasks" and m.tasks is None else quantity(m, *target[:2])}
        if m is not None:
            whole = m.tasks is not None  # a deck read on its run alone has no tasks measured: excess and counts blank
            targets = self.settings.targets(m) if whole else []
            row |= {"excess": self.settings.excess(m, self.original) if whole else None,
                    "guards_broken": ", ".join(self.settings.guards(m, self.original)),
                    "allies_beyond_aim": sum(s == "allies" for s, *_ in targets) if whole else None,
                    "tasks_beyond_aim": sum(s == "tasks" for s, *_ in targets) if whole else None,
                    "turns": m.length["value"], "edge_pp": m.edge["value"], "edge_change_pp": m.edge_change["value"],
                    "edge_change_low": m.edge_change["low"], "edge_change_high": m.edge_change["high"]}  # fmt: skip
        self.log.append(row)

    def room(self, values: dict[Key, Any], edit: Edit) -> bool:
        """Whether ``values`` with ``edit`` in place too holds at most
        :attr:`Settings.max_edits` edits as a designer counts them (a move or a swap is
        one, :func:`.advise_edits.edit_count`; always, without a limit)."""
        cap = self.settings.max_edits
        return cap is None or edit_count(changes(self.deck, {**values, **edit})) <= cap

    def full(self, stage: str, edit: Edit) -> None:
        """Log an edit not played because the deck holds :attr:`Settings.max_edits` edits."""
        self.record(stage, None, _note(edit), self.card(_target(edit)).id, "max edits",
                    f"the proposal already holds {self.settings.max_edits} edits (--max-edits)", self.edit(edit))

    def better(self, m: Measures, than: Measures) -> bool:
        return self.settings.score(m, self.original) < self.settings.score(than, self.original)

    def card(self, key: Key) -> Any:
        """The card a key edits, in the original deck."""
        return getattr(self.deck, key[0])[key[1]]

    def edit(self, edit: Edit) -> str:
        """An edit in a designer's words, its target's (first) field's
        (:meth:`advise_edits.Change.sentence`); one that gives the target's field back
        its value in the original (an earlier round's edit undone): ``Give Frittte
        clerk back its symbols in the original: [yellow, purple]``."""
        key = _target(edit)
        done = [change for change in changes(self.deck, edit) if change.key == key]
        return change_text(done[0]) if done else restore_text(self.deck, key, edit[key])

    def refusal(self, values: dict[Key, Any], m: Measures, than: Measures, stage: str,
                note: str) -> tuple[str, str] | None:  # fmt: skip
        """Why the deck of ``values`` is not accepted over ``than``: ``(guard, why)``, the
        guard first broken (``length``, ``edge``, ``new verdict``, ``excess``) and its
        numbers; None when it is better and its edge holds on the edge seed (module
        docstring; the check is logged)."""
        if not self.better(m, than):
            broken = self.settings.guards(m, self.original)
            if "length" in broken:
                turns, start = m.length["value"], self.original.length["value"]
                return "length", (f"games {100 * (turns / start - 1):+.1f}% longer ({turns:.2f} turns against the "
                                  f"original's {start:.2f}; allowed ±{100 * LENGTH_TOLERANCE:.0f}%)")  # fmt: skip
            if "edge" in broken:
                return "edge", _edge_words(m.edge_change, "the search seed")
            if new := self.new_verdicts(m, than):
                return new
            return "excess", (f"no better: excess {self.settings.excess(m, self.original):.2f} thresholds against "
                              f"{self.settings.excess(than, self.original):.2f}")  # fmt: skip
        if _polishing(stage) and (new := self.new_verdicts(m, than, at_threshold=True)):
            return new
        if self.settings.relaxed or self.check is None:
            return None
        change = self.check(values)
        grew = self.settings.edge_broken(change, self.original.edge["value"])
        self.edge_refused += grew
        self.log.append({"stage": f"edge check {stage}", "edits": note, "guards_broken": "edge" if grew else "",
                         "edge_change_pp": change["value"], "edge_change_low": change["low"],
                         "edge_change_high": change["high"], "edge_relaxed": False})  # fmt: skip
        return ("edge", _edge_words(change, "the edge seed")) if grew else None

    def new_verdicts(self, m: Measures, than: Measures, at_threshold: bool = False) -> tuple[str, str] | None:
        """``("new verdict", why)`` when ``m`` puts a card beyond the aim (``at_threshold``:
        beyond its practical threshold itself, a verdict) that ``than`` did not
        (:meth:`Settings.created`, against the original), naming them; else None."""
        settings = replace(self.settings, aim=1.0) if at_threshold else self.settings
        new = settings.created(m, self.original) - settings.created(than, self.original)
        if not new:
            return None
        turned = {t[:2] for t in settings.targets(self.original)}
        return "new verdict", "it put " + ", ".join(sorted(
            self.card(t).name + (" (the other way)" if t[:2] in turned else "") for t in new)) + (
            " beyond its threshold" if at_threshold else " beyond the aim")  # fmt: skip

    def attempt(self, values: dict[Key, Any], current: Measures, stage: str, target: Key, note: str,
                edit: str) -> tuple[Measures | None, tuple[str, str] | None]:  # fmt: skip
        """Play ``values`` against ``current`` for ``target``'s card and log the outcome:
        its measures (None when it does not validate) and its refusal (None when
        accepted)."""
        m = self.play(values)
        card = self.card(target).id
        if m is None:
            self.record(stage, None, note, card, "validation", INVALID, edit)
            return None, ("validation", INVALID)
        refused = self.refusal(values, m, current, stage.split()[-1], note)
        why = f"{refused[1]}, {m.settled}" if refused and m.settled else refused[1] if refused else (
            f"accepted (in-sample, {_quantity_words(m, target)})")  # m.settled: refused early (--until-settled)
        self.record(stage, m, note, card, refused[0] if refused else "", why, edit, target,
                    quantity(current, *target[:2]))  # fmt: skip
        return m, refused

    def screen(self, deck: Deck, values: dict[Key, Any], current: Measures,
               stage: str) -> list[list[tuple[float, Edit]]]:  # fmt: skip
        """The single-card edits of each target that move its quantity towards zero,
        ``(|quantity| after, edit)``, those that keep the first player's edge
        first, then the closest to zero; the targets whose best edit gains most first
        (docs/EXPERIMENTS.md, advise: *The search*). Every edit played is kept in :attr:`screened`."""
        best = []
        self.screened = []
        targets = []
        effects = np.nan_to_num(current.allies["effect_pp"].to_numpy(np.float64))
        for section, index, direction in self.settings.targets(current):
            keys = sorted(k for k in self.allowed if k[:2] == (section, index))
            if (section, index, "points") in keys:  # a task's reward first: its requirement moves its difficulty too
                keys = [(section, index, "points")]
            targets.append((section, index, [edit for key in keys for edit in
                                             candidate_edits(deck, key, direction, self.allowed, effects)
                                             if self.room(values, edit)]))  # fmt: skip
        edits, cards = sum(len(found) for *_, found in targets), sum(bool(found) for *_, found in targets)
        self.status(f"round {stage.split()[-1]}: " + (f"screening {edits} edit{'s' * (edits != 1)} of {cards} "
                    f"card{'s' * (cards != 1)}" if edits else "no edit left to screen"), current)  # fmt: skip
        for section, index, candidates in targets:
            start = quantity(current, section, index)
            before = abs(start)
            found = []
            for edit in candidates:
                note, card = _note(edit), self.card(_target(edit)).id
                if self.trial is None:
                    m = self.play({**values, **edit})
                else:  # the best so far: the current deck, or a closer edit that kept the edge
                    bar = min([before, *(after for (grew, after), _ in found if not grew)])
                    m = self.trial({**values, **edit}, Trial(section, index, bar, self.settings.aim_of(section),
                                                             np.sign(start), self.settings.band_of(section)))  # fmt: skip
                if m is None:
                    self.record(stage, None, note, card, "validation", INVALID, self.edit(edit))
                    continue
                self.tried += 1
                if isinstance(m, str):
                    self.record(stage, None, note, card, "dropped early", m, self.edit(edit))
                    continue
                self.screened.append((edit, m))
                after = abs(quantity(m, section, index))
                closer = after < before
                self.record(stage, m, note, card, "" if closer else "no closer",
                            m.settled if closer else f"it did not move its {_quantity_words(m, _target(edit))} towards "
                            f"zero (from {start:+.2f})", self.edit(edit), _target(edit), start)  # fmt: skip
                grew = not self.settings.relaxed and self.settings.edge_broken(m.edge_change, self.original.edge["value"])
                self.edge_refused += bool(closer and grew)
                if closer:
                    found.append(((grew, after), edit))
            if found:
                best.append([(rank[1], edit) for rank, edit in sorted(found, key=lambda f: f[0])])
        return sorted(best, key=lambda edits: edits[0][0] - abs(quantity(current, *_target(edits[0][1])[:2])))

    def combine(self, values: dict[Key, Any], current: Measures, best: list[list[tuple[float, Edit]]],
                round_: int) -> tuple[dict[Key, Any], Measures] | None:  # fmt: skip
        """Each target's best screened edit, together (but in the polishing round); else
        added one target at a time, a target's next edit tried when the edge refused
        its better one, or a new verdict in the polishing round (docs/EXPERIMENTS.md, advise: *The
        search*, *The polishing round*).
        None when no edit makes the deck better. The targets whose best edit the edge
        or length guard refused are left in :attr:`refused`. An edit that sets a field
        another edit of the round already set (an ability moved to or from a target)
        is left out."""
        self.refused = {}
        chosen: dict[Key, Any] = {}
        polishing = _polishing(round_)
        for edits in () if polishing else best:  # the best-ranked targets first, while the deck has room (max_edits)
            edit = edits[0][1]
            if set(edit) & set(chosen):
                continue
            if self.room({**values, **chosen}, edit):
                chosen |= edit
            else:
                self.full(f"combined {round_}", edit)
        combined = None if polishing else self.play({**values, **chosen})
        if combined is not None:
            self.record(f"combined {round_}", combined, f"{len(chosen)} edits")
            if self.refusal({**values, **chosen}, combined, current, str(round_), f"{len(chosen)} edits") is None:
                return {**values, **chosen}, combined
        trial_values, trial = dict(values), current
        pending = [[edit for _, edit in edits] for edits in best]
        for _ in range(2):  # a target whose edits the edge refused is tried once more, after the others
            refused = []
            for edits in pending:
                for edit in edits:
                    if any(trial_values.get(key) != values.get(key) for key in edit):
                        continue  # a field this round set already
                    self.status(f"round {round_}: combining", trial)
                    if not self.room(trial_values, edit):
                        self.full(f"greedy {round_}", edit)
                        break
                    target = _target(edit)
                    m, why = self.attempt({**trial_values, **edit}, trial, f"greedy {round_}", target, _note(edit),
                                          self.edit(edit))  # fmt: skip
                    if m is not None and why is None:
                        trial_values, trial = {**trial_values, **edit}, m
                        self.refused.pop(target[:2], None)
                        break
                    if m is None:
                        continue
                    if edit == edits[0] and why[0] in ("edge", "length"):
                        self.refused[target[:2]] = (edit, why[0], m)
                    if why[0] != "edge" and not (polishing and why[0] == "new verdict"):
                        break  # refused for its length, its excess or its validity, not for the edge
                else:
                    refused.append(edits)
            pending = refused
        return (trial_values, trial) if trial is not current else None

    def compensators(self, guard: str, refused: Measures, values: dict[Key, Any], current: Measures,
                     cards: set[tuple[str, int]]) -> list[Edit]:  # fmt: skip
        """At most :data:`PAIRS` screened edits (:attr:`screened`, the last round's, of
        no card in ``cards``) that break no guard themselves and lowered the first
        player's edge (``guard`` ``edge``) or moved game length back towards the
        original's (``length``); those that do not push the other guard's quantity
        the wrong way (lengthen games, raise the edge) first, then the most."""
        sign = 1.0 if refused.length["value"] > self.original.length["value"] else -1.0
        edge, length = (lambda m: m.edge_change["value"]), (lambda m: sign * m.length["value"])
        measure, other = (edge, length) if guard == "edge" else (length, edge)
        pool = [(other(m) > other(current), measure(m), edit) for edit, m in self.screened
                if not {key[:2] for key in edit} & cards and any(values.get(k) != v for k, v in edit.items())
                and measure(m) < measure(current) and not self.settings.guards(m, self.original)]  # fmt: skip
        return [edit for *_, edit in sorted(pool, key=lambda p: p[:2])[:PAIRS]]

    def compensate(self, values: dict[Key, Any], current: Measures, move: list[Edit], guard: str,
                   refused: Measures, round_: int) -> tuple[dict[Key, Any], Measures] | None:  # fmt: skip
        """Pair moves (docs/EXPERIMENTS.md, advise: *Pair moves*): ``move`` (a target's fix, first, and the
        compensating edits so far), which ``guard`` alone refused with measures
        ``refused``, tried with each of its :meth:`compensators` in turn, on the same
        seeds and under the same guards. A pair that the other guard refuses is tried
        with a compensator for that one (at most two compensating edits). The values
        and measures accepted, or None."""
        target = _target(move[0])
        cards = {key[:2] for edit in move for key in edit}
        merged = {key: value for edit in move for key, value in edit.items()}
        for other in self.compensators(guard, refused, {**values, **merged}, current, cards):
            self.status(f"round {round_}: pair moves", current)
            trial = [*move, other]
            notes = tuple(sorted(_note(edit) for edit in trial))
            if notes in self.moves:  # the same edits, compensated in the other order
                continue
            stage = f"{'pair' if len(trial) == 2 else 'triple'} {round_}"
            if not self.room(values, {**merged, **other}):
                self.full(stage, other)
                continue
            self.moves.add(notes)
            first, *others = (self.edit(edit) for edit in trial)
            m, why = self.attempt({**values, **merged, **other}, current, stage, target,
                                  " + ".join(_note(edit) for edit in trial), f"{first}, with {' and '.join(others)}")
            if m is not None and why is None:
                return {**values, **merged, **other}, m
            if len(trial) == 2 and m is not None and why[0] in ("edge", "length") and why[0] != guard:
                accepted = self.compensate(values, current, trial, why[0], m, round_)
                if accepted is not None:
                    return accepted
        return None

    def pairs(self, values: dict[Key, Any], current: Measures, round_: int) -> tuple[dict[Key, Any], Measures]:
        """Pair moves (docs/EXPERIMENTS.md, advise: *Pair moves*) for each target whose best edit the edge or
        length guard alone refused in the last round (:meth:`compensate`)."""
        for target, (edit, guard, m) in list(self.refused.items()):
            if target not in {t[:2] for t in self.settings.targets(current)}:
                continue
            accepted = self.compensate(values, current, [edit], guard, m, round_)
            if accepted is not None:
                values, current = accepted
        return values, current

    def rounds(self) -> tuple[dict[Key, Any], Measures]:
        """Screen and combine, round after round, the polishing round, then pair moves
        for what the guards refused (docs/EXPERIMENTS.md, advise: *The search* and after): the edits
        chosen and the
        chosen deck's measures (the original's when none)."""
        values: dict[Key, Any] = {}
        current = self.original
        self.limits = self.limits or Limits.of(parse_deck(self.text, self.file))
        self.deck = check(apply(self.text, {}, self.file), self.file, self.limits)
        self.screened, self.refused, self.moves = [], {}, set()
        for round_ in range(1, ROUNDS + 2):  # the last, the polishing round
            deck = check(apply(self.text, values, self.file), self.file, self.limits)
            best = self.screen(deck, values, current, f"screen {round_}")
            accepted = self.combine(values, current, best, round_) if best else None
            if accepted is None:
                break
            values, current = accepted
        return self.pairs(values, current, round_)

    def run(self) -> tuple[dict[Key, Any], Measures]:
        """:meth:`rounds` with the first player's edge as a guard, then, when that
        proposes nothing although an edit was refused for the edge alone, again with
        the edge relaxed (:attr:`Settings.relaxed`; docs/EXPERIMENTS.md, advise: *The first player's
        edge is a hard constraint*)."""
        values, current = self.rounds()
        if not values and self.edge_refused:
            self.settings = replace(self.settings, relaxed=True)
            values, current = self.rounds()
        return values, current


def _polishing(round_: int | str) -> bool:
    """Is round ``round_`` (its number, as a stage names it) the polishing round, or
    the pair moves after it (docs/EXPERIMENTS.md, advise: *The polishing round*)?"""
    return int(round_) > ROUNDS


def _edge_words(change: dict, sample: str) -> str:
    return (f"the first player's edge grew by {change['value']:+.2f} pp (95% CI {change['low']:+.2f} to "
            f"{change['high']:+.2f}) on {sample}")  # fmt: skip


def _quantity_words(m: Measures, key: Key) -> str:
    what = "effect" if key[0] == "allies" else "gap from par"
    return f"{what} {quantity(m, key[0], key[1]):+.2f} {'pp' if key[0] == 'allies' else 'points'}"


def _outside(value: float, bounds: tuple[float, float]) -> float:
    """How far ``value`` lies outside ``bounds`` (low, high); 0 inside."""
    return max(bounds[0] - value, 0.0, value - bounds[1])


def _target(edit: Edit) -> Key:
    """The field of an edit's target card: its first."""
    return next(iter(edit))


def _note(edit: Edit) -> str:
    """An edit as the log writes it: ``allies[15].symbols = ['yellow']`` (`` + `` between fields)."""
    return " + ".join(f"{key[0]}[{key[1]}].{key[2]} = {value}" for key, value in edit.items())
