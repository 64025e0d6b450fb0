"""Independent checks of an anonymized output, used by the public tests.

Reads datasets and hierarchies the way HANDOUT.md says, checks that every output cell is a
valid generalization of its raw cell, checks the privacy property of each algorithm, and finds
the first difference from an expected output. Every function returns a problem description
(one stand-alone sentence) or None; nothing here computes MD or LM.
"""
from __future__ import annotations

import csv
import math
import gzip
import io
import os
from dataclasses import dataclass, field

from messages import _

Rows = list[list[str]]


def read_csv_text(text: str) -> tuple[list[str], Rows]:
    """Header and rows of a CSV text: blank lines ignored, a trailing CR dropped from cells."""
    records = [[c.rstrip("\r") for c in r] for r in csv.reader(io.StringIO(text, newline=""))]
    records = [r for r in records if r]
    if not records:
        return [], []
    return records[0], records[1:]


def read_csv(path: str) -> tuple[list[str], Rows]:
    """Read a dataset (UTF-8, BOM tolerated); `.gz` files are decompressed."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8-sig", newline="") as f:
        return read_csv_text(f.read())


@dataclass
class Hierarchy:
    """A DGH: parent of every label (None for the root) and the root label."""

    root: str
    parent: dict[str, str | None]

    def is_ancestor_or_self(self, ancestor: str, label: str) -> bool:
        node: str | None = label
        while node is not None:
            if node == ancestor:
                return True
            node = self.parent[node]
        return False


def read_hierarchy(path: str) -> Hierarchy:
    """Parse a DGH file (leading tabs = depth); assumes a well-formed file."""
    with open(path, encoding="utf-8-sig", newline="") as f:
        lines = [line for line in f.read().splitlines() if line.strip()]
    stack: list[str] = []
    parent: dict[str, str | None] = {}
    for line in lines:
        label = line.lstrip("\t")
        depth = len(line) - len(label)
        label = label.rstrip()
        del stack[depth:]
        parent[label] = stack[-1] if stack else None
        stack.append(label)
    return Hierarchy(root=lines[0].strip(), parent=parent)


def read_hierarchies(folder: str) -> dict[str, Hierarchy]:
    return {name[:-4]: read_hierarchy(os.path.join(folder, name))
            for name in sorted(os.listdir(folder)) if name.endswith(".txt")}


def parse_interval(cell: str) -> tuple[float, float] | None:
    """`[lo-hi]` as two numbers (split at the first '-' that leaves two numbers), else None."""
    if len(cell) < 5 or cell[0] != "[" or cell[-1] != "]":
        return None
    inner = cell[1:-1]
    for cut in range(1, len(inner)):
        if inner[cut] == "-":
            try:
                return float(inner[:cut]), float(inner[cut + 1:])
            except ValueError:
                continue
    return None


def _numeric_column(values: list[str]) -> bool:
    spelling: dict[float, str] = {}
    for text in values:
        try:
            number = float(text)
        except ValueError:
            return False
        if not math.isfinite(number) or spelling.setdefault(number, text) != text:
            return False
    return bool(values)


COUNTED = _("(the header is not counted)")
"""Rows in messages are data rows counted from 1 in file order (HANDOUT.md, "Ties")."""


def rows_text(rows: list[int], limit: int = 8) -> str:
    """'data rows 3, 17 (the header is not counted)' for the 0-based list indices [2, 16],
    shortened after `limit` rows."""
    shown = _(", ").join(str(r + 1) for r in rows[:limit])
    more = _(", ... ({count} rows)").format(count=len(rows)) if len(rows) > limit else ""
    return (_("data rows {rows}{more} {counted}") if len(rows) > 1 else
            _("data row {rows}{more} {counted}")).format(rows=shown, more=more, counted=COUNTED)


@dataclass
class Table:
    """A raw dataset with its hierarchies: which columns are QIs, which is sensitive."""

    header: list[str]
    rows: Rows
    dghs: dict[str, Hierarchy]
    _numeric: dict[int, bool] = field(default_factory=dict, repr=False)

    @property
    def qi(self) -> list[int]:
        return [c for c, name in enumerate(self.header) if name in self.dghs]

    @property
    def sensitive(self) -> int:
        others = [c for c in range(len(self.header)) if c not in self.qi]
        assert len(others) == 1, "public cases have exactly one sensitive column"
        return others[0]

    def numeric(self, column: int) -> bool:
        """Every raw value of the column parses with float() to a finite number, and no two
        different raw strings give the same number (HANDOUT.md, "Generalized cells")."""
        if column not in self._numeric:
            self._numeric[column] = _numeric_column([r[column] for r in self.rows])
        return self._numeric[column]


def load_table(raw_file: str, dgh_folder: str) -> Table:
    header, rows = read_csv(raw_file)
    return Table(header, rows, read_hierarchies(dgh_folder))


def _where(r: int, column: str) -> str:
    """Where a message points: output data row r + 1, the column named `column` (made only
    when a message is returned: a valid table has a cell for every row and column)."""
    return _("output data row {row} {counted}, column {column!r}").format(
        row=r + 1, counted=COUNTED, column=column)


def check_valid(raw: Table, header: list[str], rows: Rows, intervals: bool = False) -> str | None:
    """Same header and row count; non-QI cells unchanged; every QI cell a DGH label that is
    the raw value or one of its ancestors (or, with `intervals`, an interval [lo-hi] holding
    the raw value in a numeric column)."""
    if header != raw.header:
        return _("the output header is {header}, expected the raw file's header {raw}").format(
            header=header, raw=raw.header)
    if len(rows) != len(raw.rows):
        return _("the output has {rows} data rows, the raw file has {raw} (one output row per "
                 "raw row, in the same order)").format(rows=len(rows), raw=len(raw.rows))
    qi = set(raw.qi)
    seen: set[tuple[int, str, str]] = set()  # (column, raw, cell) already found valid
    for r, (raw_row, row) in enumerate(zip(raw.rows, rows)):
        if len(row) != len(header):
            return _("output data row {row} {counted} has {cells} cells, the header has "
                     "{header}").format(row=r + 1, counted=COUNTED, cells=len(row),
                                        header=len(header))
        for c, (value, cell) in enumerate(zip(raw_row, row)):
            if c not in qi:
                if cell != value:
                    return _("{where}: non-QI cells must not change, got {cell!r} for the raw "
                             "value {value!r} (are the rows in their original order?)").format(
                        where=_where(r, header[c]), cell=cell, value=value)
                continue
            if (c, value, cell) in seen:
                continue
            seen.add((c, value, cell))
            dgh = raw.dghs[header[c]]
            if cell in dgh.parent:
                if not dgh.is_ancestor_or_self(cell, value):
                    return _("{where}: {cell!r} is neither the raw value {value!r} nor one "
                             "of its ancestors in DGHs/{column}.txt (are the rows in their "
                             "original order?)").format(where=_where(r, header[c]), cell=cell,
                                                        value=value, column=header[c])
                continue
            bounds = parse_interval(cell) if intervals and raw.numeric(c) else None
            if bounds is None:
                return (_("{where}: {cell!r} is not a label of DGHs/{column}.txt")
                        if not intervals else
                        _("{where}: {cell!r} is not an interval [lo-hi] or a label of "
                          "DGHs/{column}.txt")).format(where=_where(r, header[c]), cell=cell,
                                                       column=header[c])
            lo, hi = bounds
            if not (lo < hi and lo <= float(value) <= hi):
                return _("{where}: interval {cell!r} must have lo < hi and contain the raw "
                         "value {value!r}").format(where=_where(r, header[c]), cell=cell,
                                                   value=value)
    return None


def equivalence_classes(raw: Table, rows: Rows) -> list[list[int]]:
    """Row indices of each EC (identical QI cells), in order of first row."""
    groups: dict[tuple[str, ...], list[int]] = {}
    qi = raw.qi
    for r, row in enumerate(rows):
        groups.setdefault(tuple(row[c] for c in qi), []).append(r)
    return list(groups.values())


def check_k(raw: Table, rows: Rows, k: int) -> str | None:
    """Every EC has at least k rows."""
    for ec in equivalence_classes(raw, rows):
        if len(ec) < k:
            return _("the EC of {rows} has {count} row(s), needs k = {k}").format(
                rows=rows_text(ec), count=len(ec), k=k)
    return None


def check_l(raw: Table, rows: Rows, l: int) -> str | None:
    """Every EC has at least l distinct sensitive values."""
    sensitive = raw.sensitive
    name = raw.header[sensitive]
    for ec in equivalence_classes(raw, rows):
        distinct = {rows[r][sensitive] for r in ec}
        if len(distinct) < l:
            return _("the EC of {rows} has {count} distinct {name}, needs l = {l}").format(
                rows=rows_text(ec), count=len(distinct), name=name, l=l)
    return None


def check_suppressed_k(raw: Table, rows: Rows, k: int, max_sup: int) -> str | None:
    """Every EC has at least k rows, except the fully suppressed rows (every QI cell its DGH
    root), which are allowed when there are at most max_sup of them."""
    qi = raw.qi
    roots = tuple(raw.dghs[raw.header[c]].root for c in qi)
    for ec in equivalence_classes(raw, rows):
        if len(ec) >= k:
            continue
        if tuple(rows[ec[0]][c] for c in qi) == roots:
            if len(ec) > max_sup:
                return _("{count} rows are suppressed ({rows}), more than max_sup = "
                         "{max_sup}, and they are fewer than k = {k}").format(
                    count=len(ec), rows=rows_text(ec), max_sup=max_sup, k=k)
            continue
        return _("the EC of {rows} has {count} row(s), needs k = {k}").format(
            rows=rows_text(ec), count=len(ec), k=k)
    return None


def first_difference(raw: Table, expected: Rows, rows: Rows) -> str | None:
    """The first cell where `rows` differs from `expected` (same shape assumed), with the
    number of differing rows."""
    differing = [r for r, (a, b) in enumerate(zip(expected, rows)) if a != b]
    if not differing:
        return None
    r = differing[0]
    c = next(c for c, (a, b) in enumerate(zip(expected[r], rows[r])) if a != b)
    return _("output data row {row} {counted}, column {column!r} (raw value {raw!r}): "
             "expected {expected!r}, got {got!r}; {differing} of {rows} rows differ").format(
        row=r + 1, counted=COUNTED, column=raw.header[c], raw=raw.rows[r][c],
        expected=expected[r][c], got=rows[r][c], differing=len(differing), rows=len(rows))
