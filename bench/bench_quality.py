"""kcheck's quality judge (kcheck.quality) on the Top-Down Greedy lab's scale.

    python bench/bench_quality.py [--repeat R] [--k K]

Data: the USTC twin of UCI Adult (courses/ustc/cases/public/adult/adult-hw1.csv, 30,162
rows) with the TDG lab's QIs (the contract in courses/tdg-lab/): age and education_num numeric
(no hierarchy), work_class, marital_status, occupation, race, sex and native_country with
';' paths hierarchies written to a temporary folder (../shared/courses/tdg-lab.md:
work_class Private / Self-employ / gov / not-work then *, marital_status the USTC lab's four
groups (reference/lab_hierarchies.py), the others every value directly under *). Output: a
valid k-anonymous release made here (rows sorted by their QIs, cut into chunks of K, the
last chunk joined to the one before, each chunk at its middle), the 8 QIs and `class`.

Printed: the median wall time (time.perf_counter) and CPU time (time.process_time: the
figure to read on a shared, loaded machine) of R runs of kcheck's prepare_raw (the raw side,
once per case), judge_prepared (one output's bytes against it) and judge_quality (both),
with the verdict and the facts, and of judge_prepared on two broken outputs; then, beside
them, the kit's exact judge of an anonymizer's output (grader.grading.compare.compare_table:
validity and k, no middles, no NCP) on the same rows written with all 15 columns, with tab
hierarchies (age and education_num flat). Nothing is asserted.
"""
from __future__ import annotations

import argparse
import csv
import io
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))

from kcheck import judge_quality, read_folder, read_table, render, render_facts  # noqa: E402
from kcheck.quality import judge_prepared, prepare_raw  # noqa: E402
from kcheck.cells import make_columns  # noqa: E402
from reference.lab_hierarchies import MARITAL_GROUPS  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "courses" / "ustc" / "cases" / "public" / "adult" / "adult-hw1.csv"
QIS = ["age", "work_class", "education_num", "marital_status", "occupation", "race", "sex",
       "native_country"]
NUMERIC = ["age", "education_num"]
RELEASED = QIS + ["class"]
WORK_CLASS = {"Private": None, "Self-employ": ("Self-emp-not-inc", "Self-emp-inc"),
              "gov": ("Federal-gov", "Local-gov", "State-gov"),
              "not-work": ("Without-pay", "Never-worked")}


def paths_texts(values: dict[str, list[str]]) -> dict[str, str]:
    """The ';' hierarchy of each categorical QI (the values seen in the data)."""
    texts = {}
    lines = []
    for group, members in WORK_CLASS.items():
        lines += [f"{group};*"] if members is None else [f"{m};{group};*" for m in members]
    texts["work_class"] = "\n".join(lines) + "\n"
    texts["marital_status"] = "".join(f"{m};{g};*\n" for g, ms in MARITAL_GROUPS.items()
                                      for m in ms)
    for column in ("occupation", "race", "sex", "native_country"):
        texts[column] = "".join(f"{v};*\n" for v in sorted(set(values[column])))
    return texts


def tabs_text(paths: str) -> str:
    """The same hierarchy in the kit's tab format (every path here has depth 1 or 2)."""
    groups: dict[str, list[str]] = {}
    for line in paths.splitlines():
        chain = line.split(";")
        groups.setdefault(chain[-2] if len(chain) == 3 else chain[0], []) \
            .extend(chain[:1] if len(chain) == 3 else [])
    return "*\n" + "".join(f"\t{g}\n" + "".join(f"\t\t{m}\n" for m in ms)
                           for g, ms in groups.items())


def release_rows(raw, trees, k: int) -> list[list[str]]:
    """A valid k-anonymous release: sorted by the QIs, chunks of k at their middles."""
    columns = make_columns(raw.header, raw.rows, trees, QIS, NUMERIC)
    at = {c: raw.header.index(c) for c in raw.header}
    order = sorted(range(len(raw.rows)), key=lambda r: tuple(
        int(raw.rows[r][at[q]]) if q in NUMERIC else raw.rows[r][at[q]] for q in QIS))
    chunks = [order[i:i + k] for i in range(0, len(order), k)]
    if len(chunks) > 1 and len(chunks[-1]) < k:
        last = chunks.pop()
        chunks[-1].extend(last)
    out = [[cell for cell in row] for row in raw.rows]
    for chunk in chunks:
        for q in QIS:
            column = columns[q]
            middle = column.text(column.middle(column.raw(raw.rows[r][at[q]]) for r in chunk))
            for r in chunk:
                out[r][at[q]] = middle
    return out


