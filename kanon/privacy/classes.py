"""A release: an anonymized table checked against its raw table (HANDOUT.md, "Beyond
k-anonymity").

An equivalence class is a maximal set of rows with identical QI cells (cells compared as
strings). `load_release` reads a raw table, its anonymized version and the DGH folder, checks
every cell with the cell rule of kanon.cells, and returns what every privacy model and
metric of this package needs: the class of each row, the sensitive values, and the MD, LM and
NCP cost of every QI cell. The raw side is kanon's one dataset type (kanon.problem.Problem),
its sensitive column chosen by Problem's one rule unless named.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from ..cells import CellError, Column, parse_interval
from ..classes import equivalence_classes
from ..hierarchy import DGH, read_dgh, read_dgh_folder
from ..problem import NoSensitiveColumn, Problem, problem_of, sensitive_column
from ..table import Table, read_table

__all__ = ["Release", "equivalence_classes", "load_release"]


@dataclass
class Release:
    """An anonymized table checked against its raw table."""

    problem: Problem  # the raw table, its QIs and their hierarchies
    anon: Table
    sensitive: int  # column index of the sensitive attribute
    sensitive_dgh: DGH | None  # its hierarchy, when one is given
    class_of_row: np.ndarray  # (n,) class id of every row
    sizes: np.ndarray  # (c,) rows per class
    values: list[str]  # the sensitive column, row by row
    md: np.ndarray  # (n, M) MD cost of every QI cell
    lm: np.ndarray  # (n, M) LM cost of every QI cell
    ncp: np.ndarray  # (n, M) NCP of every QI cell

    @property
    def raw(self) -> Table:
        return self.problem.table

    @property
    def qi_columns(self) -> list[int]:
        return self.problem.qi_columns

    @property
    def dghs(self) -> list[DGH]:
        return self.problem.dghs

    @property
    def n(self) -> int:
        return len(self.raw.rows)

    @property
    def qi_names(self) -> list[str]:
        return [self.raw.header[c] for c in self.qi_columns]

    @property
    def sensitive_name(self) -> str:
        return self.raw.header[self.sensitive]


class _CachedColumn(Column):
    """The cell rule and costs of kanon.cells, with the LCA of an interval cell computed once per
    cell (not once per raw value) for leaf raw values."""

    def __init__(self, *args):
        super().__init__(*args)
        self.intervals: dict[str, tuple[float, float, int, float]] = {}

    def _cost(self, raw: str, cell: str) -> tuple[int, float] | CellError:
        dgh = self.dgh
        raw_node = dgh.index[raw]
        leaf = dgh.is_leaf(raw_node)
        hit = self.intervals.get(cell) if leaf else None
        if hit is not None and hit[0] <= float(raw) <= hit[1]:
            return int(dgh.depth[raw_node]) - hit[2], hit[3]
        result = super()._cost(raw, cell)
        if leaf and not isinstance(result, CellError) and cell not in dgh.index:
            lo, hi = parse_interval(cell)
            self.intervals[cell] = (lo, hi, int(dgh.depth[raw_node]) - result[0], result[1])
        return result


def _ncp(dgh: DGH, cell: str, lm: float) -> float:
    """NCP of one valid cell: a label v covering more than one leaf costs leaves(v)/|A|, a
    leaf (or one-leaf node) 0; an interval costs (hi - lo)/(U - L), its LM."""
    node = dgh.index.get(cell)
    if node is None:
        return lm
    leaves = int(dgh.leaf_count[node])
    return leaves / dgh.n_leaves if leaves > 1 else 0.0


def load_release(raw_file: str, anon_file: str, dgh_folder: str, sensitive: str | None = None,
                 sensitive_dgh: str | None = None) -> Release:
    """Read and check raw, anonymized and hierarchies. The QIs are the raw columns with a
    <column>.txt in `dgh_folder`, except the sensitive column; the sensitive column is
    `sensitive`, else the single other column. Its hierarchy is `sensitive_dgh` (a file), else
    <sensitive>.txt of the folder when there is one. Errors (ValueError, FileNotFoundError)
    name the file, the data row and the column."""
    for path in (raw_file, anon_file):
        if not os.path.isfile(path):
            raise FileNotFoundError(f"dataset file not found: {path}")
    hierarchies = read_dgh_folder(dgh_folder)
    raw, anon = read_table(raw_file), read_table(anon_file)
    header = raw.header
    if sensitive is not None and sensitive not in header:
        raise ValueError(f"{raw_file}: no column {sensitive!r} (--sensitive); the columns are "
                         f"{', '.join(header)}")
    qi_columns = [c for c, name in enumerate(header) if name in hierarchies and name != sensitive]
    if not qi_columns:
        raise ValueError(f"no quasi-identifier: none of the columns of {raw_file} "
                         f"({', '.join(header)}) has a hierarchy file in {dgh_folder}")
    if sensitive is None:
        try:
            s_col = sensitive_column(raw, qi_columns)
        except NoSensitiveColumn as e:
            raise ValueError(f"{raw_file}: found {len(e.others)} non-QI columns "
                             f"({', '.join(e.others) or 'none'}); name the sensitive attribute "
                             f"with --sensitive COLUMN") from None
    else:
        s_col = header.index(sensitive)
    s_name = header[s_col]
    if sensitive_dgh is not None:
        if not os.path.isfile(sensitive_dgh):
            raise FileNotFoundError(f"hierarchy file not found: {sensitive_dgh}")
        s_dgh = read_dgh(sensitive_dgh, s_name)
    else:
        s_dgh = hierarchies.get(s_name)
    if anon.header != header:
        raise ValueError(f"{anon_file}: header {anon.header} differs from the raw file's header "
                         f"{header}")
    if len(anon.rows) != len(raw.rows):
        raise ValueError(f"{anon_file}: {len(anon.rows)} data rows, the raw file {raw_file} "
                         f"has {len(raw.rows)}")
    problem = problem_of(raw, hierarchies, qis={header[c] for c in qi_columns})
    dghs = problem.dghs  # every raw QI value is a label of its hierarchy (else a ValueError)
    n, m = len(raw.rows), len(qi_columns)
    md = np.zeros((n, m), dtype=np.int64)
    lm = np.zeros((n, m), dtype=np.float64)
    ncp = np.zeros((n, m), dtype=np.float64)
    qi = set(qi_columns)
    errors: list[tuple[int, int, str]] = []  # (row, QI position, message): report the first
    for j, (c, dgh) in enumerate(zip(qi_columns, dghs)):
        raw_values = [r[c] for r in raw.rows]
        column = _CachedColumn(header[c], dgh, raw_values)
        unique: dict[tuple[str, str], int] = {}
        pair_of_row = np.fromiter(
            (unique.setdefault((a, r[c]), len(unique)) for a, r in zip(raw_values, anon.rows)),
            dtype=np.int64, count=n)
        table = np.zeros((len(unique), 3))
        for i, key in enumerate(unique):
            result = column.cost(*key)
            if isinstance(result, CellError):
                row = int(np.flatnonzero(pair_of_row == i)[0])
                errors.append((row, j, f"{anon_file}: data row {row + 1}, column "
                                       f"{header[c]!r}: {result.describe()}"))
                break  # pairs are numbered in row order: this is the column's first bad row
            table[i] = (*result, _ncp(dgh, key[1], result[1]))
        md[:, j] = table[pair_of_row, 0]
        lm[:, j] = table[pair_of_row, 1]
        ncp[:, j] = table[pair_of_row, 2]
    if errors:
        raise ValueError(min(errors)[2])
    for r, (raw_row, anon_row) in enumerate(zip(raw.rows, anon.rows)):
        if raw_row != anon_row:
            for c, value in enumerate(raw_row):
                if c not in qi and anon_row[c] != value:
                    raise ValueError(f"{anon_file}: data row {r + 1}, column {header[c]!r}: "
                                     f"non-QI value {anon_row[c]!r} differs from the raw value "
                                     f"{value!r}")
    values = [r[s_col] for r in raw.rows]
    if s_dgh is not None:
        for number, value in enumerate(values, start=1):
            if value not in s_dgh.index:
                raise ValueError(f"{raw_file}: data row {number}, column {s_name!r}: sensitive "
                                 f"value {value!r} is not a label of {s_dgh.path}")
    class_of_row, sizes = equivalence_classes([[r[c] for c in qi_columns] for r in anon.rows])
    return Release(problem=problem, anon=anon, sensitive=s_col,
                   sensitive_dgh=s_dgh, class_of_row=class_of_row, sizes=sizes, values=values,
                   md=md, lm=lm, ncp=ncp)


