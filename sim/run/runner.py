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

The main process plays no game: chunks run in supervised worker processes
(:mod:`sim.run.supervisor`), local ones (one at ``n_jobs=1`` too) or a Dask cluster's.
SIGINT or SIGTERM, or no finished game for ``stall_timeout`` seconds (a bot that never
returns), stops the workers (kills the local ones; cancels this run's Dask futures and
closes a local cluster), keeps every finished chunk and raises :class:`RunStopped`.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import BrokenExecutor, Executor
from datetime import datetime, timezone
from pathlib import Path

from sim import __version__
from sim.cards import Deck, dump_yaml, read_deck, remember
from sim.run.cluster import dask_client
from sim.deck_arrays import DeckArrays, compile_deck
from sim.bots.policy import POLICY_PARAMS
from sim.bots.spec import BotSpec, compile_estimate, parse_bot
from sim.play import check_players, run_games
from sim.options import RuleOptions
from sim.os_errors import explain
from sim.run import DEFAULT_CHUNK
from sim.run.progress import RunProgress
from sim.record import Record
from sim.rundir import (DECK_COPY, MANIFEST, TABLES, RunError, RunSpec, chunk_problems, part_key, part_path,
                        read_manifest, recorded_parts, write_json)
from sim.rundir.lock import FILES as LOCK_FILES
from sim.rundir.lock import LockedError, locked
from sim.rundir.parts import part_problem, sha256, temporary_name, write_part
from sim.rules import RULES_VERSION
from sim.state import MAX_PLAYERS, new_state
from sim.run.supervisor import DEFAULT_STALL_SECONDS, Stalled, Stopped, beat, supervised
from sim.run.workers import await_workers, executor, exit_with_parent, kill_workers, start_workers, worker_environment

WORKERS_TIMEOUT = 60  # seconds a Dask run waits for its cluster's first worker


class RunStopped(RunError):
    """A run stopped before its end (a signal, or the watchdog) with its finished
    chunks kept: ``kept`` says how many, ``signal`` names the signal (None for the
    watchdog)."""

    def __init__(self, message: str, kept: str, signal: str | None):
        super().__init__(message)
        self.kept, self.signal = kept, signal


PIECES_PER_STALL = 4  # a piece of a chunk aims at a quarter of the stall timeout
PIECE_GROWTH = 256  # and is at most this many times the piece before it
"""A chunk is played in pieces: the first of one game, each next one sized from the
speed of the last to take ``stall_timeout / PIECES_PER_STALL`` seconds, at most
:data:`PIECE_GROWTH` times larger. A call of :func:`sim.play.run_games` costs about
6 ms besides its games (building the kernels' views), so a chunk of 25,000 ``greedy``
games, 0.8 s, takes three calls (1, 256, the rest)."""


def run_chunk(out_dir: Path, arrays: DeckArrays, spec: RunSpec, bots: list[BotSpec], chunk: int, parent_pid: int,
              stall_timeout: float = DEFAULT_STALL_SECONDS, heartbeat: Path | None = None) -> tuple[int, int, float, dict]:  # fmt: skip
    """Play one chunk and write its three parts; returns (chunk, games, seconds,
    ``{part key: {"rows", "sha256"}}``).

    Runs in a worker process, which dies with the main process ``parent_pid``
    (:func:`sim.run.workers.exit_with_parent`). The games are played in pieces into one
    record (:data:`PIECES_PER_STALL`), the heartbeat touched after each, so that the
    main process sees the chunk progress well within ``stall_timeout``; every game
    depends on the seed and its index only, so the pieces change no table. Each part is
    written under a temporary name and renamed, so an interrupted write leaves no
    part behind.
    """
    exit_with_parent(parent_pid)
    beat(heartbeat)
    start = time.perf_counter()
    first, n = spec.chunk_games(chunk)
    options = RuleOptions(**spec.options)
    state = new_state(arrays, options.to_array())
    record = Record.empty(n, MAX_PLAYERS, arrays.n_allies, arrays.n_tasks, arrays.n_morale)
    done, piece = 0, 1
    while done < n:
        piece, began = min(piece, n - done), time.perf_counter()
        rows = Record(*(array[done : done + piece] for array in record))
        run_games(arrays, spec.n_players, piece, spec.seed, bots, options, first + done, state, rows)
        done += piece
        beat(heartbeat)
        speedup = stall_timeout / PIECES_PER_STALL / max(time.perf_counter() - began, 1e-6)
        piece = max(1, int(piece * min(speedup, PIECE_GROWTH)))
    written = {
        part_key(table, chunk): write_part(frame, part_path(out_dir, table, chunk))
        for table, frame in record.tables().items()
    }
    return chunk, n, time.perf_counter() - start, written


