"""Scoring one case's output (always in the grader's process, never in the child's).

Cost functions: correct within a relative tolerance. Anonymizers: identical to the reference
output (as parsed CSV) is "passed"; otherwise an output that is valid (same header and row
count, non-QI cells unchanged, every QI cell a generalization of its raw cell) and has the
function's privacy property is "partial"; anything else is "wrong". Messages name the first
failing row and column; for hidden cases they never show a cell's value.
"""
from __future__ import annotations

import math
import os
import stat
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from kanon.cells import CellError, CellFault
from kanon.checks import k_violation, l_violation, suppression_violation
from kanon.classes import group_rows
from kanon.hierarchy import read_dgh_folder
from kanon.problem import Problem, problem_of
from kanon.schema import DEFAULT as DEFAULT_SCHEMA, Schema
from kanon.table import Table, parse_table, read_table

from ..contract import DGH_DIR, RAW_FILE, data_rows

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


CaseData = Problem
"""A case's raw dataset and hierarchies (read once per grader process): kanon's one dataset
type, its cell rule per QI in `columns` and its one rule for the sensitive column."""


@lru_cache(maxsize=64)
def _load_case_data(folder: str, stamp: float, qis: tuple[str, ...] | None = None,
                    schema: Schema = DEFAULT_SCHEMA) -> Problem:
    raw = read_table(os.path.join(folder, RAW_FILE))
    hierarchies = read_dgh_folder(os.path.join(folder, DGH_DIR), fmt=schema.hierarchy_format)
    return problem_of(raw, hierarchies, schema, qis)


def load_case_data(folder: Path, qis: tuple[str, ...] | None = None,
                   schema: Schema = DEFAULT_SCHEMA) -> CaseData:
    """The raw side of a case (cached per folder and modification time): its QIs are `qis`
    (None: every column with a hierarchy file), its hierarchies in the schema's format."""
    return _load_case_data(str(folder), (folder / RAW_FILE).stat().st_mtime, qis, schema)


@lru_cache(maxsize=128)
def _expected_bytes(path: str, stamp: float) -> bytes:
    return Path(path).read_bytes()


@lru_cache(maxsize=64)
def _expected_table(path: str, stamp: float) -> Table:
    return read_table(path)


def compare_cost(value: float, expected: float, tolerance: float) -> Verdict:
    if math.isclose(value, expected, rel_tol=tolerance, abs_tol=1e-9):
        return Verdict("passed", f"returned {value!r}, correct")
    return Verdict("wrong", f"returned {value!r}; that is not the correct cost")


def _cell(hidden: bool, value: str) -> str:
    return "" if hidden else f" {value!r}"


def check_valid(out: Table, data: CaseData, intervals: bool, hidden: bool) -> str:
    """'' when every cell of `out` is a valid generalization of its raw cell, else why not."""
    raw = data.table
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
                return (f"{data_rows([number])}, column {name!r}: non-QI cells must be copied "
                        f"unchanged{'' if hidden else f' (raw {r[c]!r}, output {o[c]!r})'}")
    for c, column in zip(data.qi_columns, data.columns):
        for number, (row, raw_row) in enumerate(zip(out.rows, raw.rows), start=1):
            error = column.check(raw_row[c], row[c], intervals)
            if error is not None:
                why = _why(error, intervals and column.numeric, hidden)
                return f"{data_rows([number])}, column {raw.header[c]!r}: {why}"
    return ""


def _why(error: CellError, intervals: bool, hidden: bool) -> str:
    """The grader's wording of a cell error (no values for hidden cases); `intervals`: the
    column may hold interval cells."""
    cell, raw = _cell(hidden, error.cell), _cell(hidden, error.raw)
    if error.fault is CellFault.NOT_ANCESTOR:
        return f"output{cell} is not an ancestor of the raw value{raw}"
    if error.fault in (CellFault.INTERVAL_EMPTY, CellFault.INTERVAL_MISSES):
        return f"interval{cell} does not contain the raw value{raw} (or lo >= hi)"
    what = "a label of the column's hierarchy" + (" or an interval [lo-hi]" if intervals else "")
    return f"output{cell} is not {what}"


def check_private(out: Table, data: CaseData, function: str, ints: dict[str, int]) -> str:
    """'' when `out` has the function's privacy property, else the first violation."""
    k = ints.get("k", 1)
    groups = group_rows(out.rows, data.qi_columns)
    roots = tuple(d.root_label for d in data.dghs)
    exempt = None
    if function == "samarati":
        exempt = roots
        max_sup = ints["max_sup"]
        over = suppression_violation(groups, roots, k, max_sup)
        if over is not None:
            return (f"{over.size} rows are suppressed (all QIs at the root) but "
                    f"max_sup = {max_sup} and k = {k}")
    small = k_violation(groups, k, exempt)
    if small is not None:
        return (f"the equivalence class of {data_rows([small.first_row])} has {small.size} "
                f"row(s); k = {k}")
    if function == "bottomup_anonymizer":
        l_value = ints["l"]
        try:
            sensitive = data.sensitive_column()
        except ValueError:
            return "the dataset has no single sensitive column"
        poor = l_violation(groups, out.rows, sensitive, l_value)
        if poor is not None:
            return (f"the equivalence class of {data_rows([poor.first_row])} has {poor.distinct} "
                    f"distinct value(s) of {out.header[sensitive]!r}; l = {l_value}")
    return ""


def first_difference(out: Table, expected: Table, hidden: bool) -> str:
    for number, (o, e) in enumerate(zip(out.rows, expected.rows), start=1):
        if o != e:
            c = next(i for i, (a, b) in enumerate(zip(o, e)) if a != b)
            shown = "" if hidden else f": expected {e[c]!r}, got {o[c]!r}"
            return f"first difference at {data_rows([number])}, column {out.header[c]!r}{shown}"
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
