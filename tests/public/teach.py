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
from messages import _
from public_cases import OPTIONAL_SIGNATURES, SIGNATURES

HERE = Path(__file__).resolve().parent
if str(HERE.parents[1]) not in sys.path:  # kcheck/, beside tests/ (the bundle's own copy)
    sys.path.insert(0, str(HERE.parents[1]))

from kcheck.pool import Member, members, pool_key, used_lines  # noqa: E402
from kcheck.search import Answer, Budget, first_found  # noqa: E402

POOL_DIRS = (HERE / "data" / "counterexamples",
             HERE.parents[1] / "grader" / "cases" / "counterexamples")
"""Where the pool is (kcheck/pool.py's format): the bundle's copy first, else the staff's
checkout's (the file the grader's feedback searches too)."""
BUDGET = 10.0  # wall-clock seconds of search per failing function
FILES = {"raw_dataset_file": "raw.csv", "anonymized_dataset_file": "anonymized.csv",
         "DGH_folder": "DGHs", "output_file": "yours.csv"}
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
        return Answer(True, None, _("raised {error}").format(error=answer.text))
    if "output_file" not in params:  # a number
        expected = float(member.expected)
        if answer.number is None:
            return Answer(True, answer.text, _("returned {value}, not a number").format(
                value=answer.text))
        return Answer(abs(answer.number - expected) > 1e-6 * max(1.0, abs(expected)),
                      answer.number)
    out = folder / "yours.csv"
    if not out.is_file():
        return Answer(True, None, _("returned without writing its output file"))
    try:
        mine = read_csv(str(out))
        text = out.read_text(encoding="utf-8-sig")
    except (UnicodeDecodeError, ValueError) as e:
        return Answer(True, None, _("wrote an output that is not a UTF-8 CSV file ({error})")
                      .format(error=e))
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
    """Plain-text columns, numbered by data row; `marks` (row, column) cells as *cell*."""
    shown = [[_("row"), *header]] + [
        [str(i + 1)] + [f"*{v}*" if (i, j) in marks else v for j, v in enumerate(row)]
        for i, row in enumerate(rows)]
    width = max(len(r) for r in shown)
    shown = [r + [""] * (width - len(r)) for r in shown]
    sizes = [max(len(r[c]) for r in shown) for c in range(width)]
    return ["    " + "  ".join(c.ljust(s) for c, s in zip(r, sizes)).rstrip() for r in shown]


def command(function: str, params: list[str], ints: dict, folder: Path,
            solution: Path) -> str:
    """One command that reruns exactly this call in any shell: `python -c` and one
    double-quoted program (single quotes inside, raw strings for Windows paths)."""
    module = solution.stem if solution.suffix == ".py" else solution.name
    args = ", ".join(repr(FILES[p]) if p in FILES else repr(ints[p]) for p in params)
    call = f"{function}({args})"
    shown = call if "output_file" in params else f"print({call})"
    return (f"python -c \"import os, sys; sys.path.insert(0, r'{solution.parent}'); "
            f"os.chdir(r'{folder}'); from {module} import {function}; {shown}\"")


def render(found: Found, function: str, params: list[str], folder: Path,
           solution: Path) -> list[str]:
    """The section's lines for a counterexample whose files are in `folder`."""
    m = found.member
    ints = _(", ").join(f"{k} = {v}" for k, v in m.ints.items()) or _("none")
    lines = [_("The smallest public input on which {function} and the handout's rules "
               "disagree (from the course's public counterexample pool: a pointer to the "
               "rule, not another test):").format(function=function), "",
             _("Input: raw.csv ({n} of the data rows of {source}: {rows}); QIs kept: {qis}; "
               "arguments: {ints}.").format(
                 n=len(m.rows), rows=_(", ").join(map(str, m.rows)), source=m.label,
                 qis=_(", ").join(m.qis), ints=ints)]
    lines += _table(m.header, m.raw)
    if m.anonymized is not None:
        lines += [_("The anonymized input (anonymized.csv, the same rows of {source}):").format(
            source=m.anonymized_label)] + _table(m.header, m.anonymized)
    for qi, text in m.dghs.items():
        values = {row[m.header.index(qi)] for row in m.raw}
        lines += [_("Hierarchy lines used (DGHs/{file}):").format(file=f"{qi}.txt")]
        lines += ["    " + line for line in used_lines(text, values)]
    if "output_file" not in params:
        got = found.problem or repr(found.yours)
        lines += [_("Expected {expected}, yours {got}.").format(expected=repr(m.expected),
                                                                got=got)]
        compare = ("", "expected.txt")
    else:
        expected = read_csv_text(str(m.expected))
        mine = read_csv_text(found.yours) if isinstance(found.yours, str) else None
        marks: set = set()
        if mine and len(mine[1]) == len(expected[1]):
            marks = {(i, j) for i, (a, b) in enumerate(zip(expected[1], mine[1]))
                     for j in range(max(len(a), len(b))) if a[j:j + 1] != b[j:j + 1]}
        lines += [_("Expected (the handout's rules):")] + _table(*expected)
        if found.problem:
            lines += [_("Yours: your function {problem}.").format(problem=found.problem)]
        else:
            lines += [_("Yours (cells that differ are marked *like this*):")] + _table(
                *mine, marks=marks)
        compare = ("yours.csv", "expected.csv")
    lines += [_("Rerun exactly this call (the files are in {folder}):").format(folder=folder),
              "    " + command(function, params, m.ints, folder, solution)]
    if compare[0]:
        lines += [_("then compare {yours} with {expected}.").format(
            yours=compare[0], expected=compare[1])]
    return lines


def stopped_line(stopped: Stopped, function: str) -> str:
    """The one line of a search that found nothing."""
    if stopped.why == "limit":
        return _("No public counterexample for {function}: a call did not return within "
                 "{limit:.1f} s (an endless loop?), so the search stopped there.").format(
                     function=function, limit=stopped.limit)
    if stopped.why == "budget":
        return _("No public counterexample for {function} within the self-check's {budget:g} s "
                 "({calls} calls).").format(function=function, budget=BUDGET,
                                            calls=stopped.calls)
    if stopped.why == "ended":
        return _("No public counterexample for {function}: the process running it ended "
                 "during the search.").format(function=function)
    return _("No input of the public counterexample pool makes {function} differ ({calls} "
             "calls): the failing test above is the one to look at.").format(
                 function=function, calls=stopped.calls)


def lesson(calls, function: str, variant: str | None, solution: Path, scratch: Path,
           budget: float = BUDGET) -> list[str] | None:
    """The section's lines for a failing `function` (None: no pool for it here)."""
    path, params = pool_file(function, variant), parameters(function)
    if path is None or params is None:
        return None
    start = time.monotonic()
    result = search(calls, function, params, members(path), scratch / "call", budget)
    spent = _("(the search: {calls} calls, {seconds:.1f} s)").format(
        calls=result.calls, seconds=time.monotonic() - start)
    if isinstance(result, Stopped):
        return [_("{line} {spent}").format(line=stopped_line(result, function), spent=spent)]
    folder = scratch / function
    shutil.rmtree(folder, ignore_errors=True)
    result.member.write(folder)
    name = "expected.csv" if "output_file" in params else "expected.txt"
    expected = result.member.expected
    (folder / name).write_text(expected if isinstance(expected, str) else f"{expected!r}\n",
                               encoding="utf-8", newline="")
    return render(result, function, params, folder, solution) + [spent]


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
        report.sections.append((_("public counterexample"), "\n".join(lines) + "\n"))
