"""Public self-check: loads your solution once and runs the public cases against it.

    pytest                         # checks skeleton.py next to the tests/ folder
    pytest -k NAME                 # only one function's tests (HANDOUT.md names them)
    pytest --solution path/to/x.py # another file (or a package folder); also KANON_SOLUTION
    pytest --in-process -k NAME -s # calls in pytest's own process, for a debugger (below)

Your solution is imported with its own folder first on sys.path, so helper modules beside it
(`import my_helpers`) work here as they do in the grader, which copies every .py file you hand
in.

Your functions run in a child process that the self-check stops when a call runs past its
limit, the same way on every system (student_calls.py): an endless loop is one failed test, and
what your code printed is shown with it; that function's later tests are then not run, and its
tests on adult-hw1.csv run only once its small cases pass (call_gate.py). To step through your
code with a debugger or breakpoint(), run one test in pytest's own process with --in-process
(or KANON_IN_PROCESS=1; --pdb and --trace imply it).

Every failure is one stand-alone sentence naming the function, the case and what is wrong.
Passing these tests is necessary, not sufficient: the grader also runs hidden cases.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # the helpers below, whatever pytest's import mode
    sys.path.insert(0, str(HERE))

import course_rules  # noqa: E402
from call_gate import Gate, adult_last, case_of, is_case_test  # noqa: E402

LARGE_ROWS = 9999
"""A dataset of more rows than this counts as large, like adult-hw1.csv (its calls may run
as long: course_rules.STOP_CAP)."""
import kanon_check as check  # noqa: E402
import teach  # noqa: E402
from kanon_options import pytest_addoption  # noqa: E402,F401 (--solution, --in-process)
from kanon_options import pytest_cmdline_main  # noqa: E402,F401 (one process, even with -n)
from messages import _  # noqa: E402
from solution_import import import_failure, import_solution  # noqa: E402
from student_calls import Answer, InProcess, Worker, exports  # noqa: E402
from public_cases import (ADULT, FUNCTIONS, INTERVALS, OPTIONAL, ROOT, SHORT,  # noqa: E402
                          BadCall, CostCase, Run, case_files)

collect_ignore = [] if (HERE / "data" / "rules" / "cases.json").is_file() else [
    "test_public_rules.py"]  # its cases come only with a course judged by its rules

TIMES: list[tuple[str, str, int, float, float]] = []
"""(function, call, rows, CPU seconds, the grader's limit for that many rows), per call."""
GATE = Gate()
"""The calls held back: a function's after one of its calls was stopped, and its calls on
adult-hw1.csv until its small cases pass (call_gate.py)."""

EARLY: list[Worker] = []
"""The process for the solution's calls, launched before collection (so that it starts while
pytest collects the tests) and taken by the `solution` fixture."""


def pytest_configure(config: pytest.Config) -> None:
    for function, marker in SHORT.items():
        config.addinivalue_line("markers", f"{marker}: " + _("public tests of {function}")
                                .format(function=function))  # "name: ..." stays ASCII
    config.addinivalue_line("markers", "timeout(seconds): " + _("time limit (pytest-timeout)"))
    path = solution_path(config).resolve()
    if not in_process(config) and path.exists():
        EARLY.append(Worker(path, course_rules.import_limit()))
        EARLY[-1].launch()


def pytest_unconfigure(config: pytest.Config) -> None:
    while EARLY:  # launched, but no test needed it
        EARLY.pop().close()


MARKER_FUNCTIONS = {marker: function for function, marker in SHORT.items()}
LEFT_OUT: list[str] = []
"""Node ids of the public tests left out: parts (or rule variants) the course does not grade."""


def _subject(item: pytest.Item) -> tuple[str | None, str | None, bool]:
    """(the function a test checks, the rule variant of its run, whether any variant does)."""
    function = next((MARKER_FUNCTIONS[m.name] for m in item.iter_markers()
                     if m.name in MARKER_FUNCTIONS), None)
    run = _params(item).get("run")
    if isinstance(run, Run):
        return function, run.variant, False
    return function, None, True


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave out the tests of parts your course does not grade (tests/public/course.json) and
    of rule variants other than your course's: they are not part of your homework."""
    kept = []
    for item in items:
        function, variant, any_variant = _subject(item)
        if function is None or (graded(function) and (
                any_variant or variant == course_rules.variant(function))):
            kept.append(item)
        else:
            LEFT_OUT.append(item.nodeid)
    if len(kept) != len(items):
        config.hook.pytest_deselected(items=[i for i in items if i not in kept])
    items[:] = adult_last(kept, _params)


def _params(item: pytest.Item) -> dict:
    return getattr(getattr(item, "callspec", None), "params", {})


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """Note a function's failed test on a small case (one not implemented yet aside), which
    holds back its calls on adult-hw1.csv (call_gate.py)."""
    report = (yield).get_result()
    if report.when != "call" or not report.failed:
        return
    if not is_case_test(_params(item)):
        if "call" in _params(item):  # judged by rules, not required: it gates nothing
            teach.after_failure(item, report, _subject(item)[0], GATE.stopped)
        return
    function = _subject(item)[0]
    if function is not None and case_of(_params(item)) != ADULT and not str(
            report.longrepr).endswith(NOT_IMPLEMENTED):
        GATE.small_failed(function, item.name)
    teach.after_failure(item, report, function, GATE.stopped)  # a public counterexample


def solution_path(config: pytest.Config) -> Path:
    """--solution, else $KANON_SOLUTION, else <bundle>/skeleton.py; relative to where pytest
    was started."""
    given = config.getoption("--solution") or os.environ.get("KANON_SOLUTION")
    if not given:
        return ROOT / "skeleton.py"
    path = Path(given).expanduser()
    return path if path.is_absolute() else Path(config.invocation_params.dir) / path


# ---------------------------------------------------------------------------- the solution


class Solution:
    """Your solution: imported once in the process that runs its calls (student_calls.py), or
    here with --in-process; its functions' parameters, or the one-line reason it could not be
    imported."""

    def __init__(self, path: Path, in_process: bool, scratch: Path):
        self.path = path.resolve()
        self.error: str | None = None
        self.calls: Worker | InProcess | None = None
        self.defined: dict[str, str] = {}  # function name -> '(its, parameters)'
        unavailable = course_rules.unavailable_imports(self.path) if self.path.exists() else []
        if unavailable:
            more = _(" (and {count} more)").format(count=len(unavailable) - 1) \
                if len(unavailable) > 1 else ""
            self.error = _("could not import {file}: {error}").format(
                file=self.path.name, error=unavailable[0] + more)
            while EARLY:
                EARLY.pop().close()
            return
        if not in_process and self.path.exists():  # where an endless loop can be stopped
            worker = EARLY.pop() if EARLY else Worker(self.path, course_rules.import_limit())
            worker.scratch = scratch
            self.error = worker.start()
            self.calls, self.defined = worker, worker.defined
            return
        try:
            module = import_solution(self.path)
        except KeyboardInterrupt:
            raise
        except BaseException as e:  # SystemExit and pytest's timeout included
            self.error = import_failure(e, self.path)
            return
        self.calls, self.defined = InProcess(module, self.path), exports(module)

    def function(self, name: str) -> None:
        """Fail the test with one line unless the solution imported and defines `name`."""
        if self.error:
            pytest.fail(self.error, pytrace=False)
        if name not in self.defined:
            count = len(graded_functions())
            pytest.fail(_("{file} has no function {name}; keep the {count} signatures of "
                          "skeleton.py").format(file=self.path.name, name=name, number=count,
                                                count=course_rules.in_words(count)),
                        pytrace=False)

    def parameters(self, name: str) -> str:
        """'(a, b, c)': the parameters of the solution's function `name` (else fail)."""
        self.function(name)
        return self.defined[name]

    def close(self) -> None:
        if self.calls is not None:
            self.calls.close()


def in_process(config: pytest.Config) -> bool:
    """Whether calls run in pytest's own process (for a debugger): --in-process,
    KANON_IN_PROCESS=1, --pdb or --trace."""
    return bool(config.getoption("--in-process") or config.getoption("usepdb", False)
                or config.getoption("trace", False)
                or os.environ.get("KANON_IN_PROCESS", "") not in ("", "0"))


@pytest.fixture(scope="session")
def solution(request: pytest.FixtureRequest,
             tmp_path_factory: pytest.TempPathFactory) -> Iterator[Solution]:
    found = Solution(solution_path(request.config), in_process(request.config),
                     tmp_path_factory.mktemp("prints"))
    yield found
    found.close()


# ---------------------------------------------------------------------------- running calls


@contextlib.contextmanager
def case_folder(folder: Path, case: str) -> Iterator[None]:
    """A fresh folder holding the case as `adult-hw1.csv` and `DGHs`; it is the working
    directory while the block runs."""
    raw, dghs = case_files(case)
    if not raw.is_file():
        pytest.fail(_("public data missing: {path} (keep the bundle's files next to tests/)"
                      ).format(path=raw), pytrace=False)
    shutil.copyfile(raw, folder / "adult-hw1.csv")
    shutil.copytree(dghs, folder / "DGHs")
    before = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def failure_of(answer: Answer, name: str, what: str, limit: float) -> str | None:
    """The one-line failure of a call that did not return, or None."""
    if answer.kind == "not-implemented":
        return f"{name} {NOT_IMPLEMENTED}"
    if answer.kind == "raised":
        return _("{what}: raised {error}").format(what=what, error=answer.text)
    if answer.kind == "timeout":
        return _("{what}: did not return within {limit:g} s, so the self-check stopped it "
                 "(an endless loop? HANDOUT.md, \"Time limits\")").format(what=what, limit=limit)
    if answer.kind == "ended":
        return _("{what}: {problem}").format(what=what, problem=answer.text)
    return None


@dataclass
class Output:
    """What an anonymizer call produced: the parsed output, or why there is none."""

    header: list[str] | None = None
    rows: check.Rows | None = None
    failure: str | None = None
    seconds: float = 0.0
    not_implemented: bool = False


NOT_IMPLEMENTED = _("is not implemented yet (it raises NotImplementedError)")


def graded(function: str) -> bool:
    """Whether your course grades `function` (tests/public/course.json)."""
    return course_rules.graded(function, optional=function in OPTIONAL)


def graded_functions() -> list[str]:
    """The functions your course grades, in skeleton.py's order."""
    return [f for f in SHORT if graded(f)]


def skip_ungraded(function: str, why: str) -> None:
    pytest.skip(_("{function} is not graded in your course (tests/public/course.json) and "
                  "{why}: its public tests are skipped (HANDOUT.md)").format(function=function,
                                                                            why=why))


class Runner:
    """Runs each public call at most once per session and checks its output."""

    def __init__(self, solution: Solution, tmp: pytest.TempPathFactory):
        self.solution, self.tmp = solution, tmp
        self.outputs: dict[Run, Output] = {}
        self.tables: dict[str, check.Table] = {}

    def table(self, case: str) -> check.Table:
        if case not in self.tables:
            raw, dghs = case_files(case)
            self.tables[case] = check.load_table(str(raw), str(dghs))
        return self.tables[case]

    def applies(self, function: str, variant: str | None = None, any_variant: bool = False
                ) -> None:
        """Skip the test when your course does not grade `function` with these rules: a
        variant other than the course's, or a function the course does not grade that your
        file does not define."""
        wanted = course_rules.variant(function)
        if variant != wanted and not any_variant:
            def rules(name: str | None) -> str:
                return _("the {variant} variant").format(variant=name) if name \
                    else _("the handout's default rules")
            pytest.skip(_("your course grades {function} with {wanted}, not {given}").format(
                function=function, wanted=rules(wanted), given=rules(variant)))
        if (not graded(function) and self.solution.error is None
                and function not in self.solution.defined):
            skip_ungraded(function, _("{file} does not define it").format(
                file=self.solution.path.name))

    def output(self, run: Run) -> Output:
        self.applies(run.function, run.variant)
        self.solution.function(run.function)  # an import error fails here, unprefixed
        if run not in self.outputs:
            try:
                self.outputs[run] = self._run(run)
            except pytest.fail.Exception as e:  # a timeout: do not run the call again
                self.outputs[run] = Output(failure=_("{what}: {problem}").format(
                    what=run.describe(), problem=e.msg))
                raise
        result = self.outputs[run]
        if result.not_implemented and not graded(run.function):
            skip_ungraded(run.function, _("yours raises NotImplementedError"))
        if result.failure:
            pytest.fail(result.failure, pytrace=False)
        return result

    def _run(self, run: Run) -> Output:
        folder = self.tmp.mktemp(f"{SHORT[run.function]}-{run.id}")
        with case_folder(folder, run.case):
            answer, failure = self.call(run.function, run.case, run.args(
                "adult-hw1.csv", "DGHs", "anonymized.csv"), run.describe(), folder)
        if failure:
            return Output(failure=failure, not_implemented=failure.endswith(NOT_IMPLEMENTED))
        out = folder / "anonymized.csv"
        if not out.is_file():
            return Output(failure=_("{what} returned without writing its output_file "
                                    "('anonymized.csv' in the working directory)").format(
                what=run.describe()))
        try:
            header, rows = check.read_csv(str(out))
        except (UnicodeDecodeError, ValueError) as e:
            return Output(failure=_("{what}: the output is not a UTF-8 CSV file ({error})"
                                    ).format(what=run.describe(), error=e))
        return Output(header=header, rows=rows, seconds=answer.seconds)

    def call(self, name: str, case: str, args: list, what: str, folder: Path,
             timed: bool = True) -> tuple[Answer, str | None]:
        """Run one call of the solution in `folder` under the self-check's limit for it
        (course_rules.stop_limit); (its answer, its one-line failure or None). Its CPU time
        goes to the closing table when `timed`. A call held back (call_gate.py) skips the test,
        saying why."""
        self.solution.function(name)  # an import error or a missing function fails here
        rows = len(self.table(case).rows)
        large = case == ADULT or rows > LARGE_ROWS  # a course's own full-size public data too
        GATE.check(name, what, large=large)  # e.g. after a stopped call: not run
        limit = course_rules.stop_limit(name, rows, large=large)
        answer = self.solution.calls.call(name, args, folder, limit)
        if answer.kind == "timeout":
            GATE.stop(name, what, limit)
        elif timed:
            self.timed(what, name, case, answer.seconds)
        return answer, failure_of(answer, name, what, limit)

    def timed(self, what: str, function: str, case: str, seconds: float) -> None:
        """Keep a call's CPU time next to the grader's limit for a dataset of that size."""
        rows = len(self.table(case).rows)
        TIMES.append((function, what, rows, seconds, course_rules.cpu_limit(function, rows)))

    def check_property(self, run: Run) -> None:
        """The output is a valid generalization with the function's privacy property (the
        checks data/functions.json names)."""
        out = self.output(run)
        raw = self.table(run.case)
        problem = check.check_valid(raw, out.header, out.rows, intervals=run.function in INTERVALS)
        for name, *fields in FUNCTIONS[run.function]["property"]["checks"]:  # data/functions.json
            if problem is None:
                problem = getattr(check, name)(raw, out.rows, *(getattr(run, f) for f in fields))
        if problem:
            pytest.fail(_("{what}: {problem}").format(what=run.describe(), problem=problem),
                        pytrace=False)

    def check_expected(self, run: Run) -> None:
        """The output equals the reference output, cell by cell (as parsed CSV)."""
        out = self.output(run)
        raw = self.table(run.case)
        problem = check.check_valid(raw, out.header, out.rows, intervals=run.function in INTERVALS)
        if problem is None:
            _header, expected = check.read_csv(str(run.expected))
            problem = check.first_difference(raw, expected, out.rows)
            if problem:
                where = run.expected.relative_to(ROOT).as_posix()
                problem = _("differs from the reference output {where}: {problem}").format(
                    where=where, problem=problem)
        if problem:
            pytest.fail(_("{what}: {problem}").format(what=run.describe(), problem=problem),
                        pytrace=False)

    def check_cost(self, name: str, case: CostCase, expected: float, args: tuple = ()) -> None:
        """A cost (or an optional privacy measure, with `args` after the DGH folder) of a
        stored anonymized file, within 1e-6 relative."""
        if name in OPTIONAL:
            self.applies(name)
        folder = self.tmp.mktemp(f"{name}-{case.id}")
        source = case.anonymized_path()
        if source.suffix == ".gz":
            _write_csv(folder / "anonymized.csv", *check.read_csv(str(source)))
        else:
            shutil.copyfile(source, folder / "anonymized.csv")
        shown = f"({', '.join(map(repr, args))})" if args else ""
        what = _("{call} on case {case!r}").format(call=name + shown, case=case.id)
        with case_folder(folder, case.case):
            answer, failure = self.call(name, case.case, ["adult-hw1.csv", "anonymized.csv",
                                                          "DGHs", *args], what, folder)
        if answer.kind == "not-implemented" and not graded(name):
            skip_ungraded(name, _("yours raises NotImplementedError"))
        if failure:
            pytest.fail(failure, pytrace=False)
        number = answer.number
        if number is None:
            pytest.fail(_("{what}: returned {value}, expected a number").format(
                what=what, value=answer.text), pytrace=False)
        if abs(number - expected) > 1e-6 * max(1.0, abs(expected)):
            pytest.fail(_("{what}: expected {expected!r}, got {got!r}").format(
                what=what, expected=expected, got=number), pytrace=False)

    def check_rejects(self, name: str, case: str, args: list, reason: str,
                      column: str | None = None, extra_file: Path | None = None) -> None:
        """The call raises ValueError (naming `column` when given) and leaves the folder as
        it was: no output file, the raw file unchanged. `extra_file` is copied in first."""
        folder = self.tmp.mktemp(f"bad-{SHORT[name]}")
        if extra_file is not None:
            shutil.copyfile(extra_file, folder / extra_file.name)
        what = _("{call} on case {case!r}").format(
            call=f"{name}({', '.join(repr(a) for a in args)})", case=case)
        self.applies(name, any_variant=True)  # bad input is refused whatever the variant
        with case_folder(folder, case):
            answer, problem = self.call(name, case, args, what, folder, timed=False)
        if answer.kind == "not-implemented" and not graded(name):
            skip_ungraded(name, _("yours raises NotImplementedError"))
        if answer.kind == "returned":
            problem = _("{what}: expected ValueError ({reason}), but it returned normally"
                        ).format(what=what, reason=reason)
        elif answer.kind == "raised" and answer.value_error is None:
            problem = _("{what}: expected ValueError ({reason}), got {error}").format(
                what=what, reason=reason, error=answer.text)
        elif answer.kind == "raised":
            problem = None
            if column is not None and column not in answer.value_error:
                problem = _("{what}: the ValueError should name the column {column!r} (and "
                            "the row), got: {error}").format(what=what, column=column,
                                                             error=answer.value_error)
        if problem:
            pytest.fail(problem, pytrace=False)
        raw, _dghs = case_files(case)
        if (folder / "adult-hw1.csv").read_bytes() != raw.read_bytes():
            pytest.fail(_("{what}: raised ValueError but changed the raw file").format(
                what=what), pytrace=False)
        known = {"adult-hw1.csv", "DGHs"} | ({extra_file.name} if extra_file else set())
        left = sorted(p.name for p in folder.iterdir() if p.name not in known)
        if left:
            pytest.fail(_("{what}: raised ValueError but left {files} behind (write to a "
                          "temporary file and rename it only when done)").format(
                what=what, files=_(", ").join(left)), pytrace=False)

    def check_bad_call(self, bad: BadCall) -> None:
        self.check_rejects(bad.function, bad.case,
                           ["adult-hw1.csv", "DGHs", *bad.args, "anonymized.csv"], bad.reason)


def _write_csv(path: Path, header: list[str], rows: check.Rows) -> None:
    import csv
    with open(path, "w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


@pytest.fixture(scope="session")
def runner(solution: Solution, tmp_path_factory: pytest.TempPathFactory) -> Runner:
    return Runner(solution, tmp_path_factory)


# ---------------------------------------------------------------------------- the summary


def pytest_terminal_summary(terminalreporter, exitstatus, config: pytest.Config) -> None:
    """The closing lines: the tests not run and why (call_gate.py), then how many public tests
    passed, failed and were not run."""
    stats = terminalreporter.stats
    passed = len([r for r in stats.get("passed", []) if getattr(r, "when", "call") == "call"])
    failed = len(stats.get("failed", [])) + len(stats.get("error", []))
    if passed + failed == 0:
        return
    _report_times(terminalreporter)
    if GATE.not_run:
        terminalreporter.write_sep("-", _("public tests not run"))
        for _function, _looped, reason in GATE.not_run:
            terminalreporter.write_line(reason)
    terminalreporter.write_sep("-", _("public self-check"))
    for line in GATE.summary():
        terminalreporter.write_line(line, red=True)
    if LEFT_OUT:
        terminalreporter.write_line(_("({count} public tests of parts or rule variants your "
                                      "course does not grade were left out)").format(
            count=len(LEFT_OUT)))
    not_run = _(", {count} not run").format(count=len(GATE.not_run)) if GATE.not_run else ""
    terminalreporter.write_line(_("{passed} public tests passed, {failed} failed{not_run} "
                                  "\N{EM DASH} the grader also runs hidden cases").format(
        passed=passed, failed=failed, not_run=not_run))


def _report_times(terminalreporter) -> None:
    """Each call's CPU time next to the grader's limit for a dataset of that size (with -v;
    by default each function's slowest call); a warning for any call using half its limit or
    more (the grader's machine may be slower than yours)."""
    if not TIMES:
        return
    every = terminalreporter.config.getoption("verbose") > 0
    shown: list[tuple] = list(TIMES)
    if not every:
        slowest: dict[str, tuple] = {}
        for entry in TIMES:
            if entry[0] not in slowest or entry[3] > slowest[entry[0]][3]:
                slowest[entry[0]] = entry
        shown = list(slowest.values())
    terminalreporter.write_sep("-", _("CPU time of every public call") if every else
                               _("CPU time: each function's slowest public call (-v: every "
                                 "call)"))
    for function, what, rows, seconds, limit in shown:
        terminalreporter.write_line(_("{seconds:8.2f} s (grader's limit {limit:g} s)  {what}, "
                                      "{rows} rows").format(seconds=seconds, limit=limit,
                                                            what=what, rows=rows))
    close = [e for e in TIMES if e[3] >= course_rules.CLOSE * e[4]]
    for function, what, rows, seconds, limit in close:
        terminalreporter.write_line(_(
            "warning: {what} used {seconds:.1f} s of CPU time, half or more of the grader's "
            "limit of {limit:g} s for {rows} rows: on a slower machine it may run out of time "
            "(HANDOUT.md, \"Time limits\")").format(what=what, seconds=seconds, limit=limit,
                                                     rows=rows), yellow=True)
