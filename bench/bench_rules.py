"""The rule checkers (kcheck.rules, standard library only) on the USTC lab's scale.

    python bench/bench_rules.py [--rows N] [--repeat R] [--model PATH]

Table: N rows (default 30,162, the lab's) sampled (seed 20261123, inverse CDF over sorted
values, as reference/data.py does) from the Chow-Liu model ../shared/uci-adult-model.json
(beside the checkout; its root is P(age), its cpt[child][parent value] P(child | parent)),
with the lab's hierarchies (DESIGN: age [35-39] > [30-39] > [20-39] > *, sex and race flat,
marital_status in four groups) built in memory. Samarati: QIs age, sex, race,
marital_status, k = 10, max_sup = 20; the right answer is the first satisfying vector of the
lowest height. Mondrian: QIs age and education_num (and a second run with sex as a
categorical QI), k = 10; the right answer is the kit's reference (reference.mondrian).
Printed: the median CPU time (time.process_time: the machine may be shared) of R calls of
each checker on a right answer and on wrong ones, with the first message (cut at 200
characters). Nothing is asserted.
"""
from __future__ import annotations

import argparse
import bisect
import itertools
import json
import os
import random
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))

from kanon.table import write_table  # noqa: E402
from kcheck.hierarchies import parse_hierarchy, read_folder  # noqa: E402
from kcheck.rules import Release, check_mondrian, check_samarati  # noqa: E402
from kcheck.rules.lattice import Lattice  # noqa: E402
from kcheck.tables import Table, read_table  # noqa: E402
from reference.data import DEFAULT_SEED  # noqa: E402
from reference.mondrian import mondrian  # noqa: E402

MODEL = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "shared",
                     "uci-adult-model.json")
COLUMNS = {"age": "age", "education-num": "education_num", "marital-status": "marital_status",
           "occupation": "occupation", "race": "race", "sex": "sex"}
MARITAL = {"Married": ["Married-civ-spouse", "Married-AF-spouse"],
           "leave": ["Divorced", "Separated"], "alone": ["Widowed", "Married-spouse-absent"],
           "NM": ["Never-married"]}


def sample(model: dict, n: int, seed: int) -> tuple[list[str], list[list[str]]]:
    """n records of the model's columns, each attribute drawn given its parent's value."""
    def sampler(p: dict[str, float]):
        values = sorted(p)
        cumulative = list(itertools.accumulate(p[v] for v in values))
        return values, cumulative

    rng = random.Random(seed)
    tables = {model["sample_order"][0]: {None: sampler(model["root"])}}
    for child, by_parent in model["cpt"].items():
        tables[child] = {value: sampler(p) for value, p in by_parent.items()}
    rows = []
    for _ in range(n):
        record: dict[str, str] = {}
        for attribute in model["sample_order"]:
            parent = model["parent"][attribute]
            values, cumulative = tables[attribute][record[parent] if parent else None]
            at = bisect.bisect_right(cumulative, rng.random() * cumulative[-1])
            record[attribute] = values[min(at, len(values) - 1)]
        rows.append([record[c] for c in model["columns"]])
    return list(model["columns"]), rows


