"""The conditional logit's data, bit-packed in a temporary file for its later passes.

Each Newton step of :func:`analysis.stats.ally_model.fit_softmax` is one pass over the
games' held allies, winners and player groups. Decoding them again from the run's
parquet parts on every pass costs more than the step's arithmetic, so the first pass
writes them to a temporary file, one bit per held ally (:func:`numpy.packbits`), and
the later passes read it back, one chunk at a time. Memory stays one chunk's; the
file takes ``games × (players × ⌈allies / 8⌉ + players + 1)`` bytes (about 25 MB
per million four-player games of 40 allies) and is deleted when the spool is closed.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable, Iterator

import numpy as np

AllyChunk = tuple[np.ndarray, np.ndarray, np.ndarray]  # held (g, n, A) bool, winner (g,), group (g, n)


class AllySpool:
    """Chunks of ``(held, winner, group)`` written once and read back on every pass.

    Use as a context manager (the file is deleted on exit), ``add`` each chunk,
    then call the spool for a pass (:data:`analysis.stats.ally_model.AllyData`).

    Use::

        with AllySpool() as spool:
            for held, winner, group in chunks:  # the first pass, from the run's parts
                spool.add(held, winner, group)
            fit(spool)  # every later pass: for held, winner, group in spool(): ...
    """

    def __init__(self) -> None:
        self._file = tempfile.TemporaryFile(prefix="ally-spool-")
        self._chunks: list[tuple[int, int, int, int]] = []  # (offset, games, players, allies)

    def __enter__(self) -> AllySpool:
        return self

    def __exit__(self, *_) -> None:
        self.close()

    def close(self) -> None:
        """Delete the file."""
        self._file.close()

    def add(self, held: np.ndarray, winner: np.ndarray, group: np.ndarray) -> None:
        """Append one chunk of games.

        Parameters
        ----------
        held : ndarray of bool, shape (g, n, A)
        winner : ndarray of int, shape (g,)
            Values ``0 .. n − 1``.
        group : ndarray of int, shape (g, n)
            Values ``0 .. 127``.
        """
        games, players, allies = held.shape
        self._file.seek(0, 2)
        self._chunks.append((self._file.tell(), games, players, allies))
        for part in (np.packbits(held, axis=-1), winner.astype(np.int8), group.astype(np.int8)):
            self._file.write(np.ascontiguousarray(part).tobytes())

    def __call__(self) -> Iterator[AllyChunk]:
        """One pass over the chunks, in the order they were added."""
        for offset, games, players, allies in self._chunks:
            self._file.seek(offset)
            packed = np.fromfile(self._file, np.uint8, games * players * -(-allies // 8))
            held = np.unpackbits(packed.reshape(games, players, -1), axis=-1, count=allies).view(bool)
            winner = np.fromfile(self._file, np.int8, games).astype(np.int64)
            group = np.fromfile(self._file, np.int8, games * players).astype(np.int64).reshape(games, players)
            yield held, winner, group

    @classmethod
    def of(cls, chunks: Iterable[AllyChunk]) -> AllySpool:
        """A spool of every chunk of one pass (close it, or use it as a context manager)."""
        spool = cls()
        for chunk in chunks:
            spool.add(*chunk)
        return spool
