"""The checks of an anonymized output, in the course's language: kcheck's (kcheck/checks.py,
kcheck/compare.py, the grader's classes and violations), each problem worded by kcheck's
catalog (messages.say). Nothing is checked here."""
from __future__ import annotations

from typing import Callable

from messages import say
from kcheck.checks import Dataset as Table, load_dataset as load_table
from kcheck import checks, compare
from kcheck.tables import Rows, read_csv, read_csv_text

__all__ = ["Rows", "Table", "load_table", "read_csv", "read_csv_text", "check_valid",
           "check_k", "check_l", "check_suppressed_k", "first_difference"]


def _worded(check: Callable) -> Callable[..., str | None]:
    """`check`, its Finding worded in the course's language."""
    def worded(*args, **kwargs) -> str | None:
        return say(check(*args, **kwargs))
    worded.__doc__ = check.__doc__
    return worded


check_valid = _worded(checks.check_valid)
check_k = _worded(checks.check_k)
check_l = _worded(checks.check_l)
check_suppressed_k = _worded(checks.check_suppressed_k)
first_difference = _worded(compare.first_difference)
