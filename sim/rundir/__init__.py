"""The run directory: the one contract between the runner that writes games and the
analysis that reads them.

Everything about a run directory's files lives here and nowhere else: its layout and
the codes its tables hold (:mod:`.schema`), the manifest (:mod:`.manifest`), the
Parquet parts with their checksums (:mod:`.parts`), the chunks and their soundness
(:mod:`.chunks`), and the one-writer lock (:mod:`.lock`). This package imports no
numba and nothing of the engine, so reading a run (``analysis/``, the notebooks,
``revachol report``) never loads the compiler; :mod:`sim.run.runner` writes runs through it.
"""

from sim.rundir.chunks import check_parts, chunk_problems, part_files, part_key
from sim.rundir.manifest import RunError, RunSpec, read_manifest, record_in_manifest, recorded_parts, write_json
from sim.rundir.parts import part_path
from sim.rundir.schema import DECK_COPY, MANIFEST, POINTS_BLIND_COMPANION, SKILLED_COMPANION, SORT_KEYS, TABLES

__all__ = [
    "DECK_COPY", "MANIFEST", "POINTS_BLIND_COMPANION", "SKILLED_COMPANION", "SORT_KEYS", "TABLES", "RunError", "RunSpec", "check_parts", "chunk_problems",
    "part_files", "part_key", "part_path", "read_manifest", "record_in_manifest", "recorded_parts", "write_json",
]  # fmt: skip
