"""The renderers of a :class:`analysis.report.document.Page` (the pages of ``compare``
and ``advise``): :func:`page_html`, the self-contained HTML page, every string
escaped once here (:mod:`analysis.report.html`); :func:`page_text`, the same page as
plain text, for the golden texts (tests/golden/) and review as a diff."""

from __future__ import annotations

from html import escape

from analysis.report.document import Code, Diff, Figure, Heading, Lines, Page, Paragraph, PLAIN, Table
from analysis.report.html import image_html, page, table_html
from analysis.report.terminal import table_text

WIDE_STYLE = """
body { max-width: 1320px; }
.wide { overflow-x: auto; max-width: 100%; }
.wide table.table td { overflow-wrap: break-word; }
.wide.estimates table.table td { white-space: nowrap; }
.wide.sentences table.table td:last-child { white-space: normal; text-align: left; min-width: 18em; }
.wide.sentences table.table th:last-child { text-align: left; }
pre.diff { white-space: pre-wrap; overflow-wrap: anywhere; background: #f8f8f8; padding: 0.6em; }
pre.diff .add { color: #1a7f37; background: #e6ffec; }
pre.diff .del { color: #cf222e; background: #ffebe9; }
pre.diff .hunk { color: #6e7781; }
pre.diff .file { font-weight: bold; }
"""  # wide tables scroll inside their own box, never the page; the diff keeps its +/- markers
"""The style a page with a wide table or a diff adds to :data:`analysis.report.html.STYLE`
(the advisor's page): a wider body, each wide table in a box that scrolls sideways
itself, the diff's lines coloured."""


def diff_html(diff: str) -> str:
    """The unified diff as a ``<pre class="diff">``, each line escaped in a span: added
    lines ``add`` (green), removed ``del`` (red), ``@@`` hunks ``hunk``, file names
    ``file``; the ``+``/``-`` markers are kept, so it reads without colour too."""
    if not diff:
        return '<pre class="diff">no change</pre>'
    kinds = (("+++", "file"), ("---", "file"), ("@@", "hunk"), ("+", "add"), ("-", "del"))
    lines = []
    for line in diff.splitlines():
        kind = next((k for start, k in kinds if line.startswith(start)), "")
        lines.append(f'<span class="{kind}">{escape(line)}</span>' if kind else escape(line))
    return '<pre class="diff">' + "\n".join(lines) + "</pre>"


def _wide(table: str, *kinds: str) -> str:
    """A table that may be wider than the page, in a box that scrolls sideways itself;
    ``kinds``: ``estimates`` (cells on one line), ``sentences`` (the last column holds
    sentences: wrapped, left-aligned)."""
    return f'<div class="{" ".join(("wide", *kinds))}">{table}</div>'


def _parts_html(parts: tuple[str | Code, ...]) -> str:
    return "".join(f"<code>{escape(part.text)}</code>" if isinstance(part, Code) else escape(part) for part in parts)


def block_html(block) -> str:
    """One block of a page as HTML, its text escaped.

    Raises
    ------
    TypeError
        When ``block`` is none of :data:`analysis.report.document.Block`'s kinds.
    """
    if isinstance(block, Heading):
        return f"<h{block.level}>{escape(block.text)}</h{block.level}>"
    if isinstance(block, Paragraph):
        kind = "" if block.kind == PLAIN else f' class="{block.kind}"'
        return f"<p{kind}>{_parts_html(block.parts)}</p>"
    if isinstance(block, Lines):
        tag = "ol" if block.ordered else "ul"
        return f"<{tag}>" + "".join(f"<li>{escape(line)}</li>" for line in block.lines) + f"</{tag}>"
    if isinstance(block, Table):
        shown = table_html(block.frame, hide=block.hide)
        caption = f"<h3>{escape(block.title)}</h3>\n" if block.title else ""
        return caption + (shown if block.wide is None else _wide(shown, *block.wide))
    if isinstance(block, Figure):
        return image_html(block.png, block.alt)
    if isinstance(block, Diff):
        return diff_html(block.text)
    raise TypeError(f"not a block of a page: {block!r}")


def page_html(document: Page) -> str:
    """The whole page of ``document``, a self-contained HTML document; with
    :data:`WIDE_STYLE` when it holds a wide table or a diff."""
    wide = any(isinstance(b, Diff) or (isinstance(b, Table) and b.wide is not None) for b in document.blocks)
    body = "\n".join(block_html(block) for block in document.blocks)
    return page(document.title, body, f"<style>{WIDE_STYLE}</style>" if wide else "")


def block_text(block) -> str:
    """One block of a page as plain text: a heading as ``## text`` (``#`` per level), a
    paragraph as its text (code in backticks), a list one line each (numbered when
    ordered, else ``-``), a table with the page's cells (:func:`analysis.report.terminal.table_text`)
    under its title,
    a figure as ``[figure: its alt text]``, the diff as it is.

    Raises
    ------
    TypeError
        As :func:`block_html`.
    """
    if isinstance(block, Heading):
        return f"{'#' * block.level} {block.text}"
    if isinstance(block, Paragraph):
        return "".join(f"`{part.text}`" if isinstance(part, Code) else part for part in block.parts)
    if isinstance(block, Lines):
        return "\n".join(block.marked())
    if isinstance(block, Table):
        return (f"{block.title}\n" if block.title else "") + table_text(block.frame, block.hide)
    if isinstance(block, Figure):
        return f"[figure: {block.alt}]"
    if isinstance(block, Diff):
        return block.text.rstrip("\n") or "no change"
    raise TypeError(f"not a block of a page: {block!r}")


def page_text(document: Page) -> str:
    """The whole page of ``document`` as plain text: its title, then each block
    (:func:`block_text`), a blank line between."""
    return "\n\n".join([f"{document.title}\n{'=' * len(document.title)}",
                        *(block_text(block) for block in document.blocks)]) + "\n"  # fmt: skip