def hierarchies(rows: list[list[str]], header: list[str]) -> dict[str, str]:
    """Tab-indented text of each QI's hierarchy."""
    def values(name: str) -> list[str]:
        return sorted({row[header.index(name)] for row in rows}, key=lambda v: (len(v), v))

    age = ["*"]
    ages = sorted(int(v) for v in values("age"))
    for w20 in sorted({a // 20 * 20 for a in ages}):
        age.append(f"\t[{w20}-{w20 + 19}]")
        for w10 in sorted({a // 10 * 10 for a in ages if a // 20 * 20 == w20}):
            age.append(f"\t\t[{w10}-{w10 + 9}]")
            for w5 in sorted({a // 5 * 5 for a in ages if a // 10 * 10 == w10}):
                age.append(f"\t\t\t[{w5}-{w5 + 4}]")
                age += [f"\t\t\t\t{a}" for a in ages if a // 5 * 5 == w5]
    marital = ["*"] + [line for group, kids in MARITAL.items()
                       for line in [f"\t{group}", *(f"\t\t{kid}" for kid in kids)]]
    flat = {name: "\n".join(["*"] + [f"\t{v}" for v in values(name)])
            for name in ("sex", "race", "education_num")}
    return {"age": "\n".join(age), "marital_status": "\n".join(marital), **flat}


def timed(function, repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        start = time.process_time()
        result = function()
        times.append(time.process_time() - start)
    return statistics.median(times), result


def report(label: str, seconds: float, broken) -> None:
    rules = ", ".join(b.rule for b in broken) or "right"
    print(f"  {label:<44} {seconds * 1000:8.1f} ms   {rules}")
    if broken:
        print(f"      {broken[0].message[:200]}")


def bench_samarati(header, rows, texts, repeat: int) -> None:
    qis = [c for c, name in enumerate(header) if name in ("age", "sex", "race",
                                                          "marital_status")]
    dghs = [parse_hierarchy(texts[header[c]], header[c], f"{header[c]}.txt", "tabs")
            for c in qis]
    released = sorted(qis + [header.index("occupation")])
    release = Release(Table("raw.csv", header, rows), qis, dghs, released)
    k, max_sup = 10, 20
    lattice = Lattice(release, k)
    height, s = lattice.lowest_satisfying(max_sup, sum(lattice.heights) + 1)
    kept = [not o for o in lattice.outliers(s)]

    def output(vector, keep):
        cells = lattice.generalized(vector)
        out_rows = []
        for r in range(len(rows)):
            if keep[r]:
                row = [rows[r][c] for c in released]
                for j, c in enumerate(qis):
                    row[released.index(c)] = dghs[j].labels[cells[r][j]]
                out_rows.append(row)
        return Table("output", [header[c] for c in released], out_rows)

    print(f"Samarati (k = {k}, max_sup = {max_sup}): lowest height {height}, vector "
          f"{lattice.describe(s)}, {kept.count(False)} records deleted")
    right = output(s, kept)
    cases = [("right answer", right)]
    higher = next(v for v in lattice.vectors(height + 1) if lattice.satisfies(v, max_sup))
    cases.append((f"a satisfying vector of height {height + 1}",
                  output(higher, [not o for o in lattice.outliers(higher)])))
    cases.append(("outliers kept", output(s, [True] * len(kept))))
    mixed = Table("output", right.header, [r[:] for r in right.rows])
    mixed.rows[len(mixed.rows) // 2][0] = rows[0][0]
    cases.append(("one age cell at level 0", mixed))
    for label, out in cases:
        seconds, broken = timed(lambda: check_samarati(release, k, max_sup, out), repeat)
        report(label, seconds, broken)


def bench_mondrian(header, rows, texts, names: list[str], repeat: int) -> None:
    keep = [c for c, name in enumerate(header) if name in names + ["occupation"]]
    sub_header = [header[c] for c in keep]
    sub_rows = [[row[c] for c in keep] for row in rows]
    k = 10
    with tempfile.TemporaryDirectory() as folder:
        raw_file, dgh_folder = os.path.join(folder, "raw.csv"), os.path.join(folder, "DGHs")
        os.mkdir(dgh_folder)
        write_table(raw_file, sub_header, sub_rows)
        for name in names:
            with open(os.path.join(dgh_folder, f"{name}.txt"), "w", encoding="utf-8") as f:
                f.write(texts[name] + "\n")
        out_file = os.path.join(folder, "out.csv")
        mondrian(raw_file, dgh_folder, k, out_file)
        right = read_table(out_file)
        by_name = read_folder(dgh_folder, "tabs")
    qis = [c for c, name in enumerate(sub_header) if name in names]
    release = Release(Table("raw.csv", sub_header, sub_rows), qis,
                      [by_name[sub_header[c]] for c in qis], list(range(len(sub_header))))
    classes = len({tuple(r[c] for c in qis) for r in right.rows})
    print(f"Mondrian (k = {k}, QIs {', '.join(names)}): {classes} classes")
    cases = [("right answer (the reference's)", right)]
    merged = Table("output", right.header, [r[:] for r in right.rows])
    first, second = merged.rows[0][:], None
    for row in merged.rows:
        if row[qis[0]] != first[qis[0]] and second is None:
            second = row[:]
        if second is not None and [row[c] for c in qis] == [second[c] for c in qis]:
            for c in qis:
                row[c] = first[c]
    cases.append(("two classes merged (cells of one kept)", merged))
    cases.append(("the largest class split in two (cells exact)",
                  split_largest(right, sub_rows, qis, release.trees)))
    for label, out in cases:
        seconds, broken = timed(lambda: check_mondrian(release, k, out), repeat)
        report(label, seconds, broken)


def split_largest(right: Table, raw_rows: list[list[str]], qis: list[int], dghs) -> Table:
    """The right answer with its largest class whose values vary split in two (the rows with
    the smallest value of the first varying QI, and the others), each part generalized
    exactly ([min-max] of numbers, else the LCA)."""
    groups: dict[tuple, list[int]] = {}
    for r, row in enumerate(right.rows):
        groups.setdefault(tuple(row[c] for c in qis), []).append(r)
    for members in sorted(groups.values(), key=len, reverse=True):
        varying = [c for c in qis if len({raw_rows[r][c] for r in members}) > 1]
        if varying:
            break
    c = varying[0]
    smallest = min((raw_rows[r][c] for r in members), key=lambda v: (float(v), v))
    parts = ([r for r in members if raw_rows[r][c] == smallest],
             [r for r in members if raw_rows[r][c] != smallest])
    out = Table("output", right.header, [row[:] for row in right.rows])
    for part in parts:
        for c, dgh in zip(qis, dghs):
            values = {raw_rows[r][c] for r in part}
            try:
                low, high = min(values, key=float), max(values, key=float)
                cell = low if low == high else f"[{low}-{high}]"
            except ValueError:
                cell = dgh.lca(values)
            for r in part:
                out.rows[r][c] = cell
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=30162)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--model", default=MODEL)
    args = parser.parse_args(argv)
    with open(args.model, encoding="utf-8") as f:
        model = json.load(f)
    model_header, model_rows = sample(model, args.rows, DEFAULT_SEED)
    picked = [c for c, name in enumerate(model_header) if name in COLUMNS]
    header = [COLUMNS[model_header[c]] for c in picked]
    rows = [[row[c] for c in picked] for row in model_rows]
    texts = hierarchies(rows, header)
    print(f"{len(rows):,} rows; median of {args.repeat} calls")
    bench_samarati(header, rows, texts, args.repeat)
    bench_mondrian(header, rows, texts, ["age", "education_num"], args.repeat)
    bench_mondrian(header, rows, texts, ["age", "education_num", "sex"], args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
