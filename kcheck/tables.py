"""CSV tables: a header and rows of strings, read from a path or from bytes.

Contract: UTF-8 (a BOM is tolerated), Python's default CSV dialect, the first non-blank row
names the columns, blank lines are ignored, a cell's trailing carriage return is dropped.
Data rows are numbered from 1 in file order (the header is not counted). Every error is a
`TableError` naming the file, and the data row and column when there is one.
`read_csv` / `read_csv_text` read the same way but check nothing (a row of another length is
kept as it is, for a check to word): they give the header and the rows.
"""
from __future__ import annotations

import csv
import gzip
import io
import os
from dataclasses import dataclass

__all__ = ["Rows", "Table", "TableError", "read_table", "parse_table", "read_csv",
           "read_csv_text"]

Rows = list[list[str]]


class TableError(ValueError):
    """A file that is not a readable table. `kind` is one of "missing", "encoding", "csv",
    "empty", "duplicate" (a header name twice) or "width" (a row of another length);
    `row` is the data row (from 1) and `column` the column name at fault, when known."""

    def __init__(self, file: str, kind: str, detail: str, row: int | None = None,
                 column: str | None = None, **facts: object):
        where = file + (f", data row {row}" if row is not None else "") + \
            (f", column {column!r}" if column is not None else "")
        super().__init__(f"{where}: {detail}")
        self.file, self.kind, self.row, self.column, self.facts = file, kind, row, column, facts


@dataclass(frozen=True)
class Table:
    """A table as read; `name` names it in messages."""

    name: str
    header: list[str]
    rows: list[list[str]]

    def column(self, name: str) -> list[str]:
        """The cells of one column, in row order."""
        at = self.header.index(name)
        return [row[at] for row in self.rows]


def _records(text: str) -> Rows:
    """The non-blank CSV records of a text, each cell's trailing carriage return dropped
    (csv.Error when the text is not CSV)."""
    reader = csv.reader(io.StringIO(text, newline=""))
    records = [[c.rstrip("\r") for c in r] for r in reader] if "\r" in text else list(reader)
    return [r for r in records if r]


def read_csv_text(text: str) -> tuple[list[str], Rows]:
    """Header and rows of a CSV text, unchecked (([], []) for a text without records)."""
    records = _records(text)
    return (records[0], records[1:]) if records else ([], [])


def read_csv(path: str | os.PathLike[str]) -> tuple[list[str], Rows]:
    """Header and rows of a CSV file (UTF-8, a BOM tolerated; `.gz` decompressed), unchecked;
    a file that is not UTF-8 is a UnicodeDecodeError."""
    path = os.fspath(path)
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        return read_csv_text(f.read().decode("utf-8-sig"))


def parse_table(data: bytes, name: str = "output") -> Table:
    """A table from the bytes of a CSV file; `name` names it in errors."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise TableError(name, "encoding", f"not UTF-8 text ({e.reason} at byte {e.start})",
                         byte=e.start) from None
    try:
        records = _records(text)
    except csv.Error as e:
        raise TableError(name, "csv", f"not a readable CSV file ({e})") from None
    if not records:
        raise TableError(name, "empty", "the file is empty; the first row must name the columns")
    header, rows = records[0], records[1:]
    seen: set[str] = set()
    for column in header:
        if column in seen:
            raise TableError(name, "duplicate", "the column name appears twice in the header",
                             column=column)
        seen.add(column)
    width = len(header)
    for number, row in enumerate(rows, start=1):
        if len(row) != width:
            missing = header[len(row)] if len(row) < width else None
            raise TableError(name, "width", f"{len(row)} cells, the header has {width} columns",
                             row=number, column=missing, cells=len(row), columns=width)
    return Table(name=name, header=header, rows=rows)


def read_table(source: str | os.PathLike[str] | bytes, name: str | None = None) -> Table:
    """A table from a file path or from bytes (then named `name`, default "output")."""
    if isinstance(source, (bytes, bytearray)):
        return parse_table(bytes(source), name or "output")
    path = os.fspath(source)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise TableError(name or path, "missing", "file not found") from None
    return parse_table(data, name or path)
