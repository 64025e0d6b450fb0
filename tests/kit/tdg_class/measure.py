"""Measure the Top-Down Greedy class (not a test: run it by hand).

    python tests/kit/tdg_class/measure.py [--case FOLDER] [--ks 5 10 50] [--seeds 10]
                                          [--only STUDENT ...] [--sample-only] [--no-seeds]
                                          [--time-limit SECONDS]

FOLDER holds the course's case (adult-hw1.csv and DGHs/ with the ';' hierarchies of the
categorical QIs). Without --case: courses/tdg-lab/cases/public/adult when it exists, else a
scratch case made of courses/ustc/cases/public/adult/adult-hw1.csv (the same 30,162 rows) and
stand-in ';' hierarchies written here after ../shared/courses/tdg-lab.md (work_class: Private,
Self-employ, gov, not-work, then *; marital_status: Married, leave, alone, NM, then *;
occupation, race, sex, native_country: every value of the data under *).

Runs, in this process, every student's topdown_greedy on (a) a 2,000-row sample (rows drawn
with random.Random(0), kept in file order) and (b) the whole case, for each k; checks each
output with the small checker below (released columns and rows, every cell covers its raw
value and is its class's middle, every class >= k) and prints its table NCP and run time.
Then the seed sweep: the students whose first record can be re-seeded from outside (SEED_HOOKS:
noseed_dicts and numpy_vec run the contract's 3-round algorithm, one_round its 1-round
variant) are run with seeds 0 .. N-1; it prints min / mean / max NCP, and the ratio of every
right student's NCP to the largest 3-round seeded NCP (the acceptance slack must cover it).
Last, every student's cost_NCP is called on a few anonymized files and the labels of
labels.toml are checked against what was seen (a mismatch is printed, exit status 1).
A run over the time limit is abandoned (reported as "slow").
"""
from __future__ import annotations

import argparse
import contextlib
import csv
import importlib.util
import io
import os
import random
import shutil
import signal
import statistics
import sys
import tempfile
import time
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
QIS = ["age", "work_class", "education_num", "marital_status", "occupation", "race", "sex",
       "native_country"]
SENSITIVE = "class"
GOOD_SLACK = 0.5   # label check only: "good" fails above (1 + this) x the seeded maximum

# student -> how to re-seed its random first record from outside (module, seed)
SEED_HOOKS = {
    "noseed_dicts": lambda module, seed: random.seed(seed),
    "numpy_vec": lambda module, seed: setattr(module, "SEED", seed),
    "one_round": lambda module, seed: setattr(module, "RNG", random.Random(seed)),
}
THREE_ROUNDS = ("noseed_dicts", "numpy_vec")


##############################################################################
# The case                                                                   #
##############################################################################

WORK_CLASS = {"Private": None, "Self-employ": ("Self-emp-not-inc", "Self-emp-inc"),
              "gov": ("Federal-gov", "Local-gov", "State-gov"),
              "not-work": ("Without-pay", "Never-worked")}
MARITAL = {"Married": ("Married-civ-spouse", "Married-AF-spouse"),
           "leave": ("Divorced", "Separated"), "alone": ("Widowed", "Married-spouse-absent"),
           "NM": ("Never-married",)}


