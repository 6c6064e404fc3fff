"""The rungs of the bot ladder by name, each by its first policy's name (:data:`sim.bots.ids.LADDER`).

A module of its own that imports nothing, so that the environment switch naming a
rung (:mod:`sim.switches`) is validated without importing the bots.
"""

RUNG_NAMES = ("random", "greedy", "planner", "search")
