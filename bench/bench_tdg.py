"""The Top-Down Greedy lab's reference (courses/tdg-lab/reference/tdg.py) on the lab's scale.

    python bench/bench_tdg.py [--k 10 50] [--seeds 10] [--repeat 3]

Table: the course's public data (courses/tdg-lab/cases/public/adult: 30,162 rows, the six
';' hierarchies), 8 QIs. For each k: the median wall time (time.perf_counter, one core) of
R runs of topdown_greedy (seed 0) and their CPU time (time.process_time: a shared machine's
wall time is longer), then the table NCP of the output for seeds 0..S-1 (the
reference's random first records): min, mean, max and the spread (max - min) / mean, and the
same for GCP = NCP / (rows x QIs). The course's acceptance band is set from the largest NCP
(the course's contract: "at most the largest table NCP of the reference over 10 seeded random
starts, times 1 + slack"). Nothing is asserted.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
COURSE = os.path.join(HERE, os.pardir, "courses", "tdg-lab")
CASE = os.path.join(COURSE, "cases", "public", "adult")


def _reference():
    spec = importlib.util.spec_from_file_location(
        "tdg_lab_reference", os.path.join(COURSE, "reference", "tdg.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--k", type=int, nargs="+", default=[10, 50])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    tdg = _reference()
    raw, dghs = os.path.join(CASE, "adult-hw1.csv"), os.path.join(CASE, "DGHs")
    with open(raw, encoding="utf-8") as f:
        rows = sum(1 for _ in f) - 1
    cells = rows * len(tdg.QIS)
    print(f"table: {os.path.relpath(raw)}, {rows} rows, {len(tdg.QIS)} QIs")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.csv")
        for k in args.k:
            times, cpu = [], []
            for _ in range(args.repeat):
                start, start_cpu = time.perf_counter(), time.process_time()
                tdg.topdown_greedy(raw, dghs, k, out, seed=0)
                times.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
            start = time.perf_counter()
            tdg.cost_NCP(raw, out, dghs)
            cost_seconds = time.perf_counter() - start
            print(f"k = {k}: topdown_greedy {statistics.median(times):.2f} s wall, "
                  f"{statistics.median(cpu):.2f} s CPU (medians of {args.repeat}), "
                  f"cost_NCP {cost_seconds:.2f} s wall")
            ncps = []
            for seed in range(args.seeds):
                tdg.topdown_greedy(raw, dghs, k, out, seed=seed)
                ncps.append(tdg.cost_NCP(raw, out, dghs))
                print(f"  seed {seed}: NCP {ncps[-1]:.3f}  GCP {100 * ncps[-1] / cells:.4f}%")
            low, mean, high = min(ncps), statistics.fmean(ncps), max(ncps)
            print(f"  NCP over seeds 0..{args.seeds - 1}: min {low:.3f}, mean {mean:.3f}, "
                  f"max {high:.3f}, (max - min) / mean {(high - low) / mean:.4%}")
            print(f"  GCP: min {100 * low / cells:.4f}%, mean {100 * mean / cells:.4f}%, "
                  f"max {100 * high / cells:.4f}%")


if __name__ == "__main__":
    main()
