"""Statistics of the reports: intervals and tests (:mod:`.inference`), intervals
clustered by game (:mod:`.clustered`) and the ally-strength model (:mod:`.ally_model`)."""
