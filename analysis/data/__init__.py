"""A run directory as the reports read it: its parts (:mod:`.load`), the run with its
manifest and deck (:mod:`.runs`), and the players table as per-game arrays
(:mod:`.player_games`)."""
