"""Scoring one case's output (always in the grader's process, never in the child's).

Cost functions: correct within a relative tolerance. Anonymizers: identical to the reference
output (as parsed CSV) is "passed"; otherwise an output that is valid (same header and row
count, non-QI cells unchanged, every QI cell a generalization of its raw cell) and has the
function's privacy property is "partial"; anything else is "wrong". Messages name the first
failing row and column; for hidden cases they never show a cell's value.
"""
from __future__ import annotations

import csv
import io
import math
import os
import stat
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from reference.dgh import DGH, read_dgh_folder
from reference.generalize import numeric_values
from reference.generalize import parse_interval as reference_interval
from reference.io import Table, read_table

from .contract import DGH_DIR, RAW_FILE

PROPERTY = {
    "random_anonymizer": "k-anonymous",
    "clustering_anonymizer": "k-anonymous",
    "mondrian": "k-anonymous",
    "bottomup_anonymizer": "k-anonymous and l-diverse",
    "samarati": "k-anonymous after suppressing at most max_sup rows",
}
INTERVALS = ("mondrian", "topdown_greedy")
"""The functions whose numeric QI cells may be intervals [lo-hi]."""


def _property(function: str) -> str:
    return PROPERTY.get(function, "k-anonymous")  # the optional parts: k-anonymous


@dataclass(frozen=True)
class Verdict:
    status: str  # "passed", "partial" or "wrong"
    message: str


@dataclass
class CaseData:
    """A case's raw dataset and hierarchies, read once per grader process."""

    raw: Table
    dghs: list[DGH]  # per QI
    qi_columns: list[int]
    numeric: list[bool]  # per QI: every raw value parses with float()
    raw_nodes: list[list[int]]  # per QI, per row: node id of the raw value

    def sensitive_column(self) -> int | None:
        others = [c for c in range(len(self.raw.header)) if c not in self.qi_columns]
        return others[0] if len(others) == 1 else None


@lru_cache(maxsize=64)
def _load_case_data(folder: str, stamp: float) -> CaseData:
    raw = read_table(os.path.join(folder, RAW_FILE))
    dgh_by_name = read_dgh_folder(os.path.join(folder, DGH_DIR))
    qi_columns = [c for c, name in enumerate(raw.header) if name in dgh_by_name]
    dghs = [dgh_by_name[raw.header[c]] for c in qi_columns]
    numeric = [is_numeric([row[c] for row in raw.rows]) for c in qi_columns]
    raw_nodes = [[d.index[row[c]] for row in raw.rows] for c, d in zip(qi_columns, dghs)]
    return CaseData(raw, dghs, qi_columns, numeric, raw_nodes)


def load_case_data(folder: Path) -> CaseData:
    """The raw side of a case (cached per folder and modification time)."""
    return _load_case_data(str(folder), (folder / RAW_FILE).stat().st_mtime)


@lru_cache(maxsize=128)
def _expected_bytes(path: str, stamp: float) -> bytes:
    return Path(path).read_bytes()


@lru_cache(maxsize=64)
def _expected_table(path: str, stamp: float) -> Table:
    return read_table(path)


@lru_cache(maxsize=64)
def _hidden_values(folder: str, stamp: float) -> tuple[str, ...]:
    data = _load_case_data(folder, stamp)
    values = {cell for row in data.raw.rows for cell in row}
    values |= {label for dgh in data.dghs for label in dgh.labels}
    values -= set(data.raw.header)
    return tuple(sorted((v for v in values if len(v.strip()) >= 3), key=lambda v: (-len(v), v)))


def redact(text: str, folder: Path) -> str:
    """`text` with every cell value and hierarchy label of a (hidden) case's data replaced by
    `<hidden>`: a student's printed output or exception message may quote the data."""
    if not text:
        return text
    for value in _hidden_values(str(folder), (folder / RAW_FILE).stat().st_mtime):
        if value in text:
            text = text.replace(value, "<hidden>")
    return text


