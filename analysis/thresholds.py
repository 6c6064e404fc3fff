"""The practical threshold of an effect on win rate: the smallest a designer cares
about. With a million games a 0.3 pp difference is significant and of no
consequence, so a verdict needs the effect to be significant *and* this large
(:func:`analysis.cards.verdicts`).

This module imports nothing, so the command line takes its options' default from
here without loading the analysis (``revachol --help`` starts fast).
"""

DEFAULT_THRESHOLD_PP = 2.0
"""Percentage points of win rate: the smallest effect of an ally that earns a verdict
(stronger or weaker), the first player's edge counted as one unit of a finding's
distance (:mod:`analysis.report.findings`), and the gain over fair that makes a bot
beat the rung below or a skill budget pay (:mod:`analysis.skill`)."""

DEFAULT_BORDERLINE_PP = 0.5
"""Percentage points around the threshold, either side: a verdict whose confidence
sequence lies wholly within this band of the threshold is settled *at the threshold*
(:mod:`analysis.settled`), a quarter of :data:`DEFAULT_THRESHOLD_PP`."""
