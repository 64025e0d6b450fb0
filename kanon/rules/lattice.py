"""The full-domain lattice of a release (Samarati with deletion): one level per QI, cells
up(raw, level) (DGH.up, clamped at the root), the outliers of a vector, the lowest
satisfying height below a given one, and aligning an output's rows with the raw records.

A vector's classes are the raw records with equal generalized QI cells; its outliers are the
records in classes of fewer than k; it satisfies when it has at most max_sup outliers.
Raising a level only merges classes (up(raw, b) is a function of up(raw, a) for a <= b),
so when a vector of height t satisfies, one of height t + 1 does too: the lowest satisfying
height is found by binary search, trying the vectors of one height at a time.
"""
from __future__ import annotations

from bisect import bisect_right
from typing import Iterator

import numpy as np

from .release import Release, combine, raw_codes

__all__ = ["Lattice", "subsequence"]

Vector = tuple[int, ...]
_BINCOUNT_LIMIT = 1 << 22  # largest key range counted with one bincount


class Lattice:
    """Every QI's generalized raw cells per level, with the outliers of each vector tried
    (cached)."""

    def __init__(self, release: Release, k: int):
        self.k = k
        self.names = release.qi_names
        self.dghs = release.dghs
        self.codes = raw_codes(release)
        self.n = len(self.codes)
        self.heights = [dgh.height for dgh in self.dghs]
        self.up = [[dgh.up(self.codes[:, j], s) for s in range(h + 1)]
                   for j, (dgh, h) in enumerate(zip(self.dghs, self.heights))]
        self.bases = [dgh.n_nodes for dgh in self.dghs]
        self._outliers: dict[Vector, np.ndarray] = {}

    def describe(self, s: Vector) -> str:
        """'(age 1, sex 0, ...)'."""
        return "(" + ", ".join(f"{name} {level}" for name, level in zip(self.names, s)) + ")"

    def generalized(self, s: Vector) -> np.ndarray:
        """(n, q) node ids of the raw records generalized by s."""
        if not self.dghs:
            return np.zeros((self.n, 0), dtype=np.int64)
        return np.stack([self.up[j][level] for j, level in enumerate(s)], axis=1)

    def keys(self, s: Vector, rows: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Class keys of the raw records under s, and of `rows` ((m, q) node ids) in the
        same numbering (equal keys: equal generalized cells)."""
        m = 0 if rows is None else len(rows)
        columns = [np.concatenate((self.up[j][level], rows[:, j] if m else
                                   np.zeros(0, dtype=np.int64)))
                   for j, level in enumerate(s)]
        key = combine(columns, self.bases) if columns else np.zeros(self.n + m, np.int64)
        return key[:self.n], key[self.n:]

    def outliers(self, s: Vector) -> np.ndarray:
        """Mask of the raw records in classes of fewer than k under s."""
        if s not in self._outliers:
            key, _ = self.keys(s)
            if not len(key):
                sizes = key
            elif int(key.max()) < _BINCOUNT_LIMIT:
                sizes = np.bincount(key)[key]
            else:
                _, inverse, counts = np.unique(key, return_inverse=True, return_counts=True)
                sizes = counts[inverse.reshape(-1)]
            self._outliers[s] = sizes < self.k
        return self._outliers[s]

    def satisfies(self, s: Vector, max_sup: int) -> bool:
        return int(self.outliers(s).sum()) <= max_sup

    def vectors(self, height: int) -> Iterator[Vector]:
        """Every vector of the given height, in lexicographic order."""
        rest = [sum(self.heights[j:]) for j in range(len(self.heights) + 1)]

        def walk(j: int, left: int) -> Iterator[Vector]:
            if j == len(self.heights):
                if left == 0:
                    yield ()
                return
            for level in range(min(self.heights[j], left) + 1):
                if left - level <= rest[j + 1]:
                    for tail in walk(j + 1, left - level):
                        yield (level, *tail)

        return walk(0, height)

    def lowest_satisfying(self, max_sup: int, below: int) -> tuple[int, Vector] | None:
        """The lowest satisfying height under `below` with its first satisfying vector (in
        lexicographic order), or None when no vector of a lower height satisfies."""
        def first_at(height: int) -> Vector | None:
            return next((s for s in self.vectors(height) if self.satisfies(s, max_sup)), None)

        if below <= 0 or (top := first_at(below - 1)) is None:
            return None
        low, high, best = 0, below - 1, (below - 1, top)
        while low < high:
            middle = (low + high) // 2
            found = first_at(middle)
            if found is None:
                low = middle + 1
            else:
                high, best = middle, (middle, found)
        return best


def subsequence(out_key: np.ndarray, raw_key: np.ndarray) -> tuple[np.ndarray, int]:
    """Greedy alignment of the output rows with raw records in raw order: the raw position
    of each output row and the number of rows aligned (len(out_key) when every row is; the
    alignment is then valid, else it stops at the first row that cannot follow)."""
    order = np.argsort(raw_key, kind="stable")
    ordered = raw_key[order]
    places: dict[int, list[int]] = {}
    aligned = np.empty(len(out_key), dtype=np.int64)
    pointer = -1
    for i, key in enumerate(out_key.tolist()):
        where = places.get(key)
        if where is None:
            lo, hi = np.searchsorted(ordered, [key, key + 1])
            where = places[key] = order[lo:hi].tolist()
        found = bisect_right(where, pointer)
        if found == len(where):
            return aligned, i
        pointer = aligned[i] = where[found]
    return aligned, len(out_key)
