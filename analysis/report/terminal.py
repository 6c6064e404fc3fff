"""Tables in the terminal: the report's language (rates in %, differences in pp,
each estimate with its 95% CI and n) as a rich table, for ``card-value``, ``sweep``,
``tune`` and ``compare``.

The cells are those of the HTML report (:func:`analysis.report.html.present`), so the
terminal and the page never disagree on units or rounding.
"""

from __future__ import annotations

import pandas as pd
from rich.console import Console
from rich.table import Table
from rich.text import Text

from analysis.report.html import present


def rich_table(table: pd.DataFrame, title: str = "", hide: tuple[str, ...] = ()) -> Table:
    """The table's :func:`~analysis.report.html.present` cells as a ``rich.table.Table``
    (numbers right-aligned, the first column left-aligned). Cells and title are
    plain text, never rich markup: a card value such as ``[red, blue]`` prints as is."""
    text = present(table, hide)
    out = Table(title=Text(title) if title else None, title_justify="left", header_style="bold")
    for i, column in enumerate(text.columns):
        out.add_column(Text(str(column)), justify="left" if i == 0 else "right", overflow="fold")
    for row in text.itertuples(index=False):
        out.add_row(*(Text(str(cell)) for cell in row))
    return out


def print_table(table: pd.DataFrame, title: str = "", hide: tuple[str, ...] = (), console: Console | None = None) -> None:
    """Print :func:`rich_table` of ``table`` (to ``console``, default standard output)."""
    (console or Console()).print(rich_table(table, title, hide))
