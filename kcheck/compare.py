"""The first difference between an output and the expected one (the self-check's), as a
`Finding` that kcheck.messages.say words. Standard library only."""
from __future__ import annotations

from .checks import Dataset
from .tables import Rows
from .verdicts import Finding

__all__ = ["first_difference"]


def first_difference(raw: Dataset, expected: Rows, rows: Rows) -> Finding | None:
    """The first cell where `rows` differs from `expected` (same shape assumed), with the
    number of differing rows; None when they are equal."""
    differing = [r for r, (a, b) in enumerate(zip(expected, rows)) if a != b]
    if not differing:
        return None
    r = differing[0]
    c = next(c for c, (a, b) in enumerate(zip(expected[r], rows[r])) if a != b)
    return Finding("difference", {
        "row": r + 1, "column": raw.header[c], "raw": raw.rows[r][c],
        "expected": expected[r][c], "got": rows[r][c], "differing": len(differing),
        "rows": len(rows)})
