"""Verdicts: what a judge decided, as data (kcheck.messages words it).

A `Verdict` is "passed" (rule "passed") or "wrong" with the id of the first rule broken,
the data row (from 1, header not counted) and the column at fault when there is one, a
`detail` choosing the rule's message variant ("" when it has one) and the message's
parameters (plain str, int, float or list of str). `row` and `column` never hold a
student's text: `column` is always one of the course's column names.

A `Finding` is what a check of the built-in anonymizers found wrong (kcheck.checks,
kcheck.compare): the key of its sentence in kcheck.messages.CHECKS and the sentence's
parameters, which may hold the student's cells (a public case's: the self-check's).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["PASSED", "WRONG", "RULES", "DETAILS", "Verdict", "passed", "wrong", "Finding"]

PASSED, WRONG = "passed", "wrong"

RULES: tuple[str, ...] = (
    "passed",
    "quality.file",     # the output is a readable CSV table
    "quality.columns",  # exactly the released columns, in the raw file's order
    "quality.rows",     # one output row per raw row
    "quality.cell",     # every QI cell parses (a label; a number or a range)
    "quality.copy",     # a released column that is not a QI is copied unchanged
    "quality.cover",    # every QI cell covers its raw value
    "quality.middle",   # every class holds, in each QI, its class's middle
    "quality.k",        # every class has at least k records
    "quality.utility",  # the table's cost is at most the band's top
    "number.type",      # the result is a number (bool is not)
    "number.off",       # the result is within the tolerance of the expected value
)
"""Every rule id, in the order the judges check them."""

DETAILS: dict[str, tuple[str, ...]] = {
    "quality.file": ("missing", "encoding", "csv", "empty", "duplicate", "width"),
    "quality.cell": ("label", "number", "range"),
}
"""The message variants of the rules that have several (the others have only "")."""


@dataclass(frozen=True)
class Verdict:
    """One judge's decision (module docstring)."""

    status: str
    rule: str
    row: int | None = None
    column: str | None = None
    params: dict[str, Any] = field(default_factory=dict, hash=False)
    detail: str = ""

    def __post_init__(self) -> None:
        if self.status not in (PASSED, WRONG):
            raise ValueError(f"unknown status {self.status!r}")
        if self.rule not in RULES:
            raise ValueError(f"unknown rule {self.rule!r}")
        if (self.status == PASSED) != (self.rule == "passed"):
            raise ValueError(f"status {self.status!r} with rule {self.rule!r}")
        if self.detail not in DETAILS.get(self.rule, ("",)):
            raise ValueError(f"rule {self.rule!r} has no detail {self.detail!r}")

    @property
    def ok(self) -> bool:
        return self.status == PASSED


def passed(**params: Any) -> Verdict:
    """A passed verdict."""
    return Verdict(PASSED, "passed", params=params)


def wrong(rule: str, row: int | None = None, column: str | None = None, detail: str = "",
          **params: Any) -> Verdict:
    """A wrong verdict for `rule`."""
    return Verdict(WRONG, rule, row, column, params, detail)


@dataclass(frozen=True)
class Finding:
    """A check's problem (module docstring): `message`, a key of kcheck.messages.CHECKS;
    `params`, its fields (a list of ints named "rows" is a list of data rows)."""

    message: str
    params: dict[str, Any] = field(default_factory=dict, hash=False)
