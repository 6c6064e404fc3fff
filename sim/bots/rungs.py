"""The rungs of the bot ladder by name, each by its first policy's name (:data:`sim.bots.ids.LADDER`).

A module of its own that imports nothing, so that the environment switch naming a
rung (:mod:`sim.switches`) is validated without importing the bots.
"""

RUNG_NAMES = ("random", "greedy", "planner", "search")

COLD_COMPILE_SECONDS = {"random": 12, "greedy": 14, "planner": 19, "search": 90}
"""The first compilation of each rung's engine, seconds: ``revachol bench --cold --bot
NAME`` on a quiet 2-core machine (issue 68 item 5); a first run says it before it
starts compiling. A slower machine takes longer; later runs load the engine from
numba's cache in about a second."""