def bot_files(bots: list[BotSpec]) -> dict[str, str]:
    """The SHA-256 of each user bot's file (:mod:`sim.bots.user`), by its path as given:
    part of a run's identity, so that a bot file edited since is never resumed as the
    run's bot (:func:`_same_run`). Raises OSError when a file cannot be read."""
    return {bot.source: sha256(Path(bot.source)) for bot in bots if bot.source}


def _manifest(spec: RunSpec, cards_file: str, bots: list[BotSpec]) -> dict:
    return {
        "toolkit_version": __version__,
        "rules_version": RULES_VERSION,
        "deck_hash": spec.deck_hash,
        "cards_file": cards_file,
        "n_games": spec.n_games,
        "n_players": spec.n_players,
        "bots": list(spec.bots),
        "bot_params": [bot.settings for bot in bots],
        "bot_files": bot_files(bots),
        "root_seed": spec.seed,
        "chunk_size": spec.chunk_size,
        "rule_options": spec.options,
        "tables": list(TABLES),
        "status": "running",
        "timings": {},
        "parts": {},
    }


def _same_run(old: dict, new: dict) -> list[str]:
    """What differs between a run's manifest and a new one's settings. A bot's label
    (``search``) means its defaults of the day, so the parameters it resolved to
    (``bot_params``) are compared too: resuming a run whose bot has new defaults since
    would mix two bots in one run. Manifests written before they were recorded are
    compared by label only. A user bot's file must be the one played, to the byte
    (``bot_files``, :func:`bot_files`). ``n_games`` may grow (never shrink): game ``i``'s random
    streams depend only on the root seed and ``i`` (:mod:`sim.rng`), so chunk ``k`` holds
    the same games whatever the run's size, and resuming with more games plays on (a
    last chunk that was short is replayed whole)."""
    keys = ("deck_hash", "n_games", "n_players", "bots", "root_seed", "chunk_size", "rule_options", "rules_version")
    differ = [key for key in keys if old.get(key) != new.get(key)
              and not (key == "n_games" and isinstance(old.get(key), int) and old[key] < new[key])]
    differ += [f"bot file {path} (changed since this run was played: use a new --name or a new --out)"
               for path, digest in new.get("bot_files", {}).items() if (old.get("bot_files") or {}).get(path) != digest]
    if "bots" in differ or "bot_params" not in old or old["bot_params"] == new["bot_params"]:
        return differ
    recorded = old["bot_params"]
    if not (isinstance(recorded, list) and len(recorded) == len(new["bots"])
            and all(isinstance(params, dict) for params in recorded)):  # fmt: skip
        return [*differ, "bot_params (unreadable)"]
    now = [_as_then(then, params, label) for then, params, label in zip(recorded, new["bot_params"], new["bots"])]
    if now == recorded:
        return differ
    seat = next(s for s, (then, params) in enumerate(zip(recorded, now)) if then != params)
    return [*differ, f"seat {seat}'s {new['bots'][seat]} {_changed(recorded[seat], now[seat])}"]


