"""check_samarati: judge a Samarati output with deletion suppression by the course's rules
(any satisfying vector of the lowest satisfying height is a right answer).

Rules, in the order reported: columns (header = the released columns; each released non-QI
cell equals its record's), full-domain (the output is the generalization by one lattice
vector s of some raw records, in raw order), satisfies (s has at most max_sup outliers),
lowest-height (no vector of a lower height satisfies), deletion (the records left out are
exactly s's outliers).

The vector is inferred, not searched: per QI, the candidate levels are those whose
generalized raw cells include every output cell of the column; each candidate vector (lowest
height first) is then tried, first as an exact fit (the output is s's non-outliers,
generalized), then as a selection of s's generalized records in raw order (deletion broken).
When none fits, the first row and column that break full-domain are named.
"""
from __future__ import annotations

from bisect import bisect_left
from itertools import product

from ..tables import Table
from .fit import (Output, candidate_levels, excess, misfit, suppressed_breaks, suppressed_row,
                  unknown_label)
from .lattice import Key, Lattice, Vector, subsequence
from .release import Broken, Release, broken, check_header, check_int
from .words import phrase

__all__ = ["RULES", "check_samarati", "lowest_vectors"]

RULES = ("columns", "full-domain", "satisfies", "lowest-height", "deletion")
"""The rule ids, in the order they are reported."""


def check_samarati(release: Release, k: int, max_sup: int, out: Table, hidden: bool = False
                   ) -> list[Broken]:
    """The broken rules of `out` (module docstring), [] for a right answer."""
    k, max_sup = check_int("k", k, 1), check_int("max_sup", max_sup, 0)
    header = check_header(release, out, None, hidden)
    if header is not None:
        return [header]
    return _Judge(release, k, max_sup, out, hidden).run()


def lowest_vectors(release: Release, k: int, max_sup: int) -> tuple[int, list[Vector]] | None:
    """The lowest satisfying height and every satisfying vector of that height (levels in
    the release's QI order, lexicographic), None when no vector satisfies."""
    lattice = Lattice(release, check_int("k", k, 1))
    found = lattice.lowest_satisfying(check_int("max_sup", max_sup, 0), sum(lattice.heights) + 1)
    if found is None:
        return None
    return found[0], lattice.satisfying(found[0], max_sup)


class _Judge:
    """One output against one release."""

    def __init__(self, release: Release, k: int, max_sup: int, out: Table, hidden: bool):
        self.release, self.max_sup, self.out, self.hidden = release, max_sup, out, hidden
        self.k = k
        self.qi_pos, self.other_pos = release.positions()
        self.lattice = Lattice(release, k)
        self.m = len(out.rows)
        self.output = Output(out, self.qi_pos, hidden, self.lattice)
        self._keys: dict[Vector, tuple[list[Key], list[Key]]] = {}

    def keys(self, s: Vector) -> tuple[list[Key], list[Key]]:
        """The raw records' and the output rows' class keys under s (equal: same cells)."""
        if s not in self._keys:
            self._keys[s] = self.lattice.generalized(s), self.output.rows
        return self._keys[s]

    def run(self) -> list[Broken]:
        unknown = unknown_label(self.lattice, self.output)
        if unknown is not None:
            return [unknown]
        levels, column_break = candidate_levels(self.lattice, self.output)
        if column_break is not None:
            row = suppressed_row(self.lattice, self.output)  # '*' rows, not deleted
            return [column_break] if row is None else \
                suppressed_breaks(self.lattice, self.output, row)
        candidates = sorted(product(*levels), key=lambda s: (sum(s), s))
        exact = []
        for s in candidates:
            if self.lattice.n - self.lattice.count(s) != self.m:
                continue
            raw_key, out_key = self.keys(s)
            outliers = self.lattice.outliers(s)
            kept = [r for r, o in enumerate(outliers) if not o]
            if all(raw_key[r] == key for r, key in zip(kept, out_key)):
                exact.append(self._judge(s, kept, True))
                if not exact[-1]:
                    return []
        if exact:
            return min(exact, key=len)
        counted = [(excess(*self.keys(s)), s) for s in candidates]
        for (_, extra), s in sorted(counted, key=lambda c: (c[0][1], sum(c[1]), c[1])):
            if extra == 0:
                aligned, done = subsequence(self.keys(s)[1], self.keys(s)[0])
                if done == self.m:
                    return self._judge(s, aligned, False)
        _, s = min(counted, key=lambda c: (c[0], sum(c[1]), c[1]))
        return [misfit(self.lattice, self.output, s, *self.keys(s))]

    # -- the rules once a vector is known ------------------------------------------------
    def _judge(self, s: Vector, aligned: list[int], exact: bool) -> list[Broken]:
        """The broken rules when the output selects the raw records `aligned` (raw order),
        generalized by s (`exact`: those records are s's non-outliers)."""
        lattice, found = self.lattice, []
        copied = self._copied(aligned)
        if copied is not None:
            found.append(copied)
        count = lattice.count(s)
        if count > self.max_sup:
            found.append(broken("satisfies", phrase("satisfies", vector=lattice.describe(s),
                                                    count=count, k=self.k,
                                                    max_sup=self.max_sup)))
        lower = lattice.lowest_satisfying(self.max_sup, sum(s))
        if lower is not None:
            height, better = lower
            found.append(broken("lowest-height", phrase(
                "lowest", vector=lattice.describe(s), height=sum(s),
                better=lattice.describe(better), lowest=height, k=self.k,
                max_sup=self.max_sup)))
        if not exact:
            found.append(self._deletion(s, aligned))
        return found

    def _copied(self, aligned: list[int]) -> Broken | None:
        """The first released non-QI cell that differs from its record's."""
        raw = self.release.raw
        for p in self.other_pos:
            c = self.release.released[p]
            for i, (row, r) in enumerate(zip(self.out.rows, aligned)):
                if row[p] != raw.rows[r][c]:
                    detail = phrase("copied.record", self.hidden, cell=row[p], raw_row=r + 1,
                                    raw=raw.rows[r][c])
                    return broken("columns", phrase("at.output_row_column", row=i + 1,
                                                    column=raw.header[c], detail=detail),
                                  row=i + 1, column=raw.header[c])
        return None

    def _deletion(self, s: Vector, aligned: list[int]) -> Broken:
        """The first record wrongly kept or wrongly deleted under s."""
        outliers = self.lattice.outliers(s)
        kept = [False] * self.lattice.n
        for r in aligned:
            kept[r] = True
        r = next((r for r in range(self.lattice.n) if kept[r] == outliers[r]), 0)
        vector = self.lattice.describe(s)
        if kept[r]:
            i = bisect_left(aligned, r) + 1
            return broken("deletion", phrase("deletion.kept", raw_row=r + 1, vector=vector,
                                             k=self.k, row=i),
                          row=r + 1, raw=True)
        return broken("deletion", phrase("deletion.left_out", raw_row=r + 1, k=self.k,
                                         vector=vector),
                      row=r + 1, raw=True)
