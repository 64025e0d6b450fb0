"""The report's experiments (HANDOUT.md, "The report") run with the reference: the answer key.

    python -m reference.experiments --out DIR [--data CSV --dghs DIR] [--seeds N]
        [--max-sup 0,100,1000] [--k 4,8,...] [--l 1,...,8] [--l-k 16] [--jobs N] [--rubric FILE]

Sweeps every anonymizer the rubric enables over k (random averaged over seeds 0..N-1,
bottom-up at l = 1, Samarati at each max_sup), then bottom-up at k = --l-k over l. Writes

  DIR/experiments.csv   one row per run: algorithm, k, l, max_sup, seed, LM, MD, seconds
                        (CPU seconds of the anonymizer call), classes (equivalence classes of
                        the output); a parameter that does not apply is empty; sorted, so the
                        same inputs give the same bytes except the measured `seconds` column
  DIR/table.md          the numbers of the plots (random: mean over seeds), for the report
  DIR/*.png             with matplotlib (`pip install -e ".[plots]"`): LM, MD and run time
                        against k and against l (see reference/experiment_plots.py)

A progress line goes to stderr. Runs go to --jobs worker processes (default: up to 2).
"""
from __future__ import annotations

import argparse
import csv
import importlib.util
import io
import os
import sys
import tempfile
import time
import tomllib
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from kanon.cells import CellError, Column
from kanon.problem import load_problem
from kanon.table import read_table

from . import bottomup_anonymizer, clustering_anonymizer, mondrian, random_anonymizer, samarati
from .experiment_series import L_K, Result, Run, series

KIT_ROOT = Path(__file__).resolve().parent.parent
K_VALUES = (4, 8, 16, 32, 64, 128, 256)  # the handout's k sweep
L_VALUES = (1, 2, 3, 4, 5, 6, 7, 8)  # the handout's l sweep, bottom-up at k = L_K
MAX_SUP = (0, 100, 1000)  # Samarati's suppression budgets (the handout suggests 100)
# algorithm name -> (graded function name in the rubric, reference function)
ALGORITHMS = {
    "random": ("random_anonymizer", random_anonymizer),
    "clustering": ("clustering_anonymizer", clustering_anonymizer),
    "bottomup": ("bottomup_anonymizer", bottomup_anonymizer),
    "samarati": ("samarati", samarati),
    "mondrian": ("mondrian", mondrian),
}
COLUMNS = ["algorithm", "k", "l", "max_sup", "seed", "LM", "MD", "seconds", "classes"]
PLOTS_HINT = ('plots skipped: matplotlib is not installed; install it with '
              'pip install -e ".[plots]" (or pip install matplotlib) and rerun')


def enabled_algorithms(rubric: Path | None) -> list[str]:
    """The anonymizers a rubric has a part for (all of them without a rubric)."""
    if rubric is None:
        return list(ALGORITHMS)
    with open(rubric, "rb") as f:
        functions = {p.get("function") for p in tomllib.load(f).get("part", [])}
    return [name for name, (function, _) in ALGORITHMS.items() if function in functions]


def plan(algorithms: list[str], seeds: int, ks: tuple[int, ...] = K_VALUES,
         ls: tuple[int, ...] = L_VALUES, l_k: int = L_K,
         max_sups: tuple[int, ...] = MAX_SUP) -> list[Run]:
    """Every run of the sweeps, each once, in CSV order."""
    order = {name: i for i, name in enumerate(ALGORITHMS)}
    runs: set[Run] = set()
    for name in algorithms:
        o = order[name]
        for k in ks:
            if name == "random":
                runs.update(Run(o, name, k, seed=s) for s in range(seeds))
            elif name == "bottomup":
                runs.add(Run(o, name, k, l=1))
            elif name == "samarati":
                runs.update(Run(o, name, k, max_sup=m) for m in max_sups)
            else:
                runs.add(Run(o, name, k))
        if name == "bottomup":
            runs.update(Run(o, name, l_k, l=l) for l in ls)
    return sorted(runs)


