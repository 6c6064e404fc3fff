"""Presentation: numbers with their intervals as text, tables and figures as HTML.

Every string that reaches the page goes through :func:`html.escape` — card names
and the rest of ``cards.yaml`` included — so a card file cannot inject markup.
Figures are embedded as base64 PNG, and sortable tables carry the DataTables
library inline (itables' offline mode), so the page is one self-contained file that
works offline.
"""

from __future__ import annotations

import base64
import io
import math
from decimal import ROUND_HALF_UP, Decimal
from html import escape

import numpy as np
import pandas as pd
from itables import to_html_datatable
from itables.javascript import generate_init_offline_itables_html
from itables.options import dt_bundle
from matplotlib.figure import Figure

from analysis.data.runs import KEYS

PERCENT_SUFFIXES = ("rate", "share", "_wr", "probability", "baseline", "advantage_p1", "survival", "hazard")
# Differences of rates (fractions), shown in percentage points.
POINTS_COLUMNS = ("iwd", "difference", "win_rate_value", "value_vs_baseline", "value_per_held_game")
PLAIN_COLUMNS = ("miss", "effect_size")  # in their own units whatever the row's unit
P_VALUE_COLUMNS = ("p_value", "q_value", "chi2_p_value")
LEAST_DECIMALS = {"balance": 3}  # Balance sits close to 1: show the third decimal
LABELS = {  # column names as a reader expects them; the others lose their underscores
    "played_wr": "played WR",
    "held_wr": "held WR (≈ GIH WR)",
    "never_held_wr": "never-held WR (≈ GNS WR)",
    "iwd": "IWD",
    "effect_pp": "effect vs average ally",
    "before_pp": "value in the original",  # advise --restricted-play
    "after_pp": "value in the proposal",
    "opening_wr": "OH WR",
    "opening_n": "n opening hand",
    "informative_games": "informative games",
    "advantage_p1_ratio": "AdvantageP1 ÷ fair",
    "chi2": "χ²",
    "chi2_p_value": "χ² p value",
    "played_n": "n played",
    "held_n": "n held",
    "never_held_n": "n never held",
    "advantage_p1": "AdvantageP1",
    "balance": "Balance",
    "balance_fair_5": "Balance a fair table stays above (95%)",
    "q_value": "q value (BH)",
    "p_value": "p value",
    "miss": "miss (CI half-widths)",
    "effect_size": "effect size (d_z)",
    "win_rate_value": "value vs reference (win rate)",
    "value_vs_baseline": "value vs no restriction",
    "value_per_held_game": "value per held game",
    "points_completed": "points completed",
    "taken_by_a6": "taken by A6", "taken_by_a6_per_game": "taken by A6 per game",
    "lent_to_a1": "lent to A1", "lent_to_a1_per_game": "lent to A1 per game",
    "p5": "5th pct", "p25": "25th pct", "p75": "75th pct", "p95": "95th pct",
    "mde_pp": "detectable at 80% power (pp)", "mde_points": "detectable at 80% power (points)",
    "mde": "detectable at 80% power", "games_to_decide": "games to decide", "level": "test level (after BH)",
    "games_needed": "games needed (median subject)", "games_needed_every": "games needed (every subject)",
}  # fmt: skip


def _decimals(width: float, least: int) -> int:
    """Decimals that show the first significant digit of an interval's width."""
    if not np.isfinite(width) or width <= 0:
        return least
    return int(min(4, max(least, -math.floor(math.log10(width)))))


