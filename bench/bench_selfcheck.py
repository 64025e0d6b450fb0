"""Benchmark of the students' self-check: the wall time of `pytest` in an unpacked student
bundle, on the untouched skeleton and on the staff solution, for this checkout and (with
--before) another one, say a checkout of the commit before a change:

    git worktree add /tmp/kit-before main   # or: git archive REV | tar -x -C /tmp/kit-before
    python bench/bench_selfcheck.py --before /tmp/kit-before --repeat 3
    python bench/bench_selfcheck.py --course grader/rubric-2025.toml

Each bundle is built by its own kit (`python -m grader bundle --course ...` run there),
unpacked into a temporary folder and checked on skeleton.py as shipped and on the course's
known-good solution (`python -m grader solution`, as tests/kit/courses/test_courses.py uses
it). The runs of both checkouts alternate, so a busy machine slows both alike; each figure is
the best of --repeat runs, interpreter start-up included, as a student sees it. The ratio
after/before is printed; nothing is asserted.
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, default=None, metavar="KIT",
                        help="another kit checkout to compare with")
    parser.add_argument("--course", type=Path, default=REPO / "grader" / "rubric.toml")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    course = args.course.resolve()
    kits = {"after": REPO} | ({"before": args.before.resolve()} if args.before else {})
    with tempfile.TemporaryDirectory() as tmp:
        folders = {label: build(root, course, Path(tmp) / label) for label, root in kits.items()}
        staff = Path(tmp) / "solution.py"  # the course's known-good solution
        subprocess.run([sys.executable, "-m", "grader", "solution", "--course", str(course),
                        "--out", str(staff)], cwd=REPO, check=True, capture_output=True)
        runs = {"skeleton": (), "reference": (f"--solution={staff}",)}
        best: dict[tuple[str, str], float] = {}
        said: dict[tuple[str, str], str] = {}
        for _ in range(args.repeat):
            for run, extra in runs.items():
                for label, folder in folders.items():
                    seconds, line = timed(folder, *extra)
                    best[run, label] = min(seconds, best.get((run, label), seconds))
                    said[run, label] = line
        print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs; self-check for "
              f"{course.name}, best of {args.repeat} (wall seconds)")
        for run in runs:
            for label in folders:
                print(f"{run:<10} {label:<7} {best[run, label]:7.1f} s   {said[run, label]}")
            if "before" in folders:
                print(f"{run:<10} after/before {best[run, 'after'] / best[run, 'before']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
