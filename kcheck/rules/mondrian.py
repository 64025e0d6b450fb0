"""check_mondrian: judge a strict Mondrian output (LeFevre et al. 2006) by the course's rules
(the dimension of each cut is free, so several outputs are right).

Every record is released, so output rows align 1:1 with raw rows. A QI is numeric when every
raw value parses with float(), is finite, and no two spellings give one number; its cells
are `[lo-hi]` (the raw spellings of the class's smallest and largest value) or the raw value
when they are equal; a categorical QI's cells are the LCA of the class's values. Classes are
the groups of rows with identical QI cells, named by their first row.

Rules, in the order reported: columns (header, row count, every released non-QI cell equal to
the raw one); cover (each QI cell covers its raw value: a label that is the raw value or an
ancestor, or, in a numeric column, a finite interval lo < hi holding it); exact (cells are
the class's [min-max] / LCA); k (every class has >= k rows); median-cuts (the classes are
the leaves of a tree of allowable strict median cuts from the whole table, cuts.py; left out
when k is broken, which implies it); final (no class admits an allowable cut on any QI).
"""
from __future__ import annotations

import math

from ..cells import is_numeric_column, parse_interval
from ..tables import Table
from ..text import Message
from .cuts import final_break, search, why_not
from .partitions import Classes, Qi
from .release import Broken, Release, broken, check_header, check_int, raw_codes, row_list
from .words import phrase

__all__ = ["RULES", "check_mondrian", "numeric_values", "parse_interval"]

RULES = ("columns", "cover", "exact", "k", "median-cuts", "final")
"""The rule ids, in the order they are reported."""


def check_mondrian(release: Release, k: int, out: Table, hidden: bool = False) -> list[Broken]:
    """The broken rules of `out` (module docstring), [] for a right answer."""
    k = check_int("k", k, 1)
    raw = release.raw
    header = check_header(release, out, len(raw.rows), hidden)
    if header is not None:
        return [header]
    qi_pos, other_pos = release.positions()
    found = []
    copied = _copied(release, other_pos, out, hidden)
    if copied is not None:
        found.append(copied)
    codes = raw_codes(release)
    cells = [[row[p] for row in out.rows] for p in qi_pos]
    qis = [_qi(release, j, codes[j]) for j in range(len(qi_pos))]
    cover = _cover(release, qis, cells, hidden)
    if cover is not None:
        found.append(cover)
    if not raw.rows:
        return found
    ids: dict[tuple[str, ...], int] = {}
    keys = zip(*cells) if cells else [()] * len(raw.rows)
    classes = Classes(qis, [ids.setdefault(key, len(ids)) for key in keys], k)
    exact = _exact(classes, cells, hidden)
    if exact is not None:
        found.append(exact)
    c = next((c for c, size in enumerate(classes.sizes) if size < k), None)
    if c is not None:
        members = [r + 1 for r in classes.members[c]]
        found.append(broken("k", phrase("k", row=members[0], size=classes.sizes[c],
                                        rows=row_list(members), k=k),
                            row=members[0]))
    else:
        cuts = _median_cuts(classes, hidden)
        if cuts is not None:
            found.append(cuts)
    final = final_break(classes)
    if final is not None:
        c, j = final
        how = phrase("how.median" if qis[j].numeric else "how.children")
        found.append(broken("final", phrase("final", row=classes.first_row[c] + 1,
                                            size=classes.sizes[c], how=how,
                                            column=qis[j].name, k=k),
                            row=classes.first_row[c] + 1, column=qis[j].name))
    return found


def numeric_values(texts: list[str]) -> list[float] | None:
    """The texts as numbers when the column is numeric (kcheck.cells.is_numeric_column: each
    parses with float(), is finite, no two spellings give one number); else None."""
    return [float(text) for text in texts] if is_numeric_column(texts) else None


def _qi(release: Release, j: int, codes: list[int]) -> Qi:
    """QI j; numeric when its distinct raw values are (the same verdict as over every raw
    value: the raw values are the labels of their nodes)."""
    c, tree = release.qi_columns[j], release.trees[j]
    qi = Qi(release.raw.header[c], tree, codes)
    present = sorted(set(codes))
    spelled = [tree.labels[node] for node in present]
    numbers = numeric_values(spelled)
    if numbers is not None:
        by_value = sorted(range(len(present)), key=numbers.__getitem__)
        rank = {present[i]: at for at, i in enumerate(by_value)}
        qi.rank = [rank[node] for node in codes]
        qi.values = [numbers[i] for i in by_value]
        qi.spellings = [spelled[i] for i in by_value]
    return qi


