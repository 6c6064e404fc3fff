"""Balance reports over a run directory (see docs/ARCHITECTURE.md).

For notebooks, one function per table, each taking one or several run directories
(or :class:`analysis.data.runs.Run` objects) and returning a pandas DataFrame keyed by
``run``, ``players`` and ``bots``; each raises :class:`sim.rundir.RunError` or
:class:`sim.cards.DeckError` for a directory that is not a readable run:

* :mod:`analysis.length` — ``game_length``, ``game_endings``, ``length_histogram``,
  ``length_survival``, ``first_event_incidence``;
* :mod:`analysis.morale` — ``morale_per_game``, ``morale_event_distribution``,
  ``player_penalties``, ``morale_cards``;
* :mod:`analysis.cards` — ``ally_strength``, ``ally_contributions``,
  ``task_outcomes``, ``task_completers``;
* :mod:`analysis.seats` — ``seat_win_rates``, ``seat_balance``, ``score_summary``,
  ``score_histogram``, ``bot_win_rates``.

:mod:`analysis.closeness` (``closeness``, ``margin_histogram``) and
:mod:`analysis.task_calibration` (``task_calibration``) answer two more questions.
The rooms around them: :mod:`analysis.data` reads runs, :mod:`analysis.stats` holds
the estimators, :mod:`analysis.report` presents the answers (``figures.plot_*``
return matplotlib Figures; :func:`analysis.report.build_report` writes the HTML report
with its CSV tables) and :mod:`analysis.experiments` holds compare, card value, sweep
and tune.
"""
