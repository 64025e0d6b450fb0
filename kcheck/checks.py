"""The checks of an output of the built-in anonymizers (HANDOUT.md): every cell a valid
generalization of its raw cell, equivalence classes, k-anonymity, distinct l-diversity and
k with Samarati's suppressed rows.

The classes and the violations (`group_rows`, `k_violation`, `l_violation`,
`suppression_violation`) are the grader's too (kanon.checks, grader/grading/compare.py); the
`check_*` functions are the self-check's: each returns None or a `Finding` (the first
problem, as data: kcheck.messages.say words it). Rows are data rows counted from 1 in file
order (the header is not counted). Standard library only.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from collections.abc import Sequence

from .cells import is_numeric_column, parse_interval
from .hierarchies import Tree, read_folder
from .tables import Rows, read_csv
from .verdicts import Finding

__all__ = ["Groups", "ClassViolation", "group_rows", "suppressed_rows", "k_violation",
           "l_violation", "suppression_violation", "Dataset", "load_dataset", "check_valid",
           "check_k", "check_l", "check_suppressed_k"]

Groups = dict[tuple[str, ...], list[int]]
"""Each class's QI cells -> its data rows (from 1), classes in order of first row."""


@dataclass(frozen=True)
class ClassViolation:
    """An equivalence class that breaks a property: its first data row, its size, (l-diversity)
    its number of distinct sensitive values, and all its data rows."""

    first_row: int
    size: int
    distinct: int | None = None
    rows: tuple[int, ...] = ()


def group_rows(rows: Sequence[Sequence[str]], qi_columns: Sequence[int]) -> Groups:
    """The equivalence classes of `rows`: rows with identical cells in `qi_columns`."""
    groups: Groups = {}
    for number, row in enumerate(rows, start=1):
        groups.setdefault(tuple(row[c] for c in qi_columns), []).append(number)
    return groups


def _violation(members: list[int], distinct: int | None = None) -> ClassViolation:
    return ClassViolation(members[0], len(members), distinct, tuple(members))


def suppressed_rows(groups: Groups, root_labels: Sequence[str]) -> list[int]:
    """The data rows whose QI cells are all at the root of their hierarchy."""
    return groups.get(tuple(root_labels), [])


def k_violation(groups: Groups, k: int, exempt: tuple[str, ...] | None = None
                ) -> ClassViolation | None:
    """The first class of fewer than k rows (the class with QI cells `exempt` is skipped: the
    suppressed rows)."""
    for key, members in groups.items():
        if len(members) < k and key != exempt:
            return _violation(members)
    return None


def l_violation(groups: Groups, rows: Sequence[Sequence[str]], sensitive: int, l: int
                ) -> ClassViolation | None:
    """The first class with fewer than l distinct values in column `sensitive`."""
    for members in groups.values():
        distinct = len({rows[n - 1][sensitive] for n in members})
        if distinct < l:
            return _violation(members, distinct)
    return None


def suppression_violation(groups: Groups, root_labels: Sequence[str], k: int, max_sup: int
                          ) -> ClassViolation | None:
    """The suppressed rows' class when it breaks Samarati's rule: fewer than k rows (so not a
    class of its own) and more than max_sup of them."""
    suppressed = suppressed_rows(groups, root_labels)
    return _violation(suppressed) if 0 < len(suppressed) < k and len(suppressed) > max_sup \
        else None


@dataclass
class Dataset:
    """A raw dataset with its hierarchies: a column with a hierarchy is a QI, the others are
    sensitive."""

    header: list[str]
    rows: Rows
    trees: dict[str, Tree]
    _numeric: dict[int, bool] = field(default_factory=dict, repr=False)

    @property
    def qi(self) -> list[int]:
        return [c for c, name in enumerate(self.header) if name in self.trees]

    @property
    def sensitive(self) -> int:
        others = [c for c in range(len(self.header)) if c not in self.qi]
        assert len(others) == 1, "public cases have exactly one sensitive column"
        return others[0]

    @property
    def roots(self) -> tuple[str, ...]:
        """The root label of each QI's hierarchy, in column order."""
        return tuple(self.trees[self.header[c]].root for c in self.qi)

    def numeric(self, column: int) -> bool:
        """Whether the column is numeric (kcheck.cells.is_numeric_column)."""
        if column not in self._numeric:
            self._numeric[column] = is_numeric_column([r[column] for r in self.rows])
        return self._numeric[column]


