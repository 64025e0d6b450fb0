"""Judging one case: a pure function from what the call did (a CallOutcome), what the case
expects and what the call wrote, to a status, a message and the share of the case's points.
A hidden case's message holds structured facts only (grader.grading.hidden_view): the
verdict, an exception's type and the student's own file and line, never text the student's
code made (a message, an exit code, a returned object's repr).

Nothing here runs code, reads files or keeps state: the case runner reads the output file
(`Produced`) and passes everything in, so every status has a table-driven test
(tests/kit/grading/test_grader_judge.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from pathlib import Path

from kanon.schema import DEFAULT as DEFAULT_SCHEMA, Schema

from ..contract import OUTPUT_FILE, is_cost
from .compare import CaseData
from .expected import Expected
from .judges import JUDGES, CaseInput
from .hidden_view import StudentCode, exception_facts, frame, type_name
from ..sandbox import CallOutcome, wall_backstop
from .statuses import Status

__all__ = ["CaseFacts", "Produced", "Judgement", "judge"]


@dataclass(frozen=True)
class CaseFacts:
    """What judging needs to know about a case and its limits."""

    function: str
    ints: dict[str, int]
    hidden: bool
    expected: Expected
    partial_credit: float
    cost_tolerance: float
    cpu_limit: float  # the call's CPU-time limit
    rows: int  # data rows of its dataset
    memory_mb: int
    file_size_mb: int
    disk_mb: int
    judge: str = "exact"  # grader.parts.JUDGES: which strategy of grader.grading.judges
    returns_number: bool | None = None  # the contract's; None: the kit's function's
    inputs: Path | None = None  # the case's data folder (what the kcheck judges read)
    qis: tuple[str, ...] = ()
    schema: Schema = DEFAULT_SCHEMA

    @property
    def number(self) -> bool:
        return is_cost(self.function) if self.returns_number is None else self.returns_number


@dataclass(frozen=True)
class Produced:
    """The anonymizer's output file as the runner found it: its bytes, or why there are none."""

    data: bytes | None = None
    missing: bool = False  # no output file at all
    not_regular: bool = False  # a link or not a regular file: never read


@dataclass(frozen=True)
class Judgement:
    status: Status
    message: str
    fraction: float = 0.0  # share of the case's points
    ref: dict | None = None  # a kcheck judge's message as data (grader.grading.judges)


def judge(outcome: CallOutcome, facts: CaseFacts, produced: Produced | None = None,
          data: CaseData | None = None, *, scrub: Callable[[str], str] = str,
          hint: str = "", code: StudentCode = StudentCode()) -> Judgement:
    """The verdict on one call. `data` is the case's raw side (anonymizers), `scrub` cleans
    child-reported text (scratch paths), `hint` explains a NameError on a name whose import
    the import retry left out, `code` is the submission's own files (what a hidden case may
    name of an exception)."""
    error = outcome.error
    failed = _failure(outcome, facts, scrub, hint, code)
    if failed is not None:
        return failed
    if outcome.status == "exception":  # the contract's expected exception
        kind = (type_name(error.get("type"), error.get("mro"), code) if facts.hidden
                else error.get("type"))
        return Judgement(Status.PASSED, f"raised {kind} as the contract requires", 1.0)
    if facts.expected.kind == "error":
        return Judgement(Status.WRONG,
                         f"should raise {facts.expected.error}, but returned normally")
    strategy = JUDGES[facts.judge]
    case = CaseInput(facts.function, facts.ints, facts.hidden, facts.expected,
                     facts.cost_tolerance, facts.inputs, facts.qis, facts.schema, data)
    if facts.number:
        value = outcome.value
        if value.get("value_kind") != "number":
            shown = value.get("type", "None") if value.get("value_kind") == "other" else "None"
            if facts.hidden and shown != "None":
                shown = type_name(shown, None, code, "an object of another type")
            return Judgement(Status.BAD_RETURN, f"returned {shown}, not a number")
        verdict = strategy.number(value["value"], case)
    else:
        produced = produced or Produced(missing=True)
        if produced.missing:
            return Judgement(Status.NO_OUTPUT, f"returned without writing the output file "
                                               f"(`output_file`, here {OUTPUT_FILE!r})")
        if produced.not_regular or produced.data is None:
            return Judgement(Status.FORBIDDEN, f"the output file {OUTPUT_FILE!r} is a link or "
                                               f"not a regular file; the grader does not follow "
                                               f"links")
        verdict = strategy.table(produced.data, case)
    status = Status(verdict.status)
    fraction = {Status.PASSED: 1.0, Status.PARTIAL: facts.partial_credit}.get(status, 0.0)
    return Judgement(status, verdict.message, fraction, verdict.ref or None)


