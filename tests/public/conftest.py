"""Public self-check: loads your solution once and runs the public cases against it.

    pytest                         # checks skeleton.py next to the tests/ folder
    pytest -k clustering           # only one function's tests
    pytest --solution path/to/x.py # another file (or a package folder); also KANON_SOLUTION

Your solution is imported with its own folder first on sys.path, so helper modules beside it
(`import my_helpers`) work here as they do in the grader, which copies every .py file you hand
in.

Every failure is one stand-alone sentence naming the function, the case and what is wrong.
Passing these tests is necessary, not sufficient: the grader also runs hidden cases.
"""
from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # the helpers below, whatever pytest's import mode
    sys.path.insert(0, str(HERE))

import course_rules  # noqa: E402
import kanon_check as check  # noqa: E402
from kanon_options import pytest_addoption  # noqa: E402,F401 (--solution)
from public_cases import (ADULT, INTERVALS, OPTIONAL, ROOT, SHORT, BadCall,  # noqa: E402
                          CostCase, Run, case_files)

TIMES: list[tuple[str, str, int, float, float]] = []
"""(function, call, rows, CPU seconds, the grader's limit for that many rows), per call."""




def pytest_configure(config: pytest.Config) -> None:
    for function, marker in SHORT.items():
        config.addinivalue_line("markers", f"{marker}: public tests of {function}")
    config.addinivalue_line("markers", "timeout(seconds): time limit (pytest-timeout)")


MARKER_FUNCTIONS = {marker: function for function, marker in SHORT.items()}
LEFT_OUT: list[str] = []
"""Node ids of the public tests left out: parts (or rule variants) the course does not grade."""


def _subject(item: pytest.Item) -> tuple[str | None, str | None, bool]:
    """(the function a test checks, the rule variant of its run, whether any variant does)."""
    function = next((MARKER_FUNCTIONS[m.name] for m in item.iter_markers()
                     if m.name in MARKER_FUNCTIONS), None)
    params = getattr(getattr(item, "callspec", None), "params", {})
    run = params.get("run")
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
        items[:] = kept


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
    """The solution module, imported once; or the one-line reason it could not be."""

    def __init__(self, path: Path):
        self.path = path.resolve()
        self.module = None
        self.error: str | None = None
        unavailable = course_rules.unavailable_imports(self.path) if self.path.exists() else []
        if unavailable:
            more = f" (and {len(unavailable) - 1} more)" if len(unavailable) > 1 else ""
            self.error = f"could not import {self.path.name}: {unavailable[0]}{more}"
            return
        try:
            self.module = _import(self.path)
        except KeyboardInterrupt:
            raise
        except BaseException as e:  # SystemExit and pytest's timeout included
            self.error = f"could not import {self.path.name}: {describe(e, self.path)}"
            if isinstance(e, SystemExit):
                self.error += (" (importing your file must not run anything: keep experiments "
                               "under `if __name__ == \"__main__\":`)")
            elif isinstance(e, ImportError):
                self.error += import_hint(e, self.path)

    def function(self, name: str) -> Callable:
        """The graded function `name`, or fail the test with one line."""
        if self.error:
            pytest.fail(self.error, pytrace=False)
        fn = getattr(self.module, name, None)
        if not callable(fn):
            pytest.fail(f"{self.path.name} has no function {name}; keep the seven signatures "
                        f"of skeleton.py", pytrace=False)
        return fn


def _import(path: Path):
    """Import a .py file, or a package folder (its __init__.py), by path."""
    if path.is_dir():
        init = path / "__init__.py"
        if not init.is_file():
            raise FileNotFoundError(f"{path} is a folder without __init__.py")
        spec = importlib.util.spec_from_file_location(path.name, init,
                                                      submodule_search_locations=[str(path)])
    elif path.is_file():
        spec = importlib.util.spec_from_file_location(path.stem, path)
    else:
        raise FileNotFoundError(f"no such file: {path}")
    folder = str(path.parent)  # helper modules beside the solution, as in the grader
    if folder not in sys.path:
        sys.path.insert(0, folder)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[spec.name]
        raise
    return module


