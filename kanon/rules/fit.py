"""Where a Samarati output breaks full-domain generalization, for check_samarati's messages:
a cell that is no label, a column whose cells fit no single level (two rows at different
levels), a row that no record generalized by the closest vector gives; and the counts that
pick that closest vector.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..hierarchy import DGH
from ..table import Table
from .lattice import Lattice, Vector, subsequence
from .release import Broken, label_codes, shown

__all__ = ["Output", "unknown_label", "candidate_levels", "suppressed_row", "suppressed_breaks",
           "excess", "misfit"]


@dataclass
class Output:
    """A judged output: its table, the QIs' positions in it, whether the case is hidden, and
    its QI cells as node ids (-1: not a label)."""

    table: Table
    qi_pos: list[int]
    hidden: bool
    dghs: list[DGH]
    codes: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        rows = self.table.rows
        self.codes = np.zeros((len(rows), len(self.dghs)), dtype=np.int64)
        for j, (p, dgh) in enumerate(zip(self.qi_pos, self.dghs)):
            self.codes[:, j] = label_codes(dgh, [row[p] for row in rows])

    def cell(self, i: int, j: int) -> str:
        """Output row i's cell of QI j."""
        return self.table.rows[i][self.qi_pos[j]]


def unknown_label(lattice: Lattice, output: Output) -> Broken | None:
    """The first QI cell (row, then column) that is not a label of its hierarchy."""
    bad = output.codes < 0
    if not bad.any():
        return None
    i = int(np.argmax(bad.any(axis=1)))
    j = int(np.argmax(bad[i]))
    return Broken("full-domain", f"data row {i + 1} of the output, column "
                  f"{lattice.names[j]!r}: the cell{shown(output.cell(i, j), output.hidden)} is "
                  f"not a label of the column's hierarchy",
                  row=i + 1, column=lattice.names[j])


def candidate_levels(lattice: Lattice, output: Output
                     ) -> tuple[list[list[int]], Broken | None]:
    """Per QI the levels whose generalized raw cells include every output cell; when a QI
    has none, the break of the earliest row."""
    levels, breaks = [], []
    for j, dgh in enumerate(lattice.dghs):
        present = np.zeros((lattice.heights[j] + 1, dgh.n_nodes), dtype=bool)
        for s, nodes in enumerate(lattice.up[j]):
            present[s, nodes] = True
        fits = present[:, output.codes[:, j]]  # (levels, m)
        levels.append([s for s in range(len(present)) if fits[s].all()])
        if not levels[-1]:
            breaks.append(_level_break(lattice, output, j, fits.T))
    if breaks:
        return levels, min(breaks, key=lambda b: b[0])[1]
    return levels, None


def suppressed_row(lattice: Lattice, output: Output) -> int | None:
    """When the output's cells fit no single level per column only because of rows whose
    every QI cell is its hierarchy's root (records suppressed with '*' cells instead of
    deleted): the first such row (from 0); else None."""
    at_root = (output.codes == 0).all(axis=1)  # node 0: the root (preorder)
    if not at_root.any() or at_root.all():
        return None
    rest = output.codes[~at_root]
    for j, dgh in enumerate(lattice.dghs):
        present = np.zeros((lattice.heights[j] + 1, dgh.n_nodes), dtype=bool)
        for s, nodes in enumerate(lattice.up[j]):
            present[s, nodes] = True
        if not present[:, rest[:, j]].all(axis=1).any():
            return None  # another column breaks full-domain anyway
    return int(np.argmax(at_root))


def suppressed_breaks(lattice: Lattice, output: Output, i: int) -> list[Broken]:
    """full-domain and deletion, for output row i suppressed with root cells."""
    roots = "" if output.hidden else " (" + ", ".join(
        repr(dgh.labels[0]) for dgh in lattice.dghs) + ")"
    return [Broken("full-domain", f"data row {i + 1} of the output has every QI cell at its "
                   f"hierarchy's root{roots} and other rows do not: no single vector "
                   f"generalizes both (a suppressed record is deleted, not released with its "
                   f"QI cells at the root)",
                   row=i + 1),
            Broken("deletion", f"data row {i + 1} of the output is a suppressed record (every "
                   f"QI cell at the root): it must be deleted (left out of the output), not "
                   f"released",
                   row=i + 1)]


