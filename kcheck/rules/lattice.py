"""The full-domain lattice of a release (Samarati with deletion): one level per QI, cells
up(raw, level) (clamped at the root), the outliers of a vector, the lowest satisfying height
below a given one, and aligning an output's rows with the raw records.

A vector's classes are the raw records with equal generalized QI cells; its outliers are the
records in classes of fewer than k; it satisfies when it has at most max_sup outliers.
Raising a level only merges classes (up(raw, b) is a function of up(raw, a) for a <= b),
so when a vector of height t satisfies, one of height t + 1 does too: the lowest satisfying
height is found by binary search, trying the vectors of one height at a time. The records
are grouped by their raw QI cells first, so a vector costs the distinct records, not all.
"""
from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from typing import Iterator, Sequence

from .release import Release, raw_codes

__all__ = ["Lattice", "Vector", "Key", "subsequence"]

Vector = tuple[int, ...]
Key = tuple[int, ...]  # a record's generalized QI cells, as node ids in QI order


class Lattice:
    """Every QI's generalized raw cells per level, with the outliers of each vector tried
    (cached)."""

    def __init__(self, release: Release, k: int):
        self.k = k
        self.names = release.qi_names
        self.trees = release.trees
        self.n = len(release.raw.rows)
        self.heights = [max(tree.depth) for tree in self.trees]
        codes = raw_codes(release)
        records = list(zip(*codes)) if codes else [()] * self.n
        distinct: dict[Key, int] = {}
        self.record_of = [distinct.setdefault(r, len(distinct)) for r in records]
        counts = Counter(self.record_of)
        self.weights = [counts[d] for d in range(len(distinct))]
        self.lifted: list[list[list[int]]] = []  # [QI][level][distinct record] -> node
        for j, tree in enumerate(self.trees):
            nodes = [r[j] for r in distinct]
            self.lifted.append([[tree.path[v][max(tree.depth[v] - s, 0)] for v in nodes]
                                for s in range(self.heights[j] + 1)])
        self._flags: dict[Vector, tuple[list[bool], int]] = {}
        self._rows: dict[Vector, list[Key]] = {}

    def describe(self, s: Vector) -> str:
        """'(age 1, sex 0, ...)'."""
        return "(" + ", ".join(f"{name} {level}" for name, level in zip(self.names, s)) + ")"

    def present(self, j: int) -> list[set[int]]:
        """Per level, the nodes QI j's raw cells generalize to."""
        return [set(nodes) for nodes in self.lifted[j]]

    def _distinct_keys(self, s: Vector) -> list[Key]:
        if not self.trees:
            return [()] * len(self.weights)
        return list(zip(*(self.lifted[j][level] for j, level in enumerate(s))))

    def generalized(self, s: Vector) -> list[Key]:
        """The generalized QI cells (node ids) of every raw record under s, cached."""
        if s not in self._rows:
            keys = self._distinct_keys(s)
            self._rows[s] = [keys[d] for d in self.record_of]
        return self._rows[s]

    def _classes(self, s: Vector) -> tuple[list[bool], int]:
        """Per distinct record whether it is an outlier under s, and the outliers' count."""
        if s not in self._flags:
            keys = self._distinct_keys(s)
            sizes: dict[Key, int] = {}
            for key, weight in zip(keys, self.weights):
                sizes[key] = sizes.get(key, 0) + weight
            flags = [sizes[key] < self.k for key in keys]
            self._flags[s] = flags, sum(w for w, f in zip(self.weights, flags) if f)
        return self._flags[s]

    def outliers(self, s: Vector) -> list[bool]:
        """Whether each raw record is in a class of fewer than k under s."""
        flags, _count = self._classes(s)
        return [flags[d] for d in self.record_of]

    def count(self, s: Vector) -> int:
        """The number of outliers under s."""
        return self._classes(s)[1]

    def satisfies(self, s: Vector, max_sup: int) -> bool:
        return self.count(s) <= max_sup

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

    def satisfying(self, height: int, max_sup: int) -> list[Vector]:
        """Every satisfying vector of the given height, in lexicographic order."""
        return [s for s in self.vectors(height) if self.satisfies(s, max_sup)]


def subsequence(out_key: Sequence[Key], raw_key: Sequence[Key]) -> tuple[list[int], int]:
    """Greedy alignment of the output rows with raw records in raw order: the raw position
    of each output row aligned and the number of rows aligned (len(out_key) when every row
    is; the alignment is then valid, else it stops at the first row that cannot follow)."""
    places: dict[Key, list[int]] = {}
    for r, key in enumerate(raw_key):
        places.setdefault(key, []).append(r)
    aligned: list[int] = []
    pointer = -1
    for i, key in enumerate(out_key):
        where = places.get(key, [])
        found = bisect_right(where, pointer)
        if found == len(where):
            return aligned, i
        pointer = where[found]
        aligned.append(pointer)
    return aligned, len(out_key)
