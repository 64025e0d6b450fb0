"""Judging a samarati output by the handout's rules, against the facts the course staff computed
for the public case (the lowest satisfying height and every satisfying vector of that height):
any satisfying vector of the lowest height is a right answer.

Rules, in the order reported (as the grader names them): columns (the header is the released
columns; sensitive cells are their record's), full-domain (the rows are the generalization of
raw records, in raw order, by one lattice vector), satisfies (that vector leaves at most
max_sup outliers), lowest-height (no vector of a lower height satisfies), deletion (the records
left out are exactly that vector's outliers). Rows are data rows counted from 1.
"""
from __future__ import annotations

from collections import Counter
from itertools import product

from messages import _

Rows = list[list[str]]
Hierarchy = dict[str, "str | None"]


def up(parent: Hierarchy, value: str, steps: int) -> str:
    """The ancestor `steps` levels above `value` (the root when the hierarchy is lower)."""
    for _step in range(steps):
        if parent.get(value) is None:
            break
        value = parent[value]
    return value


def height(parent: Hierarchy) -> int:
    """The number of levels above the deepest label."""
    def depth(label: str) -> int:
        d = 0
        while parent.get(label) is not None:
            label, d = parent[label], d + 1
        return d
    return max(depth(label) for label in parent)


def describe(qis: tuple[str, ...], s: tuple[int, ...]) -> str:
    """'(age 1, sex 0, ...)'."""
    return "(" + ", ".join(f"{q} {level}" for q, level in zip(qis, s)) + ")"


