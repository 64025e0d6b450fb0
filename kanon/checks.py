"""The privacy checks every anonymizer's output is judged by: k-anonymity, distinct
l-diversity and the suppression count (Samarati's fully suppressed rows). Each check takes the
classes of `kanon.classes.group_rows` and returns the first violating class (in order of first
row), or None. They are kcheck's (kcheck/checks.py): the students' self-check judges with the
same code."""
from __future__ import annotations

from kcheck.checks import (ClassViolation, k_violation, l_violation, suppressed_rows,
                           suppression_violation)

__all__ = ["ClassViolation", "suppressed_rows", "suppression_violation", "k_violation",
           "l_violation"]
