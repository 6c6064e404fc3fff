"""A user bot (:mod:`sim.bots.user`) for tests/test_invariants.py: it always takes the
first option offered, so it never completes a task and piles its allies into one
squad (R5, R6)."""

from sim.bots.user import bot


@bot(params={})
def first(obs, deck, seat, kind, n_options):
    return 0
