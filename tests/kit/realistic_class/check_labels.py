"""Check the labels of the realistic class against what the submissions really do.

    python tests/kit/realistic_class/check_labels.py [--only STUDENT ...] [--jobs N]
                                                     [--time-limit S] [--show-cases]

For every student folder beside this file and every graded function, runs the student's
function on each hidden case of the default rubric (grader/cases/hidden/<case>/), in a child
process whose working folder is a fresh copy of the case (files `adult-hw1.csv` and `DGHs`),
and classifies the result the way the handout grades it:

- cost functions: "full" when the value is within 1e-6 (relative) of the reference's, else
  "zero";
- anonymizers: "full" when the output equals the reference's (as parsed CSV), "partial" when it
  differs but is a valid output with the promised privacy property (k-anonymous; l-diverse for
  bottom-up; at most max_sup suppressed rows for Samarati), else "zero" (invalid output,
  exception, timeout, missing or not implemented function).

The reference outputs are computed with the staff package `reference` (the repository root is
three folders up). The child process imports the submission like the grader should: packages
other than the standard library, numpy and the student's own modules are replaced by a stub
that fails when used (so a function needing pandas fails, the others still run); when the
import itself fails or exits (a command line or experiments at the top level), the file is
imported again keeping only its imports, definitions and simple assignments. A function whose
parameters are the handout's names in another order is called by keyword.

Prints a table student x function: the label and what the check found (one word when all the
cases agree, else the outcome per case), and exits with status 1 when a label does not hold.
"""
from __future__ import annotations

import argparse
import ast
import csv
import importlib.abc
import importlib.util
import inspect
import io
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
import types
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
CASES = REPO / "grader" / "cases" / "hidden"

FUNCTIONS = ["cost_MD", "cost_LM", "random_anonymizer", "clustering_anonymizer",
             "bottomup_anonymizer", "samarati", "mondrian"]

PARAMS = {
    "cost_MD": ["raw_dataset_file", "anonymized_dataset_file", "DGH_folder"],
    "cost_LM": ["raw_dataset_file", "anonymized_dataset_file", "DGH_folder"],
    "random_anonymizer": ["raw_dataset_file", "DGH_folder", "k", "s", "output_file"],
    "clustering_anonymizer": ["raw_dataset_file", "DGH_folder", "k", "output_file"],
    "bottomup_anonymizer": ["raw_dataset_file", "DGH_folder", "k", "l", "output_file"],
    "samarati": ["raw_dataset_file", "DGH_folder", "k", "max_sup", "output_file"],
    "mondrian": ["raw_dataset_file", "DGH_folder", "k", "output_file"],
}

# The default rubric's hidden cases: function -> [(case, anonymized file or None, ints)]
TEST_CASES = {
    "cost_MD": [("unbalanced", "anonymized/intervals.csv", {}),
                ("quoted", "anonymized/levels.csv", {}),
                ("many-qi", "anonymized/suppressed.csv", {})],
    "cost_LM": [("unbalanced", "anonymized/intervals.csv", {}),
                ("quoted", "anonymized/intervals.csv", {}),
                ("single-qi", "anonymized/suppressed.csv", {})],
    "random_anonymizer": [("unbalanced", None, {"k": 5, "s": 1}),
                          ("single-qi", None, {"k": 1, "s": 3}),
                          ("ties", None, {"k": 17, "s": 2}),
                          ("quoted", None, {"k": 3, "s": 11})],
    "clustering_anonymizer": [("unbalanced", None, {"k": 4}), ("many-qi", None, {"k": 5}),
                              ("ties", None, {"k": 3}), ("quoted", None, {"k": 2})],
    "bottomup_anonymizer": [("unbalanced", None, {"k": 3, "l": 2}),
                            ("many-qi", None, {"k": 2, "l": 1}),
                            ("quoted", None, {"k": 2, "l": 2}),
                            ("single-qi", None, {"k": 31, "l": 1})],
    "samarati": [("unbalanced", None, {"k": 4, "max_sup": 3}),
                 ("many-qi", None, {"k": 3, "max_sup": 5}),
                 ("quoted", None, {"k": 3, "max_sup": 0}),
                 ("ties", None, {"k": 4, "max_sup": 2})],
    "mondrian": [("unbalanced", None, {"k": 3}), ("quoted", None, {"k": 2}),
                 ("single-qi", None, {"k": 1}), ("ties", None, {"k": 35})],
}