def csv_bytes(header: list[str], rows: list[list[str]]) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue().encode()


class Seconds:
    """The median wall and CPU (this process) seconds of some runs."""

    def __init__(self, wall: list[float], cpu: list[float]):
        self.wall, self.cpu = statistics.median(wall), statistics.median(cpu)

    def __format__(self, spec: str) -> str:
        return f"{self.wall:.3f} s wall, {self.cpu:.3f} s CPU"


def median_time(call, repeat: int) -> tuple[Seconds, object]:
    wall, cpu, result = [], [], None
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = call()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return Seconds(wall, cpu), result


def kit_judge(folder: Path, raw, full_rows: list[list[str]], texts: dict[str, str], k: int,
              repeat: int) -> Seconds | None:
    """The median time of grader.grading.compare.compare_table on the full-width output."""
    try:
        from grader.grading.compare import compare_table, load_case_data
    except ImportError as e:  # pragma: no cover - the bench runs in the kit
        print(f"the kit's judge is not importable here ({e})")
        return None
    case = folder / "kit"
    (case / "DGHs").mkdir(parents=True)
    (case / "adult-hw1.csv").write_bytes(DATA.read_bytes())
    for column, text in texts.items():
        (case / "DGHs" / f"{column}.txt").write_text(tabs_text(text), encoding="utf-8")
    for column in NUMERIC:
        values = sorted(set(raw.column(column)), key=int)
        (case / "DGHs" / f"{column}.txt").write_text(
            "*\n" + "".join(f"\t{v}\n" for v in values), encoding="utf-8")
    data = load_case_data(case, tuple(QIS))
    produced = csv_bytes(raw.header, full_rows)
    expected = case / "expected.csv"  # another right answer: every check runs
    expected.write_bytes(DATA.read_bytes())
    seconds, verdict = median_time(
        lambda: compare_table(produced, expected, data, "topdown_greedy", {"k": k}, False),
        repeat)
    print(f"kit compare_table:          {seconds}  ({verdict.status}: "
          f"{verdict.message[:100]})")
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--k", type=int, default=10)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    raw = read_table(DATA)
    values = {c: raw.column(c) for c in QIS}
    texts = paths_texts(values)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "hier").mkdir()
        for column, text in texts.items():
            (folder / "hier" / f"{column}.txt").write_text(text, encoding="utf-8")
        trees = read_folder(folder / "hier", "paths")
        setup = time.perf_counter() - start
        full = release_rows(raw, trees, args.k)
        at = [raw.header.index(c) for c in RELEASED]
        produced = csv_bytes(RELEASED, [[row[c] for c in at] for row in full])
        print(f"load average {os.getloadavg()[0]:.1f}")
        print(f"{len(raw.rows):,} rows, {len(QIS)} QIs ({', '.join(NUMERIC)} numeric), "
              f"k = {args.k}, {os.cpu_count()} CPUs; raw table and hierarchies read in "
              f"{setup:.3f} s")
        seconds, case = median_time(
            lambda: prepare_raw(raw, trees, qis=QIS, numeric=NUMERIC, released=RELEASED),
            args.repeat)
        print(f"kcheck prepare_raw:         {seconds}  (the raw side, once per case)")
        seconds, (verdict, facts) = median_time(
            lambda: judge_prepared(case, produced, k=args.k), args.repeat)
        print(f"kcheck judge_prepared:      {seconds}  ({render(verdict)} "
              f"{render_facts(facts.classes, facts.smallest, facts.cost)})")
        seconds, (verdict, facts) = median_time(
            lambda: judge_quality(raw, trees, produced, k=args.k, qis=QIS, numeric=NUMERIC,
                                  released=RELEASED), args.repeat)
        print(f"kcheck judge_quality:       {seconds}  (both: {render(verdict)})")
        broken = produced.replace(b"\n", b"\n[1-0],", 1)  # not a table any more: width
        seconds_bad, (bad, _) = median_time(lambda: judge_prepared(case, broken, k=args.k),
                                            args.repeat)
        print(f"kcheck on a broken output:  {seconds_bad}  ({render(bad)})")
        late = produced.rsplit(b"\n", 2)
        late = b"\n".join([late[0], late[1].replace(b",", b",x", 1), late[2]])
        seconds_bad, (bad, _) = median_time(lambda: judge_prepared(case, late, k=args.k),
                                            args.repeat)
        print(f"kcheck, a bad last cell:    {seconds_bad}  ({render(bad)})")
        kit_judge(folder, raw, full, texts, args.k, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
