"""Reading a run directory's tables (the layout of :mod:`sim.rundir`)."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from sim.cards import load_deck
from sim.rundir import DECK_COPY, SORT_KEYS, part_files, read_manifest
from sim.rundir.schema import ALLY_SETS, unpack_allies


def scan(run_dir: str | Path, table: str) -> pl.LazyFrame:
    """A lazy polars frame over every part of ``table`` (games, players or cards).

    Raises
    ------
    sim.rundir.RunError
        For an unknown table or a run directory without parts.
    """
    return pl.scan_parquet(part_files(run_dir, table))


def load(run_dir: str | Path, table: str) -> pl.DataFrame:
    """The whole ``table`` of a run, sorted by game (and turn order), the players'
    sets of allies (``held``, ``played``, ``opening``) as Boolean arrays over the
    deck's allies (the parts hold them bit-packed, :mod:`sim.rundir.schema`).

    Raises
    ------
    sim.rundir.RunError
        As :func:`scan`.
    sim.cards.DeckError
        When the players table is asked for and the run's ``cards.yaml`` is unreadable.
    """
    frame = scan(run_dir, table).sort(list(SORT_KEYS[table])).collect()
    if table != "players":
        return frame
    return unpacked(frame, len(load_deck(Path(run_dir) / DECK_COPY).allies))


def unpacked(players: pl.DataFrame, allies: int) -> pl.DataFrame:
    """A players frame with its bit-packed sets of allies (:data:`sim.rundir.schema.ALLY_SETS`)
    as Boolean arrays of ``allies`` allies; Boolean arrays are left as they are.

    Raises
    ------
    ValueError
        When a column does not hold ``allies`` allies per row.
    """
    packed = [c for c in ALLY_SETS if c in players.columns and getattr(players.schema[c], "inner", None) == pl.UInt8]
    return players.with_columns(pl.Series(c, unpack_allies(players[c].to_numpy(), allies)) for c in packed)


def manifest(run_dir: str | Path) -> dict:
    """The run's manifest (see :mod:`sim.rundir.manifest`)."""
    return read_manifest(run_dir)