def stand_in_hierarchies(data_file: Path, folder: Path) -> None:
    """The ';' hierarchies of tdg-lab.md, for a case that has none yet."""
    header, rows = read_csv(data_file)
    folder.mkdir(parents=True, exist_ok=True)
    lines = []
    for group, values in WORK_CLASS.items():
        lines += [f"{group};*"] if values is None else [f"{v};{group};*" for v in values]
    (folder / "work_class.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    lines = [f"{v};{g};*" for g, values in MARITAL.items() for v in values]
    (folder / "marital_status.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for column in ("occupation", "race", "sex", "native_country"):
        at = header.index(column)
        values = sorted({r[at] for r in rows})
        (folder / f"{column}.txt").write_text("".join(f"{v};*\n" for v in values),
                                              encoding="utf-8")


def find_case(option: str | None, scratch: Path) -> Path:
    if option:
        return Path(option).resolve()
    course = REPO / "courses" / "tdg-lab" / "cases" / "public" / "adult"
    if (course / "DGHs").is_dir():
        return course
    target = scratch / "full"
    target.mkdir()
    shutil.copy(REPO / "courses" / "ustc" / "cases" / "public" / "adult" / "adult-hw1.csv",
                target / "adult-hw1.csv")
    stand_in_hierarchies(target / "adult-hw1.csv", target / "DGHs")
    print(f"(no courses/tdg-lab case: stand-in hierarchies in {target / 'DGHs'})")
    return target


def make_sample(case: Path, target: Path, size: int = 2000) -> Path:
    target.mkdir()
    lines = (case / "adult-hw1.csv").read_text(encoding="utf-8").splitlines()
    header, body = lines[0], [line for line in lines[1:] if line.strip()]
    keep = sorted(random.Random(0).sample(range(len(body)), size))
    (target / "adult-hw1.csv").write_text("\n".join([header] + [body[i] for i in keep]) + "\n",
                                          encoding="utf-8")
    shutil.copytree(case / "DGHs", target / "DGHs")
    return target


##############################################################################
# The checker (independent of the kit and of the students)                   #
##############################################################################

def read_csv(path: Path) -> tuple[list[str], list[list[str]]]:
    with open(path, encoding="utf-8-sig", newline="") as f:
        records = [r for r in csv.reader(f) if r]
    return records[0], records[1:]


class Case:
    def __init__(self, folder: Path):
        self.folder = folder
        self.header, self.rows = read_csv(folder / "adult-hw1.csv")
        self.parent: dict[str, dict[str, str]] = {}
        self.leaves: dict[str, dict[str, int]] = {}   # column -> node -> leaves under it
        self.is_leaf: dict[str, set[str]] = {}
        self.root: dict[str, str] = {}
        for path in sorted((folder / "DGHs").glob("*.txt")):
            parent, count, leaves = {}, {}, set()
            for line in path.read_text(encoding="utf-8-sig").splitlines():
                if not line.strip():
                    continue
                nodes = [x.strip() for x in line.split(";")]
                leaves.add(nodes[0])
                for child, up in zip(nodes, nodes[1:]):
                    parent[child] = up
                for node in nodes:
                    count[node] = count.get(node, 0) + 1
                self.root[path.stem] = nodes[-1]
            self.parent[path.stem], self.leaves[path.stem] = parent, count
            self.is_leaf[path.stem] = leaves
        self.numeric = [q for q in QIS if q not in self.parent]
        self.span = {}
        for q in self.numeric:
            values = [int(r[self.header.index(q)]) for r in self.rows]
            self.span[q] = max(values) - min(values)
        self.released = [c for c in self.header if c in QIS or c == SENSITIVE]

    def path(self, column: str, node: str) -> list[str]:
        out = [node]
        while out[-1] in self.parent[column]:
            out.append(self.parent[column][out[-1]])
        return out

    def cell_ncp(self, column: str, cell: str) -> float:
        if column in self.parent:
            if cell in self.is_leaf[column]:
                return 0.0
            return self.leaves[column][cell] / self.leaves[column][self.root[column]]
        lo, hi = self.bounds(cell)
        return (hi - lo) / self.span[column] if self.span[column] else 0.0

    @staticmethod
    def bounds(cell: str) -> tuple[int, int]:
        if cell.startswith("[") and cell.endswith("]") and "-" in cell[2:-1]:
            at = cell.index("-", 2)
            lo, hi = int(cell[1:at]), int(cell[at + 1:-1])
            if lo >= hi:
                raise ValueError(f"range {cell!r} with lo >= hi")
            return lo, hi
        if str(int(cell)) != cell:
            raise ValueError(f"numeric cell {cell!r}")
        return int(cell), int(cell)

    def middle(self, members: list[list[str]]) -> list[str]:
        """The middle of some raw records, as the course writes it (QIs in QIS order)."""
        out = []
        for q in QIS:
            at = self.header.index(q)
            values = {r[at] for r in members}
            if q in self.parent:
                paths = [self.path(q, v) for v in values]
                common = set(paths[0]).intersection(*map(set, paths[1:]))
                out.append(next(n for n in paths[0] if n in common))
            else:
                numbers = [int(v) for v in values]
                lo, hi = min(numbers), max(numbers)
                out.append(str(lo) if lo == hi else f"[{lo}-{hi}]")
        return out

    def check(self, output: Path, k: int) -> tuple[list[str], float | None, int]:
        """(problems, table NCP, number of classes) of an anonymized output."""
        header, rows = read_csv(output)
        if header != self.released:
            return [f"header {header}"], None, 0
        if len(rows) != len(self.rows):
            return [f"{len(rows)} rows, raw has {len(self.rows)}"], None, 0
        problems: list[str] = []
        at = [self.header.index(c) for c in header]
        classes: dict[tuple, list[int]] = {}
        total = 0.0
        for n, (raw, row) in enumerate(zip(self.rows, rows), start=1):
            if len(row) != len(header):
                return [f"row {n}: {len(row)} cells"], None, 0
            for column, cell, i in zip(header, row, at):
                value = raw[i]
                if column == SENSITIVE:
                    if cell != value:
                        problems.append(f"row {n}: class changed")
                elif column in self.parent:
                    if cell not in self.path(column, value):
                        problems.append(f"row {n}, {column}: {cell!r} does not cover {value!r}")
                    else:
                        total += self.cell_ncp(column, cell)
                else:
                    try:
                        lo, hi = self.bounds(cell)
                    except ValueError as error:
                        problems.append(f"row {n}, {column}: {error}")
                        continue
                    if not lo <= int(value) <= hi:
                        problems.append(f"row {n}, {column}: {cell!r} does not cover {value!r}")
                    total += self.cell_ncp(column, cell)
            if len(problems) > 5:
                return problems, None, 0
            key = tuple(c for c, name in zip(row, header) if name in QIS)
            classes.setdefault(key, []).append(n - 1)
        if problems:
            return problems, None, len(classes)
        order = [header.index(q) for q in QIS]
        for key, members in classes.items():
            middle = self.middle([self.rows[i] for i in members])
            written = [rows[members[0]][j] for j in order]
            if middle != written:
                problems.append(f"class {written} is not its middle {middle}")
                break
        small = [len(m) for m in classes.values() if len(m) < k]
        if small:
            problems.append(f"{len(small)} classes < k={k} (smallest {min(small)})")
        return problems, total, len(classes)

    def ncp_of(self, output: Path) -> float:
        header, rows = read_csv(output)
        return sum(self.cell_ncp(c, cell) for row in rows for c, cell in zip(header, row)
                   if c in QIS)


##############################################################################
# Running students in this process                                           #
##############################################################################

class TooSlow(Exception):
    pass


def _alarm(signum, frame):
    raise TooSlow


def load(student: Path):
    before = set(sys.modules)
    sys.path.insert(0, str(student))
    try:
        spec = importlib.util.spec_from_file_location(f"tdg_student_{student.name}",
                                                      student / "skeleton.py")
        module = importlib.util.module_from_spec(spec)
        with contextlib.redirect_stdout(io.StringIO()):
            spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(student))
        for name in set(sys.modules) - before:   # the student's helper modules
            where = getattr(sys.modules[name], "__file__", None) or ""
            if where.startswith(str(student)):
                del sys.modules[name]
    return module


def call(function, args, time_limit: float) -> tuple[str, float, str]:
    """(status, seconds, error): status ok, not-implemented, error or slow."""
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, time_limit)
    start = time.perf_counter()
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            result = function(*args)
        status, error = "ok", result
    except NotImplementedError:
        status, error = "not-implemented", ""
    except TooSlow:
        status, error = "slow", ""
    except Exception as e:  # noqa: BLE001
        status, error = "error", f"{type(e).__name__}: {e}"[:200]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return status, time.perf_counter() - start, error