def estimate(value: float, low: float, high: float, unit: str = "%", n: int | None = None, n_of: str = "games",
             noun: str = "", least: int = 1) -> str:
    """A value with its 95% interval and sample size, as text.

    ``27.1% (95% CI 26.8–27.4%, n = 20,000 games)`` for a fraction with
    ``unit="%"``; ``+4.2 pp (95% CI 3.5 to 4.8)`` with ``unit="pp"``; ``85.6 turns
    (95% CI 85.5–85.8)`` with ``unit=""`` and ``noun="turns"``. Decimals follow the
    interval's width (at least ``least``). NaN bounds give the value alone.
    """
    scale = 100.0 if unit in ("%", "pp") else 1.0
    value, low, high = (scale * v for v in (value, low, high))
    if not np.isfinite(value):
        return "–"
    bounded = bool(np.isfinite(low) and np.isfinite(high))
    places = _decimals(high - low if bounded else np.nan, least)
    percent = "%" if unit == "%" else ""
    sign, points = ("+", " pp") if unit == "pp" else ("", "")
    head = f"{signed(value, places) if sign else f'{rounded(value, places):,.{places}f}'}{percent}{points}" + (
        f" {noun}" if noun else "")
    inside = []
    if bounded:
        inside.append(f"95% CI {_interval(low, high, places, percent)}")
    if n is not None:
        inside.append(f"n = {count(n)} {n_of}")
    return f"{head} ({', '.join(inside)})" if inside else head


SNAP_DIGITS = 12
"""Significant digits a shown number is read at before it is rounded: far more than
any estimate here carries, far fewer than a float's 17, so the float noise of a sum or
product (1,919/2,000 computed as a Kaplan–Meier product) is gone."""


def rounded(value: float, places: int) -> float:
    """``value`` rounded to ``places`` decimals the same way on every machine.

    The value is first read at :data:`SNAP_DIGITS` significant digits, then rounded
    half to even in decimal (:class:`decimal.Decimal`). A value that is a ratio of
    counts sitting on a tie, such as a survival of 1,919/2,000 = 95.95%, then shows
    as the exact ratio rounds (96.0%), whichever last bit the libraries' arithmetic
    left it with (95.94999… or 95.95000…1), where Python's ``round`` would follow
    that bit. ``-0.0`` comes back as ``0.0``. NaN and infinities come back as they are.
    """
    if not math.isfinite(value):
        return value
    exact = Decimal(f"{value:.{SNAP_DIGITS}g}").quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return float(exact) + 0.0


def significant(value: float, digits: int) -> str:
    """``value`` at ``digits`` significant digits with thousands separators
    (``f"{value:,.3g}"``), read first at :data:`SNAP_DIGITS` digits as :func:`rounded` does."""
    return f"{float(f'{value:.{SNAP_DIGITS}g}'):,.{digits}g}"


def p_text(p: float) -> str:
    """A p value as text, never ``0``: one below a float's smallest (a z-test far out in
    its tail underflows to 0) reads ``< 1e-300``."""
    return "< 1e-300" if p < 1e-300 else f"{p:.2g}"


def count(n: float) -> str:
    """An integer count with thousands separators: ``20,000``."""
    return f"{int(n):,}"


def _unit(column: str) -> str:
    if column in POINTS_COLUMNS:
        return "pp"
    return "%" if column.endswith(PERCENT_SUFFIXES) else ""


def _row_unit(column: str, row_unit) -> str:
    """A column's unit in a row that names its own (``unit``: ``share``, ``turns`` …):
    a share's statistics in percent and its differences in pp, another unit's as
    plain numbers; the column's own unit in a table without a ``unit`` column."""
    if not isinstance(row_unit, str):
        return _unit(column)
    if column in ("games", "player_games", *PLAIN_COLUMNS):
        return ""
    if row_unit == "share":
        return "pp" if column in POINTS_COLUMNS else "%"
    return "" if column in POINTS_COLUMNS else _unit(column)


def _cell(value, column: str, unit: str) -> str:
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else ""
    if isinstance(value, (int, np.integer)):
        return count(value)
    if isinstance(value, (float, np.floating)):
        if not np.isfinite(value):
            return "–"
        if column in P_VALUE_COLUMNS:
            return p_text(value)
        if unit in ("%", "pp"):
            return estimate(value, np.nan, np.nan, unit)
        if float(value).is_integer():
            return count(value)
        return significant(value, 3) if abs(value) < 100 else f"{rounded(value, 1):,.1f}"
    return str(value)


