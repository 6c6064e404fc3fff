"""How the advisor plays its decks (:mod:`.advise`): the :class:`Plan` of one advice,
which every stage reads, and its :class:`Runs`, which play (or reuse) each deck the
search and the stages after it ask for and count their games.

A deck's run is named by its content hash in ``out/search/``, ``out/holdout/`` or
``out/edge/`` and resumed when asked for again, so a deck already played is reused and
its games are counted once. Its points-blind companion (:mod:`sim.run.points_blind`) is
played only where a decision reads its tasks, and takes the chunks of another deck's
companion of the same points-blind deck (:func:`sim.run.runner.simulate`'s ``donors``).
With ``--until-settled`` every deck of the search but the original, and each edit alone,
plays in rounds (:mod:`.advise_rounds`; the rule: docs/EXPERIMENTS.md, advise: *Until
settled*).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from analysis.experiments.advise_edits import Key, Limits, Lock, apply, check, editable, only_cards, tidy
from analysis.experiments.advise_measures import Measures, edge_change, edge_seed, mean_turns, measure, quantity_bounds
from analysis.experiments.advise_rounds import Guards, Trial, screened_in_rounds, whole_in_rounds
from analysis.experiments.advise_search import AIM, LENGTH_TOLERANCE, Search, Settings
from analysis.experiments.tune import holdout_seed
from analysis.experiments.until_settled import round_plan
from analysis.stats.sequential import mixture_rho
from sim.cards import Deck, load_deck
from sim.rundir import read_manifest


@dataclass(frozen=True)
class Plan:
    """What every stage of one advice reads: :func:`.advise.advise`'s arguments, the
    card file read once, and what follows from them (:meth:`of`).

    Attributes
    ----------
    cards, out : Path
        The card file and the folder of the runs and the proposal.
    text : str
        The card file's text; every deck played is it with some values in place.
    original : Deck
        The card file's deck.
    allowed : set of Key
        The values the search may edit (:func:`.advise_edits.editable`).
    limits : Limits
        What no deck may do that the original does not.
    settings : Settings
        The search's thresholds and guards as it starts (it may relax the edge:
        :attr:`Runs.search`'s are the current ones).
    n_games, holdout_games, players, bots, seed, n_jobs, threshold_pp, threshold_points, round_games
        As :func:`.advise.advise`.
    search_chunk : int
        The chunk of the search seed's runs: a round's games with ``round_games``.
    rho : float or None
        The confidence sequences' mixture parameter, games (None without ``round_games``).
    first : str
        The original's run name (its content hash's first 16 digits), against which
        every deck's edge change is paired.
    """

    cards: Path
    out: Path
    text: str
    original: Deck
    allowed: set[Key]
    limits: Limits
    settings: Settings
    n_games: int
    holdout_games: int
    players: int
    bots: str | Sequence[str]
    seed: int
    n_jobs: int
    threshold_pp: float
    threshold_points: float
    round_games: int | None
    search_chunk: int
    rho: float | None
    first: str

    @property
    def fresh(self) -> int:
        """The hold-out seed (:func:`analysis.experiments.tune.holdout_seed`)."""
        return holdout_seed(self.seed)

    @classmethod
    def of(cls, cards: str | Path, out: str | Path, n_games: int, players: int, bots: str | Sequence[str], seed: int,
           threshold_pp: float, threshold_points: float, locks: Sequence[str], only_estimated: bool,
           target_turns: tuple[float, float] | None, holdout_games: int, n_jobs: int, only: Sequence[str],
           max_edits: int | None, abilities: bool, target_edge: tuple[float, float] | None, round_games: int | None,
           borderline_pp: float) -> Plan:  # fmt: skip
        """The plan of :func:`.advise.advise` with these arguments: the card file read and
        validated, the edits allowed, the search's settings.

        Raises
        ------
        sim.cards.DeckError
            When the card file does not validate.
        ValueError
            As :func:`.advise.advise` (a lock, an ``only`` id, ``max_edits``, ``round_games``).
        """
        from sim.run import DEFAULT_CHUNK

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
        return cls(cards, out, text, original, allowed, limits, settings, n_games, holdout_games, players, bots, seed,
                   n_jobs, threshold_pp, threshold_points, round_games, search_chunk, rho,
                   check(text, str(cards), limits).content_hash[:16])  # fmt: skip


@dataclass
class Runs:
    """The runs of one advice (module docstring): each deck played or reused, and
    its games counted once.

    Attributes
    ----------
    plan : Plan
    games : dict
        The games played or reused so far, by sample (``search``, ``edge``,
        ``holdout``, ``own``, ``short list``, then what the stages add):
        :attr:`.advise.Advice.games` but the counts :meth:`counts` adds.
    played : dict
        Each deck of the search seed, by run name: its measures, or why it was
        dropped early (``--until-settled``).
    refused : dict
        The whole decks a guard stopped early (``--until-settled``), by run name: the guard.
    counted : dict
        The games counted so far of each run and companion played or reused, by folder.
    blind_runs : dict
        The companions played, by their points-blind deck's hash: the donors of the next.
    search_blinds : set of str
        The points-blind decks of the search's companions.
    edge_runs : set of str
        The edge seed's runs played (their folders).
    search : Search or None
        The search, once it started: its settings and original are the guards'.
    stage, bar, current
        The progress: the stage shown, ``show(stage, search, best)``
        (:mod:`.advise_progress`) and the best deck so far.
    """

    plan: Plan
    games: dict[str, int] = field(default_factory=lambda: {"search": 0, "edge": 0, "holdout": 0, "own": 0,
                                                           "short list": 0})  # fmt: skip
    played: dict[str, Measures | str] = field(default_factory=dict)
    refused: dict[str, str] = field(default_factory=dict)
    counted: dict[Path, int] = field(default_factory=dict)
    blind_runs: dict[str, list[Path]] = field(default_factory=dict)
    search_blinds: set[str] = field(default_factory=set)
    edge_runs: set[str] = field(default_factory=set)
    search: Search | None = None
    stage: str = ""
    bar: Callable[[str, Search | None, Measures | None], None] = lambda *_: None
    current: Measures | None = None

    def counts(self) -> dict[str, int]:
        """:attr:`.advise.Advice.games`: :attr:`games`, then ``candidates`` (the decks
        played on the search seed) and ``search at fixed n`` (the search's games had
        each of them been played on ``n_games``: each deck's run, and one companion for
        each points-blind deck of the companions played)."""
        return {**self.games, "candidates": len(self.played),
                "search at fixed n": self.plan.n_games * (len(self.played) + len(self.search_blinds))}  # fmt: skip

    def show(self, stage: str, best: Measures) -> None:
        """The search's progress (its ``status``): ``stage`` and the best deck so far."""
        self.stage, self.current = stage, best
        self.bar(stage, self.search, best)

    def run(self, deck: Deck, run_dir: Path, run_seed: int, n: int, sample: str, blind: bool = True) -> Path:
        """Play (or reuse) the run in ``run_dir`` to ``n`` games and, with ``blind``, its
        points-blind companion, counting their games under ``sample``. The companion
        takes the chunks it shares with another deck's (a deck that differs only in
        its tasks' points has the same points-blind deck, :func:`sim.run.points_blind.points_blind_deck`)
        instead of playing them again, and they are not counted."""
        from sim.run.points_blind import play_points_blind, points_blind_deck
        from sim.run.runner import borrowed_games, simulate

        plan = self.plan
        simulate(deck, n, run_dir, plan.players, plan.bots, run_seed, plan.n_jobs,
                 resume=(run_dir / "manifest.json").exists(), progress=False, chunk_size=plan.search_chunk)  # fmt: skip
        self.games[sample] += n - self.counted.get(run_dir, 0)  # played now or reused from out, each game once
        self.counted[run_dir] = n
        if blind:
            blind_deck = points_blind_deck(deck).content_hash
            donors = self.blind_runs.setdefault(blind_deck, [])
            if sample == "search":
                self.search_blinds.add(blind_deck)
            companion = play_points_blind(run_dir, plan.n_jobs, progress=False, donors=donors)
            self.games[sample] += n - self.counted.get(companion, 0) - borrowed_games(companion)
            self.counted[companion] = n
            if companion not in donors:
                donors.append(companion)
        return run_dir

    def held(self, run_dir: Path) -> int:
        """The games a run in rounds starts from: what ``run_dir`` holds (reused), else one round."""
        return read_manifest(run_dir)["n_games"] if (run_dir / "manifest.json").exists() else self.plan.round_games

    def whole_at(self, deck: Deck, run_dir: Path, run_seed: int, sample: str,
                 blind: bool = True) -> Callable[[], Measures]:  # fmt: skip
        """The :func:`.advise_measures.measure` of a run in rounds at the games it holds,
        with ``blind`` its points-blind companion brought level first."""
        return lambda: measure(self.run(deck, run_dir, run_seed, self.held(run_dir), sample, blind),
                               self.plan.threshold_pp, self.plan.threshold_points)  # fmt: skip

    def quantity_to(self, deck: Deck, run_dir: Path, run_seed: int, sample: str, section: str, index: int,
                    blind: bool) -> Callable[[int], tuple[float, float, float]]:  # fmt: skip
        """A round's ``play_to``: bring the run (with ``blind``, its points-blind
        companion too) to ``n`` games and give the card's quantity with its 95% interval
        (:func:`.advise_measures.quantity_bounds`)."""
        def play_to(n: int) -> tuple[float, float, float]:
            self.run(deck, run_dir, run_seed, n, sample, blind)
            return quantity_bounds(run_dir, section, index, self.plan.threshold_pp, self.plan.threshold_points)

        return play_to

    def measured(self, deck: Deck, run_dir: Path, tasks: bool, n: int | None = None) -> Measures:
        """:func:`.advise_measures.measure` of the deck at ``n`` games of the search seed
        (None: those its run holds); without ``tasks``, of the run alone (its
        points-blind companion not played). A screened ally's edit is measured so: the
        screen reads only its effect, length and edge, and its tasks are measured when
        its deck is asked for whole; a task's gap needs the companion."""
        plan = self.plan
        n = self.held(run_dir) if n is None else n
        return measure(self.run(deck, run_dir, plan.seed, n, "search", tasks), plan.threshold_pp,
                       plan.threshold_points, tasks=tasks)  # fmt: skip

    def judged(self, deck: Deck, run_dir: Path, values: dict[Key, Any], n: int | None = None) -> Measures:
        """A whole deck's measures (:meth:`measured`): its run alone first, and when it
        breaks the length guard or the first player's edge against the original
        (:meth:`.advise_search.Settings.guards`), which refuse it whatever its excess,
        nothing more; else its tasks too, its companion played. Its ``edge_change``
        is set; ``values`` are not empty (the original is no candidate)."""
        m = replace(self.measured(deck, run_dir, False, n),
                    edge_change=edge_change(self.plan.out / "search" / self.plan.first, run_dir))  # fmt: skip
        if self.search.settings.guards(m, self.search.original):
            return m
        return replace(self.measured(deck, run_dir, True, n), edge_change=m.edge_change)

    def in_rounds(self, deck: Deck, run_dir: Path, trial: Trial) -> Measures | str:
        """A screened edit played in rounds (:func:`.advise_rounds.screened_in_rounds`):
        each round plays the run alone when the target is an ally (its effect needs
        no points-blind games) and measures the target's quantity alone; its
        :meth:`measured` measures are taken once, when the edit is not dropped."""
        plan = self.plan
        blind = trial.section == "tasks"
        play_to = self.quantity_to(deck, run_dir, plan.seed, "search", trial.section, trial.index, blind)
        return screened_in_rounds(play_to, lambda: self.measured(deck, run_dir, blind), trial,
                                  min(self.held(run_dir), plan.n_games), plan.n_games, plan.round_games,
                                  plan.rho)  # fmt: skip

    def guards(self, values: dict[Key, Any]) -> Guards | None:
        """What ``--until-settled`` watches a whole deck of ``values`` for
        (:func:`.advise_rounds.whole_in_rounds`); None plays it whole on ``n_games``:
        without the rule, for the original deck, and with a ``--target`` (the guards
        then measure distances from its range, not a sure break)."""
        plan = self.plan
        if (plan.round_games is None or not values or plan.settings.target_turns is not None
                or plan.settings.target_edge is not None):  # fmt: skip
            return None
        return Guards(self.search.original.length["value"], LENGTH_TOLERANCE,
                      not self.search.settings.relaxed)  # fmt: skip

    def whole_rounds(self, deck: Deck, run_dir: Path, watched: Guards,
                     values: dict[Key, Any]) -> tuple[Measures, str]:  # fmt: skip
        """A whole deck in rounds (:func:`.advise_rounds.whole_in_rounds`): each round
        plays the run alone and reads its length and its edge change; its
        :meth:`judged` measures are taken once, at the games played."""
        plan = self.plan

        def play_to(n: int) -> tuple[dict, dict]:
            self.run(deck, run_dir, plan.seed, n, "search", blind=False)
            return mean_turns(run_dir), edge_change(plan.out / "search" / plan.first, run_dir)

        return whole_in_rounds(play_to, lambda: self.judged(deck, run_dir, values), watched,
                               min(self.held(run_dir), plan.n_games), plan.n_games, plan.round_games,
                               plan.rho)  # fmt: skip

    def check_edge(self, values: dict[Key, Any]) -> dict:
        """The first player's edge change on the edge seed, ``holdout_games`` games each."""
        from sim.run.runner import simulate

        plan = self.plan
        dirs = []
        for deck in (plan.original, check(apply(plan.text, values, str(plan.cards)), str(plan.cards), plan.limits)):
            dirs.append(plan.out / "edge" / deck.content_hash[:16])
            if str(dirs[-1]) not in self.edge_runs:
                simulate(deck, plan.holdout_games, dirs[-1], plan.players, plan.bots, edge_seed(plan.seed),
                         plan.n_jobs, resume=(dirs[-1] / "manifest.json").exists(), progress=False)  # fmt: skip
                self.edge_runs.add(str(dirs[-1]))
                self.games["edge"] += plan.holdout_games
        return edge_change(*dirs)

    def play(self, values: dict[Key, Any], trial: Trial | None = None) -> Measures | str | None:
        """The deck of ``values`` on the search seed, ``n_games`` games. With ``trial``,
        a screened edit (:meth:`measured`): with ``--until-settled`` in rounds, maybe
        dropped (why, a string) or settled early. A screened edit asked for whole
        later (greedy's first step) is brought whole then."""
        plan, played, refused = self.plan, self.played, self.refused
        deck = check(apply(plan.text, tidy(plan.original, values), str(plan.cards)), f"{plan.cards} (candidate)",
                     plan.limits)  # fmt: skip
        if deck is None:
            return None
        name = deck.content_hash[:16]
        stopped = (name in played and (isinstance(played[name], str) or played[name].settled)
                   and not (name in refused and (refused[name] == "length" or not self.search.settings.relaxed)))
        # a deck a guard surely refused is never played further, unless the search relaxed the edge that refused it
        partial = (name in played and not isinstance(played[name], str) and played[name].tasks is None
                   and not self.search.settings.guards(played[name], self.search.original))
        # a screened ally's edit, its tasks not measured, that no guard refuses: measured whole when asked for
        untasked = (trial is not None and trial.section == "tasks" and name in played
                    and not isinstance(played[name], str) and played[name].tasks is None)  # fmt: skip
        # a task's screened edit that lands on the deck of an ally's, measured without its tasks: a task's gap needs them
        if name not in played or untasked or (trial is None and (stopped or partial)):  # dropped, settled early or partial
            run_dir = plan.out / "search" / name  # asked for whole
            if not values:  # the original
                played[name] = self.measured(deck, run_dir, True, plan.n_games)
            elif trial is None and self.guards(values) is not None:
                played[name], guard = self.whole_rounds(deck, run_dir, self.guards(values), values)
                if guard:
                    refused[name] = guard
            elif trial is None:
                played[name] = self.judged(deck, run_dir, values, plan.n_games)
            else:
                m = self.measured(deck, run_dir, trial.section == "tasks", plan.n_games) if plan.round_games is None \
                    else self.in_rounds(deck, run_dir, trial)  # fmt: skip
                if isinstance(m, str):  # dropped
                    played[name] = m
                    return m
                played[name] = replace(m, edge_change=edge_change(plan.out / "search" / plan.first, run_dir))
            self.bar(self.stage, self.search, self.current)
        return played[name]

    def on_holdout(self, values: dict[Key, Any], sample: str,
                   blind: bool = True) -> tuple[Path | None, Measures | None]:  # fmt: skip
        """The card file with ``values`` in place, played on the hold-out seed
        (``holdout_games`` games, and with ``blind`` as many points-blind, counted under
        ``sample``) in ``out/holdout/`` (a deck already played is reused): its run
        directory and measures, or (None, None) when it does not validate. Without the
        points-blind games the tasks' gaps are judged on the difficulty as played
        (:func:`analysis.task_calibration.points_blind_run`): only the allies' effects
        are then to be read."""
        plan = self.plan
        deck = check(apply(plan.text, values, str(plan.cards)), str(plan.cards), plan.limits)
        if deck is None:
            return None, None
        run_dir = self.run(deck, plan.out / "holdout" / deck.content_hash[:16], plan.fresh, plan.holdout_games, sample,
                           blind)  # fmt: skip
        return run_dir, measure(run_dir, plan.threshold_pp, plan.threshold_points)
