"""Policies: the built-in bots and their dispatch (see :mod:`sim.bots.policy`)."""
