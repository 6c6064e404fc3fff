"""The report's sections as data: one builder per question, each returning an
:class:`analysis.report.model.Section` (tables, answers, figure specifications and
note keys; no prose, no HTML, no file written)."""

from analysis.report.sections.cards import cards_section
from analysis.report.sections.closeness import closeness_section
from analysis.report.sections.length import length_section
from analysis.report.sections.morale import morale_section
from analysis.report.sections.seats import seats_section
from analysis.report.sections.skill import skill_section
from analysis.report.sections.tasks import tasks_section

__all__ = ["cards_section", "closeness_section", "length_section", "morale_section", "seats_section",
           "skill_section", "tasks_section"]