def import_hint(error: ImportError, solution: Path) -> str:
    """Why an import inside the solution failed, in words a student can act on."""
    name = (getattr(error, "name", None) or "").split(".")[0]
    if not name:
        return ""
    folder = solution.parent if solution.is_file() else solution
    if (folder / name).is_dir() or (folder / f"{name}.py").is_file():
        return f" (`{name}` is beside your file, but importing from it failed)"
    return (f" (`{name}` is neither a helper module beside {solution.name} nor in the "
            f"standard library or numpy, the only packages the grader has; hand in your "
            f"helper modules with your solution)")


def describe(error: BaseException, solution: Path) -> str:
    """'ValueError: message (skeleton.py, line 12, in helper)'; the place is the innermost
    frame inside the solution."""
    text = f"{type(error).__name__}: {error}".rstrip(": ").replace("\n", " / ")
    place = None
    for frame in traceback.extract_tb(error.__traceback__):
        file = Path(frame.filename).resolve()
        if file == solution or solution in file.parents:
            place = f"{file.name}, line {frame.lineno}, in {frame.name}"
    return f"{text} ({place})" if place else text


@pytest.fixture(scope="session")
def solution(request: pytest.FixtureRequest) -> Solution:
    return Solution(solution_path(request.config))


# ---------------------------------------------------------------------------- running calls


@contextlib.contextmanager
def case_folder(folder: Path, case: str) -> Iterator[None]:
    """A fresh folder holding the case as `adult-hw1.csv` and `DGHs`; it is the working
    directory while the block runs."""
    raw, dghs = case_files(case)
    if not raw.is_file():
        pytest.fail(f"public data missing: {raw} (keep the bundle's files next to tests/)",
                    pytrace=False)
    shutil.copyfile(raw, folder / "adult-hw1.csv")
    shutil.copytree(dghs, folder / "DGHs")
    before = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def call(solution: Solution, name: str, args: list, what: str) -> tuple[object, str | None]:
    """Call a graded function; returns (its result, None) or (None, a one-line failure)."""
    fn = solution.function(name)
    try:
        return fn(*args), None
    except NotImplementedError:
        return None, f"{name} is not implemented yet (it raises NotImplementedError)"
    except (Exception, SystemExit) as e:
        return None, f"{what}: raised {describe(e, solution.path)}"


@dataclass
class Output:
    """What an anonymizer call produced: the parsed output, or why there is none."""

    header: list[str] | None = None
    rows: check.Rows | None = None
    failure: str | None = None
    seconds: float = 0.0
    not_implemented: bool = False


NOT_IMPLEMENTED = "is not implemented yet (it raises NotImplementedError)"


def graded(function: str) -> bool:
    """Whether your course grades `function` (tests/public/course.json)."""
    return course_rules.graded(function, optional=function in OPTIONAL)


