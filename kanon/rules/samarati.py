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

from itertools import product

import numpy as np

from ..problem import check_int
from ..table import Table
from .lattice import Lattice, Vector, subsequence
from .release import Broken, Release, check_header, label_codes, shown

__all__ = ["check_samarati"]

ORDER = ["columns", "full-domain", "satisfies", "lowest-height", "deletion"]


def check_samarati(release: Release, k: int, max_sup: int, out: Table, hidden: bool = False
                   ) -> list[Broken]:
    """The broken rules of `out` (module docstring), [] for a right answer."""
    k, max_sup = check_int("k", k, 1), check_int("max_sup", max_sup, 0)
    header = check_header(release, out, None, hidden)
    if header is not None:
        return [header]
    return _Judge(release, k, max_sup, out, hidden).run()


class _Judge:
    """One output against one release."""

    def __init__(self, release: Release, k: int, max_sup: int, out: Table, hidden: bool):
        self.release, self.max_sup, self.out, self.hidden = release, max_sup, out, hidden
        self.k = k
        self.qi_pos, self.other_pos = release.positions()
        self.lattice = Lattice(release, k)
        self.m = len(out.rows)
        self.out_codes = np.zeros((self.m, len(release.dghs)), dtype=np.int64)
        for j, (p, dgh) in enumerate(zip(self.qi_pos, release.dghs)):
            self.out_codes[:, j] = label_codes(dgh, [row[p] for row in out.rows])

    def run(self) -> list[Broken]:
        unknown = self._unknown_label()
        if unknown is not None:
            return [unknown]
        levels, column_break = self._candidate_levels()
        if column_break is not None:
            return [column_break]
        candidates = sorted(product(*levels), key=lambda s: (sum(s), s))
        keys = {s: self.lattice.keys(s, self.out_codes) for s in candidates}
        exact = []
        for s in candidates:
            raw_key, out_key = keys[s]
            kept = ~self.lattice.outliers(s)
            if int(kept.sum()) == self.m and np.array_equal(out_key, raw_key[kept]):
                exact.append(self._judge(s, np.flatnonzero(kept), True))
                if not exact[-1]:
                    return []
        if exact:
            return min(exact, key=len)
        counted = [(self._excess(*keys[s]), s) for s in candidates]
        for (foreign, excess), s in sorted(counted, key=lambda c: (c[0][1], sum(c[1]), c[1])):
            if excess == 0:
                aligned, done = subsequence(keys[s][1], keys[s][0])
                if done == self.m:
                    return self._judge(s, aligned, False)
        _, s = min(counted, key=lambda c: (c[0], sum(c[1]), c[1]))
        return [self._misfit(s, *keys[s])]

    # -- the rules once a vector is known ------------------------------------------------
    def _judge(self, s: Vector, aligned: np.ndarray, exact: bool) -> list[Broken]:
        """The broken rules when the output selects the raw records `aligned` (raw order),
        generalized by s (`exact`: those records are s's non-outliers)."""
        lattice, broken = self.lattice, []
        copied = self._copied(aligned)
        if copied is not None:
            broken.append(copied)
        outliers = lattice.outliers(s)
        count = int(outliers.sum())
        if count > self.max_sup:
            broken.append(Broken("satisfies", f"the output is generalized by vector "
                                 f"{lattice.describe(s)}, which leaves {count} outliers "
                                 f"(records in classes of fewer than k = {self.k}), more than "
                                 f"max_sup = {self.max_sup}"))
        lower = lattice.lowest_satisfying(self.max_sup, sum(s))
        if lower is not None:
            height, better = lower
            broken.append(Broken("lowest-height", f"the output's vector {lattice.describe(s)} "
                                 f"has height {sum(s)}, but vector {lattice.describe(better)} "
                                 f"of height {height} already satisfies k = {self.k} with at "
                                 f"most max_sup = {self.max_sup} outliers"))
        if not exact:
            broken.append(self._deletion(s, aligned, outliers))
        return broken

    def _copied(self, aligned: np.ndarray) -> Broken | None:
        """The first released non-QI cell that differs from its record's."""
        raw = self.release.raw
        for p in self.other_pos:
            c = self.release.released[p]
            for i, (row, r) in enumerate(zip(self.out.rows, aligned.tolist())):
                if row[p] != raw.rows[r][c]:
                    return Broken("columns", f"data row {i + 1} of the output, column "
                                  f"{raw.header[c]!r}: the cell{shown(row[p], self.hidden)} "
                                  f"differs from its record's (raw data row {r + 1})"
                                  f"{shown(raw.rows[r][c], self.hidden)}; non-QI cells are "
                                  f"copied unchanged")
        return None

    def _deletion(self, s: Vector, aligned: np.ndarray, outliers: np.ndarray) -> Broken:
        """The first record wrongly kept or wrongly deleted under s."""
        kept = np.zeros(self.lattice.n, dtype=bool)
        kept[aligned] = True
        r = int(np.argmax(kept == outliers))  # kept outlier or deleted non-outlier
        vector = self.lattice.describe(s)
        if kept[r]:
            i = int(np.searchsorted(aligned, r)) + 1
            return Broken("deletion", f"raw data row {r + 1} is an outlier of vector {vector} "
                          f"(its class has fewer than k = {self.k} records) and must be "
                          f"deleted, but it is released as data row {i} of the output")
        return Broken("deletion", f"raw data row {r + 1} is in a class of at least k = "
                      f"{self.k} records under vector {vector}, so it must be released, but "
                      f"the output leaves it out")

    # -- when no vector fits: where full-domain breaks -----------------------------------
    def _unknown_label(self) -> Broken | None:
        bad = self.out_codes < 0
        if not bad.any():
            return None
        i = int(np.argmax(bad.any(axis=1)))
        j = int(np.argmax(bad[i]))
        cell = self.out.rows[i][self.qi_pos[j]]
        return Broken("full-domain", f"data row {i + 1} of the output, column "
                      f"{self.lattice.names[j]!r}: the cell{shown(cell, self.hidden)} is not a "
                      f"label of the column's hierarchy")

    def _candidate_levels(self) -> tuple[list[list[int]], Broken | None]:
        """Per QI the levels whose generalized raw cells include every output cell; when a
        QI has none, the break of the earliest row."""
        levels, breaks = [], []
        for j, dgh in enumerate(self.lattice.dghs):
            present = np.zeros((self.lattice.heights[j] + 1, dgh.n_nodes), dtype=bool)
            for s, nodes in enumerate(self.lattice.up[j]):
                present[s, nodes] = True
            fits = present[:, self.out_codes[:, j]]  # (levels, m)
            levels.append([s for s in range(len(present)) if fits[s].all()])
            if not levels[-1]:
                breaks.append(self._level_break(j, fits.T))
        if breaks:
            return levels, min(breaks, key=lambda b: b[0])[1]
        return levels, None

    def _level_break(self, j: int, fits: np.ndarray) -> tuple[int, Broken]:
        """(row, Broken) for QI j, whose output cells fit no single level (fits[i, s]: row
        i's cell is a generalization at level s of some raw value)."""
        name, hidden = self.lattice.names[j], self.hidden
        running = np.logical_and.accumulate(fits, axis=0).any(axis=1)
        i = int(np.argmax(~running))
        cell = self.out.rows[i][self.qi_pos[j]]
        where = f"data row {i + 1} of the output, column {name!r}"
        if not fits[i].any():
            return i, Broken("full-domain", f"{where}: the cell{shown(cell, hidden)} "
                             f"generalizes no raw value of the column at any level")
        apart = np.flatnonzero(~(fits[:i] & fits[i]).any(axis=1))
        if len(apart):
            r = int(apart[0])
            return i, Broken("full-domain", f"data rows {r + 1} and {i + 1} of the output, "
                             f"column {name!r}: the cells are at different levels of the "
                             f"hierarchy ({_levels(fits[r])} and {_levels(fits[i])}), but "
                             f"full-domain generalization puts a column at one level")
        return i, Broken("full-domain", f"{where}: no single level of the hierarchy gives "
                         f"this cell and every cell above it in the column")

    def _excess(self, raw_key: np.ndarray, out_key: np.ndarray) -> tuple[int, int]:
        """(output rows whose cells no record has under the vector, output rows beyond the
        records' counts)."""
        _, inverse = np.unique(np.concatenate((raw_key, out_key)), return_inverse=True)
        inverse = inverse.reshape(-1)
        size = int(inverse.max()) + 1 if len(inverse) else 0
        have = np.bincount(inverse[:len(raw_key)], minlength=size)
        want = np.bincount(inverse[len(raw_key):], minlength=size)
        return int((have[inverse[len(raw_key):]] == 0).sum()), int(np.maximum(want - have,
                                                                             0).sum())

    def _misfit(self, s: Vector, raw_key: np.ndarray, out_key: np.ndarray) -> Broken:
        """Why the output is no selection of s's generalized records in raw order (the
        closest vector s): the first row that cannot be aligned."""
        aligned, i = subsequence(out_key, raw_key)
        vector, hidden = self.lattice.describe(s), self.hidden
        after = int(aligned[i - 1]) + 1 if i else 0
        if (raw_key == out_key[i]).any():  # so i > 0: row i could not follow row i - 1
            return Broken("deletion", f"data row {i + 1} of the output repeats a record or "
                          f"breaks the raw order: under vector {vector}, no raw data row after "
                          f"{after} generalizes to its cells (the output releases records in "
                          f"raw order, each at most once)")
        generalized = self.lattice.generalized(s)
        offset = after if after < self.lattice.n else 0
        r = int(np.argmax((generalized[offset:] == self.out_codes[i]).sum(axis=1))) + offset
        j = int(np.argmax(generalized[r] != self.out_codes[i]))
        name, label = self.lattice.names[j], self.lattice.dghs[j].labels[generalized[r, j]]
        closest = (f"generalizes to another cell in column {name!r}" if hidden else
                   f"generalizes to {label!r} in column {name!r}, not "
                   f"{self.out.rows[i][self.qi_pos[j]]!r}")
        return Broken("full-domain", f"data row {i + 1} of the output matches no raw record "
                      f"generalized by vector {vector}: the closest, raw data row {r + 1}, "
                      f"{closest}")


def _levels(fits: np.ndarray) -> str:
    found = np.flatnonzero(fits).tolist()
    return f"level{'s' if len(found) > 1 else ''} {', '.join(map(str, found))}"
