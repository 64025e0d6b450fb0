"""Benchmark of the grader (not a test: numbers depend on the machine).

    python bench/bench_grader.py [--sandbox none|bwrap|auto] [--skip-default] [--hostile-only]

1. Wall time of grading examples/submissions with examples/rubric.toml, --jobs 1 and 2.
2. Grader overhead per submission: its wall time minus the time the student's code itself
   ran (import + every call, as measured inside the child), from timings.csv, for the
   well-behaved examples (their wall time is not dominated by timeouts).
3. The same overhead for alice (a correct solution) under the default rubric (36 cases, 12 of
   them on the 9,999-row adult-hw1.csv), graded alone with --jobs 1.
4. The 13 examples under the default rubric with --jobs 2, as a ratio to grading alice alone
   (the time policy's target: at most 25x).
5. A submission that loops forever in every function, under the default rubric (target:
   about 200 s at most: two timeouts of a small case per function).
6. The realistic class (tests/kit/realistic_class, 20+ submissions in real students' styles)
   under the default rubric with --jobs 2: wall time, and each student's score next to the
   score its labels give (--skip-realistic to leave it out: plain Python on the adult data
   takes minutes).
7. The hostile class (examples/hostile/, its own rubric) graded with --jobs 2, as a ratio to
   grading its correct submission (amy) alone, without and with bubblewrap.

`--class realistic` runs only the throughput benchmark of the realistic class under the default
rubric: wall time, CPU seconds per submission (its code's CPU, as the sandbox measured it:
median, 90th percentile, max; and the whole run's CPU, grader and Dask included, per
submission) and submissions per core-hour, for --jobs 1, --jobs 2 and a two-worker Dask
cluster on 127.0.0.1 (grader.grading.executors.cluster_local), in one run. `--time-limit S` caps every
call's CPU time (the default rubric's limits make a run take about an hour on two cores).
"""
from __future__ import annotations

import argparse
import csv
import json
import resource
import statistics
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
WELL_BEHAVED = ("alice", "bob", "frank", "heidi", "ivan", "judy", "olivia", "oscar")


def grade(out: Path, jobs: int, sandbox: str, rubric: Path | None, only: list[str] | None,
          submissions: Path = EXAMPLES / "submissions", extra: tuple[str, ...] = ()) -> float:
    cmd = [sys.executable, "-m", "grader", "grade", str(submissions), "--out",
           str(out), "--sandbox", sandbox, "--quiet", *extra]
    if jobs:
        cmd += ["--jobs", str(jobs)]
    if rubric:
        cmd += ["--rubric", str(rubric)]
    if only:
        cmd += ["--only", *only]
    start = time.monotonic()
    subprocess.run(cmd, cwd=REPO, check=True)
    return time.monotonic() - start


