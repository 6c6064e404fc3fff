"""The baseline bot ``random`` (issue: rules engine, item 4). Keep it exactly so: it is
the reference workload for speed and for cross-checks.

* Empty hand: draw. Five cards: play. Otherwise play with probability 1/2, else
  draw. If the draw is impossible, play. (The engine offers only the legal actions,
  so this is: one option, take it; two, pick one uniformly.)
* Play a uniformly random hand card into a uniformly random target (existing squads
  in creation order, plus a new squad): one uniform pick among the (card, target)
  rows, which is the same distribution.
* After playing, take the legal completion with the most task points among those
  that use no optional ability; on a tie the lowest squad index, then the lowest
  subset bitmask (the engine lists rows in that order).
* Never use an optional ability (A1, A2, A4, A6, A7, A8); A9 is mandatory.
* A penalty takes a uniformly random eligible card.
"""

from sim._numba import hot_kernel
from sim.bots.observation import BOT_STREAM
from sim.decisions import C_BORROWS, C_FREE, C_SUBSET, D_ACTION, D_COMPLETE, D_PENALTY, D_PLAY
from sim.rng import below
from sim.rules.task_row import subset_points


@hot_kernel
def random_choose(st, deck, seat, kind, n_options):
    """The ``random`` bot's option index for a decision of ``kind``."""
    if kind == D_ACTION or kind == D_PLAY or kind == D_PENALTY:
        return 0 if n_options == 1 else below(st.bot_stream, BOT_STREAM, n_options)
    if kind == D_COMPLETE:
        best, best_points = 0, -1
        for i in range(1, n_options):
            if st.options[i, C_FREE] == 0 and st.options[i, C_BORROWS] == 0:
                points = subset_points(st, deck, st.options[i, C_SUBSET])
                if points > best_points:
                    best, best_points = i, points
        return best
    return 0  # every other decision is an optional ability: never used