def is_numeric(raw_values: list[str]) -> bool:
    """A numeric QI (HANDOUT.md, "Generalized cells"), by the reference's own rule: every raw
    value parses to a finite number, and no two different raw strings give the same number."""
    return numeric_values(raw_values) is not None


def parse_interval(cell: str) -> tuple[float, float] | None:
    """`[lo-hi]` split at the first `-` after the first character that leaves two numbers,
    both finite; None otherwise."""
    span = reference_interval(cell)
    return span if span is not None and all(map(math.isfinite, span)) else None


def compare_cost(value: float, expected: float, tolerance: float) -> Verdict:
    if math.isclose(value, expected, rel_tol=tolerance, abs_tol=1e-9):
        return Verdict("passed", f"returned {value!r}, correct")
    return Verdict("wrong", f"returned {value!r}; that is not the correct cost")


def _cell(hidden: bool, value: str) -> str:
    return "" if hidden else f" {value!r}"


def check_valid(out: Table, data: CaseData, intervals: bool, hidden: bool) -> str:
    """'' when every cell of `out` is a valid generalization of its raw cell, else why not."""
    raw = data.raw
    if out.header != raw.header:
        return (f"the header {out.header} differs from the raw file's {raw.header}" if not hidden
                else "the header differs from the raw file's header")
    if len(out.rows) != len(raw.rows):
        return f"the output has {len(out.rows)} data rows, the raw file has {len(raw.rows)}"
    qi = set(data.qi_columns)
    for c, name in enumerate(raw.header):
        if c in qi:
            continue
        for number, (o, r) in enumerate(zip(out.rows, raw.rows), start=1):
            if o[c] != r[c]:
                return (f"data row {number}, column {name!r}: non-QI cells must be copied "
                        f"unchanged{'' if hidden else f' (raw {r[c]!r}, output {o[c]!r})'}")
    for j, (c, dgh) in enumerate(zip(data.qi_columns, data.dghs)):
        index, nodes, name = dgh.index, data.raw_nodes[j], raw.header[c]
        for number, row in enumerate(out.rows, start=1):
            cell = row[c]
            node = index.get(cell)
            raw_node = nodes[number - 1]
            if node is not None:
                if node == raw_node or dgh.is_ancestor_or_self(node, raw_node):
                    continue
                return (f"data row {number}, column {name!r}: output{_cell(hidden, cell)} is "
                        f"not an ancestor of the raw value{_cell(hidden, raw.rows[number-1][c])}")
            span = parse_interval(cell) if intervals and data.numeric[j] else None
            if span is None:
                what = "a label of the column's hierarchy" + (
                    " or an interval [lo-hi]" if intervals and data.numeric[j] else "")
                return f"data row {number}, column {name!r}: output{_cell(hidden, cell)} is not {what}"
            lo, hi = span
            value = float(raw.rows[number - 1][c])
            if not lo < hi or not lo <= value <= hi:
                return (f"data row {number}, column {name!r}: interval{_cell(hidden, cell)} does "
                        f"not contain the raw value{_cell(hidden, raw.rows[number-1][c])} "
                        f"(or lo >= hi)")
    return ""


