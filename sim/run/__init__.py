"""Running games: the run's plumbing around the game core (:mod:`sim.play`).

``runner`` plays a batch into a run directory (:mod:`sim.rundir`) in chunks on local
worker processes (``workers``, watched by ``supervisor``) or a Dask cluster
(``cluster``), showing ``progress``; ``companion`` replays a complete run's games with
one thing changed, as the ``points_blind`` and ``skilled`` companions do; ``bench``
measures the engine's speed. Nothing here changes the games: the rules and the bots
are the core's.
"""

DEFAULT_CHUNK = 25_000
"""Games per chunk of a run: one Parquet part each, and the unit of ``--resume``
(:func:`sim.run.runner.simulate`). Here, importing nothing, so that the command line
names it without importing the engine."""