class _Costs:
    """cost_LM and cost_MD of outputs of one raw dataset, with the raw table, hierarchies and
    each (raw value, cell) cost read once per worker instead of once per call (the same
    per-cell rules as reference.costs; a test checks the totals against cost_LM/cost_MD)."""

    _cache: dict[tuple[str, str], "_Costs"] = {}

    def __init__(self, data: str, dghs: str):
        self.problem = load_problem(data, dghs)
        raw = self.problem.table.rows
        self.columns = [(c, Column(self.problem.table.header[c], d, [r[c] for r in raw]),
                         [r[c] for r in raw])
                        for c, d in zip(self.problem.qi_columns, self.problem.dghs)]

    @classmethod
    def of(cls, data: str, dghs: str) -> "_Costs":
        key = (os.path.abspath(data), os.path.abspath(dghs))
        if key not in cls._cache:
            cls._cache[key] = cls(data, dghs)
        return cls._cache[key]

    def measure(self, output_file: str) -> tuple[float, float, int]:
        """(LM, MD, number of equivalence classes) of an anonymized file."""
        table = read_table(output_file)
        if table.header != self.problem.table.header or len(table.rows) != self.problem.n:
            raise ValueError(f"{output_file}: header or row count differs from the raw file")
        lm_total, md_total = 0.0, 0
        for c, column, raw_values in self.columns:
            pairs: dict[tuple[str, str], int] = {}
            for raw, row in zip(raw_values, table.rows):
                key = (raw, row[c])
                pairs[key] = pairs.get(key, 0) + 1
            for (raw, cell), count in sorted(pairs.items()):
                cost = column.cost(raw, cell)
                if isinstance(cost, CellError):
                    raise ValueError(f"{output_file}: column {column.name!r}: "
                                     f"{cost.describe()}")
                md_total += cost[0] * count
                lm_total += cost[1] * count
        qi = self.problem.qi_columns
        classes = len({tuple(row[c] for c in qi) for row in table.rows})
        return lm_total / self.problem.m, float(md_total), classes


def measure(run: Run, data: str, dghs: str) -> Result:
    """Anonymize with the reference, time the call (CPU seconds of this process: steady on
    a busy machine, and equal to the wall time of this single-threaded code on an idle one),
    then cost the output."""
    function = ALGORITHMS[run.algorithm][1]
    costs = _Costs.of(data, dghs)
    with tempfile.TemporaryDirectory(prefix="kanon-experiment-") as tmp:
        out = os.path.join(tmp, "anonymized.csv")
        started = time.process_time()
        try:
            function(data, dghs, *run.arguments(), out)
        except ValueError as e:  # e.g. no lattice node satisfies: a fact, not a crash
            return Result(run, None, None, time.process_time() - started, None, str(e))
        seconds = time.process_time() - started
        lm, md, classes = costs.measure(out)
    return Result(run, lm, md, seconds, classes)


class Progress:
    """A progress line on stderr: redrawn in place on a terminal, every 10% otherwise."""

    def __init__(self, total: int, enabled: bool = True):
        self.total, self.done, self.enabled = total, 0, enabled
        self.tty = sys.stderr.isatty()
        self.start = time.monotonic()
        self.shown = -1

    def step(self, what: str) -> None:
        self.done += 1
        if not self.enabled:
            return
        elapsed = time.monotonic() - self.start
        left = elapsed / self.done * (self.total - self.done)
        filled = 30 * self.done // max(self.total, 1)
        line = (f"[{'#' * filled}{'.' * (30 - filled)}] {self.done}/{self.total} runs, "
                f"{elapsed:.0f} s, ~{left:.0f} s left  {what}")
        if self.tty:
            sys.stderr.write(f"\r{line[:110]:<110}" + ("\n" if self.done == self.total else ""))
        elif self.done * 10 // self.total > self.shown or self.done == self.total:
            self.shown = self.done * 10 // self.total
            sys.stderr.write(line + "\n")
        sys.stderr.flush()


def run_all(runs: list[Run], data: str, dghs: str, jobs: int = 1,
            progress: bool = True) -> list[Result]:
    """Measure every run, `jobs` at a time in worker processes; results in `runs` order."""
    bar = Progress(len(runs), progress)
    if jobs <= 1:
        results = []
        for run in runs:
            results.append(measure(run, data, dghs))
            bar.step(run.label())
        return results
    # The slowest runs (small k) first, so the two workers finish together.
    slow_first = sorted(range(len(runs)), key=lambda i: (runs[i].k, i))
    results_by_index: dict[int, Result] = {}
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(measure, runs[i], data, dghs): i for i in slow_first}
        for future in as_completed(futures):
            i = futures[future]
            results_by_index[i] = future.result()
            bar.step(runs[i].label())
    return [results_by_index[i] for i in range(len(runs))]


def _cell(value: object) -> str:
    return "" if value is None else str(value)


