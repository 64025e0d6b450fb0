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
        self.levels = []  # per QI, per level: every raw record's generalized cell
        for q in self.qis:
            c, parent = header.index(q), dghs[q]
            self.levels.append([[up(parent, row[c], s) for row in raw]
                                for s in range(height(parent) + 1)])

    def generalized(self, s: tuple[int, ...]) -> list[tuple[str, ...]]:
        """Every raw record generalized by s, released columns only."""
        cells = [[row[c] for c in self.columns] for row in self.raw]
        for j, p in enumerate(self.qi_pos):
            for i, value in enumerate(self.levels[j][s[j]]):
                cells[i][p] = value
        return [tuple(r) for r in cells]

    def outliers(self, s: tuple[int, ...]) -> list[bool]:
        keys = list(zip(*(self.levels[j][level] for j, level in enumerate(s))))
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
        options = []
        for j, q in enumerate(self.qis):
            seen = {row[self.qi_pos[j]] for row in out}
            fits = [s for s, cells in enumerate(self.levels[j]) if seen <= set(cells)]
            if not fits:
                return [("full-domain", _("column {column!r}: no level of its hierarchy "
                                          "holds every cell of the column as the "
                                          "generalization of a raw value").format(column=q))]
            options.append(fits)
        rows = [tuple(r) for r in out]
        best = (-1, None)
        for s in sorted(product(*options), key=lambda v: (sum(v), v)):
            aligned = self._align(rows, self.generalized(s))
            if len(aligned) == len(rows):
                return self._judge(s, aligned)
            best = max(best, (len(aligned), s), key=lambda b: b[0])
        done, s = best
        return [("full-domain", _("data row {row} of the output is not, in raw order, the "
                                  "generalization by one lattice vector of a raw record (the "
                                  "nearest vector, {vector}, fits data rows 1 to {done} "
                                  "only)").format(row=done + 1, vector=describe(self.qis, s),
                                                  done=done))]

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

    def _judge(self, s: tuple[int, ...], aligned: list[int]) -> list[tuple[str, str]]:
        vector, broken = describe(self.qis, s), []
        outliers = self.outliers(s)
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


def check(case, header: list[str], raw: Rows, dghs: dict[str, Hierarchy],
          out_header: list[str], out: Rows) -> list[tuple[str, str]]:
    """The broken rules of a samarati output for a public case, [] for a right answer."""
    return Judge(case, header, raw, dghs).judge(out_header, out)
