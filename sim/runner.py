"""Batch runs: many games in chunks, in parallel, streamed to a run directory.

Run directory (the contract with :mod:`analysis`)::

    <out>/manifest.json                   what was run, by which code, and how long it took
    <out>/cards.yaml                      a copy of the card file used
    <out>/games/part-NNNNN.parquet        one part per chunk, for each of the three
    <out>/players/part-NNNNN.parquet      tables of sim.record.Record.tables()
    <out>/cards/part-NNNNN.parquet

Chunk ``k`` holds games ``k * chunk_size .. (k + 1) * chunk_size - 1``. Every game's
random streams depend only on the root seed and its game index (:mod:`sim.rng`), so
the tables are the same whatever the number of workers, the chunk size, the backend,
or how often the run was interrupted and resumed.

A worker writes each part under a temporary name and renames it when complete, so a
part that exists is whole; a chunk is complete when all three of its parts exist.
``resume=True`` skips complete chunks and replays the others.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from sim import __version__
from sim.cards import Deck, load_deck
from sim.deck_arrays import DeckArrays, compile_deck
from sim.bots.spec import BotSpec, parse_bot
from sim.engine import check_players, run_games
from sim.options import RuleOptions
from sim.progress import RunProgress
from sim.rules import RULES_VERSION
from sim.state import new_state

TABLES = ("games", "players", "cards")
MANIFEST = "manifest.json"
DEFAULT_CHUNK = 25_000


class RunError(Exception):
    """A run that cannot start or resume; the message says what to change."""


@dataclass(frozen=True)
class RunSpec:
    """Everything that determines a run's tables (recorded in the manifest)."""

    deck_hash: str
    n_games: int
    n_players: int
    bots: tuple[str, ...]
    seed: int
    chunk_size: int
    options: dict = field(default_factory=dict)

    @property
    def n_chunks(self) -> int:
        return math.ceil(self.n_games / self.chunk_size)

    def chunk_games(self, chunk: int) -> tuple[int, int]:
        """(first game index, number of games) of chunk ``chunk``."""
        first = chunk * self.chunk_size
        return first, min(self.chunk_size, self.n_games - first)


def part_path(out_dir: Path, table: str, chunk: int) -> Path:
    return out_dir / table / f"part-{chunk:05d}.parquet"


def chunk_is_complete(out_dir: Path, chunk: int) -> bool:
    return all(part_path(out_dir, table, chunk).exists() for table in TABLES)


def run_chunk(out_dir: Path, arrays: DeckArrays, spec: RunSpec, bots: list[BotSpec], chunk: int) -> tuple[int, int, float]:
    """Play one chunk and write its three parts; returns (chunk, games, seconds).

    Runs in a worker process. Each part is written to ``*.tmp`` and renamed, so an
    interrupted write leaves no part behind.
    """
    start = time.perf_counter()
    first, n = spec.chunk_games(chunk)
    options = RuleOptions(**spec.options)
    state = new_state(arrays, options.to_array())
    record = run_games(arrays, spec.n_players, n, spec.seed, bots, options, first_game=first, state=state)
    for table, frame in record.tables().items():
        final = part_path(out_dir, table, chunk)
        temporary = final.with_suffix(".parquet.tmp")
        frame.write_parquet(temporary, statistics=False)
        os.replace(temporary, final)
    return chunk, n, time.perf_counter() - start


def _manifest(spec: RunSpec, cards_file: str) -> dict:
    return {
        "toolkit_version": __version__,
        "rules_version": RULES_VERSION,
        "deck_hash": spec.deck_hash,
        "cards_file": cards_file,
        "n_games": spec.n_games,
        "n_players": spec.n_players,
        "bots": list(spec.bots),
        "root_seed": spec.seed,
        "chunk_size": spec.chunk_size,
        "rule_options": spec.options,
        "tables": list(TABLES),
        "status": "running",
        "timings": {},
    }


def _write_json(path: Path, data: dict) -> None:
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(data, indent=2, sort_keys=False) + "\n", encoding="utf-8")
    os.replace(temporary, path)


