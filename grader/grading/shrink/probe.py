"""One student call on a pool member, in the submission's own sandbox session (a fork of the
imported child, like every graded case), under the function's counterexample budget. Nothing
here changes a grade: a call that touches the grader's files, ends the session or spends the
budget stops the search instead of being reported."""
from __future__ import annotations

import math
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from kanon.table import parse_table

from ...contract import OUTPUT_FILE, SIGNATURES, call_args, is_cost
from .. import compare
from .pool import Member
from .search import Answer


@dataclass
class Budget:
    """What one function's search may spend: calls and seconds of CPU time."""

    calls: int
    cpu: float
    used_calls: int = 0
    used_cpu: float = 0.0
    stopped: str = field(default="")  # why the search stopped early, if it did

    def left(self) -> float:
        return self.cpu - self.used_cpu if self.used_calls < self.calls else 0.0


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
        limit = min(self.call_limit, budget.left())
        if limit <= 0.05:
            budget.stopped = budget.stopped or "budget"
            return None
        if keeper.session is None or not keeper.session.alive():
            budget.stopped = budget.stopped or "session"
            return None
        budget.used_calls += 1
        cwd = self.runner.scratch / f"counterexample-{budget.used_calls:03d}-{self.function}"
        cwd.mkdir()
        try:
            member.write(cwd)
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
        self.budget.used_cpu += outcome.cpu_seconds or outcome.seconds
        if outcome.forbidden:
            self.budget.stopped = "forbidden"
            return None
        if outcome.status == "timeout":
            self.budget.stopped = "timeout"
            return None
        if outcome.status != "returned":
            error = outcome.error
            what = (f"raised {error.get('type', 'an exception')}: {error.get('message', '')}"
                    if outcome.status == "exception" else f"ended with status {outcome.status}")
            return Answer(True, None, self.runner.keeper.scrub(what)[:300])
        if is_cost(self.function):
            value = outcome.value
            if value.get("value_kind") != "number":
                return Answer(True, None, "did not return a number")
            yours = value["value"]
        else:
            try:
                yours = compare.read_output(cwd / OUTPUT_FILE).decode("utf-8", "replace")
            except FileNotFoundError:
                return Answer(True, None, f"did not write the output file")
            except (compare.NotARegularFile, OSError):
                self.budget.stopped = "forbidden"
                return None
        return self.answer(member, yours)

    def answer(self, member: Member, yours: object) -> Answer:
        """The student's returned answer on `member`, compared with the reference's."""
        return Answer(not same(self.function, member.expected, yours, self.tolerance), yours)