def check_private(out: Table, data: CaseData, function: str, ints: dict[str, int]) -> str:
    """'' when `out` has the function's privacy property, else the first violation."""
    k = ints.get("k", 1)
    groups: dict[tuple, list[int]] = {}
    for number, row in enumerate(out.rows, start=1):
        groups.setdefault(tuple(row[c] for c in data.qi_columns), []).append(number)
    roots = tuple(d.root_label for d in data.dghs)
    if function == "samarati":
        suppressed = groups.get(roots, [])
        max_sup = ints["max_sup"]
        if 0 < len(suppressed) < k and len(suppressed) > max_sup:
            return (f"{len(suppressed)} rows are suppressed (all QIs at the root) but "
                    f"max_sup = {max_sup} and k = {k}")
    for key, members in groups.items():
        if len(members) < k and not (function == "samarati" and key == roots):
            return (f"the equivalence class of data row {members[0]} has {len(members)} "
                    f"row(s); k = {k}")
    if function == "bottomup_anonymizer":
        l_value = ints["l"]
        sensitive = data.sensitive_column()
        if sensitive is None:
            return "the dataset has no single sensitive column"
        for members in groups.values():
            distinct = {out.rows[n - 1][sensitive] for n in members}
            if len(distinct) < l_value:
                return (f"the equivalence class of data row {members[0]} has {len(distinct)} "
                        f"distinct value(s) of {out.header[sensitive]!r}; l = {l_value}")
    return ""


def first_difference(out: Table, expected: Table, hidden: bool) -> str:
    for number, (o, e) in enumerate(zip(out.rows, expected.rows), start=1):
        if o != e:
            c = next(i for i, (a, b) in enumerate(zip(o, e)) if a != b)
            shown = "" if hidden else f": expected {e[c]!r}, got {o[c]!r}"
            return f"first difference at data row {number}, column {out.header[c]!r}{shown}"
    return "the rows differ"


class NotARegularFile(Exception):
    """The output file is a link (or not a file): never followed, never trusted."""


def read_output(path: Path, limit: int = 256 * 2**20) -> bytes:
    """The bytes of a child's output file, read without following links: a symbolic or
    hard link could point the grader at a file the child may not read itself."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_nlink != 1:
            raise NotARegularFile(str(path))
        with os.fdopen(fd, "rb", closefd=False) as f:
            return f.read(limit)
    finally:
        os.close(fd)


def parse_table(data: bytes) -> Table:
    """A dataset from bytes, read as reference.io.read_table reads a file (UTF-8, a BOM
    tolerated, csv module, a trailing carriage return dropped, blank lines ignored)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ValueError(f"not UTF-8 text ({e.reason} at byte {e.start})") from None
    try:
        records = [[c.rstrip("\r") for c in r] for r in csv.reader(io.StringIO(text, newline=""))]
    except csv.Error as e:
        raise ValueError(f"not a readable CSV file ({e})") from None
    records = [r for r in records if r]
    if not records:
        raise ValueError("the file is empty; the first row must name the columns")
    header, rows = records[0], records[1:]
    if len(set(header)) != len(header):
        raise ValueError("a column name appears twice in the header")
    for number, row in enumerate(rows, start=1):
        if len(row) != len(header):
            raise ValueError(f"data row {number} has {len(row)} cells, the header has "
                             f"{len(header)} columns")
    return Table(path="output", header=header, rows=rows)


def compare_table(produced: bytes, expected: Path, data: CaseData, function: str,
                  ints: dict[str, int], hidden: bool) -> Verdict:
    """The verdict on the bytes of an anonymizer's output file."""
    stamp = expected.stat().st_mtime
    if produced == _expected_bytes(str(expected), stamp):
        return Verdict("passed", "identical to the reference output")
    expected_table = _expected_table(str(expected), stamp)
    try:
        out = parse_table(produced)
    except ValueError as e:
        return Verdict("wrong", f"the output is not a readable dataset: {e}")
    if out.header == expected_table.header and out.rows == expected_table.rows:
        return Verdict("passed", "identical to the reference output (as parsed CSV)")
    problem = check_valid(out, data, intervals=function in INTERVALS, hidden=hidden)
    if problem:
        return Verdict("wrong", f"not a valid generalization: {problem}")
    problem = check_private(out, data, function, ints)
    if problem:
        return Verdict("wrong", f"valid, but not {_property(function)}: {problem}")
    return Verdict("partial", f"valid and {_property(function)}, but not the reference output: "
                   f"{first_difference(out, expected_table, hidden)}")