def read_manifest(out_dir: str | Path) -> dict:
    """The manifest of a run directory.

    Raises
    ------
    RunError
        When the directory holds no readable manifest.
    """
    path = Path(out_dir) / MANIFEST
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise RunError(f"{path}: no readable run manifest ({exc})") from None


def _same_run(old: dict, new: dict) -> list[str]:
    keys = ("deck_hash", "n_games", "n_players", "bots", "root_seed", "chunk_size", "rule_options", "rules_version")
    return [key for key in keys if old.get(key) != new.get(key)]


def _prepare(out_dir: Path, spec: RunSpec, deck_text: str, cards_file: str, resume: bool) -> dict:
    manifest = _manifest(spec, cards_file)
    if (out_dir / MANIFEST).exists():
        if not resume:
            raise RunError(f"{out_dir} already holds a run; pass resume to continue it, or choose another directory")
        old = read_manifest(out_dir)
        differ = _same_run(old, manifest)
        if differ:
            raise RunError(
                f"{out_dir} holds a different run ({', '.join(differ)} differ); resume needs the same settings"
            )
        manifest["timings"] = old.get("timings", {})
    elif out_dir.exists() and any(out_dir.iterdir()):
        raise RunError(f"{out_dir} exists and is not a run directory; choose an empty or new directory")
    for table in TABLES:
        (out_dir / table).mkdir(parents=True, exist_ok=True)
        for stale in (out_dir / table).glob("*.tmp"):
            stale.unlink()
    (out_dir / "cards.yaml").write_text(deck_text, encoding="utf-8")
    _write_json(out_dir / MANIFEST, manifest)
    return manifest


@contextlib.contextmanager
def _backend(scheduler: str | None, dask_local: int | None) -> Iterator[str]:
    """joblib's backend: local processes (loky), or Dask for an existing cluster
    (``scheduler`` address) or a LocalCluster of ``dask_local`` workers."""
    if scheduler is None and dask_local is None:
        yield "loky"
        return
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise RunError("Dask is not installed: pip install 'revachol-balance[dask]'") from None
    import joblib

    with contextlib.ExitStack() as stack:
        if scheduler is not None:
            client = stack.enter_context(Client(scheduler))
        else:
            cluster = stack.enter_context(LocalCluster(n_workers=dask_local, threads_per_worker=1, processes=True))
            client = stack.enter_context(Client(cluster))
        stack.enter_context(joblib.parallel_config(backend="dask", wait_for_workers_timeout=60))
        yield f"dask ({client.scheduler.address})"


def warm_engine(arrays: DeckArrays, spec: RunSpec, bots: list[BotSpec]) -> None:
    """Compile the engine for this run, or load it from numba's cache, in this process
    by playing one game: the workers then only load the cache, instead of each
    compiling the engine at once and racing to write it."""
    options = RuleOptions(**spec.options)
    run_games(arrays, spec.n_players, 1, spec.seed, bots, options, state=new_state(arrays, options.to_array()))


