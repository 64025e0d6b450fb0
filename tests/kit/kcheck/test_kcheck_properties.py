"""kcheck.quality on random small tables: an output that generalizes every part of a random
partition (of parts of at least k records) to its middle always passes, with the NCP and the
classes a brute force computes; changing one cell always fails with the rule it breaks, at
its row and column. The expected middles and costs are computed here from the generated
parent maps, independently of kcheck's trees."""
from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from kcheck import judge_quality, parse_hierarchy, render
from kcheck.tables import Table

SEEDS = range(150)
QIS = ["num", "cat", "num2", "cat2"]
NUMERIC = ["num", "num2"]
RELEASED = ["num", "cat", "s", "num2", "cat2"]
HEADER = ["id", "num", "cat", "s", "num2", "cat2"]


@dataclass
class Hierarchy:
    parent: dict[str, str]  # child -> parent; the root is "*"
    leaves: list[str]

    def ancestors(self, label: str) -> list[str]:
        """label itself, then its ancestors up to the root."""
        chain = [label]
        while chain[-1] in self.parent:
            chain.append(self.parent[chain[-1]])
        return chain

    def lca(self, labels: set[str]) -> str:
        common = set.intersection(*(set(self.ancestors(x)) for x in labels))
        return max(common, key=lambda x: len(self.ancestors(x)))

    def leaves_under(self, label: str) -> int:
        return sum(label in self.ancestors(leaf) for leaf in self.leaves)

    def ncp(self, label: str) -> float:
        if label in self.leaves:
            return 0.0
        return self.leaves_under(label) / len(self.leaves)

    def paths(self) -> str:
        return "".join(";".join(self.ancestors(leaf)) + "\n" for leaf in self.leaves)


def random_hierarchy(rng: random.Random, tag: str) -> Hierarchy:
    parent: dict[str, str] = {}
    leaves: list[str] = []
    counter = iter(range(10, 1000))

    def grow(node: str, depth: int) -> None:
        for _ in range(rng.randint(1, 3)):
            if depth < 3 and rng.random() < 0.5:
                child = f"{tag}N{next(counter)}"
                parent[child] = node
                grow(child, depth + 1)
            else:
                child = f"{tag}L{next(counter)}"
                parent[child] = node
                leaves.append(child)

    grow("*", 0)
    if not leaves:  # pragma: no cover - grow always makes a leaf at depth 3
        raise AssertionError
    return Hierarchy(parent, leaves)


@dataclass
class Case:
    raw: Table
    trees: dict[str, Hierarchy]
    k: int
    parts: list[list[int]]
    out: list[list[str]]

    def raw_value(self, row: int, column: str) -> str:
        return self.raw.rows[row][HEADER.index(column)]

    def middle(self, rows: list[int], column: str) -> str:
        values = {self.raw_value(r, column) for r in rows}
        if column in NUMERIC:
            lo, hi = min(map(int, values)), max(map(int, values))
            return str(lo) if lo == hi else f"[{lo}-{hi}]"
        return self.trees[column].lca(values)

    def ncp(self) -> float:
        total = 0.0
        for row in self.out:
            for j, column in enumerate(QIS):
                cell = row[RELEASED.index(column)]
                if column in NUMERIC:
                    values = [int(self.raw_value(r, column)) for r in range(len(self.out))]
                    span = max(values) - min(values)
                    if cell.startswith("[") and span:
                        lo, hi = map(int, cell[1:-1].split("-"))
                        total += (hi - lo) / span
                else:
                    total += self.trees[column].ncp(cell)
        return total

    def classes(self) -> dict[tuple[str, ...], list[int]]:
        found: dict[tuple[str, ...], list[int]] = {}
        for i, row in enumerate(self.out):
            found.setdefault(tuple(row[RELEASED.index(q)] for q in QIS), []).append(i)
        return found

    def judge(self, out: list[list[str]] | None = None, k: int | None = None):
        table = Table("output", RELEASED, out if out is not None else self.out)
        trees = {c: parse_hierarchy(h.paths(), c, f"{c}.txt") for c, h in self.trees.items()}
        return judge_quality(self.raw, trees, table, k=k or self.k, qis=QIS, numeric=NUMERIC,
                             released=RELEASED)


