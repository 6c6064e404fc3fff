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
from dataclasses import dataclass

import numpy as np

AllyChunk = tuple[np.ndarray, np.ndarray, np.ndarray]  # held (g, n, A) bool, winner (g,), group (g, n)


@dataclass(frozen=True)
class Packed:
    """One chunk of ``(held, winner, group)`` bit-packed: what the spool stores, and
    what a worker process receives to compute a Newton step's totals on it.

    Attributes
    ----------
    held : ndarray of uint8, shape (g, n, ⌈A / 8⌉)
        :func:`numpy.packbits` of ``held`` along the allies.
    winner : ndarray of int8, shape (g,)
    group : ndarray of int8, shape (g, n)
    allies : int
        ``A``.
    """

    held: np.ndarray
    winner: np.ndarray
    group: np.ndarray
    allies: int

    @classmethod
    def of(cls, held: np.ndarray, winner: np.ndarray, group: np.ndarray) -> Packed:
        """Pack ``held`` bool ``(g, n, A)``, ``winner`` int ``(g,)`` (values ``0 .. n − 1``)
        and ``group`` int ``(g, n)`` (values ``0 .. 127``)."""
        return cls(np.packbits(held, axis=-1), winner.astype(np.int8), group.astype(np.int8), held.shape[2])

    @property
    def games(self) -> int:
        return len(self.winner)

    def unpack(self) -> AllyChunk:
        """``(held, winner, group)`` as bool and int64 arrays."""
        held = np.unpackbits(self.held, axis=-1, count=self.allies).view(bool)
        return held, self.winner.astype(np.int64), self.group.astype(np.int64)


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
        """Append one chunk of games (as :meth:`Packed.of`)."""
        self.append(Packed.of(held, winner, group))

    def append(self, chunk: Packed) -> None:
        """Append one packed chunk of games."""
        games, players, _ = chunk.held.shape
        self._file.seek(0, 2)
        self._chunks.append((self._file.tell(), games, players, chunk.allies))
        for part in (chunk.held, chunk.winner, chunk.group):
            self._file.write(np.ascontiguousarray(part).tobytes())

    def packed(self) -> Iterator[Packed]:
        """One pass over the packed chunks, in the order they were added."""
        for offset, games, players, allies in self._chunks:
            self._file.seek(offset)
            held = np.fromfile(self._file, np.uint8, games * players * -(-allies // 8)).reshape(games, players, -1)
            winner = np.fromfile(self._file, np.int8, games)
            yield Packed(held, winner, np.fromfile(self._file, np.int8, games * players).reshape(games, players), allies)

    def __call__(self) -> Iterator[AllyChunk]:
        """One pass over the chunks, in the order they were added."""
        for chunk in self.packed():
            yield chunk.unpack()

    @classmethod
    def of(cls, chunks: Iterable[AllyChunk]) -> AllySpool:
        """A spool of every chunk of one pass (close it, or use it as a context manager)."""
        spool = cls()
        for chunk in chunks:
            spool.add(*chunk)
        return spool