def _as_then(then: dict, now: dict, label: str) -> dict:
    """A bot's parameters ``now`` without those the run's manifest did not record
    (``then``) that are at the policy's default: a parameter added since plays, at its
    default, as the bot did before it (``search``'s ``kinds``, 255: every decision
    searched)."""
    defaults = POLICY_PARAMS.get(label.split(":")[0], {})
    return {key: value for key, value in now.items() if key in then or value != defaults.get(key)}


def _changed(then: dict, now: dict) -> str:
    """How a bot's parameters changed, e.g. ``was played with iterations=128 and now means iterations=192``."""
    keys = [key for key in dict.fromkeys([*then, *now]) if then.get(key) != now.get(key)]

    def values(params: dict) -> str:
        return ", ".join(f"{key}={params[key]}" if key in params else f"no {key}" for key in keys)

    return f"was played with {values(then)} and now means {values(now)}"


def _prepare(out_dir: Path, spec: RunSpec, bots: list[BotSpec], deck_text: str, cards_file: str,
             resume: bool) -> dict:  # fmt: skip
    manifest = _manifest(spec, cards_file, bots)
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
        for kept in ("companions", "until_settled"):  # the same games: its companions (sim.run.points_blind) still
            if kept in old:  # hold, and a run played until settled keeps its rule (analysis.experiments.until_settled)
                manifest[kept] = old[kept]
    elif any(path.name not in LOCK_FILES for path in out_dir.iterdir()):
        raise RunError(f"{out_dir} exists and is not a run directory; choose an empty or new directory")
    for table in TABLES:
        (out_dir / table).mkdir(exist_ok=True)
    for stale in [*out_dir.glob("*.tmp"), *out_dir.glob("*/*.tmp")]:
        if stale.is_dir():  # the heartbeats of a run killed at once (sim.run.supervisor)
            shutil.rmtree(stale)
        else:
            stale.unlink()
    (out_dir / DECK_COPY).write_text(deck_text, encoding="utf-8")
    write_json(out_dir / MANIFEST, manifest)
    return manifest


