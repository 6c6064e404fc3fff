"""A run's chunks: which parts each should have, and whether they are sound.

A chunk is complete when its three parts (one per table) are sound
(:func:`sim.rundir.parts.part_problem`). Resume replays the chunks that are not; the
reports refuse a run with a damaged part.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from sim.rundir.manifest import RunError, RunSpec, recorded_parts
from sim.rundir.parts import part_path, part_problem
from sim.rundir.schema import TABLES


CHECK_THREADS = min(8, os.cpu_count() or 1)  # parts checked side by side by check_parts


def part_key(table: str, chunk: int) -> str:
    """A part's name in the manifest's ``parts``: ``games/part-00003.parquet``."""
    return part_path(Path(), table, chunk).as_posix()


def part_files(run_dir: str | Path, table: str) -> list[Path]:
    """The part files of ``table`` present in ``run_dir``, in chunk order.

    Raises
    ------
    RunError
        For an unknown table or a run directory without parts of it.
    """
    if table not in TABLES:
        raise RunError(f"unknown table {table!r}; valid: {', '.join(TABLES)}")
    parts = sorted((Path(run_dir) / table).glob("part-*.parquet"))
    if not parts:
        raise RunError(f"{run_dir}: no {table} parts; is it a run directory of sim.run.runner?")
    return parts


def chunk_problems(out_dir: Path, spec: RunSpec, recorded: dict, chunk: int) -> list[str]:
    """What is wrong with chunk ``chunk``'s parts (empty when all three are sound).

    Parameters
    ----------
    recorded : dict
        The manifest's ``parts``: row count and SHA-256 of each part as written.
    """
    first, n = spec.chunk_games(chunk)
    problems = []
    for table in TABLES:
        rows = n * (spec.n_players if table == "players" else 1)
        problem = part_problem(part_path(out_dir, table, chunk), first, n, rows, recorded.get(part_key(table, chunk)))
        if problem:
            problems.append(f"{part_key(table, chunk)}: {problem}")
    return problems


def check_parts(out_dir: str | Path, manifest: dict) -> None:
    """Refuse a run directory with a damaged part, before any table is read.

    Every part present must be sound; a run whose manifest says ``complete`` must
    also have every part.

    Raises
    ------
    RunError
        Naming the first damaged part and what is wrong with it.
    """
    out_dir, spec, recorded = Path(out_dir), RunSpec.of(manifest), recorded_parts(manifest)
    complete = manifest.get("status") == "complete"
    # Threads: hashing and Parquet reading release the GIL, so the parts are checked side by side (the
    # checksums of a 10-million-game run are 1.5 GB to read); map keeps chunk order, so the first damaged
    # part is the one named.
    with ThreadPoolExecutor(CHECK_THREADS) as pool:
        for problems in pool.map(lambda chunk: chunk_problems(out_dir, spec, recorded, chunk), range(spec.n_chunks)):
            for problem in problems:
                if complete or not problem.endswith(": missing"):
                    raise RunError(f"{out_dir}: part {problem}; run `revachol simulate --resume` on it to replay "
                                   "the chunk")  # fmt: skip
