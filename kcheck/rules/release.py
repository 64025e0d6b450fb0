"""What the rule checkers share: a broken rule (`Broken`), the raw side of a release
(`Release`), the header check, and small helpers (raw cells to hierarchy nodes, row lists).

Messages name rows the way the handout does: data rows counted from 1 in file order, the
header not counted ("data row 3" of the output, "raw data row 7" of the raw file). With
`hidden=True` no message shows a cell value or a hierarchy label; column names, row numbers,
counts and lattice levels are not cell values and are always shown.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from ..hierarchies import Tree
from ..tables import Table
from ..text import Joined, Message
from .words import numbers, phrase, render

__all__ = ["Broken", "Release", "broken", "make_release", "check_header", "check_int",
           "raw_codes", "row_list"]


@dataclass(frozen=True)
class Broken:
    """One broken rule: its stable id, one plain sentence naming the row(s) and column, and
    where it is as numbers and names only (what a hidden case shows): the data row (of the
    output; of the raw file when `raw`) and the column, None when the rule has none."""

    rule: str
    message: str
    row: int | None = None
    column: str | None = None
    raw: bool = False
    words: Message | None = field(default=None, compare=False, repr=False)

    def text(self, language: str = "en") -> str:
        """The message in `language` ("en": `message`; kcheck.rules.words.LANGUAGES)."""
        return self.message if self.words is None else render(self.words, language)


def broken(rule: str, words: Message, row: int | None = None, column: str | None = None,
           raw: bool = False) -> Broken:
    """A broken rule whose message is `words` (its English rendering kept as `message`)."""
    return Broken(rule, words.english(), row, column, raw, words)


@dataclass(frozen=True)
class Release:
    """The raw side of a judged output: the raw table (`name` names it in errors), its QIs
    (raw column indices, one hierarchy each, in raw column order) and the columns the output
    must hold (raw column indices in raw order: the QIs and the sensitive column, or every
    column)."""

    raw: Table
    qi_columns: list[int]
    trees: list[Tree]
    released: list[int]

    @property
    def names(self) -> list[str]:
        """The released columns' names: the output's header."""
        return [self.raw.header[c] for c in self.released]

    @property
    def qi_names(self) -> list[str]:
        return [self.raw.header[c] for c in self.qi_columns]

    def positions(self) -> tuple[list[int], list[int]]:
        """Output positions of the QIs (in QI order) and of the other released columns."""
        where = {c: p for p, c in enumerate(self.released)}
        missing = [self.raw.header[c] for c in self.qi_columns if c not in where]
        if missing or len(self.trees) != len(self.qi_columns):
            raise ValueError(f"release: every QI needs one hierarchy and must be released "
                             f"(not released: {missing})")
        others = [p for p, c in enumerate(self.released) if c not in self.qi_columns]
        return [where[c] for c in self.qi_columns], others


def make_release(raw: Table, trees: dict[str, Tree], sensitive: str | None = None) -> Release:
    """The release of a call: the QIs are the raw columns with a hierarchy (`trees`, keyed by
    column name, e.g. kcheck.read_folder's); the released columns are the QIs and `sensitive`
    in raw order, or every column when `sensitive` is None."""
    qi_columns = [c for c, name in enumerate(raw.header) if name in trees]
    if sensitive is None:
        released = list(range(len(raw.header)))
    elif sensitive not in raw.header or sensitive in trees:
        raise ValueError(f"{raw.name}: the sensitive column {sensitive!r} is not a non-QI "
                         f"column of the header {raw.header}")
    else:
        released = sorted(qi_columns + [raw.header.index(sensitive)])
    return Release(raw, qi_columns, [trees[raw.header[c]] for c in qi_columns], released)


def check_int(name: str, value: object, minimum: int | None = None) -> int:
    """An integer argument (bool is not one), optionally at least `minimum`."""
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise ValueError(f"{name} must be an integer, got {value!r} ({type(value).__name__})")
    number = int(value)  # type: ignore[call-overload]
    if minimum is not None and number < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {number}")
    return number


def row_list(rows: Sequence[int], limit: int = 3) -> Joined:
    """'3', '3, 8', '3, 8, 9, ...' (joined in the message's language): at most `limit` row
    numbers."""
    return numbers(rows, limit)


def check_header(release: Release, out: Table, rows: int | None, hidden: bool
                 ) -> Broken | None:
    """The header must be the released columns in raw order; `rows`, when given, is the
    number of data rows the output must have (at most len(raw) when None)."""
    expected = release.names
    if out.header != expected:
        return broken("columns", phrase("header", hidden, header=out.header, columns=expected))
    n = len(release.raw.rows)
    if rows is not None and len(out.rows) != rows:
        return broken("columns", phrase("rows.every", found=len(out.rows), rows=rows))
    if rows is None and len(out.rows) > n:
        return broken("columns", phrase("rows.more", found=len(out.rows), rows=n))
    return None


def raw_codes(release: Release) -> list[list[int]]:
    """Per QI, the node id of every raw cell; a raw value missing from its hierarchy is a
    ValueError naming the raw data row and the column."""
    raw, codes = release.raw, []
    for c, tree in zip(release.qi_columns, release.trees):
        index = tree.index
        try:
            codes.append([index[row[c]] for row in raw.rows])
        except KeyError:
            number = next(i for i, row in enumerate(raw.rows, 1) if row[c] not in index)
            raise ValueError(f"{raw.name}: raw data row {number}, column {raw.header[c]!r}: "
                             f"the value is not a label of {tree.file}") from None
    return codes
