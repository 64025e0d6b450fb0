"""Benchmark of the students' self-check: the wall time of `pytest` in an unpacked student
bundle, on the untouched skeleton, on the staff solution and on copies of it with one endless
loop (in cost_MD, then in clustering_anonymizer: --loops), for this checkout and (with
--before) another one, say a checkout of the commit before a change:

    git worktree add /tmp/kit-before main   # or: git archive REV | tar -x -C /tmp/kit-before
    python bench/bench_selfcheck.py --before /tmp/kit-before --repeat 3
    python bench/bench_selfcheck.py --course courses/fall2025 --runs reference loop:cost_MD

Each bundle is built by its own kit (`python -m grader bundle --course ...` run there),
unpacked into a temporary folder and checked on skeleton.py as shipped and on the course's
known-good solution (`python -m grader solution`, as tests/kit/courses/test_courses.py uses
it). The runs of both checkouts alternate, so a busy machine slows both alike; each figure is
the best of --repeat runs, interpreter start-up included, as a student sees it. The ratio
after/before is printed, and for each looping copy what the loop costs over the known-good
run; nothing is asserted.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def build(root: Path, course: Path, out: Path) -> Path:
    """Build and unpack the bundle of the kit `root` for `course`; the bundle folder."""
    out.mkdir(parents=True)
    done = subprocess.run([sys.executable, "-m", "grader", "bundle", "--course", str(course),
                           "--out", str(out / "student.zip")], cwd=root, capture_output=True,
                          text=True)
    if done.returncode:
        raise SystemExit(f"bundle failed in {root}: {done.stderr.strip()}")
    with zipfile.ZipFile(out / "student.zip") as archive:
        archive.extractall(out)
    return out / "kanon-hw1"


def timed(folder: Path, *args: str) -> tuple[float, str]:
    """(wall seconds, the self-check's closing count) of one `pytest` run in `folder`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "KANON"))}
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
                           *args], cwd=folder, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    lines = [line for line in done.stdout.splitlines() if "public tests passed" in line]
    return seconds, (lines[-1].split(" \N{EM DASH}")[0] if lines else "no summary line")


LOOP = '''

import functools as _functools  # noqa: E402


@_functools.wraps({function})  # the same signature: only the loop differs
def {function}(*args):
    """An endless loop (bench/bench_selfcheck.py: a student's commonest bug)."""
    while True:
        pass
'''


def looping_copy(staff: Path, function: str) -> Path:
    """A copy of the known-good solution whose `function` never returns."""
    copy = staff.with_name(f"loop_{function}.py")
    copy.write_text(staff.read_text(encoding="utf-8") + LOOP.format(function=function),
                    encoding="utf-8")
    return copy


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, default=None, metavar="KIT",
                        help="another kit checkout to compare with")
    parser.add_argument("--course", type=Path, default=REPO / "grader" / "rubric.toml")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--loops", nargs="*", default=["cost_MD", "clustering_anonymizer"],
                        metavar="FUNCTION", help="functions to give an endless loop, one copy "
                                                 "of the solution each")
    parser.add_argument("--runs", nargs="*", default=None, metavar="RUN",
                        help="only these runs: skeleton, reference, loop:FUNCTION")
    args = parser.parse_args()
    course = args.course.resolve()
    kits = {"after": REPO} | ({"before": args.before.resolve()} if args.before else {})
    with tempfile.TemporaryDirectory() as tmp:
        folders = {label: build(root, course, Path(tmp) / label) for label, root in kits.items()}
        staff = Path(tmp) / "solution.py"  # the course's known-good solution
        subprocess.run([sys.executable, "-m", "grader", "solution", "--course", str(course),
                        "--out", str(staff)], cwd=REPO, check=True, capture_output=True)
        runs = {"skeleton": (), "reference": (f"--solution={staff}",)} | {
            f"loop:{f}": (f"--solution={looping_copy(staff, f)}",) for f in args.loops}
        runs = {k: v for k, v in runs.items() if args.runs is None or k in args.runs}
        best: dict[tuple[str, str], float] = {}
        said: dict[tuple[str, str], str] = {}
        for _ in range(args.repeat):
            for run, extra in runs.items():
                for label, folder in folders.items():
                    seconds, line = timed(folder, *extra)
                    best[run, label] = min(seconds, best.get((run, label), seconds))
                    said[run, label] = line
                    print(f"{run} {label}: {seconds:.1f} s, {line}", file=sys.stderr,
                          flush=True)
        print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs; self-check for "
              f"{course.name}, best of {args.repeat} (wall seconds)")
        for run in runs:
            for label in folders:
                cost = ""
                if run.startswith("loop:") and ("reference", label) in best:
                    cost = f" (the loop: +{best[run, label] - best['reference', label]:.1f} s)"
                print(f"{run:<26} {label:<7} {best[run, label]:7.1f} s{cost}   "
                      f"{said[run, label]}")
            if "before" in folders:
                print(f"{run:<26} after/before {best[run, 'after'] / best[run, 'before']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
