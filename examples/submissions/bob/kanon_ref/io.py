"""Reading datasets, checking arguments, and writing outputs atomically.

A dataset is a CSV file (default dialect, UTF-8, a BOM tolerated) whose first row names the
columns. Cells are compared exactly; only a trailing carriage return is dropped. Blank lines
are ignored. Every error names the file and the data row (1-based, header not counted) or the
column at fault.
"""
from __future__ import annotations

import csv
import os
import tempfile
from dataclasses import dataclass
from operator import itemgetter

import numpy as np

from .dgh import DGH, read_dgh_folder


@dataclass
class Table:
    """A dataset as read from disk: header plus rows of strings."""

    path: str
    header: list[str]
    rows: list[list[str]]


def read_table(path: str) -> Table:
    """Read a CSV dataset; every row must have as many cells as the header."""
    if not os.path.isfile(path):
        raise FileNotFoundError(f"dataset file not found: {path}")
    with open(path, "rb") as f:
        has_cr = b"\r" in f.read()  # else no cell can end with one: skip the stripping
    try:
        with open(path, encoding="utf-8-sig", newline="") as f:
            if has_cr:
                records = [[cell.rstrip("\r") for cell in record] for record in csv.reader(f)]
            else:
                records = list(csv.reader(f))
    except UnicodeDecodeError as e:
        raise ValueError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start})") from None
    except csv.Error as e:
        raise ValueError(f"{path}: not a readable CSV file ({e})") from None
    records = [r for r in records if r]
    if not records:
        raise ValueError(f"{path}: the file is empty; the first row must name the columns")
    header, rows = records[0], records[1:]
    seen: set[str] = set()
    for name in header:
        if name in seen:
            raise ValueError(f"{path}: column name {name!r} appears twice in the header")
        seen.add(name)
    if set(map(len, rows)) - {len(header)}:  # some row has another length: name the first
        for number, row in enumerate(rows, start=1):
            if len(row) != len(header):
                raise ValueError(f"{path}: data row {number} has {len(row)} cells, the header "
                                 f"has {len(header)} columns")
    return Table(path=path, header=header, rows=rows)


def write_table(path: str, header: list[str], rows: list[list[str]],
                forbidden: tuple[str, ...] = ()) -> None:
    """Write a dataset with csv.writer; a temporary file is renamed over `path` at the end,
    so no half-written output is ever left behind. `forbidden` lists input files that must
    not be overwritten."""
    check_output_path(path, forbidden)
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".kanon-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            writer = csv.writer(f, lineterminator="\n")
            writer.writerow(header)
            writer.writerows(rows)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def check_output_path(path: str, forbidden: tuple[str, ...] = ()) -> None:
    """Refuse an output path that is an input file or a folder, or whose folder is missing."""
    if not isinstance(path, (str, os.PathLike)):
        raise ValueError(f"output_file must be a path, got {path!r}")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise FileNotFoundError(f"folder of the output file not found: {folder}")
    if os.path.isdir(path):
        raise ValueError(f"output_file {path} is a folder, not a file")
    for other in forbidden:
        if os.path.abspath(path) == os.path.abspath(other) or (
                os.path.exists(path) and os.path.exists(other) and os.path.samefile(path, other)):
            raise ValueError(f"output_file {path} is the raw dataset itself; "
                             f"choose another output file")


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

    @property
    def n(self) -> int:
        return len(self.table.rows)

    @property
    def m(self) -> int:
        return len(self.qi_columns)

    @property
    def qi_names(self) -> list[str]:
        return [self.table.header[c] for c in self.qi_columns]

    def sensitive_column(self) -> int:
        """The single non-QI column (l-diversity's sensitive attribute)."""
        others = [c for c in range(len(self.table.header)) if c not in self.qi_columns]
        if len(others) != 1:
            names = ", ".join(self.table.header[c] for c in others) or "none"
            raise ValueError(f"{self.table.path}: l-diversity needs exactly one non-QI "
                             f"(sensitive) column, found {len(others)}: {names}")
        return others[0]

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

    def write(self, output_file: str, generalized: np.ndarray) -> None:
        write_table(output_file, self.table.header, self.output_rows(generalized),
                    forbidden=(self.table.path,))


def load_problem(raw_dataset_file: str, dgh_folder: str) -> Problem:
    """Read a dataset and its DGH folder; every raw QI value must be a DGH label."""
    if not os.path.isfile(raw_dataset_file):
        raise FileNotFoundError(f"dataset file not found: {raw_dataset_file}")
    dghs = read_dgh_folder(dgh_folder)
    table = read_table(raw_dataset_file)
    qi_columns = [c for c, name in enumerate(table.header) if name in dghs]
    if not qi_columns:
        raise ValueError(f"no quasi-identifier: none of the columns of {raw_dataset_file} "
                         f"({', '.join(table.header)}) has a hierarchy file in {dgh_folder}")
    qi_dghs = [dghs[table.header[c]] for c in qi_columns]
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
                raise ValueError(f"{raw_dataset_file}: data row {number}, column "
                                 f"{table.header[col]!r}: value {row[col]!r} is not a label of "
                                 f"{dgh.path}")
            codes[number - 1, j] = node
    return Problem(table=table, qi_columns=qi_columns, dghs=qi_dghs, codes=codes)


def load_problem_for_k(raw_dataset_file: str, dgh_folder: str, k: int) -> Problem:
    """`load_problem`, then a ValueError when the dataset has fewer than k rows."""
    problem = load_problem(raw_dataset_file, dgh_folder)
    if problem.n < k:
        raise ValueError(f"{raw_dataset_file} has {problem.n} rows, fewer than k = {k}")
    return problem
