"""Every status the grader gives, in one place.

A case gets one `Status`; a submission's status is the one that tells its true story
(`submission_status`): `grader-error` or `forbidden` whenever present, else the status whose
cases lost the most points (ties: the more serious, in the order of `SUBMISSION_ORDER`, most
serious first), else the most serious problem that cost nothing, or `ok`. The three verdicts
on a graded output (`passed`, `partial`, `wrong`) are case statuses only. docs/tas.md's
"Statuses" table lists the submission statuses in this order (a test checks it).
StrEnum: a status compares equal to, and is written to JSON as, its text.
"""
from __future__ import annotations

import enum

__all__ = ["Status", "SUBMISSION_ORDER", "VERDICTS", "SCORED", "ALWAYS_SHOWN", "import_status",
           "submission_status"]


class Status(enum.StrEnum):
    """A case's or a submission's status (definition order: most serious first)."""

    GRADER_ERROR = "grader-error"  # the grader failed on this submission (never cached)
    FORBIDDEN = "forbidden"  # the code tried to open the grader's own files
    UNSAFE_ARCHIVE = "unsafe-archive"  # absolute or .. paths, links, over the caps
    BAD_ARCHIVE = "bad-archive"  # not a readable zip
    NO_SOLUTION = "no-solution"  # no .py or notebook defines the graded functions
    SYNTAX_ERROR = "syntax-error"  # the solution does not parse
    IMPORT_TIMEOUT = "import-timeout"  # importing (even statement by statement) failed: ...
    IMPORT_EXIT = "import-exit"
    IMPORT_CRASH = "import-crash"
    IMPORT_MEMORY = "import-memory"
    IMPORT_ERROR = "import-error"
    TIMEOUT = "timeout"  # a call used its CPU-time limit, or was not run after one did
    MEMORY = "memory"
    CRASH = "crash"  # a signal or os._exit
    FILE_TOO_LARGE = "file-too-large"
    EXIT = "exit"  # SystemExit
    ERROR = "error"  # an exception
    BAD_RETURN = "bad-return"  # a cost function returned no number
    NO_OUTPUT = "no-output"  # an anonymizer wrote no output file
    SIGNATURE = "signature"  # cannot be called with the handout's arguments
    MISSING = "missing"  # not defined
    NOT_ATTEMPTED = "not-attempted"  # only raises NotImplementedError
    OUTPUT_CAPPED = "output-capped"  # printed more than the grader keeps (no penalty)
    OK = "ok"
    PASSED = "passed"  # verdicts on a graded output: case statuses only
    PARTIAL = "partial"
    WRONG = "wrong"


VERDICTS = (Status.PASSED, Status.PARTIAL, Status.WRONG)
SCORED = (Status.PASSED, Status.PARTIAL)
SUBMISSION_ORDER = tuple(s for s in Status if s not in VERDICTS)
ALWAYS_SHOWN = (Status.GRADER_ERROR, Status.FORBIDDEN)  # a TA must act, whatever they cost
_IMPORT = {"exception": Status.IMPORT_ERROR, "exit": Status.IMPORT_EXIT,
           "memory": Status.IMPORT_MEMORY, "timeout": Status.IMPORT_TIMEOUT,
           "crash": Status.IMPORT_CRASH}


def import_status(child_status: str) -> Status:
    """The submission status of a failed import, from the child's outcome status."""
    return _IMPORT.get(child_status, Status.IMPORT_ERROR)


def most_serious(statuses: set[str]) -> Status:
    """The first of SUBMISSION_ORDER among `statuses`, else ok."""
    return next((s for s in SUBMISSION_ORDER if s in statuses), Status.OK)


def submission_status(lost: dict[str, float], flags: set[str]) -> Status:
    """A submission's status. `lost`: the points its cases lost, per case status (verdicts
    included: a wrong answer is not a problem status); `flags`: its own problems besides the
    cases' (forbidden during the import, output capped). `grader-error` or `forbidden` whenever
    present; else the problem status that lost the most points (ties: the more serious); else
    the most serious problem present (one that cost nothing), or ok."""
    present = set(lost) | set(flags)
    urgent = [s for s in ALWAYS_SHOWN if s in present]
    if urgent:
        return urgent[0]
    costly = [s for s in SUBMISSION_ORDER if round(lost.get(s, 0.0), 6) > 0]
    if costly:  # max keeps the first of equals: the more serious
        return max(costly, key=lambda s: round(lost[s], 6))
    return most_serious(present)
