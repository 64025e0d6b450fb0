"""A raw dataset matched with its hierarchies (a Problem), and argument checks shared by the
anonymizers. Every raw QI value must be a label of its column's hierarchy; errors name the
file, the data row (1-based) and the column. The Problem is kanon's one dataset type: the
anonymizers solve one, the grader judges a case's output against one (its cell rule per QI:
`columns`)."""
from __future__ import annotations

import os
from collections.abc import Collection
from dataclasses import dataclass
from functools import cached_property
from operator import itemgetter

import numpy as np

from .cells import Column
from .hierarchy import DGH, read_dgh_folder
from .schema import DEFAULT, Schema
from .table import Table, read_table, write_table

__all__ = ["NoSensitiveColumn", "Problem", "load_problem", "load_problem_for_k", "check_int",
           "problem_of", "sensitive_column", "write_released"]


def check_int(name: str, value: object, minimum: int | None = None) -> int:
    """An integer argument (bool is not one), optionally at least `minimum`."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be an integer, got {value!r} ({type(value).__name__})")
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}")
    return int(value)


@dataclass
class Problem:
    """A raw dataset matched with its hierarchies; QI values encoded as DGH node ids."""

    table: Table
    qi_columns: list[int]  # positions of the QIs in the header, in column order
    dghs: list[DGH]  # one per QI, same order
    codes: np.ndarray  # (n, M) int64: node id of every raw QI cell
    schema: Schema = DEFAULT  # the course's columns and suppression (kanon/schema.py)

    @property
    def n(self) -> int:
        return len(self.table.rows)

    @property
    def m(self) -> int:
        return len(self.qi_columns)

    @property
    def qi_names(self) -> list[str]:
        return [self.table.header[c] for c in self.qi_columns]

    @cached_property
    def columns(self) -> list[Column]:
        """Per QI: the generalized-cell rule and the cell costs (kanon.cells.Column)."""
        return [Column(self.table.header[c], dgh, [row[c] for row in self.table.rows])
                for c, dgh in zip(self.qi_columns, self.dghs)]

    def sensitive_column(self) -> int:
        """The single non-QI column (l-diversity's sensitive attribute)."""
        return sensitive_column(self.table, self.qi_columns)

    def output_rows(self, generalized: np.ndarray) -> list[tuple[str, ...]]:
        """Rows of the output table: QI cells replaced by the labels of `generalized`
        (an (n, M) array of node ids); other cells unchanged."""
        columns: list[list[str] | None] = [None] * len(self.table.header)
        for j, (col, dgh) in enumerate(zip(self.qi_columns, self.dghs)):
            columns[col] = np.asarray(dgh.labels, dtype=object)[generalized[:, j]].tolist()
        for col, cells in enumerate(columns):
            if cells is None:
                columns[col] = [row[col] for row in self.table.rows]
        return list(zip(*columns))

    def released_columns(self) -> list[int]:
        """The columns the output holds, in raw order (the schema's `other_columns`)."""
        return self.schema.released(self.table.header, self.qi_columns, self.table.path)

    def write(self, output_file: str, generalized: np.ndarray,
              deleted: np.ndarray | None = None) -> None:
        """Write the generalized table: the schema's released columns, without the rows
        that `deleted` (a boolean mask) marks."""
        rows = self.output_rows(generalized)
        write_released(output_file, self, rows, deleted)


def write_released(output_file: str, problem: Problem, rows, deleted: np.ndarray | None = None
                   ) -> None:
    """Write full-width output `rows` as the problem's schema releases them: its columns, and
    every row but those `deleted` marks."""
    keep = problem.released_columns()
    header = problem.table.header
    if len(keep) < len(header):
        header = [header[c] for c in keep]
        rows = (tuple(row[c] for c in keep) for row in rows)
    if deleted is not None:
        rows = (row for row, gone in zip(rows, deleted.tolist()) if not gone)
    write_table(output_file, header, rows, forbidden=(problem.table.path,))


class NoSensitiveColumn(ValueError):
    """A table without a single non-QI column; `others` are the non-QI columns it has."""

    def __init__(self, path: str, others: list[str]):
        self.path, self.others = path, others
        super().__init__(f"{path}: l-diversity needs exactly one non-QI (sensitive) column, "
                         f"found {len(others)}: {', '.join(others) or 'none'}")


def sensitive_column(table: Table, qi_columns: list[int]) -> int:
    """The table's single non-QI column (l-diversity's sensitive attribute), else a
    NoSensitiveColumn naming the file and the non-QI columns found (none or several)."""
    others = [c for c in range(len(table.header)) if c not in qi_columns]
    if len(others) != 1:
        raise NoSensitiveColumn(table.path, [table.header[c] for c in others])
    return others[0]


def load_problem(raw_dataset_file: str, dgh_folder: str, schema: Schema = DEFAULT) -> Problem:
    """Read a dataset and its DGH folder (in the schema's hierarchy format); every raw QI
    value must be a DGH label."""
    if not os.path.isfile(raw_dataset_file):
        raise FileNotFoundError(f"dataset file not found: {raw_dataset_file}")
    dghs = read_dgh_folder(dgh_folder, fmt=schema.hierarchy_format)
    table = read_table(raw_dataset_file)
    if not any(name in dghs for name in table.header):
        raise ValueError(f"no quasi-identifier: none of the columns of {raw_dataset_file} "
                         f"({', '.join(table.header)}) has a hierarchy file in {dgh_folder}")
    problem = problem_of(table, dghs, schema)
    problem.released_columns()  # the sensitive column must exist when others are dropped
    return problem


def problem_of(table: Table, hierarchies: dict[str, DGH], schema: Schema = DEFAULT,
               qis: Collection[str] | None = None) -> Problem:
    """The problem of a read table and its hierarchies by column name: the QIs are the
    columns with a hierarchy (among `qis` when given), in column order; every raw QI value
    must be a label of its hierarchy (a ValueError naming the file, data row and column)."""
    qi_columns = [c for c, name in enumerate(table.header)
                  if name in hierarchies and (qis is None or name in qis)]
    qi_dghs = [hierarchies[table.header[c]] for c in qi_columns]
    codes = np.zeros((len(table.rows), len(qi_columns)), dtype=np.int64)
    for j, (col, dgh) in enumerate(zip(qi_columns, qi_dghs)):
        index = dgh.index
        try:  # all at once; on a missing label, the loop below names the first bad row
            codes[:, j] = np.fromiter(map(index.__getitem__, map(itemgetter(col), table.rows)),
                                      dtype=np.int64, count=len(table.rows))
            continue
        except KeyError:
            pass
        for number, row in enumerate(table.rows, start=1):
            node = index.get(row[col])
            if node is None:
                raise ValueError(f"{table.path}: data row {number}, column "
                                 f"{table.header[col]!r}: value {row[col]!r} is not a label of "
                                 f"{dgh.path}")
            codes[number - 1, j] = node
    return Problem(table=table, qi_columns=qi_columns, dghs=qi_dghs, codes=codes, schema=schema)


def load_problem_for_k(raw_dataset_file: str, dgh_folder: str, k: int,
                       schema: Schema = DEFAULT) -> Problem:
    """`load_problem`, then a ValueError when the dataset has fewer than k rows."""
    problem = load_problem(raw_dataset_file, dgh_folder, schema)
    if problem.n < k:
        raise ValueError(f"{raw_dataset_file} has {problem.n} rows, fewer than k = {k}")
    return problem