def load_dataset(raw_file: str | os.PathLike[str], dgh_folder: str | os.PathLike[str],
                 fmt: str = "tabs") -> Dataset:
    """A raw CSV file and its folder of hierarchies (kcheck.hierarchies' format `fmt`)."""
    header, rows = read_csv(raw_file)
    return Dataset(header, rows, read_folder(dgh_folder, fmt))


def _cell(raw: Dataset, column: int, value: str, cell: str, intervals: bool) -> str | None:
    """The finding's key when `cell` does not generalize `value` in QI `column`, else None."""
    tree = raw.trees[raw.header[column]]
    if cell in tree:
        return None if tree.covers(cell, value) else "valid.ancestor"
    bounds = parse_interval(cell) if intervals and raw.numeric(column) else None
    if bounds is None:
        return "valid.interval_or_label" if intervals else "valid.label"
    lo, hi = bounds
    return None if lo < hi and lo <= float(value) <= hi else "valid.interval"


def check_valid(raw: Dataset, header: list[str], rows: Rows, intervals: bool = False
                ) -> Finding | None:
    """Same header and row count; non-QI cells unchanged; every QI cell a hierarchy label that
    is the raw value or one of its ancestors (or, with `intervals`, an interval [lo-hi]
    holding the raw value in a numeric column)."""
    if header != raw.header:
        return Finding("valid.header", {"header": header, "raw": raw.header})
    if len(rows) != len(raw.rows):
        return Finding("valid.rows", {"rows": len(rows), "raw": len(raw.rows)})
    qi = set(raw.qi)
    seen: set[tuple[int, str, str]] = set()  # (column, raw, cell) already found valid
    for r, (raw_row, row) in enumerate(zip(raw.rows, rows), start=1):
        if len(row) != len(header):
            return Finding("valid.width", {"row": r, "cells": len(row), "header": len(header)})
        for c, (value, cell) in enumerate(zip(raw_row, row)):
            if c not in qi:
                if cell != value:
                    return Finding("valid.copy", {"row": r, "column": header[c], "cell": cell,
                                                  "value": value})
                continue
            if (c, value, cell) in seen:
                continue
            fault = _cell(raw, c, value, cell, intervals)
            if fault is not None:
                return Finding(fault, {"row": r, "column": header[c], "cell": cell,
                                       "value": value})
            seen.add((c, value, cell))
    return None


def _too_small(violation: ClassViolation, k: int) -> Finding:
    return Finding("k", {"rows": list(violation.rows), "count": violation.size, "k": k})


def check_k(raw: Dataset, rows: Rows, k: int) -> Finding | None:
    """Every class has at least k rows."""
    small = k_violation(group_rows(rows, raw.qi), k)
    return None if small is None else _too_small(small, k)


def check_l(raw: Dataset, rows: Rows, l: int) -> Finding | None:
    """Every class has at least l distinct sensitive values."""
    poor = l_violation(group_rows(rows, raw.qi), rows, raw.sensitive, l)
    return None if poor is None else Finding("l", {
        "rows": list(poor.rows), "count": poor.distinct, "name": raw.header[raw.sensitive],
        "l": l})


def check_suppressed_k(raw: Dataset, rows: Rows, k: int, max_sup: int) -> Finding | None:
    """Every class has at least k rows, except the fully suppressed rows (every QI cell its
    hierarchy's root), allowed when there are at most max_sup of them; the first class (in
    order of first row) that breaks this is the finding."""
    groups = group_rows(rows, raw.qi)
    small = k_violation(groups, k, exempt=raw.roots)
    over = suppression_violation(groups, raw.roots, k, max_sup)
    if over is not None and (small is None or over.first_row < small.first_row):
        return Finding("suppressed", {"count": over.size, "rows": list(over.rows),
                                      "max_sup": max_sup, "k": k})
    return None if small is None else _too_small(small, k)