def signed(value: float, places: int) -> str:
    """``value`` with its sign and ``places`` decimals, thousands separated: ``+2.62``,
    ``-0.09``; one that rounds to zero reads ``+0.00``, never ``-0.00``."""
    return f"{rounded(value, places):+,.{places}f}"


def _interval(low: float, high: float, places: int, percent: str = "") -> str:
    low, high = (rounded(bound, places) for bound in (low, high))
    dash = " to " if min(low, high) < 0 else "–"
    return f"{low:,.{places}f}{dash}{high:,.{places}f}{percent}"


def _number(value, column: str, unit: str):
    """A plain cell kept as a number, so that a sortable table sorts it as one."""
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else ""
    if isinstance(value, (int, np.integer)) or not isinstance(value, (float, np.floating)) or not np.isfinite(value):
        return value
    if column in P_VALUE_COLUMNS:
        return float(f"{value:.2g}")
    if unit in ("%", "pp"):
        return rounded(100 * float(value), 1)
    if float(value).is_integer():
        return int(value)
    return float(significant(value, 3).replace(",", "")) if abs(value) < 100 else rounded(float(value), 1)


def present(table: pd.DataFrame, hide: tuple[str, ...] = (), compact: bool = False) -> pd.DataFrame:
    """The table for reading: rates in percent, columns named for readers
    (:data:`LABELS`). Rows whose ``unit`` is ``share`` show their statistics in
    percent and their differences in percentage points; rows of another unit show
    differences in that unit. The run keys are dropped when there is one run.

    By default each estimate and its ``_low``/``_high`` bounds become one text
    cell (``27.1% (95% CI 26.8–27.4%)``) and counts get separators. With
    ``compact`` an estimate is a number in its unit (``win rate (%)``: 27.1) and a
    short ``95% CI`` column beside it (``26.8–27.4``), and every number stays a
    number, for a table that sorts and never wraps (:func:`sortable_html`)."""
    hide = set(hide) | ({"unit"} if "unit" in table and not compact else set())
    if "run" in table and table["run"].nunique() == 1:
        hide |= set(KEYS)
    bounds = {c for c in table.columns if c.endswith(("_low", "_high")) and c.rsplit("_", 1)[0] in table.columns}
    # Columns already in percentage points name their bounds NAME_low_pp, NAME_high_pp (effect_pp).
    bounds |= {c for c in table.columns if c.endswith(("_low_pp", "_high_pp"))}
    rows = []
    for _, row in table.iterrows():
        out = {}
        for column in table.columns:
            if column in hide or column in bounds:
                continue
            unit = _row_unit(column, row.get("unit"))
            label = LABELS.get(column, column.replace("_", " "))
            if column.endswith("_pp") and f"{column[:-3]}_low_pp" in bounds:
                base = column[:-3]
                value, low, high = (row[c] / 100 for c in (column, f"{base}_low_pp", f"{base}_high_pp"))
                unit = "pp"
            elif f"{column}_low" in bounds:
                value, low, high = row[column], row[f"{column}_low"], row[f"{column}_high"]
            elif compact and column == "unit":  # rows of mixed units: say which are in percent
                out[label] = "%" if row[column] == "share" else row[column]
                continue
            else:
                out[label] = _number(row[column], column, unit) if compact else _cell(row[column], column, unit)
                continue
            least = LEAST_DECIMALS.get(column, 1)
            if not compact:
                out[f"{label} (95% CI)"] = estimate(value, low, high, unit, least=least)
                continue
            scale = 100.0 if unit in ("%", "pp") else 1.0
            places = _decimals(scale * (high - low), least)
            header_unit = _unit(column) or ("pp" if column.endswith("_pp") else "")  # the column's, not the row's
            out[f"{label} ({header_unit})" if header_unit else label] = rounded(scale * float(value), places)
            bounded = np.isfinite(low) and np.isfinite(high)
            out[f"{label} 95% CI"] = _interval(scale * low, scale * high, places) if bounded else ""
        rows.append(out)
    return pd.DataFrame(rows)