def _level_break(lattice: Lattice, output: Output, j: int, fits: np.ndarray
                 ) -> tuple[int, Broken]:
    """(row, Broken) for QI j, whose output cells fit no single level (fits[i, s]: row
    i's cell is a generalization at level s of some raw value)."""
    name, hidden = lattice.names[j], output.hidden
    running = np.logical_and.accumulate(fits, axis=0).any(axis=1)
    i = int(np.argmax(~running))
    where = f"data row {i + 1} of the output, column {name!r}"
    if not fits[i].any():
        return i, Broken("full-domain", f"{where}: the cell{shown(output.cell(i, j), hidden)} "
                         f"generalizes no raw value of the column at any level",
                         row=i + 1, column=name)
    apart = np.flatnonzero(~(fits[:i] & fits[i]).any(axis=1))
    if len(apart):
        r = int(apart[0])
        return i, Broken("full-domain", f"data rows {r + 1} and {i + 1} of the output, "
                         f"column {name!r}: the cells are at different levels of the "
                         f"hierarchy ({_levels(fits[r])} and {_levels(fits[i])}), but "
                         f"full-domain generalization puts a column at one level",
                         row=i + 1, column=name)
    return i, Broken("full-domain", f"{where}: no single level of the hierarchy gives "
                     f"this cell and every cell above it in the column",
                     row=i + 1, column=name)


def excess(raw_key: np.ndarray, out_key: np.ndarray) -> tuple[int, int]:
    """(output rows whose cells no record has under the vector, output rows beyond the
    records' counts)."""
    _, inverse = np.unique(np.concatenate((raw_key, out_key)), return_inverse=True)
    inverse = inverse.reshape(-1)
    n = len(raw_key)
    size = int(inverse.max()) + 1 if len(inverse) else 0
    have = np.bincount(inverse[:n], minlength=size)
    want = np.bincount(inverse[n:], minlength=size)
    return int((have[inverse[n:]] == 0).sum()), int(np.maximum(want - have, 0).sum())


def misfit(lattice: Lattice, output: Output, s: Vector, raw_key: np.ndarray,
           out_key: np.ndarray) -> Broken:
    """Why the output is no selection of s's generalized records in raw order (s: the
    closest vector): the first row that cannot be aligned."""
    aligned, i = subsequence(out_key, raw_key)
    vector, hidden = lattice.describe(s), output.hidden
    after = int(aligned[i - 1]) + 1 if i else 0
    if (raw_key == out_key[i]).any():  # so i > 0: row i could not follow row i - 1
        return Broken("deletion", f"data row {i + 1} of the output repeats a record or "
                      f"breaks the raw order: under vector {vector}, no raw data row after "
                      f"{after} generalizes to its cells (the output releases records in "
                      f"raw order, each at most once)",
                      row=i + 1)
    generalized = lattice.generalized(s)
    offset = after if after < lattice.n else 0
    r = int(np.argmax((generalized[offset:] == output.codes[i]).sum(axis=1))) + offset
    j = int(np.argmax(generalized[r] != output.codes[i]))
    name, label = lattice.names[j], lattice.dghs[j].labels[generalized[r, j]]
    closest = (f"generalizes to another cell in column {name!r}" if hidden else
               f"generalizes to {label!r} in column {name!r}, not {output.cell(i, j)!r}")
    return Broken("full-domain", f"data row {i + 1} of the output matches no raw record "
                  f"generalized by vector {vector}: the closest, raw data row {r + 1}, "
                  f"{closest}",
                  row=i + 1)


def _levels(fits: np.ndarray) -> str:
    found = np.flatnonzero(fits).tolist()
    return f"level{'s' if len(found) > 1 else ''} {', '.join(map(str, found))}"