def _copied(release: Release, other_pos: list[int], out: Table, hidden: bool
            ) -> Broken | None:
    """The first released non-QI cell that differs from the raw one."""
    raw = release.raw
    for p in other_pos:
        c = release.released[p]
        for i, (row, raw_row) in enumerate(zip(out.rows, raw.rows), start=1):
            if row[p] != raw_row[c]:
                detail = phrase("copied.raw", hidden, cell=row[p], raw=raw_row[c])
                return broken("columns", phrase("at.row_column", row=i, column=raw.header[c],
                                                detail=detail),
                              row=i, column=raw.header[c])
    return None


def _fault(qi: Qi, raw: str, cell: str) -> str | None:
    """Why `cell` does not generalize `raw` (None: it does): "ancestor", "not-a-cell",
    "not-allowed", "not-finite", "empty", "misses"."""
    tree = qi.tree
    node = tree.index.get(cell)
    if node is not None:
        return None if tree.contains(node, tree.index[raw]) else "ancestor"
    bounds = parse_interval(cell)
    if bounds is None:
        return "not-a-cell"
    if not qi.numeric:
        return "not-allowed"
    lo, hi = bounds
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return "not-finite"
    if not lo < hi:
        return "empty"
    return None if lo <= float(raw) <= hi else "misses"


def _cover(release: Release, qis: list[Qi], cells: list[list[str]], hidden: bool
           ) -> Broken | None:
    """The first row (then QI) whose cell does not cover its raw value."""
    raw = release.raw
    found: tuple[int, Message, str] | None = None  # (row, detail, column)
    for j, (c, qi) in enumerate(zip(release.qi_columns, qis)):
        faults: dict[tuple[str, str], str | None] = {}
        for i, (row, cell) in enumerate(zip(raw.rows, cells[j])):
            if found is not None and i >= found[0]:
                break
            pair = (row[c], cell)
            if pair not in faults:
                faults[pair] = _fault(qi, *pair)
            if faults[pair] is not None:
                found = (i, _uncovered(faults[pair], row[c], cell, hidden), qi.name)
                break
    if found is None:
        return None
    i, detail, column = found
    return broken("cover", phrase("at.row_column", row=i + 1, column=column, detail=detail),
                  row=i + 1, column=column)


def _uncovered(fault: str, raw: str, cell: str, hidden: bool) -> Message:
    """The detail of a cover break: the cell, and why it does not cover `raw`."""
    key = {"not-allowed": "cover.not_allowed", "not-a-cell": "cover.not_a_cell",
           "not-finite": "cover.not_finite"}.get(fault, "cover.misses")
    if fault == "empty":  # lo = hi: a class whose smallest and largest values are equal
        lo, hi = parse_interval(cell) or (0.0, 1.0)
        key = "cover.equal" if lo == hi else "cover.reversed"
    return phrase(key, hidden, cell=cell, raw=raw)


def _exact(classes: Classes, cells: list[list[str]], hidden: bool) -> Broken | None:
    """The first class (then QI) whose cell is not its [min-max] range / LCA."""
    for c, row in enumerate(classes.first_row):
        for j, qi in enumerate(classes.qis):
            if qi.numeric:
                low, high = classes.low[j][c], classes.high[j][c]
                expected = qi.spellings[low] if low == high else \
                    f"[{qi.spellings[low]}-{qi.spellings[high]}]"
                what = phrase("what.range")
            else:
                expected = qi.tree.labels[classes.lca[j][c]]
                what = phrase("what.lca")
            cell = cells[j][row]
            if cell != expected:
                return broken("exact", phrase("exact", hidden, row=row + 1,
                                              size=classes.sizes[c], column=qi.name, cell=cell,
                                              what=what, expected=expected),
                              row=row + 1, column=qi.name)
    return None


def _median_cuts(classes: Classes, hidden: bool) -> Broken | None:
    """Whether the classes are the leaves of a tree of allowable strict median cuts."""
    dead, gave_up = search(classes)
    if dead is None:
        return None
    if gave_up:
        return broken("median-cuts", phrase("cuts.limit"))
    whole = len(dead) == len(classes.sizes)
    named = phrase("cuts.whole") if whole else \
        phrase("cuts.part", rows=row_list([classes.first_row[c] + 1 for c in dead]))
    reasons = tuple(why_not(classes, dead, j, hidden) for j in range(len(classes.qis)))
    return broken("median-cuts", phrase("cuts", named=named, size=classes.rows(dead),
                                        reasons=reasons),
                  row=classes.first_row[dead[0]] + 1)
