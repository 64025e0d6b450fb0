"""Benchmark of the students' self-check: the wall time of `pytest` in an unpacked student
bundle, on the untouched skeleton and on the staff solution.

    python bench/bench_selfcheck.py                     # this checkout
    python bench/bench_selfcheck.py --root OTHER_KIT    # another checkout (say, before a change)
    python bench/bench_selfcheck.py --course grader/rubric-2025.toml --repeat 3

The bundle is built by the kit under --root (`python -m grader bundle` run there), unpacked
into a temporary folder and checked twice: skeleton.py as shipped, and a staff submission (a
copy of this checkout's reference/ imported by a skeleton.py). Each figure is the best of
--repeat runs (interpreter start-up included, as a student sees it). Nothing is asserted.
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
sys.path.insert(0, str(REPO / "tests" / "kit"))
from staff_submission import staff_submission  # noqa: E402

STAFF = "from staffcopy import *  # noqa: F401,F403\n"


def build(root: Path, course: Path, out: Path) -> Path:
    """Build and unpack the bundle of `root` for `course`; returns the bundle folder."""
    done = subprocess.run([sys.executable, "-m", "grader", "bundle", "--course", str(course),
                           "--out", str(out / "student.zip")], cwd=root, capture_output=True,
                          text=True)
    if done.returncode:
        raise SystemExit(f"bundle failed: {done.stderr.strip()}")
    with zipfile.ZipFile(out / "student.zip") as archive:
        archive.extractall(out)
    return out / "kanon-hw1"


def timed(folder: Path, *args: str) -> tuple[float, str]:
    """(wall seconds, the self-check's closing line) of one `pytest` run in `folder`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "KANON"))}
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
                           *args], cwd=folder, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    lines = [line for line in done.stdout.splitlines() if "public tests passed" in line]
    return seconds, (lines[-1] if lines else done.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=REPO, help="the kit checkout to bundle")
    parser.add_argument("--course", type=Path, default=REPO / "grader" / "rubric.toml")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = build(args.root.resolve(), args.course.resolve(), Path(tmp))
        staff = staff_submission(Path(tmp) / "staff", STAFF) / "skeleton.py"
        print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs; self-check of "
              f"{args.root.resolve()} for {args.course.name}, best of {args.repeat}")
        for label, extra in (("skeleton", ()), ("reference", (f"--solution={staff}",))):
            runs = [timed(folder, *extra) for _ in range(args.repeat)]
            best = min(seconds for seconds, _ in runs)
            print(f"{label:<10} {best:7.1f} s   {runs[0][1].strip()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
