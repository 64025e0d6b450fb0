"""Judging a returned number (a cost function's result) against the expected value.

A value is a number when it is a real number (int, float, fractions, numpy's scalars) and
not a bool. It is wrong when it is not a number (number.type), or is NaN, or lies farther
than `tolerance` from `expected` (number.off; an infinite value always does). The tolerance is
absolute, or relative to |expected| with `relative=True` (then the message shows the absolute
tolerance it came to).
"""
from __future__ import annotations

import math
import numbers

from .verdicts import Verdict, passed, wrong

__all__ = ["is_number", "judge_number"]


def is_number(value: object) -> bool:
    """A real number that is not a bool."""
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _shown(value: object) -> str:
    try:
        return repr(value)
    except Exception:  # a student's object whose repr fails: its type is all we show
        return f"<{type(value).__name__} object>"


def judge_number(value: object, expected: float, tolerance: float, *,
                 relative: bool = False) -> Verdict:
    """passed when |value - expected| <= tolerance (module docstring); `relative`: the
    tolerance is a fraction of |expected|."""
    if not math.isfinite(expected):
        raise ValueError(f"the expected value must be finite, got {expected!r}")
    if not tolerance >= 0 or not math.isfinite(tolerance):
        raise ValueError(f"the tolerance must be a number >= 0, got {tolerance!r}")
    if not is_number(value):
        return wrong("number.type", value=_shown(value), type=type(value).__name__)
    number = float(value)  # type: ignore[arg-type]
    allowed = tolerance * abs(expected) if relative else tolerance
    if math.isnan(number) or not abs(number - expected) <= allowed:
        return wrong("number.off", value=number, expected=float(expected),
                     tolerance=float(allowed))
    return passed(value=number)
