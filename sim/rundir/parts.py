"""The Parquet parts of a run directory: written whole, checked before they are trusted.

A part is written under a temporary name unique to the writing process and renamed
when complete; its row count and SHA-256 are returned for the manifest. A part is
*sound* when it is readable Parquet, holds the expected number of rows, covers
exactly its chunk's games, and (when the manifest recorded one) has the recorded
checksum. Resume replays an unsound part; the reports refuse one.
"""

from __future__ import annotations

import hashlib
import os
import stat
import uuid
from pathlib import Path

import polars as pl

from sim.os_errors import from_polars

ZSTD_LEVEL = 1
"""zstd's fastest level: the three parts of a chunk of 25,000 4-player ``greedy`` games
took 82.5 instead of 92.7 CPU-ms to write at polars' default level 3, for 3.92 instead
of 3.85 MB."""


def part_path(out_dir: Path, table: str, chunk: int) -> Path:
    return out_dir / table / f"part-{chunk:05d}.parquet"


def temporary_name(final: Path) -> Path:
    """A temporary sibling of ``final`` unique to this process and call
    (``part-00003.parquet.<pid>-<random>.tmp``), so two writers never share one."""
    return final.with_name(f"{final.name}.{os.getpid()}-{uuid.uuid4().hex[:8]}.tmp")


def sha256(path: Path) -> str:
    """SHA-256 (hex) of a file's bytes."""
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def write_part(frame: pl.DataFrame, final: Path) -> dict:
    """Write ``frame`` to ``final`` through a temporary name.

    Returns
    -------
    dict
        ``{"rows": int, "sha256": str}``, recorded in the manifest.

    Raises
    ------
    OSError
        When the file cannot be written (full disk, read-only directory), also when
        polars reports it as a ``ComputeError`` (:func:`sim.os_errors.from_polars`);
        the temporary file is removed.
    """
    temporary = temporary_name(final)
    try:
        try:
            frame.write_parquet(temporary, compression="zstd", compression_level=ZSTD_LEVEL, statistics=False)
        except pl.exceptions.PolarsError as exc:
            raise (from_polars(exc, final) or exc) from None
        record = {"rows": frame.height, "sha256": sha256(temporary)}
        os.replace(temporary, final)
    finally:
        temporary.unlink(missing_ok=True)
    return record


def _regular(path: Path) -> bool:
    """Whether ``path`` is a regular file reached without a symbolic link from its
    table's folder (Git's rule for its object store: a link out of it is never
    followed): a hard link, as a donor's chunk is taken (:mod:`sim.run.runner`), is one."""
    return not path.parent.is_symlink() and stat.S_ISREG(os.lstat(path).st_mode)


def part_problem(path: Path, first_game: int, n_games: int, rows: int, recorded: dict | None) -> str | None:
    """What is wrong with one part, or None when it is sound.

    A part whose SHA-256 is the one recorded when it was written is sound without
    reading it; otherwise its contents are read to name what is wrong (torn, other
    games, other rows), and a part that looks right but differs from its checksum is
    still refused.

    Parameters
    ----------
    path : Path
        The part file.
    first_game, n_games : int
        Its chunk's games: every game ``first_game .. first_game + n_games - 1`` must
        be present, and no other.
    rows : int
        Rows it must hold.
    recorded : dict, optional
        The manifest's ``{"rows", "sha256"}`` for this part, when it recorded one.

    Returns
    -------
    str or None
        A short phrase such as ``"missing"`` or ``"12 rows, expected 40"``.
    """
    if not os.path.lexists(path):
        return "missing"
    if not _regular(path):
        return "not a regular file inside the run directory (a link, a device or a FIFO): refused, never read"
    digest = sha256(path) if isinstance(recorded, dict) else None
    if digest is not None and digest == recorded.get("sha256"):
        return None  # bit for bit the part its writer recorded: its games and rows need no reading
    try:
        games = pl.read_parquet(path, columns=["game"])["game"]
    except (OSError, pl.exceptions.PolarsError) as exc:
        return f"not readable Parquet ({str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__})"
    if games.len() != rows:
        return f"{games.len()} rows, expected {rows}"
    last = first_game + n_games - 1
    if games.n_unique() != n_games or games.min() != first_game or games.max() != last:
        return f"games {games.min()}..{games.max()} ({games.n_unique()} distinct), expected {first_game}..{last}"
    if digest is not None:
        return "its checksum differs from the one recorded when it was written"
    return None