def results_csv(results: list[Result]) -> str:
    """The tidy CSV: fixed columns, rows in plan order, fixed number formats."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    for r in results:
        run = r.run
        writer.writerow([run.algorithm, run.k, _cell(run.l), _cell(run.max_sup), _cell(run.seed),
                         "" if r.lm is None else f"{r.lm:.6f}",
                         "" if r.md is None else f"{r.md:.0f}", f"{r.seconds:.3f}",
                         _cell(r.classes)])
    return buffer.getvalue()


def table_md(results: list[Result], l_k: int = L_K) -> str:
    """The numbers behind the plots as Markdown tables (times are this run's)."""
    lines = ["# Experiments with the reference", ""]
    for sweep, title in (("k", "Against k"), ("l", f"Bottom-up at k = {l_k} against l")):
        lm, md, sec = (series(results, m, sweep, l_k) for m in ("LM", "MD", "seconds"))
        if not lm:
            continue
        lines += [f"## {title}", "", f"| algorithm | {sweep} | LM | MD | seconds |",
                  "|---|---:|---:|---:|---:|"]
        for name, pts in lm.items():
            for (x, lm_value), (_, md_value), (_, s) in zip(pts, md[name], sec[name]):
                lines.append(f"| {name} | {x} | {lm_value:.2f} | {md_value:.0f} | {s:.3f} |")
        lines.append("")
    return "\n".join(lines)


def _ints(text: str) -> tuple[int, ...]:
    try:
        values = tuple(int(v) for v in text.split(",") if v.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated integers, got {text!r}")
    if not values:
        raise argparse.ArgumentTypeError("expected at least one integer")
    return values


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m reference.experiments",
                                description="Run the report's sweeps with the reference and "
                                "write experiments.csv, table.md and plots.")
    p.add_argument("--out", type=Path, required=True, help="folder for the CSV and plots")
    p.add_argument("--data", default=str(KIT_ROOT / "adult-hw1.csv"), help="raw dataset CSV")
    p.add_argument("--dghs", default=str(KIT_ROOT / "DGHs"), help="hierarchy folder")
    p.add_argument("--seeds", type=int, default=5, help="random's seeds 0..N-1 (default 5)")
    p.add_argument("--k", type=_ints, default=K_VALUES, help="k values (default 4,8,...,256)")
    p.add_argument("--l", type=_ints, default=L_VALUES, help="l values (default 1,...,8)")
    p.add_argument("--l-k", type=int, default=L_K, help="k of the l sweep (default 16)")
    p.add_argument("--max-sup", type=_ints, default=MAX_SUP,
                   help="Samarati's max_sup values (default 0,100,1000)")
    p.add_argument("--rubric", type=Path, default=None,
                   help="only the anonymizers this rubric grades (default: grader/rubric.toml "
                        "when present, else all five)")
    p.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1),
                   help="worker processes (default: up to 2)")
    p.add_argument("--quiet", action="store_true", help="no progress line")
    return p


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    for what, path in (("dataset", args.data), ("hierarchy folder", args.dghs)):
        if not os.path.exists(path):
            print(f"error: {what} not found: {path}", file=sys.stderr)
            return 2
    if args.seeds < 1 or args.jobs < 1:
        print("error: --seeds and --jobs must be at least 1", file=sys.stderr)
        return 2
    rubric = args.rubric
    if rubric is None and (KIT_ROOT / "grader" / "rubric.toml").is_file():
        rubric = KIT_ROOT / "grader" / "rubric.toml"
    try:
        algorithms = enabled_algorithms(rubric)
    except (OSError, tomllib.TOMLDecodeError) as e:
        print(f"error: rubric {rubric}: {e}", file=sys.stderr)
        return 2
    runs = plan(algorithms, args.seeds, args.k, args.l, args.l_k, args.max_sup)
    started = time.monotonic()
    results = run_all(runs, args.data, args.dghs, args.jobs, not args.quiet)
    for r in results:
        if r.error:
            print(f"note: {r.run.label()}: {r.error}", file=sys.stderr)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "experiments.csv").write_text(results_csv(results), encoding="utf-8")
    (args.out / "table.md").write_text(table_md(results, args.l_k), encoding="utf-8")
    written = ["experiments.csv", "table.md"]
    if importlib.util.find_spec("matplotlib") is None:
        print(PLOTS_HINT, file=sys.stderr)
    else:
        from .experiment_plots import write_plots
        rows = len(read_table(args.data).rows)
        written += write_plots(results, args.out, args.l_k,
                               f"{Path(args.data).name}, {rows:,} rows")
    print(f"{len(runs)} runs in {time.monotonic() - started:.1f} s; wrote "
          f"{', '.join(written)} in {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
