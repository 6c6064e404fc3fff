"""The run directory's layout and the codes its tables hold.

A run directory (written by :func:`sim.run.runner.simulate`)::

    <run>/manifest.json                  what was run, by which code, each part's rows and SHA-256
    <run>/cards.yaml                     a copy of the card file the games were played with
    <run>/games/part-NNNNN.parquet       one row per game
    <run>/players/part-NNNNN.parquet     one row per (game, turn order)
    <run>/cards/part-NNNNN.parquet       one row per game: per-task, per-morale-card, per-ally arrays
    <run>/points_blind/                  the points-blind companion, a run directory itself (sim.run.points_blind)
    <run>/skilled/                       the skilled companion, a run directory itself (sim.run.skilled)

Part ``NNNNN`` holds chunk ``NNNNN``: games ``NNNNN * chunk_size`` onwards. The
columns of each table are those of :meth:`sim.record.Record.tables`.

The players table's sets of allies (:data:`ALLY_SETS`) are bit-packed: each row holds
``⌈A / 8⌉`` bytes, ally ``a`` in bit ``7 − a mod 8`` of byte ``a // 8``
(:func:`numpy.packbits`), so that a reader decodes a flat array, not ``A`` nested
values per row (about four times faster). Runs written before toolkit 0.2 hold them
as Boolean arrays over the allies; :func:`unpack_allies` reads both.
"""

import numpy as np

TABLES = ("games", "players", "cards")
"""The three tables of a run, one folder of parts each."""

MANIFEST = "manifest.json"
DECK_COPY = "cards.yaml"

POINTS_BLIND_COMPANION = "points_blind"
"""The points-blind companion's directory inside its run (:mod:`sim.run.points_blind`), and
its key in the manifest's ``companions``."""

SKILLED_COMPANION = "skilled"
"""The skilled companion's directory inside its run (:mod:`sim.run.skilled`), and its key
in the manifest's ``companions``."""

SORT_KEYS = {"games": ("game",), "players": ("game", "turn_order"), "cards": ("game",)}
"""The order in which each table's rows identify a player-game: a game's players are
consecutive rows in turn order."""

ALLY_SETS = ("held", "played", "opening")
"""Players-table columns holding a set of allies per player-game, bit-packed."""


def pack_allies(sets: np.ndarray) -> np.ndarray:
    """Bit-pack sets of allies for the players table.

    Parameters
    ----------
    sets : ndarray of bool, shape (rows, A)

    Returns
    -------
    ndarray of uint8, shape (rows, ⌈A / 8⌉)
    """
    return np.packbits(sets, axis=-1)


def unpack_allies(values: np.ndarray, allies: int) -> np.ndarray:
    """The sets of allies of a players-table column, as written by :func:`pack_allies`
    (or as Boolean arrays, as runs before toolkit 0.2 wrote them).

    Parameters
    ----------
    values : ndarray of uint8, shape (..., ⌈A / 8⌉), or of bool, shape (..., A)
    allies : int
        ``A``, the deck's allies.

    Returns
    -------
    ndarray of bool, shape (..., A)

    Raises
    ------
    ValueError
        When ``values`` does not hold ``allies`` allies per row.
    """
    if values.dtype == np.bool_:
        if values.shape[-1] != allies:
            raise ValueError(f"a set of allies holds {values.shape[-1]} allies, not the deck's {allies}")
        return values
    if values.shape[-1] != -(-allies // 8):
        raise ValueError(f"a bit-packed set of allies holds {values.shape[-1]} bytes, not {-(-allies // 8)} for {allies} allies")
    return np.unpackbits(values, axis=-1, count=allies).view(np.bool_)


# Task status codes, column ``task_status`` of the cards table (one per task).
TASK_UNREVEALED = 0
TASK_FACE_UP = 1  # revealed and still in the row at the end (R3.1, R6.5)
TASK_COMPLETED = 2  # R6.3
TASK_FAILED = 3  # failed at position 3 of the row by a morale-loss event (R8.1)
TASK_LOST = 4  # completed, then discarded by a penalty (R8.3)
