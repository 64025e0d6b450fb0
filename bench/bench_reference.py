"""Benchmark of the reference solution: wall time per call and peak memory per function.

    python bench/bench_reference.py [--quick]

Datasets: the project's adult-hw1.csv + DGHs/, and ../shared/course-data when present.
Sweep per dataset: random (s = 0), clustering, bottom-up (l = 1), Samarati (max_sup 0, 20,
100), Mondrian and the optional parts (top-down, LM-only clustering, Datafly, Top-Down Greedy, KACA) for k = 4, 8, ..., 256; bottom-up with l = 1..8 at k = 16; cost_MD and
cost_LM of one output of each anonymizer (k = 4; bottom-up k = 16, Samarati max_sup = 20).

Method: each function runs all its configurations of one dataset in one fresh subprocess
(so interpreter and numpy start-up stay out of the figures). A call's time is
time.perf_counter() around that single in-process call; "peak RSS" is that subprocess's
resource.getrusage(RUSAGE_SELF).ru_maxrss at its end (high-water mark of the whole process,
interpreter and numpy included), shown beside its RSS after imports, before the first call.
The targets are printed next to the figures; nothing is asserted. Clustering at k = 4 is
also timed as the median of 5 calls in one more subprocess, against issue 14's 0.4 s (reading,
anonymizing and writing the 9,999 rows). Mondrian side by side with a straightforward
implementation: bench/bench_mondrian.py. `--quick` runs k = 4, 16,
64 only.
"""
from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
COURSE = (REPO / ".." / "shared" / "course-data").resolve()
KS = [4, 8, 16, 32, 64, 128, 256]
TARGET_CALL = 1.0  # s, every call but clustering at k = 4
TARGET_CLUSTERING_K4 = 2.0  # s
TARGET_CLUSTERING_K4_FAST = 0.4  # s, issue 14: median of CLUSTERING_K4_RUNS calls on 9,999 rows
CLUSTERING_K4_RUNS = 5
TARGET_SWEEP = 30.0  # s, all anonymizer calls of one dataset
TARGET_RSS_MB = 300.0
FUNCTIONS = ["random", "clustering", "bottomup", "samarati", "mondrian", "topdown",
             "clust-lm", "datafly", "greedy", "kaca", "costs"]  # from topdown on: optional
OPTIONAL_CALLS = {"datafly": "datafly", "greedy": "topdown_greedy", "kaca": "kaca"}
"""Optional parts called as function(raw, dghs, k, out)."""


def configurations(function: str, ks: list[int]) -> list[dict]:
    if function == "random":
        return [dict(k=k, s=0) for k in ks]
    if function == "bottomup":
        return [dict(k=k, l=1) for k in ks] + [dict(k=16, l=l) for l in range(2, 9)]
    if function == "samarati":
        return [dict(k=k, max_sup=m) for m in (0, 20, 100) for k in ks]
    return [dict(k=k) for k in ks]


COST_INPUTS = [("random", dict(k=4, s=0)), ("clustering", dict(k=4)),
               ("bottomup", dict(k=16, l=1)), ("samarati", dict(k=4, max_sup=20)),
               ("mondrian", dict(k=4))]


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: KiB


def _call(reference, function: str, raw: str, dghs: str, params: dict, out: str) -> None:
    if function == "random":
        reference.random_anonymizer(raw, dghs, params["k"], params["s"], out)
    elif function == "clustering":
        reference.clustering_anonymizer(raw, dghs, params["k"], out)
    elif function == "bottomup":
        reference.bottomup_anonymizer(raw, dghs, params["k"], params["l"], out)
    elif function == "samarati":
        reference.samarati(raw, dghs, params["k"], params["max_sup"], out)
    elif function == "topdown":
        reference.topdown_anonymizer(raw, dghs, params["k"], out)
    elif function in OPTIONAL_CALLS:
        getattr(reference, OPTIONAL_CALLS[function])(raw, dghs, params["k"], out)
    elif function == "clust-lm":  # clustering, LM-only variant
        reference.VARIANTS[("clustering_anonymizer", "lm-only")](raw, dghs, params["k"], out)
    else:
        reference.mondrian(raw, dghs, params["k"], out)


