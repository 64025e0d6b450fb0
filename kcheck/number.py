"""Judging a returned number (a cost function's result) against the expected value.

A value is a number when it is a real number (int, float, fractions, numpy's scalars) and
not a bool. It is wrong when it is not a number (number.type), or is NaN, or lies farther
than `tolerance` (absolute) from `expected` (number.off; an infinite value always does).
"""
from __future__ import annotations

import math
import numbers

from .verdicts import Verdict, passed, wrong

__all__ = ["is_number", "judge_number"]


def is_number(value: object) -> bool:
    """A real number that is not a bool."""
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def judge_number(value: object, expected: float, tolerance: float) -> Verdict:
    """passed when |value - expected| <= tolerance (module docstring)."""
    if tolerance < 0 or math.isnan(tolerance):
        raise ValueError(f"the tolerance must be a number >= 0, got {tolerance!r}")
    if not is_number(value):
        return wrong("number.type", value=repr(value), type=type(value).__name__)
    number = float(value)  # type: ignore[arg-type]
    if math.isnan(number) or not abs(number - expected) <= tolerance:
        return wrong("number.off", value=number, expected=float(expected),
                     tolerance=float(tolerance))
    return passed(value=number)
