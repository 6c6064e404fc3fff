"""Reading a run directory written by :func:`sim.runner.simulate`."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from sim.runner import TABLES, RunError, read_manifest

SORT_KEYS = {"games": ["game"], "players": ["game", "turn_order"], "cards": ["game"]}


def scan(run_dir: str | Path, table: str) -> pl.LazyFrame:
    """A lazy polars frame over every part of ``table`` (games, players or cards).

    Raises
    ------
    RunError
        For an unknown table or a run directory without parts.
    """
    if table not in TABLES:
        raise RunError(f"unknown table {table!r}; valid: {', '.join(TABLES)}")
    parts = sorted((Path(run_dir) / table).glob("part-*.parquet"))
    if not parts:
        raise RunError(f"{run_dir}: no {table} parts; is it a run directory of sim.runner?")
    return pl.scan_parquet(parts)


def load(run_dir: str | Path, table: str) -> pl.DataFrame:
    """The whole ``table`` of a run, sorted by game (and turn order)."""
    return scan(run_dir, table).sort(SORT_KEYS[table]).collect()


def manifest(run_dir: str | Path) -> dict:
    """The run's manifest (see :mod:`sim.runner`)."""
    return read_manifest(run_dir)
