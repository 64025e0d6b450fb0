"""The time policy of one submission's cases (docs/instructors.md "Time policy", HANDOUT
"Time limits").

A function's cases run from the smallest dataset up (the case runner orders them). A timeout
is evidence about one case, not about the larger ones: after a function's first timeout, each
of its later cases still runs, under the smaller of its own limit and the timed-out case's (a
short probe), and earns its points when it finishes within it. Only a second timeout ends the
function's grading: its later cases (on datasets as large or larger) are not run. So a
function that loops everywhere costs two limits of its smallest cases, never a large one.
Pure bookkeeping: nothing here runs code.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..rubric import Case
from .statuses import Status

__all__ = ["Plan", "TimePolicy"]


@dataclass(frozen=True)
class Timeout:
    """A case on which a function ran out of time."""

    name: str
    rows: int
    limit: float


@dataclass(frozen=True)
class Plan:
    """How to run one case: under `limit` CPU seconds, or not at all (`skip`, the message)."""

    limit: float
    skip: str = ""
    note: str = ""  # said in the case's feedback when its limit was shortened by a probe


@dataclass
class TimePolicy:
    """Each function's timeouts so far, and the plan for its next case."""

    timeouts: dict[str, list[Timeout]] = field(default_factory=dict)

    def plan(self, case: Case, own_limit: float) -> Plan:
        """The limit of `case` (`own_limit`: its rubric limit), or why it is not run. Cases
        must come smallest dataset first."""
        seen = self.timeouts.get(case.function, [])
        if len(seen) >= 2:
            first, second = seen[0], seen[1]
            return Plan(own_limit, skip=(
                f"not run: `{case.function}` ran out of time twice (on the cases "
                f"\"{first.name}\" ({first.rows} rows) and \"{second.name}\" ({second.rows} "
                f"rows)), so its later cases, on datasets as large or larger, are skipped"))
        if not seen or seen[0].limit >= own_limit:
            return Plan(own_limit)
        first = seen[0]
        return Plan(first.limit, note=(
            f"ran under a shortened limit of {first.limit:g} s after an earlier timeout (on "
            f"the case \"{first.name}\"; this case's own limit is {own_limit:g} s)"))

    def record(self, case: Case, rows: int, limit: float, status: Status) -> None:
        """Remember the case's outcome (only timeouts matter)."""
        if status == Status.TIMEOUT:
            self.timeouts.setdefault(case.function, []).append(Timeout(case.name, rows, limit))
