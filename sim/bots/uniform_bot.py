"""The bot ``uniform``: at every decision it picks uniformly among the options the
engine offers, optional abilities included (A1, A2, A4, A6, A7, A8), "do nothing"
included where a decision is optional. It follows no strategy; it reaches every rule
path, which is what the invariant tests need."""

from sim._numba import kernel
from sim.bots.observation import BOT_STREAM
from sim.rng import below


@kernel
def uniform_choose(st, n_options):
    """A uniform option index in ``[0, n_options)`` from the bot stream."""
    return below(st.bot_stream, BOT_STREAM, n_options)
