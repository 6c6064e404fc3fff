"""A page as data: its title and its blocks in order, before any HTML.

The pages of ``compare`` (:func:`analysis.experiments.compare.comparison_page`) and
``advise`` (:func:`analysis.experiments.advise_page.advice_page`) are built as a
:class:`Page` of headings, paragraphs, lists of lines, tables, figures and a unified
diff; :mod:`analysis.report.render_page` draws it as HTML (:func:`~analysis.report.render_page.page_html`)
and as plain text (:func:`~analysis.report.render_page.page_text`, the golden texts).
Every string here is plain text, never HTML: the renderer escapes it. The sentences
are made where they are today (:mod:`analysis.report.words`, the advisor's sentence
functions); a block only carries them.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

ANSWER, NOTE, PLAIN = "answer", "note", "plain"
"""A paragraph's kind: the page's answer to its question (set off), a note on how to
read it (small, grey), or plain text."""
ESTIMATES, SENTENCES = "estimates", "sentences"
"""How a wide table's cells wrap: ``estimates``, each cell on one line; ``sentences``,
its last column holds sentences, wrapped and left-aligned."""


@dataclass(frozen=True)
class Heading:
    """A heading: ``level`` 1 for the page's own, 2 for a section's."""

    text: str
    level: int = 2


@dataclass(frozen=True)
class Code:
    """Code inside a paragraph: a command or a path, shown as typed."""

    text: str


@dataclass(frozen=True)
class Paragraph:
    """A paragraph of ``kind`` (:data:`ANSWER`, :data:`NOTE` or :data:`PLAIN`): its
    ``parts`` in order, text or :class:`Code`."""

    parts: tuple[str | Code, ...]
    kind: str = PLAIN


def answer(*parts: str | Code) -> Paragraph:
    """A :data:`ANSWER` paragraph of ``parts``."""
    return Paragraph(parts, ANSWER)


def note(*parts: str | Code) -> Paragraph:
    """A :data:`NOTE` paragraph of ``parts``."""
    return Paragraph(parts, NOTE)


def plain(*parts: str | Code) -> Paragraph:
    """A :data:`PLAIN` paragraph of ``parts``."""
    return Paragraph(parts, PLAIN)


@dataclass(frozen=True)
class Lines:
    """A list of lines (sentences), numbered when ``ordered``."""

    lines: tuple[str, ...]
    ordered: bool = False

    def marked(self) -> list[str]:
        """Each line as plain text shows it: `` 1. line`` when ordered, ``- line`` else."""
        return [f"{k:>2}. {line}" if self.ordered else f"- {line}" for k, line in enumerate(self.lines, 1)]


@dataclass(frozen=True, eq=False)
class Table:
    """A table shown in the page's language (:func:`analysis.report.html.present`:
    rates in %, estimates with their 95% CI), but the columns of ``hide``. ``wide``:
    None for a table in the page's flow; a tuple for a table that may be wider than the
    page, in a box that scrolls sideways itself, its cells wrapped as its kinds say
    (:data:`ESTIMATES`, :data:`SENTENCES`; none: as any table). ``title``: its
    caption, shown above it; none for a table under its heading."""

    frame: pd.DataFrame
    hide: tuple[str, ...] = ()
    wide: tuple[str, ...] | None = None
    title: str = ""


@dataclass(frozen=True)
class Figure:
    """A figure drawn as PNG bytes (:func:`analysis.report.html.figure_png`) and the
    text that stands for it (alt text)."""

    png: bytes
    alt: str


@dataclass(frozen=True)
class Diff:
    """A unified diff (:mod:`difflib`), as text; empty when nothing changed."""

    text: str


Block = Heading | Paragraph | Lines | Table | Figure | Diff


@dataclass(frozen=True)
class Page:
    """A page: its ``title`` (the document's, e.g. a browser tab's) and its blocks in
    order, the first usually a level-1 :class:`Heading`."""

    title: str
    blocks: tuple[Block, ...]