def run_topdown(module, case: Case, k: int, scratch: Path, time_limit: float) -> dict:
    out = scratch / f"out-{os.getpid()}-{time.monotonic_ns()}.csv"
    status, seconds, error = call(module.topdown_greedy,
                                  (str(case.folder / "adult-hw1.csv"),
                                   str(case.folder / "DGHs"), k, str(out)), time_limit)
    found = {"status": status, "seconds": seconds, "error": error if status == "error" else ""}
    if status == "ok":
        if not out.is_file():
            found.update(status="error", error="no output file")
        else:
            problems, ncp, classes = case.check(out, k)
            found.update(problems=problems, ncp=ncp, classes=classes, output=out)
    return found


##############################################################################
# Main                                                                       #
##############################################################################

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--case")
    parser.add_argument("--ks", type=int, nargs="*", default=[5, 10, 50])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--sample-only", action="store_true")
    parser.add_argument("--no-seeds", action="store_true")
    parser.add_argument("--time-limit", type=float, default=300.0)
    options = parser.parse_args(argv)

    labels = tomllib.loads((HERE / "labels.toml").read_text(encoding="utf-8"))
    students = sorted(p for p in HERE.iterdir()
                      if p.is_dir() and (p / "skeleton.py").is_file())
    if options.only:
        students = [p for p in students if p.name in options.only]
    scratch = Path(tempfile.mkdtemp(prefix="tdg-class-"))
    try:
        full = find_case(options.case, scratch)
        datasets = [("2k", Case(make_sample(full, scratch / "sample")))]
        if not options.sample_only:
            datasets.append(("full", Case(full)))
        modules = {s.name: load(s) for s in students}
        seen: dict[tuple, dict] = {}
        slow: set[str] = set()

        print("== topdown_greedy: problems, table NCP, classes, seconds")
        for data_name, case in datasets:
            for student in students:
                for k in options.ks:
                    if data_name == "full" and student.name in slow:
                        continue
                    found = run_topdown(modules[student.name], case, k, scratch,
                                        options.time_limit)
                    found["data"] = (data_name, k)
                    seen[(student.name, data_name, k)] = found
                    if found["status"] == "slow":
                        slow.add(student.name)
                    text = (f"{found['status']} {found['error']}" if found["status"] != "ok"
                            else f"{'; '.join(found['problems']) or 'valid, k-anonymous'}"
                                 f"  NCP {found['ncp'] if found['ncp'] is None else round(found['ncp'], 2)}"
                                 f"  classes {found['classes']}")
                    print(f"{data_name:<4} {student.name:<15} k={k:<3} {found['seconds']:7.1f}s  "
                          f"{text}", flush=True)

        sweep: dict[tuple, list[float]] = {}
        if not options.no_seeds:
            print(f"\n== seed sweep (seeds 0..{options.seeds - 1}): min / mean / max NCP")
            for data_name, case in datasets:
                for name, hook in SEED_HOOKS.items():
                    if name not in modules or (data_name == "full" and name in slow):
                        continue
                    for k in options.ks:
                        values = []
                        for seed in range(options.seeds):
                            hook(modules[name], seed)
                            found = run_topdown(modules[name], case, k, scratch,
                                                options.time_limit)
                            if found["status"] != "ok" or found["problems"]:
                                print(f"  {data_name} {name} k={k} seed {seed}: "
                                      f"{found['status']} {found.get('problems')}")
                                continue
                            values.append(found["ncp"])
                        sweep[(name, data_name, k)] = values
                        if values:
                            print(f"{data_name:<4} {name:<15} k={k:<3} {min(values):10.2f} "
                                  f"{statistics.mean(values):10.2f} {max(values):10.2f}",
                                  flush=True)
            print("\n== ratios NCP(right student) / max NCP(3-round seeded runs)")
            worst = (0.0, "")
            for data_name, _ in datasets:
                for k in options.ks:
                    base = [v for n in THREE_ROUNDS for v in sweep.get((n, data_name, k), [])]
                    if not base:
                        continue
                    top = max(base)
                    runs = [(s.name, seen[(s.name, data_name, k)]["ncp"]) for s in students
                            if labels.get(s.name, {}).get("right")
                            and (s.name, data_name, k) in seen
                            and seen[(s.name, data_name, k)].get("ncp") is not None]
                    runs += [(f"{n} (seeds)", max(v)) for (n, d, kk), v in sweep.items()
                             if d == data_name and kk == k and v and n not in THREE_ROUNDS]
                    for name, value in runs:
                        ratio = value / top
                        worst = max(worst, (ratio, f"{name}, {data_name}, k={k}"))
                    text = "  ".join(f"{n} {v / top:.3f}" for n, v in runs)
                    print(f"{data_name:<4} k={k:<3} max {top:10.2f}  {text}")
            print(f"largest ratio: {worst[0]:.4f} ({worst[1]})")
            print("\n== the same against ONE 3-round student's seeds (as a judge with 10 seeds of "
                  "one program would see them): largest NCP of any other right run / its max")
            worst = (0.0, "")
            for data_name, _ in datasets:
                for k in options.ks:
                    for judge in THREE_ROUNDS:
                        base = sweep.get((judge, data_name, k))
                        if not base:
                            continue
                        others = [(f"{n} (seeds)", max(v)) for (n, d, kk), v in sweep.items()
                                  if d == data_name and kk == k and v and n != judge]
                        others += [(s.name, seen[(s.name, data_name, k)]["ncp"]) for s in students
                                   if labels.get(s.name, {}).get("right") and s.name != judge
                                   and seen.get((s.name, data_name, k), {}).get("ncp") is not None]
                        if not others:
                            continue
                        name, value = max(others, key=lambda o: o[1])
                        worst = max(worst, (value / max(base), f"{name} vs {judge}, {data_name}, k={k}"))
                        print(f"{data_name:<4} k={k:<3} {judge:<13} max {max(base):10.2f}  "
                              f"worst {name} {value / max(base):.4f}")
            print(f"largest ratio: {worst[0]:.4f} ({worst[1]})")
            print("\n== margin of the students labelled good-breaking: NCP / max 3-round seeded NCP")
            for data_name, _ in datasets:
                for k in options.ks:
                    base = [v for n in THREE_ROUNDS for v in sweep.get((n, data_name, k), [])]
                    for s in students:
                        found = seen.get((s.name, data_name, k), {})
                        if base and labels.get(s.name, {}).get("topdown_greedy") == "good" \
                                and found.get("ncp") is not None:
                            print(f"{data_name:<4} k={k:<3} {s.name} {found['ncp'] / max(base):.3f}")

        print("\n== cost_NCP")
        case = datasets[0][1]
        files = cost_files(case, seen, scratch, options.ks)
        cost_seen = {}
        for student in students:
            cost_seen[student.name] = check_cost(modules[student.name], case, files)
            print(f"{student.name:<15} {cost_seen[student.name][0]:<16} {cost_seen[student.name][1]}")

        print("\n== labels")
        bad = 0
        for student in students:
            label = labels.get(student.name, {})
            runs = [f for (n, _, _), f in seen.items() if n == student.name]
            topdown = topdown_outcome(runs, good_bases(seen, sweep, labels))
            cost = cost_seen[student.name][0]
            ok = label.get("topdown_greedy") == topdown and label.get("cost_NCP") == cost
            bad += not ok
            print(f"{student.name:<15} topdown_greedy {label.get('topdown_greedy')}/{topdown}  "
                  f"cost_NCP {label.get('cost_NCP')}/{cost}  {'ok' if ok else 'MISMATCH'}")
        print(f"{len(students)} students, {bad} label(s) not holding")
        return 1 if bad else 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def good_bases(seen: dict, sweep: dict, labels: dict) -> dict:
    """(data, k) -> the NCP "good" is judged against: the largest 3-round seeded NCP, or
    without a seed sweep the largest NCP of the students labelled right."""
    bases: dict[tuple, float] = {}
    for (name, data_name, k), values in sweep.items():
        if name in THREE_ROUNDS and values:
            bases[(data_name, k)] = max(bases.get((data_name, k), 0.0), max(values))
    if not bases:
        for (name, data_name, k), found in seen.items():
            if labels.get(name, {}).get("right") and found.get("ncp") is not None:
                bases[(data_name, k)] = max(bases.get((data_name, k), 0.0), found["ncp"])
    return bases


