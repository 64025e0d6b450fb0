"""Counterexamples (issue 21, item 4): on the example class and on every seeded single-bug
variant of the reference (tests/kit/mutants.py) among the seven default functions, graded with
examples/rubric.toml (small hidden cases, no public case fails: the search starts from the
pool's seeded public samples), print the share of wrong/partial parts that get a counterexample,
the share within 12 rows and 3 QIs, its median and largest size (rows x QIs), and the extra
grading time per submission (the search's wall time over the submission's grading time).

    python bench/bench_counterexamples.py [--jobs N] [--rubric TOML] [--mutants-only]
    python bench/bench_counterexamples.py --realistic   # tests/kit/realistic_class, its rubric

`--rubric grader/rubric.toml` grades with the default rubric (adult-size public cases that a
mutant fails first, so the search starts from them; a submission then grades in seconds, and
the search's share of its time is what a real class sees).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(KIT), str(KIT / "tests" / "kit")]

from grader import rubric  # noqa: E402
from grader.commands.grade import grade_class  # noqa: E402
from grader.grading.batch import BatchSettings  # noqa: E402
from mutants import DEFAULT_MARKERS, MUTANTS, write_submission  # noqa: E402

RUBRIC = KIT / "examples" / "rubric.toml"


def mutant_class(folder: Path, work: Path) -> list[str]:
    """One submission per default-function mutant in `folder`; their ids."""
    ids = []
    for n, mutant in enumerate(m for m in MUTANTS if m.course is None
                               and m.marker in DEFAULT_MARKERS):
        ident = f"m{n:02d}"
        write_submission(mutant, KIT / "reference", folder / ident, work / ident)
        ids.append(ident)
    return ids


def figures(records: list[dict]) -> dict:
    """The item-4 figures of graded records."""
    wanted = found = small = 0
    sizes, shares = [], []
    for record in records:
        entries = record.get("counterexamples") or {}
        wanted += len(entries)
        for entry in entries.values():
            if entry["found"]:
                found += 1
                rows, qis = len(entry["rows"]), len(entry["qis"])
                sizes.append((rows * qis, rows, qis))
                small += rows <= 12 and qis <= 3
        total = record["timing"].get("total")
        if entries and total:
            shares.append(record["timing"].get("counterexamples", 0.0) / total)
    return {"parts": wanted, "found": found, "small": small, "sizes": sorted(sizes),
            "extra": shares}


def report(name: str, f: dict) -> str:
    sizes = f["sizes"]
    median = sizes[len(sizes) // 2] if sizes else None
    largest = sizes[-1] if sizes else None
    extra = f["extra"]
    return (f"{name}: {f['found']}/{f['parts']} wrong/partial parts get a counterexample "
            f"({100 * f['found'] / max(f['parts'], 1):.0f}%), {f['small']} within 12 rows and "
            f"3 QIs ({100 * f['small'] / max(f['parts'], 1):.0f}%); size median "
            f"{median and f'{median[1]}x{median[2]}'}, largest {largest and f'{largest[1]}x{largest[2]}'}; "
            f"extra time per submission: median "
            f"{100 * statistics.median(extra) if extra else 0:.0f}%, max "
            f"{100 * max(extra) if extra else 0:.0f}% of its grading time")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rubric", type=Path, default=RUBRIC)
    parser.add_argument("--mutants-only", action="store_true")
    parser.add_argument("--realistic", action="store_true",
                        help="the realistic class (real students' styles) with its own rubric")
    args = parser.parse_args()
    if args.realistic:
        realistic(args.jobs)
        return
    r = rubric.load(args.rubric)
    print(f"rubric {args.rubric}")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        if not args.mutants_only:
            examples = grade_class(BatchSettings(KIT / "examples" / "submissions", tmp / "ex", r,
                                                 jobs=args.jobs, sandbox="none", progress=False))
            print(report("example class", figures(examples.records)))
        subs = tmp / "mutants"
        mutant_class(subs, tmp / "work")
        graded = grade_class(BatchSettings(subs, tmp / "mu", r, jobs=args.jobs, sandbox="none", progress=False))
        print(report(f"{len(graded.records)} mutants", figures(graded.records)))
        for record in graded.records:
            missing = [k for k, e in (record.get("counterexamples") or {}).items()
                       if not e["found"]]
            if missing:
                print(f"  none for {record['student']} ({', '.join(missing)})")


def realistic(jobs: int) -> None:
    """The realistic class, graded with its own small rubric, as tests/kit does."""
    import shutil
    import tomllib
    folder = KIT / "tests" / "kit" / "realistic_class"
    students = tomllib.loads((folder / "labels.toml").read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as tmp:
        subs = Path(tmp) / "subs"
        for student in students:
            shutil.copytree(folder / student, subs / student,
                            ignore=shutil.ignore_patterns("__pycache__"))
        graded = grade_class(BatchSettings(subs, Path(tmp) / "out", rubric.load(folder / "rubric.toml"),
                                           jobs=jobs, sandbox="none", progress=False))
        print(report(f"realistic class ({len(graded.records)} submissions)",
                     figures(graded.records)))
        for record in graded.records:
            missing = [k for k, e in (record.get("counterexamples") or {}).items()
                       if not e["found"]]
            if missing:
                print(f"  none for {record['student']} ({', '.join(missing)})")


if __name__ == "__main__":
    main()
