"""When a public test of a function fails: the smallest public input on which your function
and the handout's rules disagree, printed under the failure (a section "public
counterexample"), as the grader's feedback does after grading.

The inputs come from the course's public counterexample pool (public data and the expected
answers on it, never a hidden case), read and searched by kcheck (kcheck/pool.py,
kcheck/search.py, which the grader's feedback uses too). The self-check runs your function on
them smallest first, in the same child process and under the same per-call limit as the public
calls (student_calls.py, course_rules.stop_limit), and shows the first that differs: its
rows, the hierarchy lines used, the arguments, the expected output and yours with the
differing cells marked, and one command that reruns exactly that call (in bash, zsh, Windows
cmd and PowerShell alike). Once per function and session, only after a failure (a passing
function costs nothing), at most BUDGET seconds per function; a call stopped at its limit
ends the search, said in one line. Not with --in-process (no limit there). This file is the
glue: it runs each call in the self-check's child process and prints what kcheck found.
Standard library only: this file ships in the students' bundle.
"""
from __future__ import annotations

import contextlib
import io
import math
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import course_rules
from kanon_check import read_csv, read_csv_text
from messages import language
from public_cases import OPTIONAL_SIGNATURES, SIGNATURES

HERE = Path(__file__).resolve().parent
if str(HERE.parents[1]) not in sys.path:  # kcheck/, beside tests/ (the bundle's own copy)
    sys.path.insert(0, str(HERE.parents[1]))

from kcheck import teach_text  # noqa: E402
from kcheck.pool import Member, members, pool_key  # noqa: E402
from kcheck.search import Answer, Budget, first_found  # noqa: E402
from kcheck.teach_text import FILES, command  # noqa: E402,F401 (teach_rules.py's too)

POOL_DIRS = (HERE / "data" / "counterexamples",
             HERE.parents[1] / "grader" / "cases" / "counterexamples")
"""Where the pool is (kcheck/pool.py's format): the bundle's copy first, else the staff's
checkout's (the file the grader's feedback searches too)."""
BUDGET = 10.0  # wall-clock seconds of search per failing function
TAUGHT: set[str] = set()
"""The functions (parts judged by rules) whose failure already got its search (once per
session)."""


def pool_file(function: str, variant: str | None) -> Path | None:
    """The pool file of `function` under the rule `variant` (None: the handout's), if any."""
    for folder in POOL_DIRS:
        path = folder / f"{pool_key(function, variant)}.json"
        if path.is_file():
            return path
    return None


def parameters(function: str) -> list[str] | None:
    """The parameter names of `function` from the public signatures (None: unknown)."""
    shown = SIGNATURES.get(function) or OPTIONAL_SIGNATURES.get(function)
    return None if shown is None else [p.strip() for p in shown.strip("()").split(",")]


@dataclass(frozen=True)
class Found:
    """A member on which the student's answer differs: the answer, or why there is none."""

    member: Member
    yours: object = None  # the output's CSV text or the returned number
    problem: str = ""  # raised, no output file...
    calls: int = 0  # the calls the search made
    broken: tuple = ()  # a part judged by rules: (rule, sentence) of each rule broken


@dataclass(frozen=True)
class Stopped:
    """Why the search ended without a counterexample, and how many calls it made."""

    why: str  # "limit", "budget", "ended", "none"
    calls: int
    limit: float = 0.0


def _answer(member: Member, params: list[str], answer, folder: Path,
            judge=None) -> Answer:
    """The student's answer on `member` next to the expected one (`judge`, for a part judged
    by rules: judge(member, header, rows) names the rules it breaks)."""
    if answer.kind == "raised":
        return Answer(True, None, teach_text.problem("raised", language(), error=answer.text))
    if "output_file" not in params:  # a number
        expected = float(member.expected)
        if answer.number is None:
            return Answer(True, answer.text, teach_text.problem("not_number", language(),
                                                                value=answer.text))
        return Answer(abs(answer.number - expected) > 1e-6 * max(1.0, abs(expected)),
                      answer.number)
    out = folder / "yours.csv"
    if not out.is_file():
        return Answer(True, None, teach_text.problem("no_output", language()))
    try:
        mine = read_csv(str(out))
        text = out.read_text(encoding="utf-8-sig")
    except (UnicodeDecodeError, ValueError) as e:
        return Answer(True, None, teach_text.problem("not_csv", language(), error=e))
    if judge is not None:
        broken = tuple(judge(member, *mine))
        return Answer(bool(broken), text, "", broken)
    return Answer(mine != read_csv_text(str(member.expected)), text)


