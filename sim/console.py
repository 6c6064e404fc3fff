"""The width of what the command line prints on standard output.

On a terminal, rich and typer ask the terminal (or the ``COLUMNS`` environment
variable). Written to a file, a pipe or a captured subprocess, rich and click fall
back to 80 columns, which cut tables and ``--help`` examples short
(``evrart_claire.sy…``); the commands print at :data:`WIDTH` columns there instead,
or at ``COLUMNS`` when it is set.
"""

from __future__ import annotations

import os
import sys

from rich.console import Console

WIDTH = 160
"""Columns of standard output when it is not a terminal and ``COLUMNS`` is not set."""


def output_width() -> int | None:
    """The columns to print standard output at: None on a terminal (rich and typer
    then ask it); otherwise ``COLUMNS`` when it is a whole number, else :data:`WIDTH`."""
    if sys.stdout.isatty():
        return None
    columns = os.environ.get("COLUMNS", "")
    return int(columns) if columns.isdigit() else WIDTH


def stdout_console() -> Console:
    """A rich Console on standard output at :func:`output_width` columns."""
    return Console(width=output_width())
