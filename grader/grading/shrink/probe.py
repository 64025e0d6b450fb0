"""One student call on a pool member, in the submission's own sandbox session (a fork of the
imported child, like every graded case), under the function's counterexample budget. Nothing
here changes a grade: a call that touches the grader's files, ends the session or spends the
budget stops the search instead of being reported."""
from __future__ import annotations

import math
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kanon.table import parse_table
from kcheck.pool import Member
from kcheck.search import Answer, Budget
from kcheck.text import Message, Verbatim

from ...contract import ANONYMIZED_INPUT, OUTPUT_FILE, RAW_FILE, SIGNATURES, call_args, is_cost
from .. import compare
from ..judge import raised_message

__all__ = ["Budget", "FailedCall", "same", "SandboxProbe"]  # Budget: kcheck's, CPU seconds


@dataclass(frozen=True)
class FailedCall(Answer):
    """A call that gave no answer to compare: `problem` its English, `said` it as data."""

    said: Message | None = None


def failed(said: Message, scrub: Callable[[str], str] = str, limit: int = 300) -> FailedCall:
    """The answer of a call that gave none: why in English (`scrub` turns the sandbox's paths
    into the submission's; at most `limit` characters, the student's message at the end cut
    short) and, when that is the whole of it, as data (the message scrubbed and cut alike)."""
    whole = scrub(said.english())
    english = whole[:limit]
    if isinstance(said.params.get("message"), Verbatim):
        text = scrub(str(said.params["message"]))
        text = text[:max(0, len(text) - (len(whole) - len(english)))]
        said = Message(said.id, {**said.params, "message": Verbatim(text)})
    return FailedCall(True, None, english, said=said if said.english() == english else None)


def same(function: str, expected: object, yours: object, tolerance: float) -> bool:
    """Whether the student's answer is the reference's (tables as parsed CSV)."""
    if is_cost(function):
        return math.isclose(float(yours), float(expected), rel_tol=tolerance, abs_tol=1e-9)
    try:
        out = parse_table(yours.encode("utf-8"))
        ref = parse_table(str(expected).encode("utf-8"))
    except ValueError:
        return False
    return out.header == ref.header and out.rows == ref.rows


class SandboxProbe:
    """Calls `function` on members in `runner`'s session (grader.grading.case_runner)."""

    def __init__(self, runner, function: str, budget: Budget, call_limit: float):
        self.runner, self.function, self.budget = runner, function, budget
        self.call_limit = call_limit
        self.tolerance = runner.ctx.rubric.settings.cost_tolerance

    def __call__(self, member: Member) -> Answer | None:
        budget, keeper = self.budget, self.runner.keeper
        limit = budget.limit(self.call_limit)
        if limit is None:
            return None
        if keeper.session is None or not keeper.session.alive():
            budget.stop("session")
            return None
        budget.used_calls += 1
        cwd = self.runner.scratch / f"counterexample-{budget.used_calls:03d}-{self.function}"
        cwd.mkdir()
        try:
            member.write(cwd, RAW_FILE, ANONYMIZED_INPUT)
            return self._call(member, cwd, limit)
        finally:
            shutil.rmtree(cwd, ignore_errors=True)

    def _call(self, member: Member, cwd: Path, limit: float) -> Answer | None:
        args, kwargs = call_args(self.function, member.ints), {}
        if self.function in self.runner.keyword:
            kwargs, args = dict(zip(SIGNATURES[self.function], args)), []
        outcome = self.runner.keeper.session.call(
            case=f"counterexample-{self.function}", cwd=cwd, function=self.function, args=args,
            kwargs=kwargs, time_limit=limit)
        self.budget.used_seconds += outcome.cpu_seconds or outcome.seconds
        if outcome.forbidden:
            self.budget.stop("forbidden")
            return None
        if outcome.status == "timeout":
            self.budget.stop("timeout")
            return None
        if outcome.status != "returned":
            scrub = self.runner.keeper.scrub
            return failed(_why(outcome, scrub, self.runner.code), scrub)
        if is_cost(self.function):
            value = outcome.value
            if value.get("value_kind") != "number":
                return failed(Message("did not return a number"))
            yours = value["value"]
        else:
            try:
                yours = compare.read_output(cwd / OUTPUT_FILE).decode("utf-8", "replace")
            except FileNotFoundError:
                return failed(Message("did not write the output file"))
            except (compare.NotARegularFile, OSError):
                self.budget.stop("forbidden")
                return None
        return self.answer(member, yours)

    def answer(self, member: Member, yours: object) -> Answer:
        """The student's returned answer on `member`, compared with the reference's."""
        return Answer(not same(self.function, member.expected, yours, self.tolerance), yours)


def _why(outcome, scrub: Callable[[str], str], code) -> Message:
    """Why a call that did not return gave no answer: its exception (type and message, the
    student's own text, as a graded case words it) or the status it ended with."""
    if outcome.status != "exception":
        return Message("ended with status {status}", status=str(outcome.status))
    error = outcome.error
    said = raised_message(error, scrub, code)[0]
    if isinstance(said.params["message"], Verbatim):  # the student's message, every line
        said = Message(said.id, {**said.params,
                                 "message": Verbatim(str(error.get("message", "")))})
    return said
