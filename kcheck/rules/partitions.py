"""The classes of a Mondrian output over the raw records, and the strict median cuts between
them (LeFevre et al. 2006, the course's rules).

A cut of a partition P on a QI is allowable as the course defines it. Numeric: split = the
element at position (|P|-1)//2 of P's sorted values, lhs = values <= split, rhs = values >
split, both sides >= k rows. Categorical: group P by the child of LCA_P on the path to each
value; every non-empty group >= k rows and no value equal to LCA_P. A cut is usable in a tree
whose leaves are the classes when it is allowable and each part is a union of whole classes.

Everything is computed per class: a partition is a tuple of class ids in increasing order;
its rows, when needed (a numeric median), are gathered from the rows kept class by class.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..hierarchies import Tree

__all__ = ["Qi", "Classes", "Part"]

Part = tuple[int, ...]


@dataclass
class Qi:
    """One QI of the raw records: its hierarchy and raw node ids, and for a numeric QI each
    record's value rank among the column's distinct values (`values`, `spellings` per
    rank)."""

    name: str
    tree: Tree
    codes: list[int]
    rank: list[int] | None = None
    values: list[float] | None = None
    spellings: list[str] | None = None

    @property
    def numeric(self) -> bool:
        return self.rank is not None


class Classes:
    """The classes (ids in order of first row) with, per QI, what cuts need: each class's
    keys (numeric: value ranks, sorted; categorical: nodes, in row order), numeric per-class
    minimum and maximum rank, categorical per-class LCA."""

    def __init__(self, qis: list[Qi], class_of_row: list[int], k: int):
        self.qis, self.k = qis, k
        self.members: list[list[int]] = []  # per class, its rows (from 0) in row order
        for r, c in enumerate(class_of_row):
            if c == len(self.members):
                self.members.append([])
            self.members[c].append(r)
        self.sizes = [len(rows) for rows in self.members]
        self.first_row = [rows[0] for rows in self.members]  # 0-based
        self.keys: list[list[list[int]]] = []  # [QI][class] -> keys
        self.low: list[list[int]] = []
        self.high: list[list[int]] = []
        self.lca: list[list[int]] = []
        for qi in qis:
            if qi.numeric:
                rank = qi.rank
                keys = [sorted(rank[r] for r in rows) for rows in self.members]
                self.low.append([key[0] for key in keys])
                self.high.append([key[-1] for key in keys])
                self.lca.append([])
            else:
                codes = qi.codes
                keys = [[codes[r] for r in rows] for rows in self.members]
                self.low.append([])
                self.high.append([])
                self.lca.append([qi.tree.lca_nodes(set(key)) for key in keys])
            self.keys.append(keys)

    def part_keys(self, part: Part, j: int) -> list[int]:
        """QI j's keys of the rows of the classes `part`, class by class."""
        keys = self.keys[j]
        return [key for c in part for key in keys[c]]

    def rows(self, part: Part) -> int:
        return sum(self.sizes[c] for c in part)

    def width(self, part: Part, j: int) -> float:
        """Normalized range of QI j over the partition (0 when it cannot be cut)."""
        qi = self.qis[j]
        if qi.numeric:
            values = qi.values
            span = values[-1] - values[0]
            low = min(self.low[j][c] for c in part)
            high = max(self.high[j][c] for c in part)
            return float((values[high] - values[low]) / span) if span else 0.0
        tree = qi.tree
        node = tree.lca_nodes(self.lca[j][c] for c in part)
        return float(tree.leaf_count[node] - 1) / max(1, tree.n_leaves - 1) if \
            tree.children[node] else 0.0

    def usable(self, part: Part, j: int) -> list[Part] | None:
        """The parts of the allowable cut of QI j that keeps every class whole, or None."""
        if self.qis[j].numeric:
            low, high = self.low[j], self.high[j]
            if min(low[c] for c in part) == max(high[c] for c in part):
                return None
            ranks = sorted(self.part_keys(part, j))
            split = ranks[(len(ranks) - 1) // 2]
            left = tuple(c for c in part if high[c] <= split)
            right = tuple(c for c in part if high[c] > split)
            if any(low[c] <= split for c in right):
                return None
            n_left = self.rows(left)
            if n_left < self.k or len(ranks) - n_left < self.k:
                return None
            return [left, right]
        tree = self.qis[j].tree
        lcas = self.lca[j]
        node = tree.lca_nodes(lcas[c] for c in part)
        if any(lcas[c] == node for c in part):
            return None
        below = tree.depth[node] + 1
        groups: dict[int, list[int]] = {}
        for c in part:
            groups.setdefault(tree.path[lcas[c]][below], []).append(c)
        if min(self.rows(g) for g in groups.values()) < self.k:
            return None
        return [tuple(groups[child]) for child in sorted(groups)]
