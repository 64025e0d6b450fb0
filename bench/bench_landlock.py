"""Benchmark of Landlock's cost (not a test: numbers depend on the machine).

    python bench/bench_landlock.py [--reps N] [--all]

Grades the example class (examples/submissions with examples/rubric.toml, --jobs 1, run as
the grader's user) N times (default 3) with `--sandbox none` and `--sandbox landlock`,
alternating, and compares the modes on timings.csv: per call (every graded call that took
under a second: timeouts and waits left out), each call's fastest time over the runs, summed;
per import (the child's start, confinement included); and the batch's wall time. Prints the
figures and the landlock/none ratios (the goal per call: <= 1.05). Without --all the slow
students (carol, grace, heidi: wall-clock backstops and CPU timeouts that take the same time
in every mode) are left out. Needs a kernel with Landlock.
"""
from __future__ import annotations

import argparse
import csv
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
SLOW = {"carol", "grace", "heidi"}
MODES = ("none", "landlock")


def grade(mode: str, out: Path, only: list[str]) -> tuple[float, dict[tuple[str, str], float]]:
    """Grade the class in `mode`: wall seconds, and (student, what) -> seconds."""
    cmd = [sys.executable, "-m", "grader", "grade", str(EXAMPLES / "submissions"), "--out",
           str(out), "--rubric", str(EXAMPLES / "rubric.toml"), "--jobs", "1", "--sandbox",
           mode, "--run-as", "none", "--quiet", *(["--only", *only] if only else [])]
    start = time.monotonic()
    subprocess.run(cmd, cwd=REPO, check=True)
    wall = time.monotonic() - start
    with open(out / "timings.csv", encoding="utf-8", newline="") as f:
        rows = {(r["student"], r["what"]): float(r["seconds"]) for r in csv.DictReader(f)
                if r["seconds"]}
    shutil.rmtree(out)
    return wall, rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=3, help="runs per mode (default 3)")
    parser.add_argument("--all", action="store_true", help="grade the slow students too")
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    from grader.sandbox import landlock_abi
    if landlock_abi() < 1:
        print("error: this kernel offers no Landlock; nothing to measure", file=sys.stderr)
        return 2
    only = [] if args.all else sorted(p.stem for p in (EXAMPLES / "submissions").iterdir()
                                      if p.stem not in SLOW)
    walls: dict[str, list[float]] = {m: [] for m in MODES}
    best: dict[str, dict[tuple[str, str], float]] = {m: {} for m in MODES}
    with tempfile.TemporaryDirectory(prefix="bench-landlock-") as tmp:
        for rep in range(args.reps):
            for mode in MODES:
                wall, rows = grade(mode, Path(tmp) / f"{mode}-{rep}", only)
                walls[mode].append(wall)
                for key, seconds in rows.items():
                    best[mode][key] = min(seconds, best[mode].get(key, seconds))
    common = sorted(set(best["none"]) & set(best["landlock"]))
    calls = [k for k in common if k[1] != "import" and best["none"][k] < 1.0]
    imports = [k for k in common if k[1] == "import"]
    print(f"Landlock ABI {landlock_abi()}; {len(only) or 'all'} students, {args.reps} runs per "
          f"mode, --jobs 1")
    for label, keys in (("per call", calls), ("per import", imports)):
        none = sum(best["none"][k] for k in keys)
        landlock = sum(best["landlock"][k] for k in keys)
        print(f"{label:<11} {len(keys):4d} x: none {1000 * none / len(keys):7.2f} ms, landlock "
              f"{1000 * landlock / len(keys):7.2f} ms, ratio {landlock / none:.3f}")
    none, landlock = min(walls["none"]), min(walls["landlock"])
    print(f"batch wall  (fastest run): none {none:.2f} s, landlock {landlock:.2f} s, "
          f"ratio {landlock / none:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