ALLOWED_PACKAGES = {"numpy"}
IMPORT_TIME_LIMIT = 10.0
COST_TOLERANCE = 1e-6


##############################################################################
# Child process: import the submission and call one function                #
##############################################################################

class _Missing(types.ModuleType):
    """Stands for a package the grader does not have: fails as soon as it is used."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _MissingThing(f"{self.__name__}.{name}")


class _MissingThing:
    def __init__(self, name):
        self._name = name

    def _fail(self, *args, **kwargs):
        raise ModuleNotFoundError(f"{self._name.split('.')[0]} is not available on the grader")

    __call__ = __getattr__ = __getitem__ = __iter__ = _fail


class _Blocker(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self, own: str):
        self.own = own

    def find_spec(self, name, path=None, target=None):
        top = name.partition(".")[0]
        if path is not None or top in ALLOWED_PACKAGES or top in sys.stdlib_module_names \
                or top in sys.builtin_module_names:
            return None
        if importlib.machinery.PathFinder.find_spec(top, [self.own]) is not None:
            return None
        return importlib.util.spec_from_loader(name, self)

    def create_module(self, spec):
        return _Missing(spec.name)

    def exec_module(self, module):
        pass


class _ImportTimeout(BaseException):
    pass


def _keep(statement: ast.stmt) -> bool:
    """Top-level statements kept when the file is imported again without its top-level code."""
    if isinstance(statement, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef,
                              ast.ClassDef, ast.Assign, ast.AnnAssign)):
        return True
    if isinstance(statement, ast.Try):
        return all(_keep(s) for s in statement.body)
    return False


def _import(path: Path, retry: bool) -> tuple[types.ModuleType, bool]:
    module = types.ModuleType(path.stem)
    module.__file__ = str(path)
    module.__dict__["__builtins__"] = __builtins__
    sys.modules[path.stem] = module
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source, str(path))
    if not retry:
        exec(compile(tree, str(path), "exec"), module.__dict__)
        return module, False
    for statement in tree.body:
        if not _keep(statement):
            continue
        code = compile(ast.Module(body=[statement], type_ignores=[]), str(path), "exec")
        try:
            exec(code, module.__dict__)
        except (Exception, SystemExit):
            pass
    return module, True


def child(spec: dict) -> dict:
    """Runs in the child process (working folder: the case copy)."""
    import signal

    solution = Path(spec["solution"])
    sys.dont_write_bytecode = True  # leave no __pycache__ in the submission folders
    sys.path.insert(0, str(solution.parent))
    sys.meta_path.insert(0, _Blocker(str(solution.parent)))
    sys.argv = ["grader-worker"]
    retried = False

    def on_alarm(signum, frame):
        raise _ImportTimeout()

    signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, IMPORT_TIME_LIMIT)
    real_stdout = sys.stdout
    sys.stdout = io.StringIO()
    try:
        module, retried = _import(solution, retry=False)
    except (Exception, SystemExit, _ImportTimeout):
        signal.setitimer(signal.ITIMER_REAL, 0)
        sys.modules.pop(solution.stem, None)
        module, retried = _import(solution, retry=True)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        sys.stdout = real_stdout
    function = getattr(module, spec["function"], None)
    if not callable(function):
        return {"status": "missing", "retried": retried}
    expected = PARAMS[spec["function"]]
    arguments = dict(spec["arguments"])
    try:
        names = [p.name for p in inspect.signature(function).parameters.values()]
    except (TypeError, ValueError):
        names = []
    keyword = sorted(names) == sorted(expected) and names != expected
    sys.stdout = io.StringIO()
    try:
        if keyword:
            result = function(**arguments)
        else:
            result = function(*[arguments[name] for name in expected])
    except NotImplementedError:
        return {"status": "not-implemented", "retried": retried, "keyword": keyword}
    except (Exception, SystemExit) as error:
        return {"status": "exception", "error": f"{type(error).__name__}: {error}"[:300],
                "retried": retried, "keyword": keyword}
    finally:
        sys.stdout = real_stdout
    if spec["function"].startswith("cost_"):
        try:
            value = float(result)
        except (TypeError, ValueError):
            return {"status": "exception", "error": f"returned {result!r}"[:300]}
        return {"status": "ok", "value": value, "retried": retried, "keyword": keyword}
    return {"status": "ok", "retried": retried, "keyword": keyword}


##############################################################################
# Parent: references, validity checks and the table                          #
##############################################################################

def read_rows(path: Path) -> tuple[list[str], list[list[str]]]:
    with open(path, encoding="utf-8-sig", newline="") as f:
        records = [[c.rstrip("\r") for c in r] for r in csv.reader(f)]
    records = [r for r in records if r]
    return records[0], records[1:]


def read_dghs(folder: Path) -> dict[str, dict]:
    """column -> {"parent": {label: parent}, "root": root}"""
    result = {}
    for path in sorted(folder.glob("*.txt")):
        parent, stack, root = {}, [], None
        for line in path.read_text(encoding="utf-8-sig").splitlines():
            if not line.strip():
                continue
            label = line.lstrip("\t").rstrip()
            depth = len(line) - len(line.lstrip("\t"))
            del stack[depth:]
            parent[label] = stack[-1] if stack else None
            if root is None:
                root = label
            stack.append(label)
        result[path.stem] = {"parent": parent, "root": root}
    return result


def ancestors(dgh: dict, label: str) -> list[str]:
    out = []
    while label is not None:
        out.append(label)
        label = dgh["parent"][label]
    return out


def _interval(cell: str):
    if len(cell) < 5 or not (cell.startswith("[") and cell.endswith("]")):
        return None
    inside = cell[1:-1]
    for i in range(1, len(inside)):
        if inside[i] == "-":
            try:
                lo, hi = float(inside[:i]), float(inside[i + 1:])
            except ValueError:
                continue
            if math.isfinite(lo) and math.isfinite(hi):
                return lo, hi
    return None


def _numeric(values: list[str]) -> bool:
    seen = {}
    for v in values:
        try:
            x = float(v)
        except ValueError:
            return False
        if not math.isfinite(x) or seen.setdefault(x, v) != v:
            return False
    return True


def judge_table(function: str, case_dir: Path, ints: dict, output: Path,
                expected: Path) -> tuple[str, str]:
    """(outcome, reason) for an anonymizer's output file."""
    if not output.is_file():
        return "zero", "no output file"
    try:
        header, rows = read_rows(output)
    except Exception as error:  # noqa: BLE001
        return "zero", f"unreadable output: {error}"
    ref_header, ref_rows = read_rows(expected)
    if header == ref_header and rows == ref_rows:
        return "full", "identical"
    raw_header, raw_rows = read_rows(case_dir / "adult-hw1.csv")
    if header != raw_header:
        return "zero", f"header {header} != {raw_header}"
    if len(rows) != len(raw_rows):
        return "zero", f"{len(rows)} rows, raw has {len(raw_rows)}"
    dghs = read_dghs(case_dir / "DGHs")
    qis = [i for i, c in enumerate(header) if c in dghs]
    sensitive = [i for i, c in enumerate(header) if c not in dghs]
    numeric = {i: _numeric([r[i] for r in raw_rows]) for i in qis}
    for n, (raw, row) in enumerate(zip(raw_rows, rows), start=1):
        if len(row) != len(header):
            return "zero", f"row {n} has {len(row)} cells"
        for i in sensitive:
            if row[i] != raw[i]:
                return "zero", f"row {n}: non-QI {header[i]} changed"
        for i in qis:
            dgh = dghs[header[i]]
            if row[i] in dgh["parent"]:
                if row[i] not in ancestors(dgh, raw[i]):
                    return "zero", f"row {n}, {header[i]}: {row[i]!r} does not cover {raw[i]!r}"
                continue
            interval = _interval(row[i]) if function == "mondrian" and numeric[i] else None
            if interval is None or not interval[0] < interval[1] \
                    or not interval[0] <= float(raw[i]) <= interval[1]:
                return "zero", f"row {n}, {header[i]}: invalid cell {row[i]!r}"
    k = ints["k"]
    classes: dict[tuple, list[int]] = {}
    for n, row in enumerate(rows):
        classes.setdefault(tuple(row[i] for i in qis), []).append(n)
    roots = tuple(dghs[header[i]]["root"] for i in qis)
    for key, members in classes.items():
        if len(members) >= k:
            continue
        if function == "samarati" and key == roots and len(members) <= ints["max_sup"]:
            continue
        return "zero", f"an EC of {len(members)} rows < k = {k}"
    if function == "bottomup_anonymizer":
        if len(sensitive) != 1:
            return "zero", "no single sensitive column"
        for members in classes.values():
            if len({rows[n][sensitive[0]] for n in members}) < ints["l"]:
                return "zero", f"an EC with fewer than l = {ints['l']} sensitive values"
    return "partial", "valid, private, differs from the reference"


