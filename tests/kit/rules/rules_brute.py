"""Brute force for the rule checkers' property tests, written independently of kcheck.rules:
plain Python over parent maps. Samarati: every lattice vector's output; Mondrian: every
tree of allowable strict median cuts, from which the right answers are the final partitions.

Tables are tuples of row tuples (header left out); rows are the released columns.
"""
from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

from kcheck.hierarchies import parse_hierarchy
from kcheck.rules import Release
from kcheck.tables import Table


@dataclass
class Tree:
    """A hierarchy as a parent map (root: parent None) and its tab-indented text."""

    name: str
    parent: dict[str, str | None]
    text: str

    def depth(self, node: str) -> int:
        d = 0
        while self.parent[node] is not None:
            node, d = self.parent[node], d + 1
        return d

    def path(self, node: str) -> list[str]:
        """Root first."""
        out = [node]
        while self.parent[out[-1]] is not None:
            out.append(self.parent[out[-1]])
        return out[::-1]

    def up(self, node: str, steps: int) -> str:
        for _ in range(steps):
            if self.parent[node] is None:
                break
            node = self.parent[node]
        return node

    def height(self) -> int:
        return max(self.depth(v) for v in self.parent)

    def lca(self, nodes) -> str:
        paths = [self.path(v) for v in nodes]
        common = paths[0][0]
        for level in zip(*paths):
            if len(set(level)) > 1:
                break
            common = level[0]
        return common

    def leaves(self) -> list[str]:
        inner = {p for p in self.parent.values() if p is not None}
        return [v for v in self.parent if v not in inner]


def tree(name: str, nested) -> Tree:
    """A Tree from nested (label, [children]) pairs; a bare string is a leaf."""
    parent: dict[str, str | None] = {}
    lines: list[str] = []

    def walk(node, up, depth):
        label, kids = (node, []) if isinstance(node, str) else node
        parent[label] = up
        lines.append("\t" * depth + label)
        for kid in kids:
            walk(kid, label, depth + 1)

    walk(nested, None, 0)
    return Tree(name, parent, "\n".join(lines) + "\n")


def random_tree(rng: random.Random, name: str, leaves: list[str]) -> Tree:
    """A random (possibly unbalanced) hierarchy over the given leaves."""
    nodes = list(leaves)
    counter = 0
    while len(nodes) > 1 and rng.random() < 0.7:
        size = rng.randint(1, min(3, len(nodes)))
        picked = rng.sample(nodes, size)
        counter += 1
        group = (f"{name}G{counter}", picked)
        nodes = [v for v in nodes if v not in picked] + [group]
    return tree(name, ("*", nodes))


def release_of(trees: list[Tree], header: list[str], rows: list[list[str]],
               qi_columns: list[int], released: list[int]) -> Release:
    parsed = [parse_hierarchy(t.text, t.name, f"{t.name}.txt", "tabs") for t in trees]
    return Release(Table("raw.csv", header, rows), qi_columns, parsed, released)


def as_table(release: Release, rows) -> Table:
    return Table("output", [release.raw.header[c] for c in release.released],
                 [list(r) for r in rows])


# -- Samarati ----------------------------------------------------------------------------
def samarati_outputs(trees: list[Tree], rows: list[list[str]], qi_columns: list[int],
                     released: list[int], k: int):
    """vector -> (outlier count, output table, every record generalized, kept flags) for
    every lattice vector."""
    result = {}
    for s in itertools.product(*[range(t.height() + 1) for t in trees]):
        gen = []
        for row in rows:
            cells = list(row)
            for t, c, level in zip(trees, qi_columns, s):
                cells[c] = t.up(row[c], level)
            gen.append(cells)
        sizes: dict[tuple, int] = {}
        for g in gen:
            key = tuple(g[c] for c in qi_columns)
            sizes[key] = sizes.get(key, 0) + 1
        flags = [sizes[tuple(g[c] for c in qi_columns)] >= k for g in gen]
        every = [tuple(g[c] for c in released) for g in gen]
        table = tuple(e for e, f in zip(every, flags) if f)
        result[s] = (len(gen) - len(table), table, every, flags)
    return result


def samarati_right(outputs, max_sup: int) -> set:
    """The tables of the satisfying vectors of the lowest satisfying height."""
    good = [s for s, (outliers, *_) in outputs.items() if outliers <= max_sup]
    if not good:
        return set()
    low = min(map(sum, good))
    return {outputs[s][1] for s in good if sum(s) == low}


# -- Mondrian ----------------------------------------------------------------------------
def _cut(trees, numeric, rows, part, j, c, k):
    """The parts of partition `part` (row indices) cut on QI j (raw column c), or None."""
    if numeric[j]:
        values = sorted(float(rows[r][c]) for r in part)
        split = values[(len(values) - 1) // 2]
        left = frozenset(r for r in part if float(rows[r][c]) <= split)
        right = part - left
        return [left, right] if len(left) >= k and len(right) >= k else None
    t = trees[j]
    top = t.lca([rows[r][c] for r in part])
    groups: dict[str, set] = {}
    for r in part:
        path = t.path(rows[r][c])
        if len(path) <= len(t.path(top)):
            return None  # the value is the LCA itself
        groups.setdefault(path[len(t.path(top))], set()).add(r)
    if len(groups) < 2 or min(map(len, groups.values())) < k:
        return None
    return [frozenset(g) for g in groups.values()]


def mondrian_partitions(trees, numeric, rows, qi_columns, k) -> set:
    """Every final partition (a frozenset of frozensets of rows) of a strict Mondrian."""
    memo: dict[frozenset, set] = {}

    def run(part: frozenset) -> set:
        if part not in memo:
            found = set()
            for j, c in enumerate(qi_columns):
                parts = _cut(trees, numeric, rows, part, j, c, k)
                if parts is not None:
                    for combo in itertools.product(*[run(p) for p in parts]):
                        found.add(frozenset().union(*combo))
            memo[part] = found or {frozenset([part])}
        return memo[part]

    return run(frozenset(range(len(rows))))


def generalize(trees, numeric, rows, qi_columns, released, partition) -> tuple:
    """The table of a partition: numeric [min-max] (the value when equal), categorical LCA."""
    cells = [list(r) for r in rows]
    for group in partition:
        for j, c in enumerate(qi_columns):
            if numeric[j]:
                spelled = sorted({rows[r][c] for r in group}, key=float)
                cell = spelled[0] if len(spelled) == 1 else f"[{spelled[0]}-{spelled[-1]}]"
            else:
                cell = trees[j].lca([rows[r][c] for r in group])
            for r in group:
                cells[r][c] = cell
    return tuple(tuple(row[c] for c in released) for row in cells)


def set_partitions(items: list[int]):
    """Every partition of `items` into non-empty groups."""
    if not items:
        yield []
        return
    head, rest = items[0], items[1:]
    for smaller in set_partitions(rest):
        yield [[head]] + smaller
        for i in range(len(smaller)):
            yield smaller[:i] + [[head] + smaller[i]] + smaller[i + 1:]
