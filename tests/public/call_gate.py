"""Which of a function's public calls the self-check still makes, so that one endless loop
costs one call's limit and not every case's.

- Once a call of a function was stopped at its time limit (an endless loop?), the self-check
  makes no further call of that function: each of its later tests is reported as not run
  (skipped), naming the call that was stopped, and the closing summary names the function.
  (The grader gives up on a function after its second timeout; the self-check, which only
  tells you what to fix, after the first.)
- A function runs on adult-hw1.csv (the adult-size cases, the longest calls) only once its
  small cases pass: the tests of each file run in their order, except that those on
  adult-hw1.csv go last (adult_last), and they are not run when a test of the same function on
  a small case failed (a function that is not implemented yet fails them at once instead).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from messages import _
from public_cases import ADULT, BadCall, CostCase, Run
from kcheck.time_policy import SELF_CHECK, STOPPED, CallLog


def case_of(params: dict) -> str | None:
    """The case (data set) a test's parameters name, None for a test without one."""
    for value in params.values():
        if isinstance(value, (Run, BadCall, CostCase)):
            return value.case
        if isinstance(getattr(value, "input", None), CostCase):  # a measure of a cost case
            return value.input.case
    return params.get("case") if isinstance(params.get("case"), str) else None


def is_case_test(params: dict) -> bool:
    """Whether a test checks the result of a case (an output or a cost), not a refusal."""
    return any(isinstance(v, (Run, CostCase)) or isinstance(getattr(v, "input", None), CostCase)
               for v in params.values())


def adult_last(items: list, params_of) -> list:
    """The tests in their order, except that within each file those on adult-hw1.csv come
    after the others (their order kept)."""
    first: dict[str, int] = {}
    for index, item in enumerate(items):
        first.setdefault(item.nodeid.split("::")[0], index)
    return sorted(items, key=lambda item: (first[item.nodeid.split("::")[0]],
                                           case_of(params_of(item)) == ADULT))


@dataclass
class Gate:
    """What held back which calls: the stopped call of each function, its first small test
    that failed, and one sentence per test not run."""

    log: CallLog = field(default_factory=lambda: CallLog(SELF_CHECK))
    not_run: list[tuple[str, bool, str]] = field(default_factory=list)
    """(function, whether a stopped call held it back (else a failed small case), sentence)."""

    @property
    def stopped(self) -> dict[str, tuple[str, float]]:
        """Each function's first stopped call: (what, limit)."""
        return {f: (stops[0].what, stops[0].limit) for f, stops in self.log.stops.items()}

    @property
    def failed(self) -> dict[str, str]:
        """Each function's first small test that failed."""
        return self.log.failed

    def stop(self, function: str, what: str, limit: float) -> None:
        """A call of `function` (described by `what`) was stopped after `limit` seconds."""
        self.log.stop(function, what, limit)

    def small_failed(self, function: str, test: str) -> None:
        """The test `test` of `function` on a small case failed."""
        self.log.small_failed(function, test)

    def why_not(self, function: str, what: str, large: bool) -> str | None:
        """The one sentence saying why the call `what` of `function` is not made, or None."""
        held = self.log.held_back(function, large)
        if held == STOPPED:
            stopped, limit = self.stopped[function]
            return _("{what}: not run, because {stopped} did not return within {limit:g} s "
                     "and the self-check makes no further call of {function} after stopping "
                     "one (an endless loop? fix that call first)").format(
                what=what, stopped=stopped, limit=limit, function=function)
        if held is not None:
            return _("{what}: not run, because {failed} failed and the self-check runs "
                     "{function} on adult-hw1.csv only once its small cases pass").format(
                what=what, failed=self.failed[function], function=function)
        return None

    def check(self, function: str, what: str, large: bool) -> None:
        """Skip the running test, with its sentence, when the call `what` is held back."""
        reason = self.why_not(function, what, large)
        if reason is not None:
            self.not_run.append((function, function in self.stopped, reason))
            pytest.skip(reason)

    def summary(self) -> list[str]:
        """One sentence per function and cause of tests not run, naming the function."""
        lines = []
        for function, looped in dict.fromkeys((f, s) for f, s, _ in self.not_run):
            count = sum(1 for f, s, _ in self.not_run if (f, s) == (function, looped))
            if looped:
                what, limit = self.stopped[function]
                lines.append((_("{what} did not return within {limit:g} s (an endless loop in "
                                "{function}?), so the self-check did not run {function}'s "
                                "{count} later public tests (HANDOUT.md, \"Time limits\")")
                              if count > 1 else
                              _("{what} did not return within {limit:g} s (an endless loop in "
                                "{function}?), so the self-check did not run {function}'s "
                                "{count} later public test (HANDOUT.md, \"Time limits\")")
                              ).format(what=what, limit=limit, function=function, count=count))
            else:
                lines.append((_("{function} did not run on adult-hw1.csv ({count} public "
                                "tests): it runs there once its small cases pass, and {failed} "
                                "failed") if count > 1 else
                              _("{function} did not run on adult-hw1.csv ({count} public "
                                "test): it runs there once its small cases pass, and {failed} "
                                "failed")).format(function=function, count=count,
                                                  failed=self.failed[function]))
        return lines