def prepare_case(case: str, scratch: Path) -> Path:
    target = Path(tempfile.mkdtemp(prefix=f"{case}-", dir=scratch))
    shutil.copy(CASES / case / "adult-hw1.csv", target / "adult-hw1.csv")
    shutil.copytree(CASES / case / "DGHs", target / "DGHs")
    if (CASES / case / "anonymized").is_dir():
        shutil.copytree(CASES / case / "anonymized", target / "anonymized")
    return target


def reference_results(scratch: Path) -> dict:
    sys.path.insert(0, str(REPO))
    import reference  # noqa: PLC0415
    results = {}
    for function, cases in TEST_CASES.items():
        for case, anonymized, ints in cases:
            folder = prepare_case(case, scratch)
            old = os.getcwd()
            os.chdir(folder)
            try:
                if anonymized:
                    value = getattr(reference, function)("adult-hw1.csv", anonymized, "DGHs")
                    results[(function, case)] = float(value)
                else:
                    out = folder / "expected.csv"
                    args = {"raw_dataset_file": "adult-hw1.csv", "DGH_folder": "DGHs",
                            **ints, "output_file": str(out)}
                    getattr(reference, function)(*[args[p] for p in PARAMS[function]])
                    results[(function, case)] = out
            finally:
                os.chdir(old)
    return results


