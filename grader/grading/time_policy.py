"""The time policy of one submission's cases (docs/instructors.md "Time policy", HANDOUT
"Time limits").

A function's cases run from the smallest dataset up (the case runner orders them). A timeout
is evidence about one case, not about the larger ones: after a function's first timeout, each
of its later cases still runs, under the smaller of its own limit and the timed-out case's (a
short probe), and earns its points when it finishes within it. Only a second timeout ends the
function's grading: its later cases (on datasets as large or larger) are not run. So a
function that loops everywhere costs two limits of its smallest cases, never a large one.
The bookkeeping is kcheck.time_policy's, the self-check's too (its own parameters). Pure
bookkeeping: nothing here runs code.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from kcheck.time_policy import GRADER, CallLog

from ..rubric import Case
from .statuses import Status

__all__ = ["Plan", "TimePolicy"]


@dataclass(frozen=True)
class Plan:
    """How to run one case: under `limit` CPU seconds, or not at all (`skip`, the message)."""

    limit: float
    skip: str = ""
    note: str = ""  # said in the case's feedback when its limit was shortened by a probe


@dataclass
class TimePolicy:
    """Each function's timeouts so far (kcheck's call gate with the grader's parameters:
    given up after the second), and the plan for its next case."""

    log: CallLog = field(default_factory=lambda: CallLog(GRADER))

    def plan(self, case: Case, own_limit: float) -> Plan:
        """The limit of `case` (`own_limit`: its rubric limit), or why it is not run. Cases
        must come smallest dataset first."""
        ended = self.log.given_up(case.function)
        if ended is not None:
            first, second = ended
            return Plan(own_limit, skip=(
                f"not run: `{case.function}` ran out of time twice (on the cases "
                f"\"{first.what}\" ({first.rows} rows) and \"{second.what}\" ({second.rows} "
                f"rows)), so its later cases, on datasets as large or larger, are skipped"))
        limit = self.log.limit(case.function, own_limit)
        if limit >= own_limit:
            return Plan(own_limit)
        first = self.log.stops[case.function][0]
        return Plan(limit, note=(
            f"ran under a shortened limit of {limit:g} s after an earlier timeout (on "
            f"the case \"{first.what}\"; this case's own limit is {own_limit:g} s)"))

    def record(self, case: Case, rows: int, limit: float, status: Status) -> None:
        """Remember the case's outcome (only timeouts matter)."""
        if status == Status.TIMEOUT:
            self.log.stop(case.function, case.name, limit, rows)
