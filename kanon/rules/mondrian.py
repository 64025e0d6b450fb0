"""check_mondrian: judge a strict Mondrian output (LeFevre et al. 2006) by the course's rules
(the dimension of each cut is free, so several outputs are right).

Every record is released, so output rows align 1:1 with raw rows. A QI is numeric when every
raw value parses with float() (kanon.cells.numeric_values); its cells are `[lo-hi]` (the raw
spellings of the class's smallest and largest value) or the raw value when they are equal; a
categorical QI's cells are the LCA of the class's values. Classes are the groups of rows with
identical QI cells, named by their first row.

Rules, in the order reported: columns (header, row count, every released non-QI cell equal to
the raw one); cover (each QI cell covers its raw value: kanon.cells.Column's rule); exact
(cells are the class's [min-max] / LCA); k (every class has >= k rows); median-cuts (the
classes are the leaves of a tree of allowable strict median cuts from the whole table,
kanon.rules.cuts; left out when k is broken, which implies it); final (no class admits
an allowable cut on any QI).
"""
from __future__ import annotations

import numpy as np

from ..cells import CellFault, Column, numeric_values, parse_interval
from ..problem import check_int
from ..table import Table
from .cuts import final_break, search, why_not
from .partitions import Classes, Qi
from .release import Broken, Release, check_header, combine, factorize, raw_codes, row_list, \
    shown

__all__ = ["RULES", "check_mondrian"]

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
    broken = []
    copied = _copied(release, other_pos, out, hidden)
    if copied is not None:
        broken.append(copied)
    codes = raw_codes(release)
    cells = [[row[p] for row in out.rows] for p in qi_pos]
    ids = [factorize(column) for column in cells]
    qis = [_qi(release, j, codes[:, j]) for j in range(len(qi_pos))]
    cover = _cover(release, qis, cells, ids, hidden)
    if cover is not None:
        broken.append(cover)
    if not len(raw.rows):
        return broken
    key = combine([i for i, _ in ids], [len(d) for _, d in ids])
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    renumber = np.empty(len(first), dtype=np.int64)
    renumber[np.argsort(first, kind="stable")] = np.arange(len(first))
    classes = Classes(qis, renumber[inverse.reshape(-1)], k)
    exact = _exact(classes, cells, hidden)
    if exact is not None:
        broken.append(exact)
    small = np.flatnonzero(classes.sizes < k)
    if len(small):
        c = int(small[0])
        members = classes.order[classes.starts[c]:classes.starts[c] + classes.sizes[c]] + 1
        broken.append(Broken("k", f"the class of data row {members[0]} has "
                              f"{classes.sizes[c]} row(s) (data rows {row_list(members)}), "
                              f"fewer than k = {k}",
                             row=int(members[0])))
    else:
        cuts = _median_cuts(classes, hidden)
        if cuts is not None:
            broken.append(cuts)
    final = final_break(classes)
    if final is not None:
        c, j = final
        how = "median cut" if qis[j].numeric else "cut into the children of its LCA"
        broken.append(Broken("final", f"the class of data row {classes.first_row[c] + 1} "
                                      f"({classes.sizes[c]} rows) still admits an allowable "
                                      f"{how} on column {qis[j].name!r} (every part would keep "
                                      f"at least k = {k} rows), so Mondrian would have cut it",
                             row=int(classes.first_row[c]) + 1, column=qis[j].name))
    return broken


def _qi(release: Release, j: int, codes: np.ndarray) -> Qi:
    """QI j; numeric when its distinct raw values are (the same verdict as over every raw
    value: the raw values are the labels of their nodes)."""
    c, dgh = release.qi_columns[j], release.dghs[j]
    qi = Qi(release.raw.header[c], dgh, codes)
    present = np.unique(codes)
    spelled = [dgh.labels[int(node)] for node in present]
    numbers = numeric_values(spelled)
    if numbers is not None:
        by_value = np.argsort(numbers, kind="stable")  # the numbers are distinct
        rank = np.zeros(dgh.n_nodes, dtype=np.int64)
        rank[present[by_value]] = np.arange(len(present))
        qi.rank, qi.values = rank[codes], numbers[by_value]
        qi.spellings = [spelled[int(i)] for i in by_value]
    return qi


def _copied(release: Release, other_pos: list[int], out: Table, hidden: bool
            ) -> Broken | None:
    """The first released non-QI cell that differs from the raw one."""
    raw = release.raw
    for p in other_pos:
        c = release.released[p]
        for i, (row, raw_row) in enumerate(zip(out.rows, raw.rows), start=1):
            if row[p] != raw_row[c]:
                return Broken("columns", f"data row {i}, column {raw.header[c]!r}: the cell"
                                         f"{shown(row[p], hidden)} differs from the raw "
                                         f"one{shown(raw_row[c], hidden)}; non-QI cells are "
                                         f"copied unchanged",
                              row=i, column=raw.header[c])
    return None