def warm_engine(arrays: DeckArrays, spec: RunSpec, bots: list[BotSpec]) -> None:
    """Compile the engine for this run, or load it from numba's cache, in this process
    by a call that plays no game (no bot runs here): the workers then only load the
    cache, instead of each compiling the engine at once and racing to write it."""
    options = RuleOptions(**spec.options)
    run_games(arrays, spec.n_players, 0, spec.seed, bots, options, state=new_state(arrays, options.to_array()))


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
    label: str = "games",
    stall_timeout: float = DEFAULT_STALL_SECONDS,
    donors: Sequence[str | Path] = (),
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
        (:mod:`sim.run.progress`); False: nothing; default: the bar when stderr is a
        terminal, else the same as a line at least every 15 s (a log).
    scheduler, dask_local : optional
        Run on the Dask cluster at this address, or on a new LocalCluster of this
        many workers (:func:`sim.run.cluster.dask_client`), supervised as local workers
        are; ``n_jobs`` is then unused.
    cards_file : path, optional
        Where an in-memory ``cards`` deck was read from, for the manifest and the
        copy in the run directory.
    label : str
        What the progress bar counts (e.g. ``points-blind games``).
    stall_timeout : float
        Seconds without a finished game after which the run stops, naming the bot
        that most likely never returns (s; the watchdog of :mod:`sim.run.supervisor`).
    donors : sequence of paths
        Run directories whose sound chunks this run may take instead of playing
        them: a chunk is taken when a donor's manifest records the same run but for
        its number of games (deck, players, bots and their parameters, seed, chunk
        size, rule options, rules version) and its parts, linked or copied here,
        match the checksums the donor recorded (:func:`_borrow`). Game ``i`` of two
        such runs is the same game (:mod:`sim.rng`), so the tables are the same as
        if played; the manifest's entry for this call counts the chunks and games
        taken (:func:`borrowed_games`).

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
    RunStopped
        On SIGINT (Ctrl-C, also as KeyboardInterrupt) or SIGTERM, or when no game
        finished for ``stall_timeout`` seconds: the workers are killed, the finished
        chunks kept, and the message says how many and how to resume. On Dask only
        this run's futures are cancelled, and a local cluster is closed.
    sim.cards.DeckError
        For an invalid card file.
    ValueError
        For a player count, bot or option the rules do not allow, ``n_jobs=0`` or
        a negative seed; raised before the directory is touched.
    TimeoutError
        When the Dask scheduler at ``scheduler`` has no worker within
        :data:`WORKERS_TIMEOUT` seconds.
    """
    called = time.perf_counter()
    if n_games < 1 or chunk_size < 1:
        raise ValueError(f"n_games and chunk_size must be at least 1, got {n_games} and {chunk_size}")
    if n_jobs == 0:
        raise ValueError("n_jobs (--jobs) must be a number of worker processes (1 or more), or -1 for every core; got 0")
    if not 0 <= seed < 2**63:
        raise ValueError(f"the root seed (--seed) must be an integer from 0 to 2**63 - 1, got {seed}")
    if scheduler is None and dask_local is None:
        start_workers(n_jobs, __name__)
    deck, deck_text = _deck_and_copy(cards, cards_file)
    cards_file = cards if not isinstance(cards, Deck) else cards_file
    arrays = compile_deck(deck)
    seats = (bots,) * players if isinstance(bots, str) else tuple(bots)
    check_players(arrays, players)
    if len(seats) != players:
        raise ValueError(f"{len(seats)} bots given for {players} players; give one, or one per seat")
    parsed = [parse_bot(text, [a.id for a in deck.allies]) for text in seats]
    spec = RunSpec(deck.content_hash, n_games, players, seats, seed, chunk_size, options.as_dict())
    out_dir = Path(out_dir)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RunError(f"cannot make the run directory {out_dir}: {explain(exc)}") from None
    try:
        with locked(out_dir):
            _play(out_dir, spec, arrays, parsed, deck_text, str(cards_file or "<in memory>"), resume,
                  dict(n_jobs=n_jobs, progress=progress, scheduler=scheduler, dask_local=dask_local, called=called,
                       label=label, stall_timeout=stall_timeout, donors=[Path(d) for d in donors]))  # fmt: skip
    except LockedError as exc:
        raise RunError(str(exc)) from None
    except (KeyboardInterrupt, Stopped, Stalled) as exc:
        raise _stopped(exc, out_dir, spec) from None
    except OSError as exc:
        raise RunError(f"cannot write the run directory {out_dir}: {explain(exc)}; {RESUME_HINT}") from None
    except BrokenExecutor as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise RunError(f"a worker process died ({reason[:300]}); {RESUME_HINT}") from None
    return out_dir


RESUME_HINT = "finished chunks are kept: run the same command again (simulate with --resume) to continue"


def _stopped(exc: BaseException, out_dir: Path, spec: RunSpec) -> RunStopped:
    """The one-line :class:`RunStopped` of a run stopped by a signal or the watchdog."""
    try:
        recorded = recorded_parts(read_manifest(out_dir))
    except RunError:  # a fresh run stopped before its first chunk: the directory was emptied
        recorded = {}
    kept = [c for c in range(spec.n_chunks) if all(part_key(table, c) in recorded for table in TABLES)]
    games = sum(spec.chunk_games(c)[1] for c in kept)
    what = (f"{len(kept)} of {spec.n_chunks} chunk{'s' * (spec.n_chunks != 1)} ({games:,} of {spec.n_games:,} "
            f"games) kept in {out_dir}")  # fmt: skip
    if isinstance(exc, Stalled):
        suspects = [bot for bot in dict.fromkeys(spec.bots) if ".py:" in bot] or list(dict.fromkeys(spec.bots))
        reason, name = (f"stopped: no game finished for {exc.seconds:.0f} s, most likely a bot that does not "
                        f"return ({', '.join(suspects)})"), None  # fmt: skip
    else:
        name = exc.signal if isinstance(exc, Stopped) else "SIGINT"
        reason = f"stopped by {name}"
    return RunStopped(f"{reason}; {what}; {RESUME_HINT}", f"{reason}; {what}", name)


def _play(out_dir: Path, spec: RunSpec, arrays: DeckArrays, bots: list[BotSpec], deck_text: str, cards_file: str,
          resume: bool, how: dict) -> None:  # fmt: skip
    """Prepare the locked run directory, play its missing or unsound chunks and
    record each part as it arrives. A failure leaves the manifest ``failed`` and
    the directory resumable, or, when it held nothing before, empty again.

    The manifest's entry for this run records its wall seconds, the seconds spent
    compiling or loading the engine in this process before the workers start
    (``compile_seconds``), and the seconds from the call of :func:`simulate` to the
    first finished chunk (``first_chunk_seconds``; None when every chunk was kept),
    and the chunks and games taken from donors (``borrowed``, :func:`_borrow`)."""
    fresh, manifest = all(path.name in LOCK_FILES for path in out_dir.iterdir()), None
    try:
        manifest = _prepare(out_dir, spec, bots, deck_text, cards_file, resume)
        borrowed = _borrow(out_dir, spec, manifest, how["donors"])
        if borrowed:
            write_json(out_dir / MANIFEST, manifest)
        todo = [c for c in range(spec.n_chunks) if chunk_problems(out_dir, spec, manifest["parts"], c)]
        done_games = spec.n_games - sum(spec.chunk_games(c)[1] for c in todo)
        shown = {None: "bar" if sys.stderr.isatty() else "log", True: "bar", False: "off"}[how["progress"]]
        started = time.perf_counter()
        chunk_seconds = manifest["timings"].get("chunk_seconds", 0.0)
        display = RunProgress(shown, spec.n_games, done_games, how["label"])
        compile_seconds, first_chunk_seconds = 0.0, None
        if todo:
            with display.compiling(compile_estimate(bots)):
                warm_engine(arrays, spec, bots)
            compile_seconds = time.perf_counter() - started
        with _chunks_played(out_dir, arrays, spec, bots, todo, how) as (backend, results), display.games():
            manifest["backend"] = backend
            for _, n, seconds, written in results:
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
                 "first_chunk_seconds": first_chunk_seconds, "n_jobs": how["n_jobs"], "backend": backend,
                 "borrowed": {"chunks": len(borrowed), "games": sum(spec.chunk_games(c)[1] for c in borrowed)}})  # fmt: skip
    manifest["timings"] = {"runs": runs, "chunk_seconds": round(chunk_seconds, 3)}
    write_json(out_dir / MANIFEST, manifest)


def _borrow(out_dir: Path, spec: RunSpec, manifest: dict, donors: list[Path]) -> list[int]:
    """Take into ``out_dir`` each chunk it lacks that a donor holds sound, and record
    its parts in ``manifest["parts"]`` (not yet written); returns the chunks taken.

    A donor qualifies when its manifest records this run but for ``n_games``
    (:func:`_same_run`); its chunk ``k`` when it covers the same games as this run's
    (``spec.chunk_games(k)``) and the donor recorded each part's checksum. Each part
    is hard-linked (copied where the file system cannot link) under a temporary name,
    checked against the donor's record (:func:`sim.rundir.parts.part_problem`: a part
    damaged since it was written is never trusted) and renamed; a chunk is taken
    whole or not at all. An unreadable donor is passed over.
    """
    qualified = []
    for donor in donors:
        try:
            record = read_manifest(donor)
            if donor.resolve() != out_dir.resolve() and not [k for k in _same_run(record, manifest) if k != "n_games"]:
                qualified.append((donor, RunSpec.of(record), recorded_parts(record)))
        except (RunError, OSError):
            continue
    taken = []
    for chunk in range(spec.n_chunks):
        if not qualified or not chunk_problems(out_dir, spec, manifest["parts"], chunk):
            continue
        for donor, donor_spec, recorded in qualified:
            if chunk < donor_spec.n_chunks and donor_spec.chunk_games(chunk) == spec.chunk_games(chunk):
                parts = _linked_chunk(donor, out_dir, spec, recorded, chunk)
                if parts:
                    manifest["parts"].update(parts)
                    taken.append(chunk)
                    break
    return taken


def _linked_chunk(donor: Path, out_dir: Path, spec: RunSpec, recorded: dict, chunk: int) -> dict | None:
    """Link (or copy) the donor's three parts of ``chunk`` into ``out_dir`` if each
    matches the donor's recorded checksum; their records, or None (nothing left behind)."""
    first, n = spec.chunk_games(chunk)
    staged: list[tuple[Path, Path]] = []
    try:
        for table in TABLES:
            key, final = part_key(table, chunk), part_path(out_dir, table, chunk)
            record = recorded.get(key)
            if not (isinstance(record, dict) and isinstance(record.get("sha256"), str)):
                return None
            temporary = temporary_name(final)
            staged.append((temporary, final))
            try:
                os.link(part_path(donor, table, chunk), temporary)
            except OSError:
                shutil.copyfile(part_path(donor, table, chunk), temporary)
            rows = n * (spec.n_players if table == "players" else 1)
            if part_problem(temporary, first, n, rows, record):
                return None
        for temporary, final in staged:
            os.replace(temporary, final)
        staged = []
        return {part_key(table, chunk): recorded[part_key(table, chunk)] for table in TABLES}
    except OSError:
        return None
    finally:
        for temporary, _ in staged:
            temporary.unlink(missing_ok=True)


