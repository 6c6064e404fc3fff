"""A run directory opened for the reports: manifest, deck, label, and lazy tables.

Every report table is computed per run and the runs' rows are stacked, each row
keyed by ``run`` (the directory's name), ``players`` (player count) and ``bots`` (the
bot mix). Passing several runs — other player counts, other bots, other decks —
splits every figure by them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl

from analysis.data.load import manifest as read_manifest
from analysis.data.load import scan
from sim.cards import Deck, load_deck
from sim.rundir import RunError, check_parts

KEYS = ("run", "players", "bots")
Sums = dict[str, np.ndarray]


@dataclass(frozen=True)
class Run:
    """One run directory of :func:`sim.run.runner.simulate`.

    Attributes
    ----------
    path : Path
    manifest : dict
        ``manifest.json`` (see :mod:`sim.rundir.manifest`).
    deck : sim.cards.Deck
        The run's copy of the card file, ``cards.yaml``: card names, estimated
        flags and morale save probabilities come from it.
    """

    path: Path
    manifest: dict = field(repr=False)
    deck: Deck = field(repr=False)

    @classmethod
    def open(cls, run_dir: str | Path) -> Run:
        """Read a run directory's manifest and card file.

        Raises
        ------
        sim.rundir.RunError
            Without a readable manifest, or when the card file's hash is not the
            manifest's (the card names would not be the run's), or when a part is
            damaged (:func:`sim.rundir.check_parts`).
        sim.cards.DeckError
            When the run's ``cards.yaml`` is missing or invalid.
        """
        path = Path(run_dir)
        manifest = read_manifest(path)
        deck = load_deck(path / "cards.yaml")
        if deck.content_hash != manifest.get("deck_hash"):
            raise RunError(f"{path}/cards.yaml is not the deck this run played (its hash differs from the manifest's)")
        check_parts(path, manifest)
        return cls(path, manifest, deck)

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def players(self) -> int:
        return int(self.manifest["n_players"])

    @property
    def bot_names(self) -> list[str]:
        """The run's bots, one per seat, as given to ``simulate``."""
        return list(self.manifest["bots"])

    @property
    def bots(self) -> str:
        """The bot mix, e.g. ``4 × random`` or ``1 × greedy + 3 × random``."""
        return " + ".join(f"{count} × {bot}" for bot, count in sorted(Counter(self.bot_names).items()))

    @property
    def label(self) -> str:
        return f"{self.name}: {self.players} players, {self.bots}"

    @property
    def baseline(self) -> float:
        """Win rate of a player at a fair table, ``1 / players`` (R9.3: one winner)."""
        return 1.0 / self.players

    def scan(self, table: str, *columns: str) -> pl.LazyFrame:
        """The run's ``table`` (games, players, cards), lazily, with only ``columns``."""
        frame = scan(self.path, table)
        return frame.select(columns) if columns else frame

    @cached_property
    def games(self) -> int:
        """Games in the run's tables (fewer than requested while a run is incomplete)."""
        return int(self.scan("games", "game").select(pl.len()).collect().item())

    @cached_property
    def unfinished(self) -> pl.Series:
        """Game indices of the stalled and truncated games (RULES R4 Reading)."""
        games = self.scan("games", "game", "stalled", "truncated")
        return games.filter((pl.col("stalled") + pl.col("truncated")) > 0).select("game").collect()["game"]

    def scan_for_win_rates(self, table: str, *columns: str, include_unfinished: bool = False) -> pl.LazyFrame:
        """``scan`` without the stalled and truncated games unless asked for (R4
        Reading: they are left out of win-rate figures)."""
        frame = self.scan(table, *columns, *(() if "game" in columns else ("game",)))
        if not include_unfinished and len(self.unfinished):
            frame = frame.filter(~pl.col("game").is_in(self.unfinished.implode()))
        return frame


RunsLike = Run | str | Path | Sequence[Run | str | Path]


SAME_GAMES = ("n_games", "n_players", "root_seed", "rule_options", "rules_version")
"""The manifest keys on which a companion (:mod:`sim.run.companion`) agrees with its run:
the same games, from the same seeds."""


def _at_most(games, of) -> bool:
    return isinstance(games, int) and isinstance(of, int) and 0 < games <= of


def companion_run(run: Run, key: str, what: str, deck_hash: str, same_bots: bool,
                  first_games: bool = False) -> tuple[Run | None, str]:  # fmt: skip
    """The run's companion ``key`` (:mod:`sim.run.companion`), if it has a sound one.

    Parameters
    ----------
    run : Run
    key : str
        The companion's key in the manifest's ``companions`` (:mod:`sim.rundir.schema`).
    what : str
        The companion as the reasons name it, e.g. "points-blind companion".
    deck_hash : str
        The content hash of the deck it must have played.
    same_bots : bool
        Whether it must have played the run's bots.
    first_games : bool
        Whether it may have played only the run's first games (the skilled
        companion, :mod:`sim.run.skilled`): at most the run's ``n_games``, not all of them.

    Returns
    -------
    companion : Run or None
        None when the run's manifest records no such companion, or the one recorded
        is incomplete or did not replay the run's games (:data:`SAME_GAMES`).
    why : str
        Empty with a companion; otherwise why there is none, as a sentence.
    """
    recorded = (run.manifest.get("companions") or {}).get(key)
    if not isinstance(recorded, dict):
        return None, f"{run.name} has no {what} run"
    try:
        companion = Run.open(run.path / str(recorded.get("dir", key)))
    except (RunError, OSError, ValueError) as exc:
        return None, f"{run.name}'s {what} cannot be read ({str(exc)[:200]})"
    same = (*SAME_GAMES, "bots") if same_bots else SAME_GAMES
    differ = [k for k in same if companion.manifest.get(k) != run.manifest.get(k)
              and not (k == "n_games" and first_games and _at_most(companion.manifest.get(k), run.manifest.get(k)))]
    if companion.manifest.get("status") != "complete":
        differ.append("status")
    if companion.deck.content_hash != deck_hash:
        differ.append("deck")
    if differ:
        return None, f"{run.name}'s {what} did not replay the run's games ({', '.join(differ)} differ)"
    return companion, ""


def open_runs(runs: RunsLike) -> list[Run]:
    """One or several runs, given as :class:`Run` objects or run directories.

    Raises
    ------
    sim.rundir.RunError, sim.cards.DeckError
        As :meth:`Run.open`; also when no run is given, or two runs have the same
        directory name.
    """
    items = [runs] if isinstance(runs, (Run, str, Path)) else list(runs)
    if not items:
        raise RunError("no run directory given")
    opened = [item if isinstance(item, Run) else Run.open(item) for item in items]
    names = [run.name for run in opened]
    if len(set(names)) < len(names):
        raise RunError(f"runs are told apart by their directory names, and these repeat: {', '.join(names)}")
    return opened


def per_run(runs: RunsLike, table: Callable[[Run], pd.DataFrame]) -> pd.DataFrame:
    """Stack ``table(run)`` over the runs, each row keyed by ``run``, ``players`` and
    ``bots`` (the first three columns).

    Raises
    ------
    sim.rundir.RunError, sim.cards.DeckError
        As :func:`open_runs`.
    """
    frames = []
    for run in open_runs(runs):
        frame = table(run)
        for position, (key, value) in enumerate(zip(KEYS, (run.name, run.players, run.bots))):
            frame.insert(position, key, value)
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)
