"""Each command's default games, named once: the command line (``cli.py``,
``commands/``), the library API (:mod:`analysis.workflows`) and the experiments take
them from here.

This module imports nothing, so the command line takes its options' defaults from here
without loading the analysis (``revachol --help`` starts fast), as it does
:mod:`analysis.thresholds`'.
"""

MAIN_JOB_GAMES = 100_000
"""``revachol run``: games of the main job at each player count."""
MAIN_JOB_ROUND = 50_000
"""``run --until-settled``: games per round, two chunks, so that two workers play at once."""
COMPARE_GAMES = 20_000
"""``revachol compare``: games under each card file."""
COMPARE_ROUND = 10_000
"""``compare --until-settled``: games per round and deck."""
ADVISE_GAMES = 50_000
"""``revachol advise``: games per deck on the search seed (and as many points-blind); at
20,000 the search's noise left 6 allies with a verdict on the default deck's hold-out,
at 50,000 2 (docs/EXPERIMENTS.md)."""
ADVISE_HOLDOUT_GAMES = 100_000
"""``advise``: games per deck on the hold-out seed (and as many points-blind)."""
EXPERIMENT_GAMES = 5_000
"""``sweep``, ``card-value`` and ``tune``: games per value, per ally, per candidate deck."""
TUNE_EVALUATIONS = 40
"""``tune``: roughly how many candidate decks to play."""
TRAIN_GENERATIONS, TRAIN_GAMES = 40, 10_000
"""``train-expert``: CMA-ES generations per player count, and games per candidate."""
