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
        self.gave_up = False
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

    def why_not(self, part: np.ndarray, j: int, hidden: bool) -> str:
        """Why QI j has no usable cut of the partition (row by row, for a message)."""
        qi, k = self.qis[j], self.k
        keys = self.grouped[j][self.rows_of(part)]
        classes = np.repeat(part, self.sizes[part])
        if qi.numeric:
            middle = (len(keys) - 1) // 2
            split = np.partition(keys, middle)[middle]
            side = keys > split
            at = "" if hidden else f" (<= {qi.spellings[split]})"
        else:
            dgh = qi.dgh
            node = dgh.lca(keys)
            if not dgh.children[node] or (keys == node).any():
                return f"{qi.name}: a row's value is the partition's common ancestor itself"
            side = dgh.ancestors[keys, dgh.depth[node] + 1]
            at = ""
        _, counts = np.unique(side, return_counts=True)
        if len(counts) < 2:
            return f"{qi.name}: the median cut{at} leaves no row above it"
        if counts.min() < k:
            return f"{qi.name}: the median cut{at} leaves a side of {int(counts.min())} " \
                   f"rows, fewer than k = {k}"
        mixed = [c for c in np.unique(classes) if len(np.unique(side[classes == c])) > 1]
        return f"{qi.name}: the median cut{at} splits the class of data row " \
               f"{int(self.first_row[mixed[0]]) + 1}"

    def search(self, budget: int = 200_000) -> np.ndarray | None:
        """None when the classes are the leaves of a tree of usable cuts from the whole
        table, else the first partition met (depth first, widest QI first) that has no
        usable cut. Memoised on the partition; after `budget` partitions it gives up,
        returns every class and sets `gave_up`."""
        memo: dict[bytes, bool] = {}
        dead: list[np.ndarray] = []

        def tree(part: np.ndarray) -> bool:
            if len(part) == 1:
                return True
            key = part.tobytes()
            if key in memo:
                return memo[key]
            if len(memo) >= budget:
                raise _GaveUp
            memo[key] = False
            widths = [self.width(part, j) for j in range(len(self.qis))]
            any_cut = False
            for j in sorted(range(len(widths)), key=lambda j: -widths[j]):
                parts = self.usable(part, j) if widths[j] > 0 else None
                if parts is not None:
                    any_cut = True
                    if all(tree(p) for p in parts):
                        memo[key] = True
                        return True
            if not any_cut and not dead:
                dead.append(part)
            return False

        everything = np.arange(len(self.sizes))
        try:
            return None if tree(everything) else (dead[0] if dead else everything)
        except _GaveUp:
            self.gave_up = True
            return everything

    def final_break(self) -> tuple[int, int] | None:
        """(class, QI) of the first class (then QI) that still admits an allowable cut."""
        found = np.zeros((len(self.sizes), len(self.qis)), dtype=bool)
        class_of = np.repeat(np.arange(len(self.sizes)), self.sizes)
        for j, qi in enumerate(self.qis):
            keys = self.grouped[j]
            if qi.numeric:
                combined = np.sort(class_of * (int(keys.max()) + 1) + keys)
                split = combined[self.starts + (self.sizes - 1) // 2]
                n_left = np.searchsorted(combined, split, side="right") - self.starts
                found[:, j] = (n_left >= self.k) & (self.sizes - n_left >= self.k)
                continue
            ancestors, depth = qi.dgh.ancestors, qi.dgh.depth[self.lca[j]]
            below = np.minimum(depth + 1, ancestors.shape[1] - 1)[class_of]
            child = np.where((depth + 1 < ancestors.shape[1])[class_of],
                             ancestors[keys, below], -1)
            bad = np.bincount(class_of, weights=child < 0, minlength=len(self.sizes)) > 0
            pairs, counts = np.unique(class_of * qi.dgh.n_nodes + child.clip(0),
                                      return_counts=True)
            owner = pairs // qi.dgh.n_nodes
            groups = np.bincount(owner, minlength=len(self.sizes))
            smallest = np.full(len(self.sizes), np.iinfo(np.int64).max)
            np.minimum.at(smallest, owner, counts)
            found[:, j] = ~bad & (groups >= 2) & (smallest >= self.k)
        if not found.any():
            return None
        c = int(np.argmax(found.any(axis=1)))
        return c, int(np.argmax(found[c]))


class _GaveUp(Exception):
    """The cut search met more partitions than its budget."""