def borrowed_games(out_dir: str | Path) -> int:
    """The games the last :func:`simulate` call on ``out_dir`` took from its donors
    instead of playing them (games; 0 when it took none).

    Raises
    ------
    RunError
        When ``out_dir`` holds no readable manifest.
    """
    runs = (read_manifest(out_dir).get("timings") or {}).get("runs") or [{}]
    return int((runs[-1].get("borrowed") or {}).get("games", 0))


@contextlib.contextmanager
def _chunks_played(out_dir: Path, arrays: DeckArrays, spec: RunSpec, bots: list[BotSpec], todo: list[int],
                   how: dict) -> Iterator[tuple[str, Iterator]]:  # fmt: skip
    """(backend, results of :func:`run_chunk` as they finish) for the chunks ``todo``,
    played by the run's supervised workers (:mod:`sim.run.supervisor`, :func:`_workers`)."""
    with _workers(how) as (backend, pool, end), supervised(pool, end, out_dir, how["stall_timeout"]) as supervisor:
        for chunk in todo:
            supervisor.submit(run_chunk, out_dir, arrays, spec, bots, chunk, os.getpid(), how["stall_timeout"])
        await_workers()
        yield backend, supervisor.results()


@contextlib.contextmanager
def _workers(how: dict) -> Iterator[tuple[str, Executor, Callable[[], None]]]:
    """(backend, executor, what stops its work) of a run: the local loky workers, killed;
    or a Dask client's executor, whose futures of this run are cancelled, on the
    cluster at ``how["scheduler"]`` or on a LocalCluster of ``how["dask_local"]``
    workers, closed after the block (:func:`sim.run.cluster.dask_client`).

    Raises
    ------
    TimeoutError
        When the Dask cluster has no worker within :data:`WORKERS_TIMEOUT` seconds.
    """
    if how["scheduler"] is None and how["dask_local"] is None:
        yield "loky", executor(how["n_jobs"]), kill_workers
        return
    with worker_environment(), dask_client(how["scheduler"], how["dask_local"]) as client:
        client.wait_for_workers(1, timeout=WORKERS_TIMEOUT)
        pool = client.get_executor()
        yield f"dask ({client.scheduler.address})", pool, lambda: pool.shutdown(wait=False)


