"""Batch runs: many games in chunks, in parallel, streamed to a run directory.

The run directory's layout, manifest, parts and lock are the contract of
:mod:`sim.rundir`, which the analysis reads without importing the engine. Chunk
``k`` holds games ``k * chunk_size .. (k + 1) * chunk_size - 1``. Every game's
random streams depend only on the root seed and its game index (:mod:`sim.rng`), so
the tables are the same whatever the number of workers, the chunk size, the backend,
or how often the run was interrupted and resumed.

A worker writes each part under a temporary name unique to its process and renames
it when complete; the main process records each part's row count and SHA-256 in the
manifest as it arrives (:mod:`sim.rundir.parts`). A chunk is complete when its
three parts are sound: readable Parquet with the expected rows, games and checksum.
``resume=True`` keeps complete chunks and replays the others, torn or empty parts
included.

One process writes a run directory at a time (:mod:`sim.rundir.lock`); a second is
refused at once. Every OS or worker failure during a run is a :class:`RunError` of one line
saying how to continue.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import BrokenExecutor
from datetime import datetime, timezone
from pathlib import Path

from sim import __version__
from sim.cards import Deck, dump_yaml, load_deck
from sim.deck_arrays import DeckArrays, compile_deck
from sim.bots.spec import BotSpec, parse_bot
from sim.engine import check_players, run_games
from sim.options import RuleOptions
from sim.progress import RunProgress
from sim.rundir import (DECK_COPY, MANIFEST, TABLES, RunError, RunSpec, chunk_problems, part_key, part_path,
                        read_manifest, recorded_parts, write_json)
from sim.rundir.lock import FILES as LOCK_FILES
from sim.rundir.lock import LockedError, locked
from sim.rundir.parts import write_part
from sim.rules import RULES_VERSION
from sim.state import new_state
from sim.workers import await_workers, exit_with_parent, start_workers, worker_environment

DEFAULT_CHUNK = 25_000


def run_chunk(out_dir: Path, arrays: DeckArrays, spec: RunSpec, bots: list[BotSpec], chunk: int,
              parent_pid: int) -> tuple[int, int, float, dict]:  # fmt: skip
    """Play one chunk and write its three parts; returns (chunk, games, seconds,
    ``{part key: {"rows", "sha256"}}``).

    Runs in a worker process, which dies with the main process ``parent_pid``
    (:func:`sim.workers.exit_with_parent`). Each part is written under a temporary
    name and renamed, so an interrupted write leaves no part behind.
    """
    exit_with_parent(parent_pid)
    start = time.perf_counter()
    first, n = spec.chunk_games(chunk)
    options = RuleOptions(**spec.options)
    state = new_state(arrays, options.to_array())
    record = run_games(arrays, spec.n_players, n, spec.seed, bots, options, first_game=first, state=state)
    written = {
        part_key(table, chunk): write_part(frame, part_path(out_dir, table, chunk))
        for table, frame in record.tables().items()
    }
    return chunk, n, time.perf_counter() - start, written


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
        "parts": {},
    }


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
        manifest["parts"] = recorded_parts(old)
    elif any(path.name not in LOCK_FILES for path in out_dir.iterdir()):
        raise RunError(f"{out_dir} exists and is not a run directory; choose an empty or new directory")
    for table in TABLES:
        (out_dir / table).mkdir(exist_ok=True)
    for stale in [*out_dir.glob("*.tmp"), *out_dir.glob("*/*.tmp")]:
        stale.unlink()
    (out_dir / DECK_COPY).write_text(deck_text, encoding="utf-8")
    write_json(out_dir / MANIFEST, manifest)
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
        For a directory that cannot take this run (another run's, not a run
        directory, or being written by another process, named); and, in one line
        with the resume hint, for an OS failure (a path that is a file, read-only,
        a full disk) or a worker process that died.
    sim.cards.DeckError
        For an invalid card file.
    ValueError
        For a player count, bot or option the rules do not allow, ``n_jobs=0`` or
        a negative seed; raised before the directory is touched.
    """
    called = time.perf_counter()
    if n_games < 1 or chunk_size < 1:
        raise ValueError(f"n_games and chunk_size must be at least 1, got {n_games} and {chunk_size}")
    if n_jobs == 0:
        raise ValueError("n_jobs (--jobs) must be a number of worker processes (1 or more), or -1 for every core; got 0")
    if not 0 <= seed < 2**63:
        raise ValueError(f"the root seed (--seed) must be an integer from 0 to 2**63 - 1, got {seed}")
    if scheduler is None and dask_local is None:
        start_workers(n_jobs)
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
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RunError(f"cannot make the run directory {out_dir}: {exc.strerror or exc}") from None
    try:
        with locked(out_dir):
            _play(out_dir, spec, arrays, parsed, deck_text, str(cards_file or "<in memory>"), resume,
                  dict(n_jobs=n_jobs, progress=progress, scheduler=scheduler, dask_local=dask_local, called=called))  # fmt: skip
    except LockedError as exc:
        raise RunError(str(exc)) from None
    except OSError as exc:
        raise RunError(f"cannot write the run directory {out_dir}: {exc}; {RESUME_HINT}") from None
    except BrokenExecutor as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise RunError(f"a worker process died ({reason[:300]}); {RESUME_HINT}") from None
    return out_dir


