"""The classes of a Mondrian output over the raw records, and the strict median cuts between
them (LeFevre et al. 2006, the course's rules).

A cut of a partition P on a QI is allowable as the course defines it. Numeric: split = the
element at position (|P|-1)//2 of P's sorted values, lhs = values <= split, rhs = values >
split, both sides >= k rows. Categorical: group P by the child of LCA_P on the path to each
value; every non-empty group >= k rows and no value equal to LCA_P. A cut is usable in a tree
whose leaves are the classes when it is allowable and each part is a union of whole classes.

Everything is computed per class: a partition is a sorted array of class ids; its rows, when
needed (a numeric median), are gathered from the rows grouped class by class.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..hierarchy import DGH

__all__ = ["Qi", "Classes"]


@dataclass
class Qi:
    """One QI of the raw records: its hierarchy and raw node ids, and for a numeric QI each
    record's value rank among the column's distinct values (`values`, `spellings` per
    rank)."""

    name: str
    dgh: DGH
    codes: np.ndarray
    rank: np.ndarray | None = None
    values: np.ndarray | None = None
    spellings: list[str] | None = None

    @property
    def numeric(self) -> bool:
        return self.rank is not None


class Classes:
    """The classes (ids in order of first row) with, per QI, what cuts need: numeric
    per-class minimum and maximum rank, categorical per-class LCA."""

    def __init__(self, qis: list[Qi], class_of_row: np.ndarray, k: int):
        self.qis, self.k = qis, k
        self.sizes = np.bincount(class_of_row).astype(np.int64)
        self.order = np.argsort(class_of_row, kind="stable")  # rows grouped by class
        self.starts = np.concatenate(([0], np.cumsum(self.sizes)[:-1])).astype(np.int64)
        self.first_row = self.order[self.starts]  # 0-based
        self.low: list[np.ndarray | None] = []
        self.high: list[np.ndarray | None] = []
        self.lca: list[np.ndarray | None] = []
        self.grouped: list[np.ndarray] = []  # per QI: rank (numeric) or node, class by class
        for qi in qis:
            key = (qi.rank if qi.numeric else qi.codes)[self.order]
            self.grouped.append(key)
            if qi.numeric:
                self.low.append(np.minimum.reduceat(key, self.starts))
                self.high.append(np.maximum.reduceat(key, self.starts))
                self.lca.append(None)
            else:
                self.low.append(None)
                self.high.append(None)
                self.lca.append(self._class_lca(qi.dgh, key))

    def _class_lca(self, dgh: DGH, nodes: np.ndarray) -> np.ndarray:
        paths = dgh.ancestors[nodes]  # (n, h + 1), -1 below a node
        low = np.minimum.reduceat(paths, self.starts, axis=0)
        high = np.maximum.reduceat(paths, self.starts, axis=0)
        depth = ((low == high) & (low >= 0)).sum(axis=1) - 1
        return low[np.arange(len(self.starts)), depth]

    def rows_of(self, part: np.ndarray) -> np.ndarray:
        """Positions (in `order`) of the rows of the classes `part`."""
        sizes = self.sizes[part]
        total = int(sizes.sum())
        shift = self.starts[part] - (np.cumsum(sizes) - sizes)
        return np.repeat(shift, sizes) + np.arange(total)

    def width(self, part: np.ndarray, j: int) -> float:
        """Normalized range of QI j over the partition (0 when it cannot be cut)."""
        qi = self.qis[j]
        if qi.numeric:
            span = qi.values[-1] - qi.values[0]
            low, high = self.low[j][part].min(), self.high[j][part].max()
            return float((qi.values[high] - qi.values[low]) / span) if span else 0.0
        dgh = qi.dgh
        node = dgh.lca(self.lca[j][part])
        return float(dgh.leaf_count[node] - 1) / max(1, dgh.n_leaves - 1) if \
            dgh.children[node] else 0.0

    def usable(self, part: np.ndarray, j: int) -> list[np.ndarray] | None:
        """The parts of the allowable cut of QI j that keeps every class whole, or None."""
        sizes = self.sizes[part]
        total = int(sizes.sum())
        if self.qis[j].numeric:
            low, high = self.low[j][part], self.high[j][part]
            if low.min() == high.max():
                return None
            ranks = self.grouped[j][self.rows_of(part)]
            middle = (total - 1) // 2
            split = np.partition(ranks, middle)[middle]
            left = high <= split
            if (low[~left] <= split).any():
                return None
            n_left = int(sizes[left].sum())
            if n_left < self.k or total - n_left < self.k:
                return None
            return [part[left], part[~left]]
        dgh = self.qis[j].dgh
        lcas = self.lca[j][part]
        node = dgh.lca(lcas)
        if (lcas == node).any():
            return None
        child = dgh.ancestors[lcas, dgh.depth[node] + 1]
        groups, inverse = np.unique(child, return_inverse=True)
        inverse = inverse.reshape(-1)
        if np.bincount(inverse, weights=sizes).min() < self.k:
            return None
        return [part[inverse == g] for g in range(len(groups))]
