"""Where a Samarati output breaks full-domain generalization, for check_samarati's messages:
a cell that is no label, a column whose cells fit no single level (two rows at different
levels), a row that no record generalized by the closest vector gives; and the counts that
pick that closest vector.
"""
from __future__ import annotations

from collections import Counter
from typing import Sequence

from ..tables import Table
from .lattice import Key, Lattice, Vector, subsequence
from .release import Broken, shown

__all__ = ["Output", "unknown_label", "candidate_levels", "suppressed_row", "suppressed_breaks",
           "excess", "misfit"]


class Output:
    """A judged output: its table, the QIs' positions in it, whether the case is hidden, and
    its QI cells as node ids per QI (-1: not a label)."""

    def __init__(self, table: Table, qi_pos: list[int], hidden: bool, lattice: Lattice):
        self.table, self.qi_pos, self.hidden = table, qi_pos, hidden
        self.columns = [[tree.index.get(row[p], -1) for row in table.rows]
                        for p, tree in zip(qi_pos, lattice.trees)]
        self.rows: list[Key] = list(zip(*self.columns)) if self.columns else \
            [()] * len(table.rows)

    def cell(self, i: int, j: int) -> str:
        """Output row i's cell of QI j."""
        return self.table.rows[i][self.qi_pos[j]]


def unknown_label(lattice: Lattice, output: Output) -> Broken | None:
    """The first QI cell (row, then column) that is not a label of its hierarchy."""
    found = [(column.index(-1), j) for j, column in enumerate(output.columns) if -1 in column]
    if not found:
        return None
    i, j = min(found)
    return Broken("full-domain", f"data row {i + 1} of the output, column "
                  f"{lattice.names[j]!r}: the cell{shown(output.cell(i, j), output.hidden)} is "
                  f"not a label of the column's hierarchy",
                  row=i + 1, column=lattice.names[j])


def candidate_levels(lattice: Lattice, output: Output
                     ) -> tuple[list[list[int]], Broken | None]:
    """Per QI the levels whose generalized raw cells include every output cell; when a QI
    has none, the break of the earliest row."""
    levels, breaks = [], []
    for j, column in enumerate(output.columns):
        present = lattice.present(j)
        seen = set(column)
        levels.append([s for s, nodes in enumerate(present) if seen <= nodes])
        if not levels[-1]:
            fits = {v: tuple(v in nodes for nodes in present) for v in seen}
            breaks.append(_level_break(lattice, output, j, [fits[v] for v in column]))
    if breaks:
        return levels, min(breaks, key=lambda b: b[0])[1]
    return levels, None


def suppressed_row(lattice: Lattice, output: Output) -> int | None:
    """When the output's cells fit no single level per column only because of rows whose
    every QI cell is its hierarchy's root (records suppressed with '*' cells instead of
    deleted): the first such row (from 0); else None."""
    at_root = [not any(row) for row in output.rows]  # node 0: the root (preorder)
    if not any(at_root) or all(at_root):
        return None
    for j, column in enumerate(output.columns):
        seen = {v for v, root in zip(column, at_root) if not root}
        if not any(seen <= nodes for nodes in lattice.present(j)):
            return None  # another column breaks full-domain anyway
    return at_root.index(True)


def suppressed_breaks(lattice: Lattice, output: Output, i: int) -> list[Broken]:
    """full-domain and deletion, for output row i suppressed with root cells."""
    roots = "" if output.hidden else " (" + ", ".join(
        repr(tree.labels[0]) for tree in lattice.trees) + ")"
    return [Broken("full-domain", f"data row {i + 1} of the output has every QI cell at its "
                   f"hierarchy's root{roots} and other rows do not: no single vector "
                   f"generalizes both (a suppressed record is deleted, not released with its "
                   f"QI cells at the root)",
                   row=i + 1),
            Broken("deletion", f"data row {i + 1} of the output is a suppressed record (every "
                   f"QI cell at the root): it must be deleted (left out of the output), not "
                   f"released",
                   row=i + 1)]


def _level_break(lattice: Lattice, output: Output, j: int, fits: list[tuple[bool, ...]]
                 ) -> tuple[int, Broken]:
    """(row, Broken) for QI j, whose output cells fit no single level (fits[i][s]: row
    i's cell is a generalization at level s of some raw value)."""
    name, hidden = lattice.names[j], output.hidden
    running = set(range(len(fits[0])))
    i = 0
    for i, fit in enumerate(fits):
        running &= {s for s, ok in enumerate(fit) if ok}
        if not running:
            break
    where = f"data row {i + 1} of the output, column {name!r}"
    if not any(fits[i]):
        return i, Broken("full-domain", f"{where}: the cell{shown(output.cell(i, j), hidden)} "
                         f"generalizes no raw value of the column at any level",
                         row=i + 1, column=name)
    r = next((r for r in range(i) if not any(a and b for a, b in zip(fits[r], fits[i]))),
             None)
    if r is not None:
        return i, Broken("full-domain", f"data rows {r + 1} and {i + 1} of the output, "
                         f"column {name!r}: the cells are at different levels of the "
                         f"hierarchy ({_levels(fits[r])} and {_levels(fits[i])}), but "
                         f"full-domain generalization puts a column at one level",
                         row=i + 1, column=name)
    return i, Broken("full-domain", f"{where}: no single level of the hierarchy gives "
                     f"this cell and every cell above it in the column",
                     row=i + 1, column=name)


def excess(raw_key: Sequence[Key], out_key: Sequence[Key]) -> tuple[int, int]:
    """(output rows whose cells no record has under the vector, output rows beyond the
    records' counts)."""
    have, want = Counter(raw_key), Counter(out_key)
    missing = sum(n for key, n in want.items() if key not in have)
    return missing, sum(max(n - have.get(key, 0), 0) for key, n in want.items())


def misfit(lattice: Lattice, output: Output, s: Vector, raw_key: Sequence[Key],
           out_key: Sequence[Key]) -> Broken:
    """Why the output is no selection of s's generalized records in raw order (s: the
    closest vector): the first row that cannot be aligned."""
    aligned, i = subsequence(out_key, raw_key)
    vector, hidden = lattice.describe(s), output.hidden
    after = aligned[i - 1] + 1 if i else 0
    if out_key[i] in set(raw_key):  # so i > 0: row i could not follow row i - 1
        return Broken("deletion", f"data row {i + 1} of the output repeats a record or "
                      f"breaks the raw order: under vector {vector}, no raw data row after "
                      f"{after} generalizes to its cells (the output releases records in "
                      f"raw order, each at most once)",
                      row=i + 1)
    wanted = output.rows[i]
    offset = after if after < lattice.n else 0
    best, r = -1, offset
    for at in range(offset, lattice.n):
        same = sum(a == b for a, b in zip(raw_key[at], wanted))
        if same > best:
            best, r = same, at
    j = next((j for j, (a, b) in enumerate(zip(raw_key[r], wanted)) if a != b), 0)
    name, label = lattice.names[j], lattice.trees[j].labels[raw_key[r][j]]
    closest = (f"generalizes to another cell in column {name!r}" if hidden else
               f"generalizes to {label!r} in column {name!r}, not {output.cell(i, j)!r}")
    return Broken("full-domain", f"data row {i + 1} of the output matches no raw record "
                  f"generalized by vector {vector}: the closest, raw data row {r + 1}, "
                  f"{closest}",
                  row=i + 1)


def _levels(fits: tuple[bool, ...]) -> str:
    found = [s for s, ok in enumerate(fits) if ok]
    return f"level{'s' if len(found) > 1 else ''} {', '.join(map(str, found))}"
