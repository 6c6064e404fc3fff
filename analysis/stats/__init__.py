"""Statistics of the reports: intervals and tests (:mod:`.inference`), intervals
clustered by game (:mod:`.clustered`), per-player summaries (:mod:`.per_player`) and
the ally-strength model (:mod:`.ally_model`). These read runs through
:mod:`analysis.data` and never import a question, the report or an experiment."""
