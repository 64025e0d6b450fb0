"""Benchmark of the self-check's public counterexamples (tests/public/teach.py): for every
single-bug mutant of the quality gate (tests/kit/mutants.py), the students' bundle of the
course grading every part (grader/rubric-all.toml; the LM-only mutant: rubric-2025.toml) runs
the public test file that catches it; printed per mutant: the function each "public
counterexample" section names, whether it shows a counterexample, its size, the search's
calls and the time it added (its own measure, wall clock), the file's whole run; then the
known-good solution's whole self-check, where no test fails and the search adds nothing.
Nothing is asserted (the budget: at most 10 s per failing function).

    python bench/bench_selfcheck_teach.py [--jobs 2] [--only SUBSTRING]
"""
from __future__ import annotations

import argparse
import re
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(KIT / "tests" / "kit")]

from mutants import MUTANTS  # noqa: E402
from selfcheck_teach import ALL, FUNCTIONS, bundle, caught_in, run, solution  # noqa: E402

SIZE = re.compile(r"raw\.csv \((\d+) of the data rows of .*\); QIs kept: ([^;]*);")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    chosen = [m for m in MUTANTS if args.only in m.name]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        bundles = {r: bundle(r, work / Path(r).stem) for r in {ALL} | {m.course for m in chosen
                                                                      if m.course}}

        def one(item):
            n, mutant = item
            answer = solution(mutant, work / f"m{n:02d}")
            return run(bundles[mutant.course or ALL], answer, caught_in(mutant))

        with ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(one, enumerate(chosen)))
        exact = 0
        added = []
        for mutant, (lessons, wall, _) in zip(chosen, results):
            want = FUNCTIONS[mutant.marker]
            ok = bool(lessons) and all(x.function == want and x.found for x in lessons)
            exact += ok
            for x in lessons:
                added.append(x.seconds)
                size = SIZE.search(x.text)
                shown = f"{size.group(1)} rows x {len(size.group(2).split(', '))} QIs" \
                    if size else "-"
                print(f"{'ok ' if ok else 'NO '} {mutant.name[:70]:70}  {x.function:22} "
                      f"{'found' if x.found else 'none '} {shown:16} {x.calls:4d} calls "
                      f"{x.seconds:5.1f} s added (file {wall:5.1f} s)")
            if not lessons:
                print(f"NO  {mutant.name[:70]:70}  no section (file {wall:5.1f} s)")
        print(f"{exact}/{len(chosen)} mutants: a counterexample for exactly the broken function;"
              f" added time per failing function: max {max(added, default=0):.1f} s, mean "
              f"{sum(added) / max(len(added), 1):.2f} s (budget 10 s)")
        lessons, wall, _ = run(bundles[ALL], solution(None, work))
        print(f"known-good solution (the reference), whole self-check: {wall:.1f} s, "
              f"{len(lessons)} counterexample searches, "
              f"{sum(x.seconds for x in lessons):.1f} s added")


if __name__ == "__main__":
    main()
