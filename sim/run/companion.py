"""A run's companion: the same games played again with one thing changed.

A companion replays a complete run's games (same root seed, so the same deals and
dice: common random numbers, :mod:`sim.rng`; same players, rule options, chunk size
and number of games) with either the deck or the bots changed, in a run directory
of its own inside the run, and is recorded in the run's manifest under
``companions``::

    <run>/<key>/            a normal run directory (:mod:`sim.rundir`)
    <run>/manifest.json     {"companions": {<key>: {"dir": <key>, ...}}}

Two companions exist: the points-blind one (:mod:`sim.run.points_blind`, every task paying
alike) and the skilled one (:mod:`sim.run.skilled`, a stronger bot in every seat). This
module imports the engine only when it plays, so the analysis can read a companion
without loading the compiler.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from sim.cards import Deck
from sim.rundir import MANIFEST, RunError, RunSpec, read_manifest, record_in_manifest


def complete_spec(run_dir: Path, what: str) -> RunSpec:
    """The :class:`RunSpec` of a complete run.

    Raises
    ------
    sim.rundir.RunError
        When ``run_dir`` is not a complete run; the message says to finish it before
        playing ``what``.
    """
    manifest = read_manifest(run_dir)
    if manifest.get("status") != "complete":
        raise RunError(f"{run_dir}: the run is not complete (status {manifest.get('status')!r}); finish it first "
                       f"(simulate with --resume), then play its {what}")  # fmt: skip
    return RunSpec.of(manifest)


def play_companion(run_dir: Path, spec: RunSpec, key: str, deck: Deck, bots: list[str], record: dict, label: str,
                   n_jobs: int = -1, progress: bool | None = None, scheduler: str | None = None,
                   dask_local: int | None = None, donors: Sequence[Path] = (), n_games: int | None = None,
                   chunk_size: int | None = None) -> Path:  # fmt: skip
    """Play (or finish) the companion ``key`` of a complete run with ``deck`` and
    ``bots``, and record it in the run's manifest (module docstring).

    Parameters
    ----------
    run_dir : Path
        A complete run directory of :func:`sim.run.runner.simulate`.
    spec : RunSpec
        Its :func:`complete_spec`.
    key : str
        The companion's directory and its key in ``companions``
        (:mod:`sim.rundir.schema`).
    deck, bots
        What the companion plays: the deck and one bot specification per seat.
    record : dict
        What the manifest records of it, beside ``dir``.
    label : str
        The progress bar's label, e.g. "points-blind games".
    n_jobs, progress, scheduler, dask_local, donors
        As :func:`sim.run.runner.simulate` (``donors``: runs of the same companion deck
        whose chunks it may take instead of playing them).
    n_games, chunk_size : int, optional
        The run's first ``n_games`` games only (default all), in chunks of
        ``chunk_size`` (default the run's); game ``i`` is the same game whatever either.

    Returns
    -------
    Path
        The companion's run directory, ``<run>/<key>``, complete.

    Raises
    ------
    sim.rundir.RunError
        When the run is being written by another process; and as
        :func:`sim.run.runner.simulate` for the companion.
    """
    from sim.options import RuleOptions  # the engine: only to play
    from sim.run.runner import simulate

    out = run_dir / key
    simulate(deck, n_games or spec.n_games, out, spec.n_players, bots, spec.seed, n_jobs, RuleOptions(**spec.options),
             chunk_size or spec.chunk_size, resume=(out / MANIFEST).exists(), progress=progress, scheduler=scheduler,
             dask_local=dask_local, label=label, donors=donors)  # fmt: skip
    record_in_manifest(run_dir, "companions",
                       lambda old: {**(old if isinstance(old, dict) else {}), key: {"dir": key, **record}})
    return out