def _cover(release: Release, qis: list[Qi], cells: list[list[str]],
           ids: list[tuple[np.ndarray, list[str]]], hidden: bool) -> Broken | None:
    """The first row (then QI) whose cell does not cover its raw value."""
    raw = release.raw
    found: tuple[int, str, str] | None = None  # (row, message, column)
    for j, (c, qi) in enumerate(zip(release.qi_columns, qis)):
        cell_ids, distinct = ids[j]
        _, first, inverse = np.unique(qi.codes * len(distinct) + cell_ids,
                                      return_index=True, return_inverse=True)
        inverse = inverse.reshape(-1)
        rule = Column(qi.name, qi.dgh, [raw.rows[int(i)][c] for i in first])  # each pair once
        rule.numeric = qi.numeric  # the verdict over every raw value, not over the pairs'
        faults = [rule.check(raw.rows[int(i)][c], cells[j][int(i)]) for i in first]
        bad = np.asarray([f is not None for f in faults], dtype=bool)[inverse]
        if bad.any() and (found is None or int(np.argmax(bad)) < found[0]):
            i = int(np.argmax(bad))
            why = _uncovered(faults[int(inverse[i])].fault, raw.rows[i][c], cells[j][i], hidden)
            found = (i, f"data row {i + 1}, column {qi.name!r}: the cell"
                        f"{shown(cells[j][i], hidden)} {why}", qi.name)
    return None if found is None else Broken("cover", found[1],
                                             row=found[0] + 1, column=found[2])


def _uncovered(fault: CellFault, raw: str, cell: str, hidden: bool) -> str:
    if fault is CellFault.INTERVAL_NOT_ALLOWED:
        return "is an interval, but the column is not numeric"
    if fault is CellFault.NOT_A_CELL:
        return "is neither a label of the column's hierarchy nor an interval [lo-hi]"
    if fault is CellFault.INTERVAL_EMPTY:
        lo, hi = parse_interval(cell) or (0.0, 1.0)
        if lo == hi:  # a class whose smallest and largest values are equal
            return (f"is an interval with lo = hi, but an interval needs lo < hi: where the "
                    f"smallest and largest values are equal, the cell keeps the raw "
                    f"value{shown(raw, hidden)}")
        return "is an interval with lo > hi, but an interval needs lo < hi"
    if fault is CellFault.INTERVAL_NOT_FINITE:
        return "is an interval without finite bounds lo < hi"
    return f"does not cover the raw value{shown(raw, hidden)}"


def _exact(classes: Classes, cells: list[list[str]], hidden: bool) -> Broken | None:
    """The first class (then QI) whose cell is not its [min-max] range / LCA."""
    first = classes.first_row
    for c in range(len(classes.sizes)):
        row = int(first[c])
        for j, qi in enumerate(classes.qis):
            if qi.numeric:
                low, high = int(classes.low[j][c]), int(classes.high[j][c])
                expected = qi.spellings[low] if low == high else \
                    f"[{qi.spellings[low]}-{qi.spellings[high]}]"
                what = "the class's [min-max] range (its value when min = max)"
            else:
                expected = qi.dgh.labels[int(classes.lca[j][c])]
                what = "the lowest common ancestor of the class's values"
            cell = cells[j][row]
            if cell != expected:
                told = f"is not {what}" if hidden else f"is {cell!r}, but {what} is {expected!r}"
                return Broken("exact", f"the class of data row {row + 1} ({classes.sizes[c]} "
                                       f"rows), column {qi.name!r}: the cell {told}",
                              row=row + 1, column=qi.name)
    return None


def _median_cuts(classes: Classes, hidden: bool) -> Broken | None:
    """Whether the classes are the leaves of a tree of allowable strict median cuts."""
    dead, gave_up = search(classes)
    if dead is None:
        return None
    if gave_up:
        return Broken("median-cuts", "no tree of strict median cuts with these classes as "
                                     "leaves was found within the search's limit")
    rows = int(classes.sizes[dead].sum())
    whole = len(dead) == len(classes.sizes)
    named = "the whole table" if whole else \
        f"the partition of the classes of data rows {row_list(classes.first_row[dead] + 1)}"
    reasons = "; ".join(why_not(classes, dead, j, hidden) for j in range(len(classes.qis)))
    return Broken("median-cuts", f"the classes are not the leaves of a tree of strict median "
                                 f"cuts: {named} ({rows} rows) has no allowable cut on any QI "
                                 f"that keeps every class whole ({reasons})",
                  row=int(classes.first_row[dead][0]) + 1)
