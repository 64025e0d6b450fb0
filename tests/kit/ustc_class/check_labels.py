"""Check the labels of the USTC class against what the submissions really do.

    python tests/kit/ustc_class/check_labels.py [--case FOLDER] [--only STUDENT ...]
                                                [--jobs N] [--show-cases]

FOLDER holds a case in the course's layout (adult-hw1.csv and DGHs/ with every QI's
"child,parent" hierarchy: courses/ustc/cases/public/adult once it lands); without --case a
30,000-row stand-in is built by make_case.py. Every student's samarati and mondrian are run on
the rubric's calls (RUNS), each in a child process whose working folder is a scratch copy of
the case (adult-hw1.csv, and DGHs/ with the part's QIs only), and the output is judged by
rules.py (the lab's rules, brute force). A function's outcome is "right", "error: ..." or the
list of the rules it breaks (the union over its calls); the label must name the same. Prints
a table with each call's CPU time and exits with status 1 when a label does not hold.
"""
from __future__ import annotations

import argparse
import ast
import json
import shutil
import subprocess
import sys
import tempfile
import tomllib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from make_case import PARTS  # noqa: E402
from rules import Case, judge_mondrian, judge_samarati  # noqa: E402

# label key -> (function, part's QIs, [(k, max_sup or None)])
RUNS = {"samarati": ("samarati", PARTS["samarati"], [(10, 20), (50, 100)]),
        "mondrian": ("mondrian", PARTS["mondrian"], [(10, None), (100, None)]),
        "mondrian_categorical": ("mondrian", PARTS["categorical"], [(10, None)])}
TIME_LIMIT = 120.0

CHILD = r"""
import importlib.util, json, os, sys, time, io
spec = json.loads(sys.argv[1])
sys.path.insert(0, os.path.dirname(spec["file"]))
sys.argv = [spec["file"]]
sys.dont_write_bytecode = True
sys.stdout = io.StringIO()
module_spec = importlib.util.spec_from_file_location("submission", spec["file"])
module = importlib.util.module_from_spec(module_spec)
module_spec.loader.exec_module(module)
start = time.process_time()
try:
    getattr(module, spec["function"])(*spec["args"])
    result = {"status": "ok"}
except BaseException as error:
    result = {"status": "error", "error": f"{type(error).__name__}: {error}"[:200]}
result["cpu"] = time.process_time() - start
sys.__stdout__.write("@@" + json.dumps(result) + "\n")
"""


def main_file(folder: Path) -> Path:
    """The file defining samarati and mondrian."""
    for path in sorted(folder.glob("*.py")):
        names = {n.name for n in ast.parse(path.read_text(encoding="utf-8")).body
                 if isinstance(n, ast.FunctionDef)}
        if {"samarati", "mondrian"} <= names:
            return path
    raise SystemExit(f"{folder}: no file defines samarati and mondrian")


def run(student: Path, key: str, k: int, max_sup, case: Path, scratch: Path) -> tuple[str, float]:
    function, qis, _ = RUNS[key]
    work = Path(tempfile.mkdtemp(dir=scratch))
    shutil.copy(case / "adult-hw1.csv", work / "adult-hw1.csv")
    (work / "DGHs").mkdir()
    for q in qis:
        shutil.copy(case / "DGHs" / f"{q}.txt", work / "DGHs" / f"{q}.txt")
    args = ["adult-hw1.csv", "DGHs", k] + ([max_sup] if max_sup is not None else []) + ["out.csv"]
    spec = {"file": str(main_file(student)), "function": function, "args": args}
    try:
        done = subprocess.run([sys.executable, "-c", CHILD, json.dumps(spec)], cwd=work,
                              capture_output=True, text=True, timeout=TIME_LIMIT)
    except subprocess.TimeoutExpired:
        return "error: timeout", TIME_LIMIT
    lines = [x for x in done.stdout.splitlines() if x.startswith("@@")]
    if not lines:
        return f"error: child failed {done.stderr[-200:]}", 0.0
    result = json.loads(lines[-1][2:])
    if result["status"] != "ok":
        return "error: " + result["error"], result["cpu"]
    judged = Case(str(work / "adult-hw1.csv"), str(work / "DGHs"))
    if function == "samarati":
        broken = judge_samarati(judged, k, max_sup, str(work / "out.csv"))
    else:
        broken = judge_mondrian(judged, k, str(work / "out.csv"))
    shutil.rmtree(work, ignore_errors=True)
    return ("; ".join(broken) if broken else "right"), result["cpu"]


def outcome(results: list[str]) -> list[str] | str:
    errors = [r for r in results if r.startswith("error")]
    if errors:
        return "error"
    rules = sorted({part.split(":")[0] for r in results if r != "right" for part in r.split("; ")})
    return rules or "right"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--case", type=Path)
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--show-cases", action="store_true")
    options = parser.parse_args()
    labels = tomllib.loads((HERE / "labels.toml").read_text(encoding="utf-8"))
    students = sorted(p for p in HERE.iterdir() if p.is_dir() and not p.name.startswith(("_", ".")))
    if options.only:
        students = [p for p in students if p.name in options.only]
    scratch = Path(tempfile.mkdtemp(prefix="ustc-class-"))
    try:
        case = options.case
        if case is None:
            case = scratch / "case"
            subprocess.run([sys.executable, str(HERE / "make_case.py"), str(case)], check=True,
                           capture_output=True)
        jobs = [(s, key, k, m) for s in students for key, (_, _, calls) in RUNS.items()
                for k, m in calls]
        with ThreadPoolExecutor(options.jobs) as pool:
            found = list(pool.map(lambda j: run(*j, case.resolve(), scratch), jobs))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    bad = 0
    for student in students:
        label = labels.get(student.name, {})
        line = [f"{student.name:<20}"]
        for key in RUNS:
            mine = [(j, f) for j, f in zip(jobs, found) if j[0] == student and j[1] == key]
            seen = outcome([f[0] for _, f in mine])
            want = label.get(key, "?")
            want = [want] if isinstance(want, str) and want not in ("right", "error", "?") else want
            ok = seen == want
            bad += not ok
            cpu = "/".join(f"{f[1]:.0f}s" for _, f in mine)
            line.append(f"{key}={seen} ({cpu}){'' if ok else ' MISMATCH, label ' + str(want)}")
            if options.show_cases or not ok:
                for (_, _, k, m), (text, _) in mine:
                    line.append(f"\n    {key} k={k} max_sup={m}: {text[:300]}")
        print("  ".join(line))
    print(f"\n{len(students)} students, {bad} label(s) not holding")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