def random_case(seed: int) -> Case:
    rng = random.Random(seed)
    trees = {"cat": random_hierarchy(rng, "A"), "cat2": random_hierarchy(rng, "B")}
    n = rng.randint(1, 18)
    rows = [[f"id{i}", str(rng.randint(100, 100 + rng.choice((0, 3, 40)))),
             rng.choice(trees["cat"].leaves), rng.choice(("yes", "no", "maybe")),
             str(rng.randint(1000, 1002)), rng.choice(trees["cat2"].leaves)] for i in range(n)]
    raw = Table("raw.csv", HEADER, rows)
    k = rng.randint(1, min(n, 4))
    order = list(range(n))
    rng.shuffle(order)
    parts = []
    while len(order) >= 2 * k:
        size = rng.randint(k, len(order) - k)
        parts.append(sorted(order[:size]))
        order = order[size:]
    parts.append(sorted(order))
    case = Case(raw, trees, k, parts, [])
    out = [[] for _ in range(n)]
    for part in parts:
        cells = {q: case.middle(part, q) for q in QIS}
        for r in part:
            out[r] = [cells[c] if c in cells else case.raw_value(r, c) for c in RELEASED]
    case.out = out
    return case


@pytest.mark.parametrize("seed", SEEDS)
def test_a_partition_at_its_middles_passes(seed: int) -> None:
    case = random_case(seed)
    verdict, facts = case.judge()
    assert verdict.ok, render(verdict)
    classes = case.classes()
    assert facts.classes == len(classes)
    assert facts.smallest == min(map(len, classes.values()))
    assert facts.cost == pytest.approx(case.ncp(), rel=1e-12, abs=1e-12)


def _changed(case: Case, row: int, column: str, cell: str) -> list[list[str]]:
    out = [list(r) for r in case.out]
    out[row][RELEASED.index(column)] = cell
    return out


@pytest.mark.parametrize("seed", SEEDS)
def test_one_changed_cell_fails_with_its_rule(seed: int) -> None:
    case = random_case(seed)
    rng = random.Random(seed + 10_000)
    n = len(case.out)
    row, column = rng.randrange(n), rng.choice(QIS)
    raw = case.raw_value(row, column)

    # not a cell of the column
    bad = "x" + raw if column in NUMERIC else "Zz" + raw
    verdict = case.judge(_changed(case, row, column, bad)).verdict
    assert (verdict.rule, verdict.row, verdict.column) == ("quality.cell", row + 1, column)
    assert verdict.detail == ("number" if column in NUMERIC else "label")
    if column in NUMERIC:
        verdict = case.judge(_changed(case, row, column, f"[{raw}-{int(raw) - 1}]")).verdict
        assert (verdict.rule, verdict.row, verdict.detail) == ("quality.cell", row + 1, "range")

    # a cell that does not cover the raw value
    if column in NUMERIC:
        away = f"[{int(raw) + 1}-{int(raw) + rng.randint(2, 9)}]"
    else:
        tree = case.trees[column]
        others = [x for x in list(tree.parent) if x not in tree.ancestors(raw)]
        away = rng.choice(others) if others else None
    if away is not None:
        verdict = case.judge(_changed(case, row, column, away)).verdict
        assert (verdict.rule, verdict.row, verdict.column) == ("quality.cover", row + 1, column)

    # a released column that is not a QI, changed
    verdict = case.judge(_changed(case, row, "s", case.raw_value(row, "s") + "!")).verdict
    assert (verdict.rule, verdict.row, verdict.column) == ("quality.copy", row + 1, "s")

    # a cell more general than its class's middle, in a class of its own
    cell = case.out[row][RELEASED.index(column)]
    if column in NUMERIC:
        hi = cell[1:-1].split("-")[1] if cell.startswith("[") else cell
        wider = f"[{int(raw) - 500}-{hi}]"
    else:
        up = case.trees[column].ancestors(cell)[1:]
        wider = rng.choice(up) if up else None
    if wider is not None:
        out = _changed(case, row, column, wider)
        keys = [tuple(r[RELEASED.index(q)] for q in QIS) for r in out]
        if keys.count(keys[row]) == 1:
            verdict = case.judge(out).verdict
            part = next(p for p in case.parts if row in p)
            rest = [r for r in part if r != row]
            allowed = {row + 1} | ({min(rest) + 1} if rest else set())
            assert verdict.rule == "quality.middle" and verdict.row in allowed, render(verdict)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_class_smaller_than_k_fails_at_its_first_row(seed: int) -> None:
    case = random_case(seed)
    classes = case.classes()
    k = min(map(len, classes.values())) + 1
    verdict, facts = case.judge(k=k)
    first = min(rows[0] for rows in classes.values() if len(rows) < k)
    assert (verdict.rule, verdict.row, verdict.column) == ("quality.k", first + 1, None)
    assert verdict.params == {"size": k - 1, "k": k} and facts.smallest == k - 1