def _failure(outcome: CallOutcome, facts: CaseFacts, scrub: Callable[[str], str],
             hint: str, code: StudentCode) -> Judgement | None:
    """The judgement of a call that did not return (None when it returned, or raised the
    exception the contract asks for)."""
    error, status, hidden = outcome.error, outcome.status, facts.hidden
    if error.get("grader_error"):  # a report the grader cannot read: never a verdict
        why = "" if hidden else f" ({error['grader_error']})"  # it may quote the child's report
        return Judgement(Status.GRADER_ERROR, f"the grader could not read what the call "
                                              f"reported{why}; a TA will look at it")
    if status == "timeout":
        limit = facts.cpu_limit
        if error.get("wall"):
            return Judgement(Status.TIMEOUT, f"did not finish within the wall-clock backstop of "
                                             f"{wall_backstop(limit):g} s (it waited rather than "
                                             f"computed; its CPU-time limit is {limit:g} s)")
        return Judgement(Status.TIMEOUT, f"ran out of time: it used its whole CPU-time limit of "
                                         f"{limit:g} s for this case ({facts.rows} rows)")
    if status == "memory":
        if hidden:
            where = frame(error.get("traceback"), code, scrub)
            return Judgement(Status.MEMORY, f"ran out of memory (limit {facts.memory_mb} MB)"
                                            + (f" at {where}" if where else ""))
        return Judgement(Status.MEMORY, f"ran out of memory (limit {facts.memory_mb} MB): "
                                        f"{error_text(error, scrub)}")
    if status == "file-size":
        return Judgement(Status.FILE_TOO_LARGE,
                         f"wrote more than {facts.disk_mb} MB of files in its folder"
                         if "disk" in error else
                         f"wrote a file larger than {facts.file_size_mb} MB")
    if status == "crash":
        if "signal" in error:
            return Judgement(Status.CRASH, f"the process was killed by {error['signal']}")
        code_text = "" if hidden else f" (exit code {error.get('code', '?')})"
        return Judgement(Status.CRASH, f"the process ended{code_text} without returning, e.g. "
                                       f"through os._exit")
    if status == "exit":  # a hidden case's exit code may be its data: sys.exit(line)
        return Judgement(Status.EXIT, "called sys.exit / exit" +
                         ("" if hidden else f" (code {error.get('code', '?')})"))
    if status == "exception":
        mro = error.get("mro", [error.get("type")])
        if facts.expected.kind == "error" and facts.expected.error in mro:
            return None
        if error.get("type") == "NotImplementedError":
            return Judgement(Status.NOT_ATTEMPTED, "raised NotImplementedError")
        text = exception_facts(error, code, scrub) if hidden else error_text(error, scrub)
        if hint:
            text = (text.replace("\n", f" ({hint})\n", 1) if "\n" in text
                    else f"{text} ({hint})")
        return Judgement(Status.ERROR, text)
    return None


def error_text(error: dict, scrub: Callable[[str], str] = str) -> str:
    """`raised Type: message`, then the student's frames of the traceback."""
    head = f"raised {error.get('type', 'an exception')}: {error.get('message', '')}"
    trace = error.get("traceback", "")
    return scrub(head + ("\n" + trace if trace else ""))
