"""Where a Samarati output breaks full-domain generalization, for check_samarati's messages:
a cell that is no label, a column whose cells fit no single level (two rows at different
levels), a row that no record generalized by the closest vector gives; and the counts that
pick that closest vector.
"""
from __future__ import annotations

from collections import Counter
from typing import Sequence

from ..tables import Table
from ..text import Message
from .lattice import Key, Lattice, Vector, subsequence
from .release import Broken, broken
from .words import numbers, phrase

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
    detail = phrase("cell.not_label", output.hidden, cell=output.cell(i, j))
    return broken("full-domain", phrase("at.output_row_column", row=i + 1,
                                        column=lattice.names[j], detail=detail),
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
    roots = ", ".join(repr(tree.labels[0]) for tree in lattice.trees)
    return [broken("full-domain", phrase("root", output.hidden, row=i + 1, roots=roots),
                   row=i + 1),
            broken("deletion", phrase("deletion.root", row=i + 1), row=i + 1)]


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
    if not any(fits[i]):
        detail = phrase("cell.no_level", hidden, cell=output.cell(i, j))
        return i, broken("full-domain", phrase("at.output_row_column", row=i + 1, column=name,
                                               detail=detail),
                         row=i + 1, column=name)
    r = next((r for r in range(i) if not any(a and b for a, b in zip(fits[r], fits[i]))),
             None)
    if r is not None:
        return i, broken("full-domain", phrase("levels.apart", first=r + 1, row=i + 1,
                                               column=name, levels1=_levels(fits[r]),
                                               levels2=_levels(fits[i])),
                         row=i + 1, column=name)
    return i, broken("full-domain", phrase("at.output_row_column", row=i + 1, column=name,
                                           detail=phrase("cell.no_level_above")),
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
        return broken("deletion", phrase("deletion.order", row=i + 1, vector=vector,
                                         after=after),
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
    closest = phrase("closest", hidden, label=label, column=name, cell=output.cell(i, j))
    return broken("full-domain", phrase("misfit", row=i + 1, vector=vector, raw_row=r + 1,
                                        closest=closest),
                  row=i + 1)


def _levels(fits: tuple[bool, ...]) -> Message:
    found = [s for s, ok in enumerate(fits) if ok]
    return phrase("levels" if len(found) > 1 else "level", list=numbers(found))