def search(calls, function: str, params: list[str], pool: list[Member], work: Path,
           budget: float = BUDGET, judge=None) -> Found | Stopped:
    """kcheck's search (first_found) over the pool, smallest first, each call of `function`
    made by the self-check's child process (`calls`, student_calls.py) in a fresh `work`
    folder under its stop limit, all of them within `budget` seconds of wall-clock time: the
    first member that differs (`judge`: breaks a rule), else why the search stopped."""
    start, spent = time.monotonic(), Budget(math.inf, budget)
    stopped_at = [0.0]  # the limit of a call stopped there

    def probe(member: Member) -> Answer | None:
        spent.used_seconds = time.monotonic() - start
        limit = spent.limit(course_rules.stop_limit(function, len(member.rows), large=False))
        if limit is None:
            return None
        shutil.rmtree(work, ignore_errors=True)
        member.write(work)
        args = [FILES[p] if p in FILES else member.ints[p] for p in params]
        spent.used_calls += 1
        with contextlib.redirect_stdout(io.StringIO()):  # the search's prints stay out
            answer = calls.call(function, args, work, limit)
        if answer.kind == "timeout":  # a loop, or past what is left of the budget
            spent.stop("limit")
            stopped_at[0] = limit
            return None
        if answer.kind in ("ended", "not-implemented"):
            spent.stop("ended")
            return None
        return _answer(member, params, answer, work, judge)

    found = first_found(pool, probe, rules=judge is not None)
    if found is None:
        return Stopped(spent.stopped or "none", spent.used_calls, stopped_at[0])
    a = found.answer
    return Found(found.member, a.yours, a.problem, spent.used_calls, a.broken)


# ---------------------------------------------------------------------------- the text


def _table(header: list[str], rows: list[list[str]], marks: set = frozenset()) -> list[str]:
    """Plain-text columns in the course's language (kcheck's teach_text.table)."""
    return teach_text.table(header, rows, marks, language())


def render(found: Found, function: str, params: list[str], folder: Path,
           solution: Path) -> list[str]:
    """The section's lines for a counterexample whose files are in `folder`."""
    return teach_text.render(found.member, found.yours, found.problem, function, params,
                             folder, solution, read_csv_text, language())


def stopped_line(stopped: Stopped, function: str) -> str:
    """The one line of a search that found nothing."""
    return teach_text.stopped(stopped.why, function, stopped.calls, stopped.limit, BUDGET,
                              language())


def lesson(calls, function: str, variant: str | None, solution: Path, scratch: Path,
           budget: float = BUDGET) -> list[str] | None:
    """The section's lines for a failing `function` (None: no pool for it here)."""
    path, params = pool_file(function, variant), parameters(function)
    if path is None or params is None:
        return None
    start = time.monotonic()
    result = search(calls, function, params, members(path), scratch / "call", budget)
    seconds = time.monotonic() - start
    if isinstance(result, Stopped):
        return [teach_text.spent(stopped_line(result, function), result.calls, seconds,
                                 language())]
    folder = scratch / function
    shutil.rmtree(folder, ignore_errors=True)
    result.member.write(folder)
    name = "expected.csv" if "output_file" in params else "expected.txt"
    expected = result.member.expected
    (folder / name).write_text(expected if isinstance(expected, str) else f"{expected!r}\n",
                               encoding="utf-8", newline="")
    return render(result, function, params, folder, solution) + [
        teach_text.spent(None, result.calls, seconds, language())]


def after_failure(item, report, function: str | None, stopped: dict) -> None:
    """conftest.py's hook: the first failing public test of `function` (of a part judged by
    rules: of that part, teach_rules.py) gets the section "public counterexample" (not for a
    stub, an import error, a stopped function, or calls in pytest's own process)."""
    runner = getattr(item, "funcargs", {}).get("runner")
    rules = sys.modules.get("teach_rules")  # loaded by a rules course's test_public_rules.py
    part = rules.part_of(getattr(getattr(item, "callspec", None), "params", {})) if rules \
        else None
    key = part or function
    if (function is None or key in TAUGHT or runner is None or function in stopped
            or runner.solution.error or runner.solution.calls is None
            or not hasattr(runner.solution.calls, "process")  # --in-process: no limit
            or "NotImplementedError" in str(report.longrepr)):
        return
    TAUGHT.add(key)
    scratch = runner.tmp.getbasetemp() / "counterexamples"
    if part is not None:
        lines = rules.lesson(runner.solution.calls, part, function, runner.solution.path,
                             scratch)
    else:
        lines = lesson(runner.solution.calls, function, course_rules.variant(function),
                       runner.solution.path, scratch)
    if lines:
        report.sections.append((teach_text.text("section", language()),
                                "\n".join(lines) + "\n"))
