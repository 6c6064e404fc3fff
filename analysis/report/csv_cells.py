"""Every CSV the toolkit writes, written inert for a spreadsheet.

A spreadsheet that opens a CSV reads a cell beginning with ``=``, ``+``, ``-`` or
``@`` as a formula, and one beginning with a tab or a carriage return may be read so
too: a card named ``=HYPERLINK("http://…","x")`` would become a live link, or worse,
in the designer's spreadsheet. OWASP, "CSV Injection"
(https://owasp.org/www-community/attacks/CSV_Injection), advises prefixing such a
cell with a single quote, which the spreadsheet shows as text.

:func:`csv_text` does so for the text cells (and column names) of a table, and
only for them: a number is written as pandas writes it (``-2.5`` stays the number
``-2.5``), as is a text cell that is a plain negative number, and every cell that
does not begin with one of those characters keeps its bytes.
"""

from __future__ import annotations

import re

import pandas as pd

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # OWASP, "CSV Injection"
NEGATIVE_NUMBER = re.compile(r"-(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")


def formula_like(value) -> bool:
    """Whether a spreadsheet may read ``value`` as a formula: a string that begins with
    ``=``, ``+``, ``-``, ``@``, a tab or a carriage return (OWASP, "CSV Injection") and
    is not a plain negative number such as ``-2.5``. A number is never formula-like."""
    return isinstance(value, str) and value.startswith(FORMULA_START) and not NEGATIVE_NUMBER.fullmatch(value)


def inert_cell(value):
    """``value`` as a spreadsheet reads it as text: with a leading ``'`` when it is
    :func:`formula_like`, else as it is (numbers included)."""
    return "'" + value if formula_like(value) else value


def csv_text(frame: pd.DataFrame) -> str:
    """``frame`` as CSV text without its index, every text cell and column name passed
    through :func:`inert_cell`; numeric columns, and text columns with no formula-like
    cell, are written as pandas writes them. :func:`analysis.report.writer.write_files`
    writes it."""
    escaped = frame.rename(columns=inert_cell)  # a copy: the caller's frame keeps its cells
    for column, dtype in escaped.dtypes.items():
        if not pd.api.types.is_numeric_dtype(dtype) and escaped[column].map(formula_like).any():
            escaped[column] = escaped[column].map(inert_cell)
    return escaped.to_csv(index=False)