def solution_file(folder: Path) -> Path | None:
    if (folder / "skeleton.py").is_file():
        return folder / "skeleton.py"
    best, best_count = None, 0
    for path in sorted(folder.glob("*.py")):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except SyntaxError:
            continue
        count = sum(isinstance(n, ast.FunctionDef) and n.name in FUNCTIONS for n in tree.body)
        if count > best_count:
            best, best_count = path, count
    return best


def run_case(student: Path, function: str, case: str, anonymized, ints: dict, reference,
             scratch: Path, time_limit: float) -> tuple[str, str, dict]:
    solution = solution_file(student)
    if solution is None:
        return "zero", "no solution file", {}
    folder = prepare_case(case, scratch)
    arguments = {"raw_dataset_file": "adult-hw1.csv", "DGH_folder": "DGHs", **ints}
    if anonymized:
        arguments["anonymized_dataset_file"] = anonymized
    else:
        arguments["output_file"] = "anonymized-output.csv"
    spec = {"solution": str(solution), "function": function, "arguments": arguments}
    try:
        done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child",
                               json.dumps(spec)], cwd=folder, capture_output=True, text=True,
                              timeout=time_limit + IMPORT_TIME_LIMIT + 5)
    except subprocess.TimeoutExpired:
        return "zero", f"timeout ({time_limit:.0f} s)", {}
    finally:
        pass
    lines = [line for line in done.stdout.splitlines() if line.startswith("@@RESULT ")]
    if not lines:
        return "zero", f"child failed: {done.stderr.strip()[-300:]}", {}
    result = json.loads(lines[-1][len("@@RESULT "):])
    if result["status"] != "ok":
        outcome = ("zero", result["status"] + (": " + result.get("error", "")
                                               if result.get("error") else ""), result)
        shutil.rmtree(folder, ignore_errors=True)
        return outcome
    if anonymized:
        value = result["value"]
        ok = math.isclose(value, reference, rel_tol=COST_TOLERANCE, abs_tol=1e-12)
        shutil.rmtree(folder, ignore_errors=True)
        return ("full" if ok else "zero"), f"{value!r} vs {reference!r}", result
    outcome, reason = judge_table(function, folder, ints, folder / "anonymized-output.csv",
                                  reference)
    shutil.rmtree(folder, ignore_errors=True)
    return outcome, reason, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--child")
    parser.add_argument("--only", nargs="*", help="check only these students")
    parser.add_argument("--folders", nargs="*", help="check these submission folders instead "
                        "(unlabelled: every case's outcome is printed)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--show-cases", action="store_true",
                        help="print every case's outcome and reason")
    options = parser.parse_args(argv)
    if options.child:
        result = child(json.loads(options.child))
        sys.stdout.write("\n@@RESULT " + json.dumps(result) + "\n")
        sys.stdout.flush()
        os._exit(0)  # noqa: SLF001 - skip the student's atexit handlers and threads

    labels = tomllib.loads((HERE / "labels.toml").read_text(encoding="utf-8"))
    students = sorted(p for p in HERE.iterdir() if p.is_dir() and not p.name.startswith(("_", ".")))
    if options.only:
        students = [p for p in students if p.name in options.only]
    if options.folders:
        students = [Path(p).resolve() for p in options.folders]
    scratch = Path(tempfile.mkdtemp(prefix="realistic-class-"))
    try:
        references = reference_results(scratch)
        jobs = []
        for student in students:
            for function in FUNCTIONS:
                for case, anonymized, ints in TEST_CASES[function]:
                    jobs.append((student, function, case, anonymized, ints))
        started = time.time()
        with ThreadPoolExecutor(options.jobs) as pool:
            futures = [pool.submit(run_case, s, f, c, a, i, references[(f, c)], scratch,
                                   options.time_limit) for s, f, c, a, i in jobs]
            found = {}
            for (student, function, case, _, _), future in zip(jobs, futures):
                found.setdefault((student.name, function), []).append((case, *future.result()))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    bad = 0
    width = max([len(s.name) for s in students] + [7])
    print(f"{'student':<{width}}  " + "  ".join(f"{f[:14]:<22}" for f in FUNCTIONS) + "  notes")
    for student in students:
        table = labels.get(student.name)
        cells = []
        observed_notes = set()
        for function in FUNCTIONS:
            outcomes = found[(student.name, function)]
            for _, _, _, result in outcomes:
                if result.get("retried"):
                    observed_notes.add("retried")
                if result.get("keyword"):
                    observed_notes.add("keyword")
            kinds = {o for _, o, _, _ in outcomes}
            label = table.get(function, "?") if table else "?"
            if len(kinds) == 1:
                seen = kinds.pop()
            else:
                seen = ",".join(f"{c}:{o[0]}" for c, o, _, _ in outcomes)
            mark = "ok" if seen == label else "MISMATCH"
            if mark != "ok":
                bad += 1
            cells.append(f"{label}/{seen} {mark}"[:22].ljust(22))
        declared = set(table.get("notes", [])) if table else set()
        note_text = ",".join(sorted(observed_notes | {n for n in declared if ":" in n}))
        if {n for n in declared if ":" not in n} != observed_notes:
            note_text += f" (labels say {sorted(declared)})"
            bad += 1
        print(f"{student.name:<{width}}  " + "  ".join(cells) + "  " + note_text)
        if options.show_cases or table is None:
            for function in FUNCTIONS:
                for case, outcome, reason, _ in found[(student.name, function)]:
                    print(f"    {function:<22} {case:<11} {outcome:<8} {reason}")
    print(f"\n{len(students)} students, {bad} label(s) not holding; "
          f"{time.time() - started:.0f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
