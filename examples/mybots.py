"""Example user bots for ``revachol simulate --bot examples/mybots.py:careful``.

A user bot is a compiled function with a fixed signature (see sim/bots/user.py for
what ``obs`` holds). This file is also used by the tests.
"""

from sim.bots.user import bot, parameter, random_below
from sim.decisions import C_SUBSET, D_ACTION, D_COMPLETE

DRAW_BIAS = 0  # index of the parameter in params


@bot(params={"draw_bias": 0.5})
def careful(obs, deck, seat, kind, n_options):
    """Completes the task subset worth most; otherwise picks at random, drawing with
    probability ``draw_bias`` when both playing and drawing are allowed."""
    if kind == D_COMPLETE:
        best, best_points = 0, -1
        for i in range(1, n_options):
            points = 0
            for pos in range(3):
                if (obs.options[i, C_SUBSET] >> pos) & 1:
                    points += deck.task_points[obs.row[pos]]
            if points > best_points:
                best, best_points = i, points
        return best
    if kind == D_ACTION and n_options == 2:
        return 1 if random_below(obs, 1000) < 1000 * parameter(obs, seat, DRAW_BIAS) else 0
    return random_below(obs, n_options)