def topdown_outcome(runs: list[dict], bases: dict) -> str:
    """right, not-implemented, error, or the acceptance criteria broken (valid, k-anonymous,
    good) on some run; good: at most (1 + GOOD_SLACK) x the base NCP of good_bases."""
    statuses = {r["status"] for r in runs}
    if statuses == {"not-implemented"}:
        return "not-implemented"
    if "error" in statuses:
        return "error"
    if "slow" in statuses:
        return "slow"
    broken = set()
    for r in runs:
        for problem in r.get("problems", []):
            broken.add("k-anonymous" if "classes < k" in problem else "valid")
        base = bases.get(r["data"])
        if not r.get("problems") and r.get("ncp") is not None and base \
                and r["ncp"] > base * (1 + GOOD_SLACK):
            broken.add("good")
    return ",".join(sorted(broken)) or "right"


def cost_files(case: Case, seen: dict, scratch: Path, ks) -> list[tuple[Path, float | None]]:
    """Anonymized files of the sample for cost_NCP: (file, table NCP or None = must raise)."""
    files = []
    for (name, data_name, k), found in sorted(seen.items()):
        if data_name == "2k" and found.get("ncp") is not None and not found["problems"]:
            files.append((found["output"], found["ncp"]))
            if len(files) == 2:
                break
    raw = scratch / "raw-released.csv"   # the raw QIs released as they are: NCP 0
    at = [case.header.index(c) for c in case.released]
    with open(raw, "w", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(
            [case.released] + [[r[i] for i in at] for r in case.rows])
    files.append((raw, 0.0))
    every = scratch / "all-columns.csv"   # every raw column, two QIs generalized
    rows = [list(r) for r in case.rows]
    ages = [int(r[case.header.index("age")]) for r in rows]
    for r in rows[::3]:
        r[case.header.index("age")] = f"[{min(ages)}-{max(ages)}]"
        r[case.header.index("marital_status")] = case.root["marital_status"]
    with open(every, "w", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows([case.header] + rows)
    files.append((every, case.ncp_of(every)))
    wrong = scratch / "not-covering.csv"   # a cell that does not cover its raw value
    header, rows = read_csv(raw)
    rows[7][header.index("sex")] = "Male" if rows[7][header.index("sex")] == "Female" else "Female"
    with open(wrong, "w", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows([header] + rows)
    files.append((wrong, None))
    short = scratch / "one-row-short.csv"   # a record missing
    header, rows = read_csv(raw)
    with open(short, "w", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows([header] + rows[:-1])
    files.append((short, None))
    return files


def check_cost(module, case: Case, files) -> tuple[str, str]:
    """(outcome, detail): right, value (a wrong NCP), raises (no ValueError), error,
    not-implemented."""
    details = []
    for path, expected in files:
        status, _, value = call(module.cost_NCP, (str(case.folder / "adult-hw1.csv"), str(path),
                                                  str(case.folder / "DGHs")), 120)
        if status == "not-implemented":
            return "not-implemented", ""
        if expected is None:
            if not (status == "error" and value.startswith("ValueError")):
                return "raises", f"{path.name}: {status} {value}"
            continue
        if status != "ok":
            return "error", f"{path.name}: {value}"
        if abs(float(value) - expected) > 1e-6 * max(1.0, abs(expected)):
            return "value", f"{path.name}: {float(value):.4f}, checker {expected:.4f}"
        details.append(f"{path.name} {expected:.2f}")
    return "right", ", ".join(details)


if __name__ == "__main__":
    sys.exit(main())
