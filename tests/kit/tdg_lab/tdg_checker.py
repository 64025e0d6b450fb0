"""An independent reading of courses/tdg-lab/CONTRACT.md for the tests, written without the
reference's tricks: hierarchies as parent maps, middles as min/max and the LCA of ancestor
chains, NCP in exact fractions, and a plain Top-Down Greedy (lists, fractions, the same use of
the random stream: depth first, u's group first, u = P[rng.randrange(len(P))])."""
from __future__ import annotations

import csv
import importlib.util
import random
import re
from fractions import Fraction
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
COURSE = REPO / "courses" / "tdg-lab"
QIS = ("age", "work_class", "education_num", "marital_status", "occupation", "race", "sex",
       "native_country")
RANGE = re.compile(r"\[(-?\d+)-(-?\d+)\]")


def load_reference():
    """courses/tdg-lab/reference/tdg.py as a module (its folder is no package)."""
    spec = importlib.util.spec_from_file_location("tdg_lab_reference",
                                                  COURSE / "reference" / "tdg.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def read_csv(path) -> tuple[list[str], list[list[str]]]:
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def write_csv(path, header, rows) -> None:
    with open(path, "w", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows([header, *rows])


class Tree:
    """A ';' hierarchy as a parent map."""

    def __init__(self, path):
        self.parent: dict[str, str | None] = {}
        self.leaves: set[str] = set()
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            labels = [x.strip() for x in line.split(";")]
            self.leaves.add(labels[0])
            for child, up in zip(labels, labels[1:] + [None]):
                self.parent[child] = up

    def chain(self, label: str) -> list[str]:
        """label, its parent, ..., the root."""
        out = [label]
        while self.parent[out[-1]] is not None:
            out.append(self.parent[out[-1]])
        return out

    def under(self, node: str) -> int:
        return sum(node in self.chain(leaf) for leaf in self.leaves)

    def lca(self, labels) -> str:
        chains = [self.chain(label) for label in labels]
        common = set.intersection(*(set(c) for c in chains))
        return next(node for node in chains[0] if node in common)

    def ncp(self, node: str) -> Fraction:
        return Fraction(0) if node in self.leaves else Fraction(self.under(node), len(self.leaves))


class Problem:
    """The raw table read plainly: QI names in file order, trees (None: numeric), spans."""

    def __init__(self, raw, dghs):
        self.header, self.rows = read_csv(raw)
        self.qis = [c for c in self.header if c in QIS]
        self.trees = {q: Tree(Path(dghs) / f"{q}.txt") if (Path(dghs) / f"{q}.txt").is_file()
                      else None for q in self.qis}
        self.at = {c: i for i, c in enumerate(self.header)}
        self.span = {}
        for q in self.qis:
            if self.trees[q] is None:
                values = [int(r[self.at[q]]) for r in self.rows]
                self.span[q] = max(values) - min(values)

    def raw(self, r: int, q: str) -> str:
        return self.rows[r][self.at[q]]

    def middle(self, records) -> dict[str, str]:
        cells = {}
        for q in self.qis:
            raws = [self.raw(r, q) for r in records]
            if self.trees[q] is None:
                lo, hi = min(map(int, raws)), max(map(int, raws))
                cells[q] = str(lo) if lo == hi else f"[{lo}-{hi}]"
            else:
                cells[q] = self.trees[q].lca(raws)
        return cells

    def cell_ncp(self, q: str, cell: str) -> Fraction:
        if self.trees[q] is not None:
            return self.trees[q].ncp(cell)
        found = RANGE.fullmatch(cell)
        if not found or not self.span[q]:
            return Fraction(0)
        return Fraction(int(found[2]) - int(found[1]), self.span[q])

    def covers(self, q: str, cell: str, raw: str) -> bool:
        if self.trees[q] is not None:
            return cell in self.trees[q].chain(raw)
        found = RANGE.fullmatch(cell)
        return int(found[1]) <= int(raw) <= int(found[2]) if found else cell == raw

    def ncp(self, records) -> Fraction:
        cells = self.middle(records)
        return sum((self.cell_ncp(q, c) for q, c in cells.items()), Fraction(0))

    def table_ncp(self, anonymized_rows, header) -> Fraction:
        at = {c: i for i, c in enumerate(header)}
        return sum((self.cell_ncp(q, row[at[q]]) for row in anonymized_rows for q in self.qis),
                   Fraction(0))


def naive_partitions(problem: Problem, k: int, seed=None, rounds: int = 3,
                     first: int | None = None) -> list[list[int]]:
    """The contract's algorithm, plainly, in exact fractions."""
    rng = random.Random(seed)
    final, stack = [], [(list(range(len(problem.rows))), first)]
    dist = {}

    def d(a, b):
        key = (min(a, b), max(a, b))
        if key not in dist:
            dist[key] = problem.ncp([a, b])
        return dist[key]

    while stack:
        part, u = stack.pop()
        if len(part) < 2 * k:
            final.append(part)
            continue
        u = part[rng.randrange(len(part))] if u is None else u
        for round_ in range(rounds):
            far = max(d(u, r) for r in part if r != u)
            v = next(r for r in part if r != u and d(u, r) == far)
            if round_ < rounds - 1:
                u = v
        gu = [r for r in part if r != v and (r == u or d(u, r) <= d(v, r))]
        gv = [r for r in part if r not in gu]
        groups = [gu, gv]
        short = [i for i in (0, 1) if len(groups[i]) < k]
        if short:
            small, large = groups[short[0]], groups[1 - short[0]]
            near = sorted(large, key=lambda r: (problem.ncp(small + [r]), r))[:k - len(small)]
            grown, rest = sorted(small + near), [r for r in large if r not in near]
            one = len(grown) * problem.ncp(grown) + len(rest) * problem.ncp(rest)
            if one > len(part) * problem.ncp(part):
                final.append(part)
                continue
            groups = [grown, rest] if short[0] == 0 else [rest, grown]
        stack.append((groups[1], None))
        stack.append((groups[0], None))
    return sorted(final)


def check_output(problem: Problem, out_path, k: int) -> Fraction:
    """Assert the contract's (a) and (b) on an output file; return its NCP, exactly."""
    header, rows = read_csv(out_path)
    released = [c for c in problem.header if c in QIS or c == "class"]
    assert header == released, header
    assert len(rows) == len(problem.rows)
    at = {c: i for i, c in enumerate(header)}
    classes: dict[tuple, list[int]] = {}
    for r, row in enumerate(rows):
        assert row[at["class"]] == problem.raw(r, "class"), r
        for q in problem.qis:
            assert problem.covers(q, row[at[q]], problem.raw(r, q)), (r, q, row[at[q]])
        classes.setdefault(tuple(row[at[q]] for q in problem.qis), []).append(r)
    for cells, members in classes.items():
        assert len(members) >= k, (cells, members)
        assert tuple(problem.middle(members).values()) == cells, (cells, members)
    return problem.table_ncp(rows, header)