class Judge:
    """One output against one public case's raw rows and facts."""

    def __init__(self, case, header: list[str], raw: Rows, dghs: dict[str, Hierarchy]):
        self.case, self.k, self.max_sup = case, case.k, case.max_sup
        self.qis = case.qis
        self.raw = raw
        self.columns = [header.index(c) for c in case.columns]
        self.qi_pos = [case.columns.index(q) for q in self.qis]
        self.roots = [next(label for label, up in dghs[q].items() if up is None)
                      for q in self.qis]
        self.levels = []  # per QI, per level: every raw record's generalized cell
        for q in self.qis:
            c, parent = header.index(q), dghs[q]
            self.levels.append([[up(parent, row[c], s) for row in raw]
                                for s in range(height(parent) + 1)])

    def keys(self, s: tuple[int, ...]) -> list[tuple[str, ...]]:
        """Every raw record's QI cells generalized by s."""
        return list(zip(*(self.levels[j][level] for j, level in enumerate(s))))

    def outliers(self, s: tuple[int, ...]) -> list[bool]:
        keys = self.keys(s)
        sizes = Counter(keys)
        return [sizes[key] < self.k for key in keys]

    def judge(self, out_header: list[str], out: Rows) -> list[tuple[str, str]]:
        """The broken rules as (rule, sentence), [] for a right answer."""
        if out_header != list(self.case.columns):
            return [("columns", _("the header is {got}, but the released columns are "
                                  "{expected} (in the raw file's order)").format(
                got=out_header, expected=list(self.case.columns)))]
        if len(out) > len(self.raw):
            return [("columns", _("the output has {m} data rows, more than the raw file's "
                                  "{n}").format(m=len(out), n=len(self.raw)))]
        self.out = out
        wanted = [tuple(row[p] for p in self.qi_pos) for row in out]
        options = []
        for j, q in enumerate(self.qis):
            seen = {key[j] for key in wanted}
            fits = [s for s, cells in enumerate(self.levels[j]) if seen <= set(cells)]
            if not fits:
                level = ("full-domain", _("column {column!r}: no single level of its "
                                          "hierarchy gives every cell of the column from a "
                                          "raw value").format(column=q))
                suppressed = self._suppressed(wanted)  # '*' rows instead of deleted ones
                return [level] if suppressed is None else suppressed
            options.append(fits)
        vectors = sorted(product(*options), key=lambda v: (sum(v), v))
        exact = []
        for s in vectors:  # the output is exactly s's non-outliers, generalized
            outliers, keys = self.outliers(s), self.keys(s)
            kept = [r for r, o in enumerate(outliers) if not o]
            if len(kept) == len(out) and all(keys[r] == w for r, w in zip(kept, wanted)):
                exact.append(self._judge(s, kept, outliers))
                if not exact[-1]:
                    return []
        if exact:
            return min(exact, key=len)
        counted = []
        for s in vectors:
            have, want = Counter(self.keys(s)), Counter(wanted)
            counted.append(((sum(n for key, n in want.items() if not have[key]),
                             sum(max(0, n - have[key]) for key, n in want.items())), s))
        for (_none, extra), s in sorted(counted, key=lambda c: (c[0][1], sum(c[1]), c[1])):
            if extra == 0:
                aligned = self._align(wanted, self.keys(s))
                if len(aligned) == len(out):
                    return self._judge(s, aligned, self.outliers(s))
        _count, s = min(counted, key=lambda c: (c[0], sum(c[1]), c[1]))
        return [self._misfit(s, wanted)]

    def _suppressed(self, wanted: list[tuple[str, ...]]) -> list[tuple[str, str]] | None:
        """When the columns fit no single level only because of rows whose every QI cell is
        its hierarchy's root (records suppressed with '*' cells instead of deleted): the
        full-domain and deletion rules, naming the first such row; else None."""
        at_root = [all(cell == root for cell, root in zip(key, self.roots)) for key in wanted]
        if not any(at_root) or all(at_root):
            return None
        rest = [key for key, suppressed in zip(wanted, at_root) if not suppressed]
        for j in range(len(self.qis)):
            seen = {key[j] for key in rest}
            if not any(seen <= set(cells) for cells in self.levels[j]):
                return None  # another column breaks full-domain anyway
        row = at_root.index(True) + 1
        return [("full-domain", _("data row {row} of the output has every QI cell at its "
                                  "hierarchy's root ({cells}) and other rows do not: no single "
                                  "vector generalizes both (a suppressed record is deleted, "
                                  "not released with its QI cells at the root)").format(
                    row=row, cells=", ".join(map(repr, self.roots)))),
                ("deletion", _("data row {row} of the output is a suppressed record (every QI "
                               "cell at the root): it must be deleted (left out of the "
                               "output), not released").format(row=row))]

    def _misfit(self, s: tuple[int, ...], wanted: list[tuple[str, ...]]) -> tuple[str, str]:
        """Why the output is no selection, in raw order, of s's generalized records."""
        keys, vector = self.keys(s), describe(self.qis, s)
        aligned = self._align(wanted, keys)
        i = len(aligned)
        after = aligned[-1] + 1 if aligned else 0
        if wanted[i] in keys:
            return ("deletion", _("data row {row} of the output repeats a record or breaks "
                                  "the raw order: under vector {vector}, no raw data row "
                                  "after {after} generalizes to its cells (the output "
                                  "releases records in raw order, each at most once)").format(
                row=i + 1, vector=vector, after=after))
        return ("full-domain", _("data row {row} of the output matches no raw record "
                                 "generalized by vector {vector}").format(row=i + 1,
                                                                          vector=vector))

    @staticmethod
    def _align(rows: list[tuple[str, ...]], records: list[tuple[str, ...]]) -> list[int]:
        """Raw positions of the output rows, matched greedily in raw order (as far as they
        go)."""
        aligned, r = [], 0
        for row in rows:
            while r < len(records) and records[r] != row:
                r += 1
            if r == len(records):
                break
            aligned.append(r)
            r += 1
        return aligned

    def _judge(self, s: tuple[int, ...], aligned: list[int], outliers: list[bool]
               ) -> list[tuple[str, str]]:
        """The broken rules when the output holds the raw records `aligned` (raw order),
        generalized by s."""
        vector, broken = describe(self.qis, s), []
        copied = self._copied(aligned)
        if copied is not None:
            broken.append(copied)
        count = sum(outliers)
        if count > self.max_sup:
            broken.append(("satisfies", _(
                "the output is generalized by vector {vector}, which leaves {count} outliers "
                "(records in classes of fewer than k = {k}), more than max_sup = "
                "{max_sup}").format(vector=vector, count=count, k=self.k,
                                    max_sup=self.max_sup)))
        if sum(s) > self.case.height:
            better = describe(self.qis, self.case.vectors[0])
            broken.append(("lowest-height", _(
                "the output's vector {vector} has height {height}, but vector {better} of "
                "height {lowest} already satisfies k = {k} with at most max_sup = {max_sup} "
                "outliers").format(vector=vector, height=sum(s), better=better,
                                   lowest=self.case.height, k=self.k, max_sup=self.max_sup)))
        kept = [False] * len(self.raw)
        for r in aligned:
            kept[r] = True
        wrong = next((r for r in range(len(self.raw)) if kept[r] == outliers[r]), None)
        if wrong is not None and kept[wrong]:
            broken.append(("deletion", _(
                "raw data row {raw} is an outlier of vector {vector} (its class has fewer "
                "than k = {k} records) and must be deleted, but it is released as data row "
                "{row} of the output").format(raw=wrong + 1, vector=vector, k=self.k,
                                              row=aligned.index(wrong) + 1)))
        elif wrong is not None:
            broken.append(("deletion", _(
                "raw data row {raw} is in a class of at least k = {k} records under vector "
                "{vector}, so it must be released, but the output leaves it out").format(
                raw=wrong + 1, k=self.k, vector=vector)))
        return broken

    def _copied(self, aligned: list[int]) -> tuple[str, str] | None:
        """The first released non-QI cell that differs from its record's."""
        for p, c in enumerate(self.columns):
            if p in self.qi_pos:
                continue
            for i, (row, r) in enumerate(zip(self.out, aligned)):
                if row[p] != self.raw[r][c]:
                    return ("columns", _("data row {row} of the output, column {column!r}: "
                                         "the cell {cell!r} differs from its record's (raw "
                                         "data row {raw}) {value!r}; non-QI cells are copied "
                                         "unchanged").format(
                        row=i + 1, column=self.case.columns[p], cell=row[p], raw=r + 1,
                        value=self.raw[r][c]))
        return None


def lowest(case, header: list[str], raw: Rows, dghs: dict[str, Hierarchy]
           ) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """The lowest height of a vector leaving at most case.max_sup outliers and every such
    vector of that height (levels in case.qis order), found by trying every vector: for the
    small inputs of the public counterexample pool only. (-1, ()) when none does."""
    judge = Judge(case, header, raw, dghs)
    found = [s for s in product(*(range(len(levels)) for levels in judge.levels))
             if sum(judge.outliers(s)) <= case.max_sup]
    if not found:
        return -1, ()
    low = min(map(sum, found))
    return low, tuple(sorted(s for s in found if sum(s) == low))


def check(case, header: list[str], raw: Rows, dghs: dict[str, Hierarchy],
          out_header: list[str], out: Rows) -> list[tuple[str, str]]:
    """The broken rules of a samarati output for a public case, [] for a right answer."""
    return Judge(case, header, raw, dghs).judge(out_header, out)