def _empty(out_dir: Path) -> None:
    """Remove what :func:`_prepare` wrote into a directory that held no run, so the
    corrected command can start afresh."""
    with contextlib.suppress(OSError):
        for table in TABLES:
            shutil.rmtree(out_dir / table, ignore_errors=True)
        (out_dir / DECK_COPY).unlink(missing_ok=True)
        (out_dir / MANIFEST).unlink(missing_ok=True)


def run_name(cards_file: str | Path | None, deck: Deck, n_games: int | None, seed: int, *, players: int | str | None = None,
             bots: str | Sequence[str] | None = None, kind: str = "",
             versus: tuple[str | Path, Deck] | None = None) -> str:  # fmt: skip
    """A run directory name that changes whenever the run would: card file and deck
    hash, players (a count, or counts such as ``2,3,4``), bots, games and seed
    (``cards-1a2b3c4d-4p-greedy-100000g-seed0``).

    Parameters
    ----------
    cards_file : path or None
        The card file, named by its stem; None leaves it out (a sweep names its card
        and field in ``kind`` instead).
    deck : Deck
        Named by the first 8 hex digits of its content hash.
    n_games : int or None
        Games; None leaves them out (a run that stops when its verdicts are settled,
        :mod:`analysis.experiments.until_settled`, has no size known in advance).
    seed : int
    players, bots : optional
        Left out when None; bots as one specification, or one per seat joined by
        ``+``, with every character but letters, digits and ``._+-`` replaced by ``_``.
    kind : str
        An experiment's folder starts with it (``tune``, ``card-value``, ``sweep-CARD-FIELD``).
    versus : (card file, Deck), optional
        The second deck of a comparison, after ``vs``.

    Returns
    -------
    str
        E.g. ``compare-cards-1a2b3c4d-vs-b-5e6f7a8b-4p-20000g-seed0``.
    """
    parts = ([kind] if kind else []) + ([Path(cards_file).stem] if cards_file is not None else [])
    parts.append(deck.content_hash[:8])
    if versus is not None:
        parts += ["vs", Path(versus[0]).stem, versus[1].content_hash[:8]]
    if players is not None:
        parts.append(f"{players}p")
    if bots is not None:
        label = bots if isinstance(bots, str) else "+".join(bots)
        parts.append("".join(ch if ch.isalnum() or ch in "._+-" else "_" for ch in label))
    return "-".join([*parts, *([f"{n_games}g"] if n_games is not None else []), f"seed{seed}"])


def _yaml(deck: Deck) -> str:
    return dump_yaml(deck.to_yaml_data())


def _deck_and_copy(cards: str | Path | Deck, cards_file: str | Path | None) -> tuple[Deck, str]:
    """The run's validated deck and the text of its copy in the run directory, the deck
    validated once (issue 67 item 4): a card file is read once, and its text is both
    validated and copied; a :class:`Deck` with the file it came from is copied as that
    file's text, which this process validated already (:func:`sim.cards.parse_deck`
    knows it; a file changed since is refused); a deck alone is copied as its YAML,
    kept as validated (:func:`sim.cards.remember`).

    Raises
    ------
    sim.cards.DeckError
        When the file cannot be read or does not validate.
    ValueError
        When ``cards_file`` no longer holds ``cards``.
    """
    if not isinstance(cards, Deck):
        return read_deck(cards)
    if cards_file is None:
        text = _yaml(cards)
        remember(text, cards)
        return cards, text
    deck, text = read_deck(cards_file)
    if deck.content_hash != cards.content_hash:
        raise ValueError(f"{cards_file}: the card file changed since it was read; run the command again")
    return cards, text
