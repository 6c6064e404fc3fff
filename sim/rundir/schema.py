"""The run directory's layout and the codes its tables hold.

A run directory (written by :func:`sim.runner.simulate`)::

    <run>/manifest.json                  what was run, by which code, each part's rows and SHA-256
    <run>/cards.yaml                     a copy of the card file the games were played with
    <run>/games/part-NNNNN.parquet       one row per game
    <run>/players/part-NNNNN.parquet     one row per (game, turn order)
    <run>/cards/part-NNNNN.parquet       one row per game: per-task, per-morale-card, per-ally arrays

Part ``NNNNN`` holds chunk ``NNNNN``: games ``NNNNN * chunk_size`` onwards. The
columns of each table are those of :meth:`sim.record.Record.tables`.
"""

TABLES = ("games", "players", "cards")
"""The three tables of a run, one folder of parts each."""

MANIFEST = "manifest.json"
DECK_COPY = "cards.yaml"

SORT_KEYS = {"games": ("game",), "players": ("game", "turn_order"), "cards": ("game",)}
"""The order in which each table's rows identify a player-game: a game's players are
consecutive rows in turn order."""

# Task status codes, column ``task_status`` of the cards table (one per task).
TASK_UNREVEALED = 0
TASK_FACE_UP = 1  # revealed and still in the row at the end (R3.1, R6.5)
TASK_COMPLETED = 2  # R6.3
TASK_FAILED = 3  # failed at position 3 of the row by a morale-loss event (R8.1)
TASK_LOST = 4  # completed, then discarded by a penalty (R8.3)
