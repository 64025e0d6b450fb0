"""Benchmark of issue 12's grader-side pieces on the 9,999-row adult outputs.

    python bench/bench_privacy_parts.py

For every anonymizer of the reference (random s = 0, clustering, bottom-up l = 2, Samarati
max_sup = 20, Mondrian; k = 8) the output is written once (untimed), then timed in-process with
time.perf_counter(): the feedback's privacy line (grader.grading.privacy_summary.summarize on the
output's bytes; the case's raw data is cached by the grader, so it is loaded once, untimed)
and the reference's optional graded measures entropy_l and t_closeness ("equal"), which
produce the expected values of `python -m grader regen`. Nothing is asserted.
"""
from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
K = 8


def _timed(call) -> tuple[object, float]:
    start = time.perf_counter()
    result = call()
    return result, time.perf_counter() - start


def main() -> int:
    sys.path.insert(0, str(REPO))
    import reference
    from grader.grading import compare, privacy_summary
    raw, dghs = str(REPO / "adult-hw1.csv"), str(REPO / "DGHs")
    runs = [("random", lambda out: reference.random_anonymizer(raw, dghs, K, 0, out)),
            ("clustering", lambda out: reference.clustering_anonymizer(raw, dghs, K, out)),
            ("bottomup", lambda out: reference.bottomup_anonymizer(raw, dghs, K, 2, out)),
            ("samarati", lambda out: reference.samarati(raw, dghs, K, 20, out)),
            ("mondrian", lambda out: reference.mondrian(raw, dghs, K, out))]
    compare.load_case_data(REPO)  # the grader caches it per case folder
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs; seconds per adult output "
          f"(in-process perf_counter), k = {K}")
    print(f"{'anonymizer':<12}{'summary':>9}{'entropy_l':>11}{'t equal':>9}  privacy line")
    with tempfile.TemporaryDirectory() as tmp:
        for name, run in runs:
            out = os.path.join(tmp, f"{name}.csv")
            run(out)
            data = Path(out).read_bytes()
            line, summary = _timed(lambda: privacy_summary.summarize(data, REPO))
            _, ent = _timed(lambda: reference.entropy_l(raw, out, dghs))
            _, close = _timed(lambda: reference.t_closeness(raw, out, dghs, "equal"))
            print(f"{name:<12}{summary:>9.3f}{ent:>11.3f}{close:>9.3f}  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
