"""What the rule checkers share: a broken rule (`Broken`), the raw side of a release
(`Release`), the header check, and small encoders (raw cells to hierarchy nodes, rows of
cells to class ids).

Messages name rows the way the handout does: data rows counted from 1 in file order, the
header not counted ("data row 3" of the output, "raw data row 7" of the raw file). With
`hidden=True` no message shows a cell value or a hierarchy label; column names, row numbers,
counts and lattice levels are not cell values and are always shown.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import repeat
from operator import itemgetter
from typing import Sequence

import numpy as np

from ..hierarchy import DGH
from ..table import Table

__all__ = ["Broken", "Release", "make_release", "check_header", "raw_codes", "label_codes",
           "combine", "factorize", "shown", "row_list"]


@dataclass(frozen=True)
class Broken:
    """One broken rule: its stable id, one plain sentence naming the row(s) and column, and
    where it is as numbers and names only (what a hidden case shows): the data row (of the
    output; of the raw file when `raw`) and the column, None when the rule has none."""

    rule: str
    message: str
    row: int | None = None
    column: str | None = None
    raw: bool = False


@dataclass(frozen=True)
class Release:
    """The raw side of a judged output: the raw dataset, its QIs (raw column indices, one
    hierarchy each, in raw column order) and the columns the output must hold (raw column
    indices in raw order: the QIs and the sensitive column, or every column)."""

    raw: Table
    qi_columns: list[int]
    dghs: list[DGH]
    released: list[int]

    @property
    def names(self) -> list[str]:
        """The released columns' names: the output's header."""
        return [self.raw.header[c] for c in self.released]

    @property
    def qi_names(self) -> list[str]:
        return [self.raw.header[c] for c in self.qi_columns]

    def positions(self) -> tuple[list[int], list[int]]:
        """Output positions of the QIs (in QI order) and of the other released columns."""
        where = {c: p for p, c in enumerate(self.released)}
        missing = [self.raw.header[c] for c in self.qi_columns if c not in where]
        if missing or len(self.dghs) != len(self.qi_columns):
            raise ValueError(f"release: every QI needs one hierarchy and must be released "
                             f"(not released: {missing})")
        others = [p for p, c in enumerate(self.released) if c not in self.qi_columns]
        return [where[c] for c in self.qi_columns], others


def make_release(raw: Table, dghs: dict[str, DGH], sensitive: str | None = None) -> Release:
    """The release of a call: the QIs are the raw columns with a hierarchy (`dghs`, keyed by
    column name, e.g. kanon.read_dgh_folder's); the released columns are the QIs and
    `sensitive` in raw order, or every column when `sensitive` is None."""
    qi_columns = [c for c, name in enumerate(raw.header) if name in dghs]
    if sensitive is None:
        released = list(range(len(raw.header)))
    elif sensitive not in raw.header or sensitive in dghs:
        raise ValueError(f"{raw.path}: the sensitive column {sensitive!r} is not a non-QI "
                         f"column of the header {raw.header}")
    else:
        released = sorted(qi_columns + [raw.header.index(sensitive)])
    return Release(raw, qi_columns, [dghs[raw.header[c]] for c in qi_columns], released)


def shown(value: str, hidden: bool) -> str:
    """' <value>' quoted, or '' for a hidden case."""
    return "" if hidden else f" {value!r}"


def row_list(numbers: Sequence[int], limit: int = 3) -> str:
    """'3', '3, 8', '3, 8, 9, ...': at most `limit` row numbers."""
    shown_numbers = ", ".join(str(int(n)) for n in numbers[:limit])
    return shown_numbers + (", ..." if len(numbers) > limit else "")


def check_header(release: Release, out: Table, rows: int | None, hidden: bool
                 ) -> Broken | None:
    """The header must be the released columns in raw order; `rows`, when given, is the
    number of data rows the output must have (at most len(raw) when None)."""
    expected = release.names
    if out.header != expected:
        return Broken("columns", f"the header is {out.header}, but the released columns are "
                                 f"{expected} (in the raw file's order)" if not hidden else
                      f"the header differs from the released columns {expected} (in the raw "
                      f"file's order)")
    n = len(release.raw.rows)
    if rows is not None and len(out.rows) != rows:
        return Broken("columns", f"the output has {len(out.rows)} data rows, but the raw file "
                                 f"has {rows} and every record is released")
    if rows is None and len(out.rows) > n:
        return Broken("columns", f"the output has {len(out.rows)} data rows, more than the "
                                 f"raw file's {n}")
    return None


def raw_codes(release: Release) -> np.ndarray:
    """(n, q) node ids of the raw QI cells; a raw value missing from its hierarchy is a
    ValueError naming the raw data row and the column."""
    raw = release.raw
    codes = np.empty((len(raw.rows), len(release.qi_columns)), dtype=np.int64)
    for j, (c, dgh) in enumerate(zip(release.qi_columns, release.dghs)):
        index = dgh.index
        try:
            codes[:, j] = np.fromiter(map(index.__getitem__, map(itemgetter(c), raw.rows)),
                                      dtype=np.int64, count=len(raw.rows))
        except KeyError:
            number = next(i for i, row in enumerate(raw.rows, 1) if row[c] not in index)
            raise ValueError(f"{raw.path}: raw data row {number}, column {raw.header[c]!r}: "
                             f"the value is not a label of {dgh.path}") from None
    return codes


def label_codes(dgh: DGH, cells: Sequence[str]) -> np.ndarray:
    """Node id of every cell, -1 where the cell is not a label of the hierarchy."""
    get = dgh.index.get
    return np.fromiter(map(get, cells, repeat(-1, len(cells))), dtype=np.int64,
                       count=len(cells))


def combine(columns: Sequence[np.ndarray], bases: Sequence[int]) -> np.ndarray:
    """One non-negative int64 key per row for rows of small non-negative ints (column j's
    values below bases[j]): equal keys exactly when the rows are equal."""
    n = len(columns[0]) if len(columns) else 0
    key = np.zeros(n, dtype=np.int64)
    size = 1
    for column, base in zip(columns, bases):
        if size * base >= 1 << 62:  # renumber before the product overflows
            _, key = np.unique(key, return_inverse=True)
            key = key.reshape(-1).astype(np.int64)
            size = int(key.max()) + 1 if n else 1
        key = key * base + column
        size *= base
    return key


def factorize(cells: Sequence[str]) -> tuple[np.ndarray, list[str]]:
    """Id of every cell (ids in order of first appearance) and the distinct cells."""
    distinct = list(dict.fromkeys(cells))
    index = {cell: i for i, cell in enumerate(distinct)}
    return np.fromiter(map(index.__getitem__, cells), dtype=np.int64, count=len(cells)), distinct
