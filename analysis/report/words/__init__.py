"""The toolkit's words, one module per subject: the report page's
(:mod:`~analysis.report.words.report`), the skill check's
(:mod:`~analysis.report.words.skill`), ``compare``'s
(:mod:`~analysis.report.words.compare`), ``advise``'s
(:mod:`~analysis.report.words.advise`), ``plan``'s (:mod:`~analysis.report.words.plan`)
and the other experiments' lines (:mod:`~analysis.report.words.experiments`), with
the helpers they share (:mod:`~analysis.report.words.common`). Every sentence is
written once, in its subject's module; the code that computes the tables hands over
values and prints or draws what these return.

This face re-exports the names ``analysis.report.words`` had as one module, for
callers outside the repository; the repository's own code imports the subject
modules.
"""

from analysis.report.words.advise import FREES, NO_SIDE_EFFECT, free_text, side_effects_lead, skilled_allies_text
from analysis.report.words.compare import (NOTHING_MOVED, SKILL_CHECK_TITLE, TASK_VERDICT_WORDS, VERDICT_WORDS,
                                           change_sentence, change_skill_text, moved_lead, one_deck_only_sentence,
                                           task_verdict_change_sentence, verdict_change_lines,
                                           verdict_change_sentence, verdicts_lead)
from analysis.report.words.experiments import card_value_reference, main_job_lines
from analysis.report.words.plan import plan_lines
from analysis.report.words.report import (ADAPTATION, ALT_TEXTS, ANSWERS, AS_CSV, AS_PLAYED_NOTE, BLIND, BY_BOT_NOTE,
                                          CALIBRATION, CAPTIONS, CLOSENESS_NOTE, EMPTY, FINDINGS, FINDINGS_NOTE,
                                          FULL_TABLE, HEADER_ONLY, HOW_TO_READ, HOW_TO_READ_TITLE, LENGTH_NOTE, MADE,
                                          MORALE_NOTE, NO_ROWS, NOTES, PROVENANCE_MORE, SEATS_NOTE, SECTION_MORE,
                                          SKILL_CHECK_NOTE, SKILL_NOTE, UNDECIDED, answer_text, at_threshold_clause,
                                          at_threshold_sentence, empty_text, finding_cells, finding_claim,
                                          finding_headers, finding_sentence, more_findings, not_settled_clause,
                                          not_settled_sentence, note_text, provenance, skill_verdict,
                                          stopping_sentence, title, undecided_clause, warnings)
from analysis.report.words.skill import (DETECTABLE_OF, SKILL_CHECK_ON_PAGE, SKILL_MEASURES, no_skill_check_line,
                                         skill_check_lines, skill_check_sentence, skill_settled_sentence,
                                         skill_suffix)

__all__ = [
    "FREES", "NO_SIDE_EFFECT", "free_text", "side_effects_lead", "skilled_allies_text",
    "NOTHING_MOVED", "SKILL_CHECK_TITLE", "TASK_VERDICT_WORDS", "VERDICT_WORDS", "change_sentence",
    "change_skill_text", "moved_lead", "one_deck_only_sentence", "task_verdict_change_sentence",
    "verdict_change_lines", "verdict_change_sentence", "verdicts_lead",
    "card_value_reference", "main_job_lines", "plan_lines",
    "ADAPTATION", "ALT_TEXTS", "ANSWERS", "AS_CSV", "AS_PLAYED_NOTE", "BLIND", "BY_BOT_NOTE", "CALIBRATION",
    "CAPTIONS", "CLOSENESS_NOTE", "EMPTY", "FINDINGS", "FINDINGS_NOTE", "FULL_TABLE", "HEADER_ONLY", "HOW_TO_READ",
    "HOW_TO_READ_TITLE", "LENGTH_NOTE", "MADE", "MORALE_NOTE", "NO_ROWS", "NOTES", "PROVENANCE_MORE", "SEATS_NOTE",
    "SECTION_MORE", "SKILL_CHECK_NOTE", "SKILL_NOTE", "UNDECIDED", "answer_text", "at_threshold_clause",
    "at_threshold_sentence", "empty_text", "finding_cells", "finding_claim", "finding_headers", "finding_sentence",
    "more_findings", "not_settled_clause", "not_settled_sentence", "note_text", "provenance", "skill_verdict",
    "stopping_sentence", "title", "undecided_clause", "warnings",
    "DETECTABLE_OF", "SKILL_CHECK_ON_PAGE", "SKILL_MEASURES", "no_skill_check_line", "skill_check_lines",
    "skill_check_sentence", "skill_settled_sentence", "skill_suffix",
]  # fmt: skip
