"""Benchmark of the checker (python -m reference.check) on the 9,999-row adult outputs.

    python bench/bench_check.py

For every anonymizer of the reference (random s = 0, clustering, bottom-up l = 2, Samarati
max_sup = 20, Mondrian; k = 8) the output is written once (untimed), then the checker's work
(reading and checking the three inputs, building the whole report) is timed in-process with
time.perf_counter(), interpreter start-up excluded. The target (1 s per table) is printed next
to each figure; nothing is asserted.
"""
from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TARGET = 1.0  # s per table
K = 8


def main() -> int:
    sys.path.insert(0, str(REPO))
    import reference
    from reference.check import build_report
    from kanon.privacy import load_release
    raw, dghs = str(REPO / "adult-hw1.csv"), str(REPO / "DGHs")
    runs = [("random", lambda out: reference.random_anonymizer(raw, dghs, K, 0, out)),
            ("clustering", lambda out: reference.clustering_anonymizer(raw, dghs, K, out)),
            ("bottomup", lambda out: reference.bottomup_anonymizer(raw, dghs, K, 2, out)),
            ("samarati", lambda out: reference.samarati(raw, dghs, K, 20, out)),
            ("mondrian", lambda out: reference.mondrian(raw, dghs, K, out))]
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs; checker time per table "
          f"(in-process perf_counter), k = {K}")
    print(f"{'anonymizer':<12}{'classes':>8}{'time s':>9}{'target':>8}{'ratio':>7}")
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for name, run in runs:
            out = os.path.join(tmp, f"{name}.csv")
            run(out)
            start = time.perf_counter()
            report = build_report(load_release(raw, out, dghs))
            seconds = time.perf_counter() - start
            worst = max(worst, seconds)
            print(f"{name:<12}{report['classes']:>8}{seconds:>9.3f}{TARGET:>8.1f}"
                  f"{seconds / TARGET:>7.2f}{'' if seconds <= TARGET else '  OVER'}")
    print(f"slowest: {worst:.3f} s (target {TARGET:.0f} s): "
          f"{'met' if worst <= TARGET else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