def skip_ungraded(function: str, why: str) -> None:
    pytest.skip(f"{function} is not graded in your course (tests/public/course.json) and {why}: "
                f"its public tests are skipped (HANDOUT.md)")


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
        variant other than the course's, or a function the course does not grade (an
        optional part) that your file does not define."""
        wanted = course_rules.variant(function)
        if variant != wanted and not any_variant:
            pytest.skip(f"your course grades {function} with "
                        + (f"the {wanted} variant" if wanted else "the handout's default rules")
                        + ", not "
                        + (f"the {variant} variant" if variant else "the handout's default rules"))
        if not graded(function) and self.solution.module is not None and not callable(
                getattr(self.solution.module, function, None)):
            skip_ungraded(function, f"{self.solution.path.name} does not define it")

    def output(self, run: Run) -> Output:
        self.applies(run.function, run.variant)
        self.solution.function(run.function)  # an import error fails here, unprefixed
        if run not in self.outputs:
            try:
                self.outputs[run] = self._run(run)
            except pytest.fail.Exception as e:  # a timeout: do not run the call again
                self.outputs[run] = Output(failure=f"{run.describe()}: {e.msg}")
                raise
        result = self.outputs[run]
        if result.not_implemented and not graded(run.function):
            skip_ungraded(run.function, "yours raises NotImplementedError")
        if result.failure:
            pytest.fail(result.failure, pytrace=False)
        return result

    def _run(self, run: Run) -> Output:
        folder = self.tmp.mktemp(f"{SHORT[run.function]}-{run.id}")
        with case_folder(folder, run.case):
            start = time.process_time()
            _, failure = call(self.solution, run.function,
                              run.args("adult-hw1.csv", "DGHs", "anonymized.csv"), run.describe())
            seconds = time.process_time() - start
        self.timed(run.describe(), run.function, run.case, seconds)
        if failure:
            return Output(failure=failure, not_implemented=failure.endswith(NOT_IMPLEMENTED))
        out = folder / "anonymized.csv"
        if not out.is_file():
            return Output(failure=f"{run.describe()} returned without writing its output_file "
                                  f"('anonymized.csv' in the working directory)")
        try:
            header, rows = check.read_csv(str(out))
        except (UnicodeDecodeError, ValueError) as e:
            return Output(failure=f"{run.describe()}: the output is not a UTF-8 CSV file ({e})")
        return Output(header=header, rows=rows, seconds=seconds)

    def timed(self, what: str, function: str, case: str, seconds: float) -> None:
        """Keep a call's CPU time next to the grader's limit for a dataset of that size."""
        rows = len(self.table(case).rows)
        TIMES.append((function, what, rows, seconds, course_rules.cpu_limit(function, rows)))

    def check_property(self, run: Run) -> None:
        """The output is a valid generalization with the function's privacy property."""
        out = self.output(run)
        raw = self.table(run.case)
        problem = check.check_valid(raw, out.header, out.rows, intervals=run.function in INTERVALS)
        if problem is None:
            if run.function == "samarati":
                problem = check.check_suppressed_k(raw, out.rows, run.k, run.extra)
            else:
                problem = check.check_k(raw, out.rows, run.k)
        if problem is None and run.function == "bottomup_anonymizer":
            problem = check.check_l(raw, out.rows, run.extra)
        if problem:
            pytest.fail(f"{run.describe()}: {problem}", pytrace=False)

    def check_expected(self, run: Run) -> None:
        """The output equals the reference output, cell by cell (as parsed CSV)."""
        out = self.output(run)
        raw = self.table(run.case)
        problem = check.check_valid(raw, out.header, out.rows, intervals=run.function in INTERVALS)
        if problem is None:
            _, expected = check.read_csv(str(run.expected))
            problem = check.first_difference(raw, expected, out.rows)
            if problem:
                where = run.expected.relative_to(ROOT).as_posix()
                problem = f"differs from the reference output {where}: {problem}"
        if problem:
            pytest.fail(f"{run.describe()}: {problem}", pytrace=False)

    def check_cost(self, name: str, case: CostCase, expected: float, args: tuple = ()) -> None:
        """cost_MD / cost_LM (or an optional measure, entropy_l / t_closeness, with `args`
        after the DGH folder) of a stored anonymized file, within 1e-6 relative."""
        if name in OPTIONAL:
            self.applies(name)
        folder = self.tmp.mktemp(f"{name}-{case.id}")
        source = case.anonymized_path()
        if source.suffix == ".gz":
            _write_csv(folder / "anonymized.csv", *check.read_csv(str(source)))
        else:
            shutil.copyfile(source, folder / "anonymized.csv")
        shown = f"({', '.join(map(repr, args))})" if args else ""
        what = f"{name}{shown} on case {case.id!r}"
        with case_folder(folder, case.case):
            start = time.process_time()
            value, failure = call(self.solution, name,
                                  ["adult-hw1.csv", "anonymized.csv", "DGHs", *args], what)
            self.timed(what, name, case.case, time.process_time() - start)
        if failure and failure.endswith(NOT_IMPLEMENTED) and not graded(name):
            skip_ungraded(name, "yours raises NotImplementedError")
        if failure:
            pytest.fail(failure, pytrace=False)
        if isinstance(value, bool) or not isinstance(value, (int, float)) and not hasattr(
                value, "__float__"):
            pytest.fail(f"{what}: returned {value!r}, expected a number", pytrace=False)
        number = float(value)
        if abs(number - expected) > 1e-6 * max(1.0, abs(expected)):
            pytest.fail(f"{what}: expected {expected!r}, got {number!r}", pytrace=False)

    def check_rejects(self, name: str, case: str, args: list, reason: str,
                      column: str | None = None, extra_file: Path | None = None) -> None:
        """The call raises ValueError (naming `column` when given) and leaves the folder as
        it was: no output file, the raw file unchanged. `extra_file` is copied in first."""
        folder = self.tmp.mktemp(f"bad-{SHORT[name]}")
        if extra_file is not None:
            shutil.copyfile(extra_file, folder / extra_file.name)
        what = f"{name}({', '.join(repr(a) for a in args)}) on case {case!r}"
        self.applies(name, any_variant=True)  # bad input is refused whatever the variant
        with case_folder(folder, case):
            fn = self.solution.function(name)
            problem = None
            try:
                fn(*args)
                problem = f"{what}: expected ValueError ({reason}), but it returned normally"
            except NotImplementedError:
                if not graded(name):
                    skip_ungraded(name, "yours raises NotImplementedError")
                problem = f"{name} is not implemented yet (it raises NotImplementedError)"
            except ValueError as e:
                if column is not None and column not in str(e):
                    problem = (f"{what}: the ValueError should name the column {column!r} "
                               f"(and the row), got: {e}")
            except (Exception, SystemExit) as e:
                problem = (f"{what}: expected ValueError ({reason}), got "
                           f"{describe(e, self.solution.path)}")
        if problem:
            pytest.fail(problem, pytrace=False)
        raw, _ = case_files(case)
        if (folder / "adult-hw1.csv").read_bytes() != raw.read_bytes():
            pytest.fail(f"{what}: raised ValueError but changed the raw file", pytrace=False)
        known = {"adult-hw1.csv", "DGHs"} | ({extra_file.name} if extra_file else set())
        left = sorted(p.name for p in folder.iterdir() if p.name not in known)
        if left:
            pytest.fail(f"{what}: raised ValueError but left {', '.join(left)} behind (write "
                        f"to a temporary file and rename it only when done)", pytrace=False)

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
    """One closing line: how many public tests passed and failed."""
    stats = terminalreporter.stats
    passed = len([r for r in stats.get("passed", []) if getattr(r, "when", "call") == "call"])
    failed = len(stats.get("failed", [])) + len(stats.get("error", []))
    if passed + failed == 0:
        return
    _report_times(terminalreporter)
    terminalreporter.write_sep("-", "public self-check")
    if LEFT_OUT:
        terminalreporter.write_line(f"({len(LEFT_OUT)} public tests of parts or rule variants "
                                    f"your course does not grade were left out)")
    terminalreporter.write_line(f"{passed} public tests passed, {failed} failed "
                                f"\N{EM DASH} the grader also runs hidden cases")


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
    terminalreporter.write_sep("-", "CPU time of every public call" if every else
                               "CPU time: each function's slowest public call (-v: every call)")
    for function, what, rows, seconds, limit in shown:
        terminalreporter.write_line(f"{seconds:8.2f} s (grader's limit {limit:g} s)  {what}, "
                                    f"{rows} rows")
    close = [e for e in TIMES if e[3] >= course_rules.CLOSE * e[4]]
    for function, what, rows, seconds, limit in close:
        terminalreporter.write_line(
            f"warning: {what} used {seconds:.1f} s of CPU time, half or more of the grader's "
            f"limit of {limit:g} s for {rows} rows: on a slower machine it may run out of time "
            f"(HANDOUT.md, \"Time limits\")", yellow=True)
