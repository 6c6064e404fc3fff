"""The rules of docs/RULES.md, one module per rule area, compiled with numba.

``RULES_VERSION`` changes whenever a change to these modules changes play, so a
results set records which rules produced it.
"""

RULES_VERSION = 2  # 2: A1 without a borrower cap, each lent symbol once, borrows chosen one by one (issue 13)
