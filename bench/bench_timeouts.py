"""Benchmark of the time policy (not a test: numbers depend on the machine).

    python bench/bench_timeouts.py [--repo DIR] [--rubric FILE] [NAME ...]

Grades, alone and with --jobs 1 under the default rubric, each submission of
tests/kit/timeout_patterns.py (default: all three): `loop_everywhere` (every graded function
loops forever), `interval_cost` and `interval_mondrian` (the real students' patterns: loop
forever on the hidden 53-row case "unbalanced" only). Prints, per submission, the CPU seconds
of the grader and everything it started (getrusage of the finished children), the sum of the
cases' CPU seconds (timings.csv), the wall time, the score and each function's case statuses.

`--repo DIR` grades with another checkout's grader (e.g. an export of an earlier commit, to
compare the time policy before and after a change); the submissions come from this one.
"""
from __future__ import annotations

import argparse
import csv
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "kit"))

from timeout_patterns import PATTERNS, write_pattern  # noqa: E402

NAMES = ("loop_everywhere", *PATTERNS)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measure(name: str, repo: Path, rubric: Path | None, tmp: Path) -> str:
    """One line (and one per function) on grading submission `name` alone."""
    subs, out = tmp / f"{name}-subs", tmp / f"{name}-out"
    write_pattern(subs, name)
    cmd = [sys.executable, "-m", "grader", "grade", str(subs), "--out", str(out), "--jobs", "1",
           "--sandbox", "none", "--run-as", "none", "--quiet", "--id-pattern", "^(?P<id>.+)$"]
    if rubric is not None:
        cmd += ["--rubric", str(rubric)]
    cpu, start = children_cpu(), time.monotonic()
    subprocess.run(cmd, cwd=repo, check=True)
    wall, cpu = time.monotonic() - start, children_cpu() - cpu
    with open(out / "timings.csv", encoding="utf-8", newline="") as f:
        cases_cpu = sum(float(r["cpu_seconds"]) for r in csv.DictReader(f) if r["cpu_seconds"])
    record = json.loads((out / "results" / name / "record.json").read_text(encoding="utf-8"))
    lines = [f"{name}: CPU {cpu:.1f} s (cases {cases_cpu:.1f} s), wall {wall:.1f} s, score "
             f"{record['score']:g} / {record['max']:g}, status {record['status']}"]
    functions: dict[str, list[str]] = {}
    for case in record["cases"]:
        functions.setdefault(case["function"], []).append(
            case["status"] + ("" if case["cpu_seconds"] is None else
                              f" {case['cpu_seconds']:.2f}/{case['time_limit']:g}s"))
    lines += [f"  {function:22} {', '.join(s)}" for function, s in functions.items()]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("names", nargs="*", help=f"any of {', '.join(NAMES)} (default: all)")
    parser.add_argument("--repo", type=Path, default=REPO)
    parser.add_argument("--rubric", type=Path)
    args = parser.parse_args()
    if set(args.names) - set(NAMES):
        parser.error(f"unknown submission: choose from {', '.join(NAMES)}")
    tmp = Path(tempfile.mkdtemp(prefix="kanon-bench-timeouts-"))
    try:
        print(f"grader: {args.repo.resolve()}; rubric: {args.rubric or 'default'}")
        for name in args.names or NAMES:
            print(measure(name, args.repo.resolve(), args.rubric, tmp), flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
