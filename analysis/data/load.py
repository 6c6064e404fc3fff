"""Reading a run directory's tables (the layout of :mod:`sim.rundir`)."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from sim.rundir import SORT_KEYS, part_files, read_manifest


def scan(run_dir: str | Path, table: str) -> pl.LazyFrame:
    """A lazy polars frame over every part of ``table`` (games, players or cards).

    Raises
    ------
    sim.rundir.RunError
        For an unknown table or a run directory without parts.
    """
    return pl.scan_parquet(part_files(run_dir, table))


def load(run_dir: str | Path, table: str) -> pl.DataFrame:
    """The whole ``table`` of a run, sorted by game (and turn order)."""
    return scan(run_dir, table).sort(list(SORT_KEYS[table])).collect()


def manifest(run_dir: str | Path) -> dict:
    """The run's manifest (see :mod:`sim.rundir.manifest`)."""
    return read_manifest(run_dir)
