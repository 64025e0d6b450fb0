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
from kcheck.text import Message, Param, Verbatim

from ..contract import OUTPUT_FILE, is_cost
from .compare import CaseData
from .expected import Expected
from .judges import JUDGES, CaseInput
from .hidden_view import StudentCode, exception_message, frame_message, type_message
from ..sandbox import CallOutcome, wall_backstop
from ..sandbox.packages import unavailable, unavailable_message
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
    ref: dict | None = None  # the message as data: a kcheck judge's, or a kcheck.text one


def said(status: Status, message: Message, fraction: float = 0.0, tail: str = "") -> Judgement:
    """A judgement whose message is `message` (kept as data, kcheck.text), then `tail` (the
    lines after it: a traceback)."""
    return Judgement(status, message.english() + tail, fraction, message.to_json())


def judge(outcome: CallOutcome, facts: CaseFacts, produced: Produced | None = None,
          data: CaseData | None = None, *, scrub: Callable[[str], str] = str,
          hint: Message | None = None, code: StudentCode = StudentCode()) -> Judgement:
    """The verdict on one call. `data` is the case's raw side (anonymizers), `scrub` cleans
    child-reported text (scratch paths), `hint` explains a NameError on a name whose import
    the import retry left out, `code` is the submission's own files (what a hidden case may
    name of an exception)."""
    error = outcome.error
    failed = _failure(outcome, facts, scrub, hint, code)
    if failed is not None:
        return failed
    if outcome.status == "exception":  # the contract's expected exception
        kind = (type_message(error.get("type"), error.get("mro"), code) if facts.hidden
                else Verbatim(str(error.get("type"))))
        return said(Status.PASSED, Message("raised {kind} as the contract requires", kind=kind),
                    1.0)
    if facts.expected.kind == "error":
        return said(Status.WRONG, Message("should raise {error}, but returned normally",
                                          error=str(facts.expected.error)))
    strategy = JUDGES[facts.judge]
    case = CaseInput(facts.function, facts.ints, facts.hidden, facts.expected,
                     facts.cost_tolerance, facts.inputs, facts.qis, facts.schema, data)
    if facts.number:
        value = outcome.value
        if value.get("value_kind") != "number":
            kind = value.get("type", "None") if value.get("value_kind") == "other" else "None"
            shown: Param = Verbatim(str(kind))
            if facts.hidden and kind != "None":
                shown = type_message(kind, None, code, Message("an object of another type"))
            return said(Status.BAD_RETURN, Message("returned {shown}, not a number",
                                                   shown=shown))
        verdict = strategy.number(value["value"], case)
    else:
        produced = produced or Produced(missing=True)
        if produced.missing:
            return said(Status.NO_OUTPUT, Message(
                "returned without writing the output file (`output_file`, here {name})",
                name=repr(OUTPUT_FILE)))
        if produced.not_regular or produced.data is None:
            return said(Status.FORBIDDEN, Message(
                "the output file {name} is a link or not a regular file; the grader does not "
                "follow links", name=repr(OUTPUT_FILE)))
        verdict = strategy.table(produced.data, case)
    status = Status(verdict.status)
    fraction = {Status.PASSED: 1.0, Status.PARTIAL: facts.partial_credit}.get(status, 0.0)
    return Judgement(status, verdict.message, fraction, verdict.ref or None)