def simulate(
    cards: str | Path | Deck,
    n_games: int,
    out_dir: str | Path,
    players: int = 4,
    bots: str | Sequence[str] = "random",
    seed: int = 0,
    n_jobs: int = -1,
    options: RuleOptions = RuleOptions(),
    chunk_size: int = DEFAULT_CHUNK,
    resume: bool = False,
    progress: bool | None = None,
    scheduler: str | None = None,
    dask_local: int | None = None,
    cards_file: str | Path | None = None,
) -> Path:
    """Play ``n_games`` games and write them to the run directory ``out_dir``.

    Parameters
    ----------
    cards : path or Deck
        The card file (validated) or a validated deck.
    n_games : int
        Games to play (games).
    out_dir : path
        A new or empty directory, or an existing run's when ``resume``.
    players : int
        Seats, 2-4 (R2.1).
    bots : str or sequence of str
        One bot for every seat, or one per seat (:mod:`sim.bots.spec`, e.g.
        ``greedy:w_points=2``, ``random:never=harry_du_bois``).
    seed : int
        Root seed; game ``g`` depends only on ``(seed, g)``.
    n_jobs : int
        Worker processes (joblib: -1 = every core).
    chunk_size : int
        Games per chunk, i.e. per Parquet part and unit of resume.
    resume : bool
        Continue the run in ``out_dir``, reusing its complete chunks.
    progress : bool, optional
        Show the compilation status, then a bar of games with games/s and ETA
        (:mod:`sim.progress`); default: when stderr is a terminal.
    scheduler, dask_local : optional
        Run on the Dask cluster at this address, or on a new LocalCluster of this
        many workers, through joblib's Dask backend.
    cards_file : path, optional
        Where an in-memory ``cards`` deck was read from, for the manifest and the
        copy in the run directory.

    Returns
    -------
    Path
        ``out_dir``, with a complete manifest.

    Raises
    ------
    RunError
        For a directory that cannot take this run.
    sim.cards.DeckError
        For an invalid card file.
    ValueError
        For a player count, bot or option the rules do not allow.
    """
    import joblib

    if n_games < 1 or chunk_size < 1:
        raise ValueError(f"n_games and chunk_size must be at least 1, got {n_games} and {chunk_size}")
    if not isinstance(cards, Deck):
        cards_file, cards = cards, load_deck(cards)
    deck = cards
    arrays = compile_deck(deck)
    seats = (bots,) * players if isinstance(bots, str) else tuple(bots)
    check_players(arrays, players)
    if len(seats) != players:
        raise ValueError(f"{len(seats)} bots given for {players} players; give one, or one per seat")
    parsed = [parse_bot(text, [a.id for a in deck.allies]) for text in seats]
    spec = RunSpec(deck.content_hash, n_games, players, seats, seed, chunk_size, options.as_dict())
    out_dir = Path(out_dir)
    deck_text = Path(cards_file).read_text(encoding="utf-8") if cards_file else _yaml(deck)
    manifest = _prepare(out_dir, spec, deck_text, str(cards_file or "<in memory>"), resume)
    todo = [c for c in range(spec.n_chunks) if not chunk_is_complete(out_dir, c)]
    done_games = n_games - sum(spec.chunk_games(c)[1] for c in todo)
    show = sys.stderr.isatty() if progress is None else progress
    started = time.perf_counter()
    chunk_seconds = manifest["timings"].get("chunk_seconds", 0.0)
    display = RunProgress(show, n_games, done_games)
    if todo:
        with display.compiling():
            warm_engine(arrays, spec, parsed)
    with _backend(scheduler, dask_local) as backend, display.games():
        manifest["backend"] = backend
        parallel = joblib.Parallel(n_jobs=n_jobs, return_as="generator_unordered", backend=None)
        for _, n, seconds in parallel(joblib.delayed(run_chunk)(out_dir, arrays, spec, parsed, c) for c in todo):
            chunk_seconds += seconds
            display.advance(n)
    wall = time.perf_counter() - started
    manifest["status"] = "complete"
    manifest["finished"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
    runs = manifest["timings"].get("runs", [])
    runs.append({"chunks": len(todo), "wall_seconds": round(wall, 3), "n_jobs": n_jobs, "backend": backend})
    manifest["timings"] = {"runs": runs, "chunk_seconds": round(chunk_seconds, 3)}
    _write_json(out_dir / MANIFEST, manifest)
    return out_dir


def run_name(cards_file: str | Path, deck: Deck, players: int | str, bots: str | Sequence[str], n_games: int,
             seed: int) -> str:  # fmt: skip
    """A run directory name that changes whenever the run would: card file and deck
    hash, players (a count, or counts such as ``2,3,4``), bots, games and seed
    (``cards-1a2b3c4d-4p-greedy-100000g-seed0``)."""
    label = bots if isinstance(bots, str) else "+".join(bots)
    safe = "".join(ch if ch.isalnum() or ch in "._+-" else "_" for ch in label)
    return f"{Path(cards_file).stem}-{deck.content_hash[:8]}-{players}p-{safe}-{n_games}g-seed{seed}"


def _yaml(deck: Deck) -> str:
    import yaml

    return yaml.safe_dump(deck.to_yaml_data(), sort_keys=False, allow_unicode=True)
