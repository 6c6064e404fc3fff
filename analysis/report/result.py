"""What every command returns (issue 67 item 1): its own data, what it prints and the
files it writes, before they are written.

``compare``, ``advise``, ``sweep``, ``card-value``, ``tune`` and ``train-expert`` each
return a :class:`Result`: the experiment's value for a notebook (a
:class:`~analysis.experiments.compare.Comparison`, an
:class:`~analysis.experiments.advise.Advice`, a table …), its brief (a
:class:`~analysis.report.document.Page`, data only, that
:func:`analysis.report.terminal.print_page` draws) and its files (a
:class:`~analysis.report.writer.Files`, data only). :func:`analysis.workflows.deliver`
hands it to the one writer. The report's commands (``run``, ``report``, ``skill``,
``skill-check``) return the report's :class:`~analysis.report.writer.WrittenReport`,
built by the same model (:mod:`analysis.report.model`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar

from analysis.report.document import Page
from analysis.report.writer import Files

V = TypeVar("V")


@dataclass(frozen=True)
class Result(Generic[V]):
    """A command's result: ``value``, its data; ``brief``, what it prints; ``files``,
    what it writes under ``out``, each by its path relative to ``out``."""

    value: V
    brief: Page
    files: Files
    out: Path

    def path(self, name: str) -> Path:
        """Where the file ``name`` (relative to :attr:`out`) is written."""
        return self.out / name
