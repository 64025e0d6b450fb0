"""Tables: reading a CSV dataset from a path or from bytes, rendering and writing one.

A dataset is a CSV file (default dialect, UTF-8, a BOM tolerated) whose first row names the
columns. Cells are compared exactly; only a trailing carriage return is dropped. Blank lines
are ignored. Every error names the file and the data row (1-based, header not counted) or the
column at fault. Writes are atomic (kanon.files): no half-written output is ever left behind.
"""
from __future__ import annotations

import csv
import io
import os
from dataclasses import dataclass

from ..kcheck.text import Message, Verbatim

from .files import atomic_write_bytes

__all__ = ["Table", "TableError", "read_table", "parse_table", "render_csv", "write_table",
           "check_output_path"]


class TableError(ValueError):
    """Bytes that are not a dataset: the text names the file (`where`, "" for the grader's
    "output"), `said` is what is wrong as data (kcheck.text), no file named."""

    def __init__(self, where: str, said: Message):
        super().__init__(where + said.english())
        self.said = said


@dataclass
class Table:
    """A dataset as read: header plus rows of strings; `path` names it in messages."""

    path: str
    header: list[str]
    rows: list[list[str]]


def parse_table(data: bytes, path: str = "output") -> Table:
    """A dataset from bytes; errors start with `path` unless it is the default "output"
    (the grader names the file itself)."""
    where = "" if path == "output" else f"{path}: "
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise TableError(where, Message("not UTF-8 text ({why} at byte {n})", why=e.reason,
                                        n=e.start)) from None
    try:
        reader = csv.reader(io.StringIO(text, newline=""))
        # a cell can end with a carriage return only when the text has one: else skip rstrip
        records = [[c.rstrip("\r") for c in r] for r in reader] if "\r" in text \
            else list(reader)
    except csv.Error as e:
        raise TableError(where, Message("not a readable CSV file ({why})",
                                        why=str(e))) from None
    records = [r for r in records if r]
    if not records:
        raise TableError(where, Message("the file is empty; the first row must name the "
                                        "columns"))
    header, rows = records[0], records[1:]
    seen: set[str] = set()
    for name in header:
        if name in seen:  # a student's output is not quoted: its header may be a hidden one
            raise TableError(where, Message("column name {name} appears twice in the header",
                                            name=Verbatim(repr(name))) if where
                             else Message("a column name appears twice in the header"))
        seen.add(name)
    if set(map(len, rows)) - {len(header)}:  # some row has another length: name the first
        for number, row in enumerate(rows, start=1):
            if len(row) != len(header):
                raise TableError(where, Message(
                    "data row {n} has {cells} cells, the header has {columns} columns",
                    n=number, cells=len(row), columns=len(header)))
    return Table(path=path, header=header, rows=rows)


def read_table(path: str) -> Table:
    """Read a CSV dataset; every row must have as many cells as the header."""
    if not os.path.isfile(path):
        raise FileNotFoundError(f"dataset file not found: {path}")
    with open(path, "rb") as f:
        data = f.read()
    return parse_table(data, str(path))


def render_csv(header: list[str], rows: list[list[str]]) -> str:
    """The text of a dataset as csv.writer writes it, one '\\n' per line."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()


def write_table(path: str, header: list[str], rows: list[list[str]],
                forbidden: tuple[str, ...] = ()) -> None:
    """Write a dataset atomically; `forbidden` lists input files that must not be
    overwritten."""
    check_output_path(path, forbidden)
    atomic_write_bytes(path, render_csv(header, rows).encode("utf-8"), prefix=".kanon-")


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
