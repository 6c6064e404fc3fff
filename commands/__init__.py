"""The ``revachol`` command line's parts beside ``cli.py``: what every command shares
(:mod:`commands.common`) and the experiments' commands (:mod:`commands.experiments`)."""
