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
from kanon.table import Table, TableError, parse_table, read_table
from kcheck.text import Message, Verbatim

from ..contract import DGH_DIR, RAW_FILE

K_ANONYMOUS = Message("k-anonymous")
PROPERTY = {
    "random_anonymizer": K_ANONYMOUS,
    "clustering_anonymizer": K_ANONYMOUS,
    "mondrian": K_ANONYMOUS,
    "bottomup_anonymizer": Message("k-anonymous and l-diverse"),
    "samarati": Message("k-anonymous after suppressing at most max_sup rows"),
}
"""The privacy property each anonymizer's output must have (the optional parts:
k-anonymous)."""
INTERVALS = ("mondrian", "topdown_greedy")
"""The functions whose numeric QI cells may be intervals [lo-hi]."""


def _property(function: str) -> Message:
    return PROPERTY.get(function, K_ANONYMOUS)


@dataclass(frozen=True)
class Verdict:
    status: str  # "passed", "partial" or "wrong"
    message: str
    said: Message | None = None  # the message as data (kcheck.text): None, English only


def _verdict(status: str, said: Message) -> Verdict:
    return Verdict(status, said.english(), said)


def _row(number: int) -> Message:
    """grader.contract.data_rows of one row, as a message: "3 (the header is not counted)"
    fills a template's "data row {row}"."""
    return Message("{n} (the header is not counted)", n=number)


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
        return _verdict("passed", Message("returned {value}, correct", value=repr(value)))
    return _verdict("wrong", Message("returned {value}; that is not the correct cost",
                                     value=repr(value)))


def _at(row: int, column: str, detail: Message) -> Message:
    return Message("data row {row}, column {column}: {detail}", row=_row(row),
                   column=Verbatim(repr(column)), detail=detail)


def check_valid(out: Table, data: CaseData, intervals: bool, hidden: bool) -> Message | None:
    """None when every cell of `out` is a valid generalization of its raw cell, else why
    not."""
    raw = data.table
    if out.header != raw.header:
        return (Message("the header {header} differs from the raw file's {raw}",
                        header=Verbatim(str(out.header)), raw=Verbatim(str(raw.header)))
                if not hidden else Message("the header differs from the raw file's header"))
    if len(out.rows) != len(raw.rows):
        return Message("the output has {n} data rows, the raw file has {raw}",
                       n=len(out.rows), raw=len(raw.rows))
    qi = set(data.qi_columns)
    for c, name in enumerate(raw.header):
        if c in qi:
            continue
        for number, (o, r) in enumerate(zip(out.rows, raw.rows), start=1):
            if o[c] != r[c]:
                return _at(number, name, Message("non-QI cells must be copied unchanged")
                           if hidden else Message(
                               "non-QI cells must be copied unchanged (raw {raw}, output {out})",
                               raw=Verbatim(repr(r[c])), out=Verbatim(repr(o[c]))))
    for c, column in zip(data.qi_columns, data.columns):
        for number, (row, raw_row) in enumerate(zip(out.rows, raw.rows), start=1):
            error = column.check(raw_row[c], row[c], intervals)
            if error is not None:
                return _at(number, raw.header[c], _why(error, intervals and column.numeric,
                                                       hidden))
    return None


def _why(error: CellError, intervals: bool, hidden: bool) -> Message:
    """The grader's wording of a cell error (no values for hidden cases); `intervals`: the
    column may hold interval cells."""
    cell, raw = Verbatim(repr(error.cell)), Verbatim(repr(error.raw))
    if error.fault is CellFault.NOT_ANCESTOR:
        return (Message("output is not an ancestor of the raw value") if hidden else
                Message("output {cell} is not an ancestor of the raw value {raw}", cell=cell,
                        raw=raw))
    if error.fault in (CellFault.INTERVAL_EMPTY, CellFault.INTERVAL_MISSES):
        return (Message("interval does not contain the raw value (or lo >= hi)") if hidden else
                Message("interval {cell} does not contain the raw value {raw} (or lo >= hi)",
                        cell=cell, raw=raw))
    what = (Message("a label of the column's hierarchy or an interval [lo-hi]") if intervals
            else Message("a label of the column's hierarchy"))
    return (Message("output is not {what}", what=what) if hidden else
            Message("output {cell} is not {what}", cell=cell, what=what))