def child(function: str, raw: str, dghs: str, ks: list[int]) -> None:
    """Run one function's configurations in this process; print one JSON line per call."""
    sys.path.insert(0, str(REPO))
    import reference
    print(json.dumps({"baseline_mb": _rss_mb()}), flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.csv")
        if function == "clustering-k4":  # repeated calls, for the median
            for _ in range(CLUSTERING_K4_RUNS):
                start = time.perf_counter()
                reference.clustering_anonymizer(raw, dghs, 4, out)
                print(json.dumps({"seconds": time.perf_counter() - start}), flush=True)
        elif function == "costs":
            for algorithm, params in COST_INPUTS:
                _call(reference, algorithm, raw, dghs, params, out)  # untimed
                for cost in ("cost_MD", "cost_LM"):
                    start = time.perf_counter()
                    value = getattr(reference, cost)(raw, out, dghs)
                    seconds = time.perf_counter() - start
                    print(json.dumps({"call": f"{cost}({algorithm} "
                                      + " ".join(f"{a}={b}" for a, b in params.items()) + ")",
                                      "seconds": seconds, "value": value}), flush=True)
        else:
            for params in configurations(function, ks):
                start = time.perf_counter()
                _call(reference, function, raw, dghs, params, out)
                seconds = time.perf_counter() - start
                print(json.dumps({"call": " ".join(f"{a}={b}" for a, b in params.items()),
                                  "params": params, "seconds": seconds}), flush=True)
    print(json.dumps({"peak_mb": _rss_mb()}), flush=True)


def target(function: str, record: dict) -> float:
    if function in ("clustering", "clust-lm") and record.get("params", {}).get("k") == 4:
        return TARGET_CLUSTERING_K4
    return TARGET_CALL


def run_dataset(label: str, raw: Path, dghs: Path, ks: list[int]) -> tuple[float, float, bool]:
    """Print one dataset's table; returns (anonymizer sweep seconds, max peak MB, all met)."""
    print(f"\n== {label}: {raw} ({sum(1 for _ in open(raw, encoding='utf-8')) - 1} rows)")
    print(f"{'function':<11}{'call':<32}{'time s':>9}{'target':>8}{'ratio':>7}  ")
    sweep, peak_max, met = 0.0, 0.0, True
    for function in FUNCTIONS:
        done = subprocess.run([sys.executable, __file__, "--child", function, str(raw),
                               str(dghs), ",".join(map(str, ks))],
                              cwd=REPO, capture_output=True, text=True)
        if done.returncode != 0:
            print(f"{function:<11}FAILED: {done.stderr.strip().splitlines()[-1:]}")
            met = False
            continue
        records = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
        baseline = records[0]["baseline_mb"]
        peak = records[-1]["peak_mb"]
        calls = records[1:-1]
        total = sum(r["seconds"] for r in calls)
        for r in calls:
            limit = target(function, r)
            ratio = r["seconds"] / limit
            met &= ratio <= 1
            flag = "" if ratio <= 1 else "  OVER"
            print(f"{function:<11}{r['call']:<32}{r['seconds']:>9.3f}{limit:>8.1f}"
                  f"{ratio:>7.2f}{flag}")
        if function != "costs":
            sweep += total
        peak_max = max(peak_max, peak)
        met &= peak < TARGET_RSS_MB
        print(f"{function:<11}{'-> ' + str(len(calls)) + ' calls, total':<32}{total:>9.3f}"
              f"{'':>15}  peak RSS {peak:.0f} MB (after imports {baseline:.0f} MB; target "
              f"< {TARGET_RSS_MB:.0f} MB, ratio {peak / TARGET_RSS_MB:.2f})")
    done = subprocess.run([sys.executable, __file__, "--child", "clustering-k4", str(raw),
                           str(dghs), "4"], cwd=REPO, capture_output=True, text=True)
    if done.returncode == 0:
        records = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
        median = statistics.median(r["seconds"] for r in records[1:-1])
        ratio = median / TARGET_CLUSTERING_K4_FAST
        met &= ratio <= 1
        print(f"{'clustering':<11}{f'k=4, median of {CLUSTERING_K4_RUNS} calls':<32}"
              f"{median:>9.3f}{TARGET_CLUSTERING_K4_FAST:>8.1f}{ratio:>7.2f}"
              f"{'' if ratio <= 1 else '  OVER'}  (issue 14: read, anonymize, write)")
    else:
        print(f"{'clustering':<11}k=4 median FAILED: {done.stderr.strip().splitlines()[-1:]}")
        met = False
    print(f"{'sweep':<11}{'all anonymizer calls':<32}{sweep:>9.3f}{TARGET_SWEEP:>8.1f}"
          f"{sweep / TARGET_SWEEP:>7.2f}{'' if sweep <= TARGET_SWEEP else '  OVER'}")
    met &= sweep <= TARGET_SWEEP
    return sweep, peak_max, met


def main(argv: list[str]) -> int:
    if argv[:1] == ["--child"]:
        child(argv[1], argv[2], argv[3], [int(k) for k in argv[4].split(",")])
        return 0
    ks = [4, 16, 64] if "--quick" in argv else KS
    datasets = [("project", REPO / "adult-hw1.csv", REPO / "DGHs")]
    if (COURSE / "adult-hw1.csv").is_file():
        datasets.append(("course-data", COURSE / "adult-hw1.csv", COURSE / "DGHs"))
    else:
        print(f"(course data absent: {COURSE}; only the project's dataset)")
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs; times are in-process "
          f"wall time per call (perf_counter), peak RSS is ru_maxrss of each function's "
          f"own subprocess")
    started = time.perf_counter()
    summary = [(label, *run_dataset(label, raw, dghs, ks)) for label, raw, dghs in datasets]
    wall = time.perf_counter() - started
    print("\n== summary")
    for label, sweep, peak, met in summary:
        print(f"{label:<12} sweep {sweep:6.2f} s (target {TARGET_SWEEP:.0f} s)  max peak RSS "
              f"{peak:5.0f} MB (target < {TARGET_RSS_MB:.0f} MB)  all targets met: "
              f"{'yes' if met else 'NO'}")
    print(f"whole benchmark wall time (process start-ups and cost calls included): {wall:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
