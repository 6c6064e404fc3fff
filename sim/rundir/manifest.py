"""A run's manifest: what determines its tables, read and written whole.

``manifest.json`` records the toolkit and rules versions, the deck's hash, the
players, bots, root seed, chunk size and rule options (a :class:`RunSpec`), the
run's ``status`` (``running``, ``failed`` or ``complete``), its timings, and the
row count and SHA-256 of every part as it was written (``parts``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from sim.rundir.parts import temporary_name
from sim.rundir.schema import MANIFEST


class RunError(Exception):
    """A run directory that cannot be written or read as asked; the message says
    what to change."""


@dataclass(frozen=True)
class RunSpec:
    """Everything that determines a run's tables (recorded in the manifest).

    Chunk ``k`` holds games ``k * chunk_size`` to ``min((k + 1) * chunk_size, n_games) - 1``.
    """

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

    @classmethod
    def of(cls, manifest: dict) -> RunSpec:
        """The spec a manifest records.

        Raises
        ------
        RunError
            When a field is missing or of the wrong type.
        """
        keys = ("deck_hash", "n_games", "n_players", "bots", "root_seed", "chunk_size", "rule_options")
        try:
            hash_, games, players, bots, seed, chunk, options = (manifest[key] for key in keys)
            return cls(hash_, int(games), int(players), tuple(bots), int(seed), int(chunk), dict(options))
        except (KeyError, TypeError, ValueError) as exc:
            missing = [key for key in keys if key not in manifest]
            what = f"lacks {', '.join(missing)}" if missing else f"has a field of the wrong type ({str(exc)[:100]})"
            raise RunError(f"the run manifest {what}; was it written by sim.run.runner?") from None


def read_manifest(out_dir: str | Path) -> dict:
    """The manifest of a run directory.

    Raises
    ------
    RunError
        When the directory holds no readable manifest, or its JSON is not an object.
    """
    path = Path(out_dir) / MANIFEST
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RunError(f"{path}: no readable run manifest ({exc})") from None
    if not isinstance(manifest, dict):
        raise RunError(f"{path}: a run manifest is a JSON object, this is a {type(manifest).__name__}")
    return manifest


def write_json(path: Path, data: dict) -> None:
    """Write ``data`` as JSON to ``path`` through a temporary name, so a reader sees
    the old file or the new one, never half of one.

    Raises
    ------
    OSError
        When the file cannot be written; the temporary file is removed.
    """
    temporary = temporary_name(path)
    try:
        temporary.write_text(json.dumps(data, indent=2, sort_keys=False) + "\n", encoding="utf-8")
        temporary.replace(path)
    finally:
        temporary.unlink(missing_ok=True)


def record_in_manifest(run_dir: Path, key: str, value: Callable[[object], object]) -> None:
    """Set ``key`` of the run's manifest to ``value(old)``, ``old`` being its value
    now (None when absent): what a companion or a stopping rule records beside the
    run. Read and written under the run's one-writer lock (:mod:`sim.rundir.lock`),
    through :func:`write_json`, so two recorders never lose each other's record.

    Raises
    ------
    RunError
        When another process holds the run's lock, or the manifest is unreadable.
    OSError
        When the manifest cannot be written.
    """
    from sim.rundir.lock import LockedError, locked

    try:
        with locked(run_dir):
            manifest = read_manifest(run_dir)
            manifest[key] = value(manifest.get(key))
            write_json(run_dir / MANIFEST, manifest)
    except LockedError as exc:
        raise RunError(str(exc)) from None


def recorded_parts(manifest: dict) -> dict:
    """The manifest's ``parts``: ``{part key: {"rows", "sha256"}}`` (``{}`` when
    absent or not an object)."""
    parts = manifest.get("parts")
    return parts if isinstance(parts, dict) else {}