def overheads(out: Path) -> dict[str, tuple[float, float, float]]:
    """student -> (wall seconds, student-code seconds, overhead)."""
    with open(out / "timings.csv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    result = {}
    for student in sorted({r["student"] for r in rows}):
        mine = [r for r in rows if r["student"] == student]
        wall = sum(float(r["seconds"]) for r in mine if r["what"] == "grading (wall)")
        own = sum(float(r["seconds"]) for r in mine if r["what"] != "grading (wall)")
        result[student] = (wall, own, wall - own)
    return result


def slowest(out: Path) -> str:
    """The three submissions whose grading took longest (wall)."""
    with open(out / "timings.csv", encoding="utf-8", newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["what"] == "grading (wall)"]
    rows.sort(key=lambda r: -float(r["seconds"]))
    return ", ".join(f"{r['student']} {float(r['seconds']):.1f} s" for r in rows[:3])


def realistic(tmp: Path, sandbox: str) -> None:
    """Grade the realistic class under the default rubric; compare with its labels."""
    import tomllib
    sys.path.insert(0, str(REPO))
    from grader import rubric as rubric_mod
    folder = REPO / "tests" / "kit" / "realistic_class"
    labels = tomllib.loads((folder / "labels.toml").read_text(encoding="utf-8"))
    out, subs = tmp / "realistic", tmp / "realistic-subs"
    for student in labels:
        shutil.copytree(folder / student, subs / student)
    wall = grade(out, 2, sandbox, None, None, subs, ("--id-pattern", "^(?P<id>.+)$"))
    r = rubric_mod.load()
    share = {"full": 1.0, "partial": r.settings.partial_credit, "zero": 0.0}
    with open(out / "grades.csv", encoding="utf-8", newline="") as f:
        grades = {g["student"]: g for g in csv.DictReader(f)}
    print(f"realistic class ({len(grades)} submissions), default rubric, --jobs 2: "
          f"{wall:.1f} s")
    agree = 0
    for student, label in sorted(labels.items()):
        wanted = sum(p.points * share[label[p.function]] for p in r.parts)
        got = float(grades[student]["total"]) if student in grades else float("nan")
        agree += abs(wanted - got) < 1e-6
        print(f"  {student:24} {got:6.1f} (labels: {wanted:6.1f}) "
              f"{grades.get(student, {}).get('status', '?')}")
    print(f"  {agree} of {len(labels)} graded as labelled")
    print(f"  slowest: {slowest(out)}")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def throughput(tmp: Path, sandbox: str, time_limit: float | None) -> None:
    """The realistic class under the default rubric with --jobs 1, --jobs 2 and a two-worker
    loopback Dask cluster: wall, CPU per submission, submissions per core-hour."""
    sys.path.insert(0, str(REPO))
    from grader.grading.executors.cluster_local import loopback_cluster
    folder = REPO / "tests" / "kit" / "realistic_class"
    subs = tmp / "realistic-subs"
    for student in sorted(p.name for p in folder.iterdir() if p.is_dir()):
        shutil.copytree(folder / student, subs / student)
    extra = ("--id-pattern", "^(?P<id>.+)$", "--run-as", "none")
    extra += ("--time-limit", str(time_limit)) if time_limit else ()
    print(f"realistic class ({len(list(subs.iterdir()))} submissions), default rubric"
          + (f", --time-limit {time_limit:g}" if time_limit else "") + f", sandbox {sandbox}")
    print(f"  {'run':22} {'wall s':>8} {'run CPU s/sub':>14} {'code CPU s/sub: median':>23} "
          f"{'p90':>7} {'max':>7} {'subs/core-hour':>15}")
    walls = {}
    for label, jobs, workers in (("--jobs 1", 1, 0), ("--jobs 2", 2, 0),
                                 ("Dask, 2 workers", 0, 2)):
        out, before = tmp / f"throughput-{jobs or 'dask'}", _children_cpu()
        if workers:
            with loopback_cluster(tmp / "cluster", workers) as cluster:
                wall = grade(out, 0, sandbox, None, None, subs, extra + ("--cluster",
                                                                        cluster.address))
        else:
            wall = grade(out, jobs, sandbox, None, None, subs, extra)
        cpu = _children_cpu() - before
        records = [json.loads(p.read_text()) for p in sorted(out.glob("results/*/record.json"))]
        code = sorted(sum(c.get("cpu_seconds") or 0 for c in r["cases"]) for r in records)
        p90 = code[min(len(code) - 1, int(0.9 * len(code)))]
        walls[label] = wall
        print(f"  {label:22} {wall:8.1f} {cpu / len(records):14.1f} "
              f"{statistics.median(code):23.1f} {p90:7.1f} {code[-1]:7.1f} "
              f"{len(records) / (wall * (jobs or workers) / 3600):15.0f}")
    print(f"  Dask's throughput / --jobs 2's: "
          f"{walls['--jobs 2'] / walls['Dask, 2 workers']:.2f} (goal: at least 0.9)")


def hostile(tmp: Path) -> None:
    """The hostile class's grading time as a ratio to its correct submission alone."""
    hostile_dir = EXAMPLES / "hostile"
    for sandbox in ("none", "bwrap"):
        args = (sandbox, hostile_dir / "rubric.toml")
        try:
            alone = grade(tmp / f"amy-{sandbox}", 2, *args, ["amy"], hostile_dir / "submissions")
            whole = grade(tmp / f"hostile-{sandbox}", 2, *args, None,
                          hostile_dir / "submissions")
        except subprocess.CalledProcessError:
            print(f"hostile class, --sandbox {sandbox}: not measured (grading failed; "
                  f"is bubblewrap installed?)")
            continue
        print(f"hostile class ({len(list((tmp / f'hostile-{sandbox}' / 'feedback').iterdir()))}"
              f" submissions), --sandbox {sandbox}, --jobs 2: {whole:.1f} s; amy alone "
              f"{alone:.1f} s; ratio {whole / alone:.1f}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sandbox", default="none", choices=("none", "bwrap", "auto"))
    parser.add_argument("--skip-default", action="store_true")
    parser.add_argument("--skip-realistic", action="store_true")
    parser.add_argument("--hostile-only", action="store_true",
                        help="only the hostile class's ratio (both sandbox modes)")
    parser.add_argument("--class", dest="klass", choices=("realistic",), default=None,
                        help="only the throughput of this class: --jobs 1, --jobs 2, Dask")
    parser.add_argument("--time-limit", type=float, default=None, metavar="S",
                        help="with --class: CPU seconds per call for every case")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="kanon-bench-"))
    try:
        if args.klass:
            throughput(tmp, args.sandbox, args.time_limit)
            return 0
        hostile(tmp)
        if args.hostile_only:
            return 0
        print(f"sandbox: {args.sandbox}")
        for jobs in (1, 2):
            out = tmp / f"jobs{jobs}"
            wall = grade(out, jobs, args.sandbox, EXAMPLES / "rubric.toml", None)
            print(f"examples ({len(list((out / 'feedback').iterdir()))} submissions, "
                  f"examples/rubric.toml), --jobs {jobs}: {wall:.1f} s")
        print("overhead per submission (examples/rubric.toml, 14 cases, --jobs 1):")
        for student, (wall, own, extra) in overheads(tmp / "jobs1").items():
            if student in WELL_BEHAVED:
                print(f"  {student:8} wall {wall:6.2f} s  student code {own:6.2f} s  "
                      f"overhead {extra:5.2f} s")
        if not args.skip_default:
            out = tmp / "default"
            wall = grade(out, 1, args.sandbox, None, ["alice"])
            w, own, extra = overheads(out)["alice"]
            print(f"alice, default rubric (36 cases), --jobs 1: command {wall:.1f} s, grading "
                  f"{w:.2f} s, student code {own:.2f} s, overhead {extra:.2f} s")
            every = grade(tmp / "default-all", 2, args.sandbox, None, None)
            print(f"13 examples, default rubric, --jobs 2: {every:.1f} s = "
                  f"{every / wall:.1f} x alice alone (target: at most 25 x)")
            print(f"  slowest: {slowest(tmp / 'default-all')}")
            sys.path.insert(0, str(REPO / "tests" / "kit"))
            from timeout_patterns import write_pattern
            loops = write_pattern(tmp / "loops", "loop_everywhere").parent
            looped = grade(tmp / "loops-out", 1, args.sandbox, None, None, loops)
            print(f"a submission looping forever in every function, default rubric: "
                  f"{looped:.1f} s (target: about 200 s at most: two small-case limits per "
                  f"function; bench/bench_timeouts.py gives its CPU time)")
        if not args.skip_default and not args.skip_realistic:
            realistic(tmp, args.sandbox)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