def _failure(outcome: CallOutcome, facts: CaseFacts, scrub: Callable[[str], str],
             hint: Message | None, code: StudentCode) -> Judgement | None:
    """The judgement of a call that did not return (None when it returned, or raised the
    exception the contract asks for)."""
    error, status, hidden = outcome.error, outcome.status, facts.hidden
    if error.get("grader_error"):  # a report the grader cannot read: never a verdict
        if hidden:  # the report may quote the child's
            return said(Status.GRADER_ERROR, Message(
                "the grader could not read what the call reported; a TA will look at it"))
        return said(Status.GRADER_ERROR, Message(
            "the grader could not read what the call reported ({why}); a TA will look at it",
            why=Verbatim(str(error["grader_error"]))))
    if status == "timeout":
        limit = facts.cpu_limit
        if error.get("wall"):
            return said(Status.TIMEOUT, Message(
                "did not finish within the wall-clock backstop of {wall} s (it waited rather "
                "than computed; its CPU-time limit is {limit} s)",
                wall=f"{wall_backstop(limit):g}", limit=f"{limit:g}"))
        return said(Status.TIMEOUT, Message(
            "ran out of time: it used its whole CPU-time limit of {limit} s for this case "
            "({rows} rows)", limit=f"{limit:g}", rows=facts.rows))
    if status == "memory":
        if hidden:
            where = frame_message(error.get("traceback"), code, scrub)
            return said(Status.MEMORY, Message("ran out of memory (limit {mb} MB)",
                                               mb=facts.memory_mb) if where is None else
                        Message("ran out of memory (limit {mb} MB) at {where}",
                                mb=facts.memory_mb, where=where))
        raised, trace = raised_message(error, scrub, code)
        return _kept(Status.MEMORY, Message("ran out of memory (limit {mb} MB): {error}",
                                            mb=facts.memory_mb, error=raised), trace,
                     f"ran out of memory (limit {facts.memory_mb} MB): "
                     f"{error_text(error, scrub)}")
    if status == "file-size":
        return said(Status.FILE_TOO_LARGE,
                    Message("wrote more than {mb} MB of files in its folder", mb=facts.disk_mb)
                    if "disk" in error else
                    Message("wrote a file larger than {mb} MB", mb=facts.file_size_mb))
    if status == "crash":
        if "signal" in error:
            return said(Status.CRASH, Message("the process was killed by {signal}",
                                              signal=str(error["signal"])))
        if hidden:
            return said(Status.CRASH, Message(
                "the process ended without returning, e.g. through os._exit"))
        return said(Status.CRASH, Message(
            "the process ended (exit code {code}) without returning, e.g. through os._exit",
            code=Verbatim(str(error.get("code", "?")))))
    if status == "exit":  # a hidden case's exit code may be its data: sys.exit(line)
        return said(Status.EXIT, Message("called sys.exit / exit") if hidden else
                    Message("called sys.exit / exit (code {code})",
                            code=Verbatim(str(error.get("code", "?")))))
    if status == "exception":
        mro = error.get("mro", [error.get("type")])
        if facts.expected.kind == "error" and facts.expected.error in mro:
            return None
        if error.get("type") == "NotImplementedError":
            return said(Status.NOT_ATTEMPTED, Message("raised NotImplementedError"))
        if hidden:
            shown = exception_message(error, code, scrub)
            return said(Status.ERROR, Message(hint.id, hint.params, message=shown)
                        if hint else shown)
        raised, trace = raised_message(error, scrub, code)
        if hint:  # the student's message, then the grader's words on the left-out line
            raised = Message(raised.id, raised.params, message=Message(
                hint.id, hint.params, message=raised.params["message"]))
            return said(Status.ERROR, raised, tail=trace)
        return _kept(Status.ERROR, raised, trace, error_text(error, scrub))
    return None


def raised_message(error: dict, scrub: Callable[[str], str],
                   code: StudentCode = StudentCode()) -> tuple[Message, str]:
    """`raised Type: message` as a message (the message is the student's own text, but for
    the sandbox's refusal of a package), and the lines after it (the traceback)."""
    text = error_text(error, scrub)
    head = text.partition("\n")[0]
    kind = str(error.get("type", "an exception"))
    message = head[len(f"raised {kind}: "):]
    name = message.partition(" ")[0]
    said_message = (unavailable(name, list(code.allowed))
                    if error.get("type") == "ModuleNotFoundError"
                    and message == unavailable_message(name, list(code.allowed))
                    else Verbatim(message))
    said_kind = Verbatim(kind) if "type" in error else Message("an exception")
    return (Message("raised {kind}: {message}", kind=said_kind, message=said_message),
            text[len(head):])


def _kept(status: Status, message: Message, tail: str, text: str) -> Judgement:
    """The judgement of `text` (the record's message, as ever), with `message` as its data
    when `message` then `tail` is that text (else without: the pattern layer renders it)."""
    if message.english() + tail == text:
        return said(status, message, tail=tail)
    return Judgement(status, text)


def error_text(error: dict, scrub: Callable[[str], str] = str) -> str:
    """`raised Type: message`, then the student's frames of the traceback."""
    head = f"raised {error.get('type', 'an exception')}: {error.get('message', '')}"
    trace = error.get("traceback", "")
    return scrub(head + ("\n" + trace if trace else ""))