def text_table_html(table: pd.DataFrame) -> str:
    """An HTML table of text cells, every cell and header passed through
    :func:`html.escape` (card names come from ``cards.yaml``)."""
    escaped = table.map(lambda cell: escape(str(cell)))
    escaped.columns = [escape(str(column)) for column in table.columns]
    return escaped.to_html(index=False, escape=False, border=0, classes="table")


def table_html(table: pd.DataFrame, hide: tuple[str, ...] = ()) -> str:
    """The report table as an escaped HTML table of :func:`present`."""
    return text_table_html(present(table, hide))


def sortable_html(table: pd.DataFrame) -> str:
    """A table that sorts by any column in the page (itables, DataTables), without
    paging, cells on one line, scrolling sideways when wide. Cells are escaped by
    itables (``allow_html`` off), so card text cannot inject markup; the page must
    carry :func:`sortable_script` once."""
    return to_html_datatable(table, connected=False, paging=False, scrollX=True, showIndex=False,
                             classes="display nowrap compact", display_logo_when_loading=False,
                             layout={"topStart": None, "topEnd": "search", "bottomStart": None, "bottomEnd": None})  # fmt: skip


def sortable_script() -> str:
    """The DataTables library and its style, inline (itables' offline mode): no
    network needed to open the page."""
    return generate_init_offline_itables_html(dt_bundle)


def figure_png(figure: Figure) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()


def image_html(png: bytes, alt: str) -> str:
    """An ``<img>`` with the PNG inline as base64 (the page stays self-contained)."""
    data = base64.b64encode(png).decode("ascii")
    return f'<img src="data:image/png;base64,{data}" alt="{escape(alt)}">'


STYLE = """
body { font-family: system-ui, sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em; color: #222; }
h1 { margin-bottom: 0.2em; } h2 { border-bottom: 2px solid #ccc; padding-bottom: 0.2em; margin-top: 2em; }
.answer { font-size: 1.15em; background: #eef4fb; border-left: 4px solid #2c6fbb; padding: 0.6em 0.9em; }
.warning { background: #fff4e0; border-left: 4px solid #d98200; padding: 0.6em 0.9em; }
.note { color: #555; font-size: 0.92em; }
ol.findings li { margin: 0.25em 0; } ol.findings a, details a { white-space: nowrap; font-size: 0.9em; }
#findings { background: #f6f9fc; border: 1px solid #d5e2f0; padding: 0.2em 1em 0.6em; }
#findings h2 { margin-top: 0.4em; }
table.table { border-collapse: collapse; font-size: 0.85em; margin: 0.8em 0; }
table.table th, table.table td { border-bottom: 1px solid #ddd; padding: 0.25em 0.6em; text-align: right; }
table.table th { background: #f3f3f3; }
table.provenance td { padding: 0.15em 0.8em 0.15em 0; vertical-align: top; }
img { max-width: 100%; margin: 0.6em 0; }
nav.contents { position: sticky; top: 0; z-index: 10; background: #fff; padding: 0.4em 0; border-bottom: 1px solid #ddd; }
details.more > summary { cursor: pointer; color: #2c6fbb; margin: 0.4em 0; }
table.findings { border-collapse: collapse; } table.findings td, table.findings th { padding: 0.1em 0.4em; }
div.dt-container, table.provenance { max-width: 100%; overflow-x: auto; display: block; }
"""


def page(title: str, body: str, head: str = "") -> str:
    """A whole HTML document around ``body`` (already HTML); ``head`` (HTML, e.g.
    :func:`sortable_script`) goes into the document's head."""
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>{escape(title)}</title>\n'
            f"<style>{STYLE}</style>\n{head}\n</head>\n<body>\n{body}\n</body>\n</html>\n")  # fmt: skip