def check_private(out: Table, data: CaseData, function: str, ints: dict[str, int]
                  ) -> Message | None:
    """None when `out` has the function's privacy property, else the first violation."""
    k = ints.get("k", 1)
    groups = group_rows(out.rows, data.qi_columns)
    roots = tuple(d.root_label for d in data.dghs)
    exempt = None
    if function == "samarati":
        exempt = roots
        max_sup = ints["max_sup"]
        over = suppression_violation(groups, roots, k, max_sup)
        if over is not None:
            return Message("{n} rows are suppressed (all QIs at the root) but max_sup = "
                           "{max_sup} and k = {k}", n=over.size, max_sup=max_sup, k=k)
    small = k_violation(groups, k, exempt)
    if small is not None:
        return Message("the equivalence class of data row {row} has {n} row(s); k = {k}",
                       row=_row(small.first_row), n=small.size, k=k)
    if function == "bottomup_anonymizer":
        l_value = ints["l"]
        try:
            sensitive = data.sensitive_column()
        except ValueError:
            return Message("the dataset has no single sensitive column")
        poor = l_violation(groups, out.rows, sensitive, l_value)
        if poor is not None:
            return Message("the equivalence class of data row {row} has {n} distinct value(s) "
                           "of {column}; l = {l}", row=_row(poor.first_row), n=poor.distinct,
                           column=Verbatim(repr(out.header[sensitive])), l=l_value)
    return None


def first_difference(out: Table, expected: Table, hidden: bool) -> Message:
    for number, (o, e) in enumerate(zip(out.rows, expected.rows), start=1):
        if o != e:
            c = next(i for i, (a, b) in enumerate(zip(o, e)) if a != b)
            column = Verbatim(repr(out.header[c]))
            if hidden:
                return Message("first difference at data row {row}, column {column}",
                               row=_row(number), column=column)
            return Message("first difference at data row {row}, column {column}: expected "
                           "{expected}, got {got}", row=_row(number), column=column,
                           expected=Verbatim(repr(e[c])), got=Verbatim(repr(o[c])))
    return Message("the rows differ")


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


def unreadable(error: ValueError) -> Verdict:
    """The verdict on an output that is not a dataset (`error`: parse_table's, whose `said`
    words it as data; never a value of the file)."""
    if isinstance(error, TableError):
        return _verdict("wrong", Message("the output is not a readable dataset: {why}",
                                         why=error.said))
    return Verdict("wrong", f"the output is not a readable dataset: {error}")


def compare_table(produced: bytes, expected: Path, data: CaseData, function: str,
                  ints: dict[str, int], hidden: bool) -> Verdict:
    """The verdict on the bytes of an anonymizer's output file."""
    stamp = expected.stat().st_mtime
    if produced == _expected_bytes(str(expected), stamp):
        return _verdict("passed", Message("identical to the reference output"))
    expected_table = _expected_table(str(expected), stamp)
    try:
        out = parse_table(produced)
    except ValueError as e:
        return unreadable(e)
    if out.header == expected_table.header and out.rows == expected_table.rows:
        return _verdict("passed", Message("identical to the reference output (as parsed CSV)"))
    problem = check_valid(out, data, intervals=function in INTERVALS, hidden=hidden)
    if problem is not None:
        return _verdict("wrong", Message("not a valid generalization: {problem}",
                                         problem=problem))
    problem = check_private(out, data, function, ints)
    if problem is not None:
        return _verdict("wrong", Message("valid, but not {what}: {problem}",
                                         what=_property(function), problem=problem))
    return _verdict("partial", Message(
        "valid and {what}, but not the reference output: {difference}",
        what=_property(function), difference=first_difference(out, expected_table, hidden)))