RESUME_HINT = "finished chunks are kept: run the same command again (simulate with --resume) to continue"


def _play(out_dir: Path, spec: RunSpec, arrays: DeckArrays, bots: list[BotSpec], deck_text: str, cards_file: str,
          resume: bool, how: dict) -> None:  # fmt: skip
    """Prepare the locked run directory, play its missing or unsound chunks and
    record each part as it arrives. A failure leaves the manifest ``failed`` and
    the directory resumable, or, when it held nothing before, empty again.

    The manifest's entry for this run records its wall seconds, the seconds spent
    compiling or loading the engine in this process before the workers start
    (``compile_seconds``), and the seconds from the call of :func:`simulate` to the
    first finished chunk (``first_chunk_seconds``; None when every chunk was kept)."""
    import joblib

    fresh, manifest = all(path.name in LOCK_FILES for path in out_dir.iterdir()), None
    try:
        manifest = _prepare(out_dir, spec, deck_text, cards_file, resume)
        todo = [c for c in range(spec.n_chunks) if chunk_problems(out_dir, spec, manifest["parts"], c)]
        done_games = spec.n_games - sum(spec.chunk_games(c)[1] for c in todo)
        show = sys.stderr.isatty() if how["progress"] is None else how["progress"]
        started = time.perf_counter()
        chunk_seconds = manifest["timings"].get("chunk_seconds", 0.0)
        display = RunProgress(show, spec.n_games, done_games)
        compile_seconds, first_chunk_seconds = 0.0, None
        if todo:
            with display.compiling():
                warm_engine(arrays, spec, bots)
            compile_seconds = time.perf_counter() - started
        await_workers()
        with worker_environment(), _backend(how["scheduler"], how["dask_local"]) as backend, display.games():
            manifest["backend"] = backend
            parallel = joblib.Parallel(n_jobs=how["n_jobs"], return_as="generator_unordered", backend=None)
            tasks = (joblib.delayed(run_chunk)(out_dir, arrays, spec, bots, c, os.getpid()) for c in todo)
            for _, n, seconds, written in parallel(tasks):
                if first_chunk_seconds is None:
                    first_chunk_seconds = round(time.perf_counter() - how["called"], 3)
                chunk_seconds += seconds
                manifest["parts"].update(written)
                write_json(out_dir / MANIFEST, manifest)
                display.advance(n)
    except BaseException:
        if fresh and not (manifest and manifest["parts"]):
            _empty(out_dir)
        elif manifest is not None:
            with contextlib.suppress(OSError):
                write_json(out_dir / MANIFEST, manifest | {"status": "failed"})
        raise
    wall = time.perf_counter() - started
    manifest["status"] = "complete"
    manifest["finished"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
    runs = manifest["timings"].get("runs", [])
    runs.append({"chunks": len(todo), "wall_seconds": round(wall, 3), "compile_seconds": round(compile_seconds, 3),
                 "first_chunk_seconds": first_chunk_seconds, "n_jobs": how["n_jobs"], "backend": backend})  # fmt: skip
    manifest["timings"] = {"runs": runs, "chunk_seconds": round(chunk_seconds, 3)}
    write_json(out_dir / MANIFEST, manifest)


def _empty(out_dir: Path) -> None:
    """Remove what :func:`_prepare` wrote into a directory that held no run, so the
    corrected command can start afresh."""
    with contextlib.suppress(OSError):
        for table in TABLES:
            shutil.rmtree(out_dir / table, ignore_errors=True)
        (out_dir / DECK_COPY).unlink(missing_ok=True)
        (out_dir / MANIFEST).unlink(missing_ok=True)


def run_name(cards_file: str | Path, deck: Deck, players: int | str, bots: str | Sequence[str], n_games: int,
             seed: int) -> str:  # fmt: skip
    """A run directory name that changes whenever the run would: card file and deck
    hash, players (a count, or counts such as ``2,3,4``), bots, games and seed
    (``cards-1a2b3c4d-4p-greedy-100000g-seed0``)."""
    label = bots if isinstance(bots, str) else "+".join(bots)
    safe = "".join(ch if ch.isalnum() or ch in "._+-" else "_" for ch in label)
    return f"{Path(cards_file).stem}-{deck.content_hash[:8]}-{players}p-{safe}-{n_games}g-seed{seed}"


def _yaml(deck: Deck) -> str:
    return dump_yaml(deck.to_yaml_data())
