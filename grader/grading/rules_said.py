"""A rule checker's words (kcheck.rules.words: a `Phrase`, its key and parameters) as a
kcheck.text Message of the grader's catalog: the id is the English sentence the phrase
renders to (byte for byte), so the record keeps the rule's detail as data and the gradebook
renders it in the course's language through grader.po (the same catalog message the
pattern layer used to match).

`said(words)`: the phrase's Message. A cell or header of the student's output is a
Verbatim; a `!r` field of the phrase's English is the value's repr; a list of row numbers
("3, 8, 9, ...") is a Joined list (its separator translated); a nested phrase is a Message,
a tuple of them a Joined list with "; ".
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from kcheck.rules.words import Phrase
from kcheck.text import Joined, Message, Param, Verbatim

__all__ = ["said"]

_NUMBERS = re.compile(r"\d+(?:, \d+)+(?:, \.\.\.)?")


def said(words: Phrase) -> Message:
    """The Message of `words` (its English is kcheck.rules.words.render(words))."""
    try:
        make = _MESSAGES[words.key]
    except KeyError:
        raise ValueError(f"no catalog message for the rule phrase {words.key!r}") from None
    return make(_Params(dict(words.params)))


class _Params:
    """A phrase's parameters, read as a Message's values."""

    def __init__(self, params: dict[str, Any]) -> None:
        self.params = params

    def v(self, name: str) -> Param:
        """The value as the phrase's `{name}` shows it."""
        value = self.params[name]
        if isinstance(value, Phrase):
            return said(value)
        if isinstance(value, tuple) and value and isinstance(value[0], Phrase):
            return Joined([said(item) for item in value], "; ")
        if isinstance(value, str) and _NUMBERS.fullmatch(value):
            return Joined(value.split(", "), ", ")
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return value
        return str(value)

    def r(self, name: str) -> str:
        """The value as the phrase's `{name!r}` shows it (a course's name or data)."""
        return repr(self.params[name])

    def student(self, name: str, spec: str = "r") -> Verbatim:
        """The student's own text (a cell or the header of the output)."""
        value = self.params[name]
        return Verbatim(repr(value) if spec == "r" else str(value))


_MESSAGES: dict[str, Callable[[_Params], Message]] = {
    # where a cell is
    "at.row_column": lambda p: Message(
        "data row {row}, column {column}: {detail}",
        row=p.v("row"), column=p.r("column"), detail=p.v("detail")),
    "at.output_row_column": lambda p: Message(
        "data row {row} of the output, column {column}: {detail}",
        row=p.v("row"), column=p.r("column"), detail=p.v("detail")),
    # columns and rows
    "header": lambda p: Message(
        "the header is {header}, but the released columns are {columns} (in the raw file's "
        "order)", header=p.student("header", "s"), columns=p.v("columns")),
    "header/hidden": lambda p: Message(
        "the header differs from the released columns {columns} (in the raw file's order)",
        columns=p.v("columns")),
    "rows.every": lambda p: Message(
        "the output has {n} data rows, but the raw file has {raw} and every record is "
        "released", n=p.v("found"), raw=p.v("rows")),
    "rows.more": lambda p: Message(
        "the output has {n} data rows, more than the raw file's {raw}",
        n=p.v("found"), raw=p.v("rows")),
    "copied.record": lambda p: Message(
        "the cell {cell} differs from its record's (raw data row {raw_row}) {raw}; non-QI "
        "cells are copied unchanged",
        cell=p.student("cell"), raw_row=p.v("raw_row"), raw=p.r("raw")),
    "copied.record/hidden": lambda p: Message(
        "the cell differs from its record's (raw data row {raw_row}); non-QI cells are copied "
        "unchanged", raw_row=p.v("raw_row")),
    "copied.raw": lambda p: Message(
        "the cell {cell} differs from the raw one {raw}; non-QI cells are copied unchanged",
        cell=p.student("cell"), raw=p.r("raw")),
    "copied.raw/hidden": lambda p: Message(
        "the cell differs from the raw one; non-QI cells are copied unchanged"),
    # Samarati: full-domain
    "cell.not_label": lambda p: Message(
        "the cell {cell} is not a label of the column's hierarchy", cell=p.student("cell")),
    "cell.not_label/hidden": lambda p: Message(
        "the cell is not a label of the column's hierarchy"),
    "cell.no_level": lambda p: Message(
        "the cell {cell} generalizes no raw value of the column at any level",
        cell=p.student("cell")),
    "cell.no_level/hidden": lambda p: Message(
        "the cell generalizes no raw value of the column at any level"),
    "cell.no_level_above": lambda p: Message(
        "no single level of the hierarchy gives this cell and every cell above it in the "
        "column"),
    "levels.apart": lambda p: Message(
        "data rows {first} and {second} of the output, column {column}: the cells are at "
        "different levels of the hierarchy ({levels1} and {levels2}), but full-domain "
        "generalization puts a column at one level",
        first=p.v("first"), second=p.v("row"), column=p.r("column"),
        levels1=p.v("levels1"), levels2=p.v("levels2")),
    "level": lambda p: Message("level {n}", n=p.v("list")),
    "levels": lambda p: Message("levels {list}", list=p.v("list")),
    "root": lambda p: Message(
        "data row {row} of the output has every QI cell at its hierarchy's root ({roots}) and "
        "other rows do not: no single vector generalizes both (a suppressed record is "
        "deleted, not released with its QI cells at the root)",
        row=p.v("row"), roots=p.v("roots")),
    "root/hidden": lambda p: Message(
        "data row {row} of the output has every QI cell at its hierarchy's root and other "
        "rows do not: no single vector generalizes both (a suppressed record is deleted, not "
        "released with its QI cells at the root)", row=p.v("row")),
    "misfit": lambda p: Message(
        "data row {row} of the output matches no raw record generalized by vector {vector}: "
        "the closest, raw data row {raw}, {closest}",
        row=p.v("row"), vector=p.v("vector"), raw=p.v("raw_row"), closest=p.v("closest")),
    "closest": lambda p: Message(
        "generalizes to {label} in column {column}, not {cell}",
        label=p.r("label"), column=p.r("column"), cell=p.student("cell")),
    "closest/hidden": lambda p: Message(
        "generalizes to another cell in column {column}", column=p.r("column")),
    # Samarati: satisfies, lowest-height, deletion
    "satisfies": lambda p: Message(
        "the output is generalized by vector {vector}, which leaves {n} outliers (records in "
        "classes of fewer than k = {k}), more than max_sup = {max_sup}",
        vector=p.v("vector"), n=p.v("count"), k=p.v("k"), max_sup=p.v("max_sup")),
    "lowest": lambda p: Message(
        "the output's vector {vector} has height {height}, but vector {lower} of height {low} "
        "already satisfies k = {k} with at most max_sup = {max_sup} outliers",
        vector=p.v("vector"), height=p.v("height"), lower=p.v("better"), low=p.v("lowest"),
        k=p.v("k"), max_sup=p.v("max_sup")),
    "deletion.kept": lambda p: Message(
        "raw data row {row} is an outlier of vector {vector} (its class has fewer than k = {k} "
        "records) and must be deleted, but it is released as data row {out} of the output",
        row=p.v("raw_row"), vector=p.v("vector"), k=p.v("k"), out=p.v("row")),
    "deletion.left_out": lambda p: Message(
        "raw data row {row} is in a class of at least k = {k} records under vector {vector}, "
        "so it must be released, but the output leaves it out",
        row=p.v("raw_row"), k=p.v("k"), vector=p.v("vector")),
    "deletion.root": lambda p: Message(
        "data row {row} of the output is a suppressed record (every QI cell at the root): it "
        "must be deleted (left out of the output), not released", row=p.v("row")),
    "deletion.order": lambda p: Message(
        "data row {row} of the output repeats a record or breaks the raw order: under vector "
        "{vector}, no raw data row after {after} generalizes to its cells (the output "
        "releases records in raw order, each at most once)",
        row=p.v("row"), vector=p.v("vector"), after=p.v("after")),
    # Mondrian: cover
    "cover.misses": lambda p: Message(
        "the cell {cell} does not cover the raw value {raw}",
        cell=p.student("cell"), raw=p.r("raw")),
    "cover.misses/hidden": lambda p: Message("the cell does not cover the raw value"),
    "cover.not_a_cell": lambda p: Message(
        "the cell {cell} is neither a label of the column's hierarchy nor an interval [lo-hi]",
        cell=p.student("cell")),
    "cover.not_a_cell/hidden": lambda p: Message(
        "the cell is neither a label of the column's hierarchy nor an interval [lo-hi]"),
    "cover.not_allowed": lambda p: Message(
        "the cell {cell} is an interval, but the column is not numeric",
        cell=p.student("cell")),
    "cover.not_allowed/hidden": lambda p: Message(
        "the cell is an interval, but the column is not numeric"),
    "cover.not_finite": lambda p: Message(
        "the cell {cell} is an interval without finite bounds lo < hi",
        cell=p.student("cell")),
    "cover.not_finite/hidden": lambda p: Message(
        "the cell is an interval without finite bounds lo < hi"),
    "cover.equal": lambda p: Message(
        "the cell {cell} is an interval with lo = hi, but an interval needs lo < hi: where the "
        "smallest and largest values are equal, the cell keeps the raw value {raw}",
        cell=p.student("cell"), raw=p.r("raw")),
    "cover.equal/hidden": lambda p: Message(
        "the cell is an interval with lo = hi, but an interval needs lo < hi: where the "
        "smallest and largest values are equal, the cell keeps the raw value"),
    "cover.reversed": lambda p: Message(
        "the cell {cell} is an interval with lo > hi, but an interval needs lo < hi",
        cell=p.student("cell")),
    "cover.reversed/hidden": lambda p: Message(
        "the cell is an interval with lo > hi, but an interval needs lo < hi"),
    # Mondrian: exact, k, median-cuts, final
    "exact": lambda p: Message(
        "the class of data row {row} ({n} rows), column {column}: the cell {told}",
        row=p.v("row"), n=p.v("size"), column=p.r("column"),
        told=Message("is {cell}, but {what} is {expected}", cell=p.student("cell"),
                     what=p.v("what"), expected=p.r("expected"))),
    "exact/hidden": lambda p: Message(
        "the class of data row {row} ({n} rows), column {column}: the cell {told}",
        row=p.v("row"), n=p.v("size"), column=p.r("column"),
        told=Message("is not {what}", what=p.v("what"))),
    "what.range": lambda p: Message("the class's [min-max] range (its value when min = max)"),
    "what.lca": lambda p: Message("the lowest common ancestor of the class's values"),
    "k": lambda p: Message(
        "the class of data row {row} has {n} row(s) (data rows {rows}), fewer than k = {k}",
        row=p.v("row"), n=p.v("size"), rows=p.v("rows"), k=p.v("k")),
    "cuts.limit": lambda p: Message(
        "no tree of strict median cuts with these classes as leaves was found within the "
        "search's limit"),
    "cuts": lambda p: Message(
        "the classes are not the leaves of a tree of strict median cuts: {named} ({rows} rows) "
        "has no allowable cut on any QI that keeps every class whole ({reasons})",
        named=p.v("named"), rows=p.v("size"), reasons=p.v("reasons")),
    "cuts.whole": lambda p: Message("the whole table"),
    "cuts.part": lambda p: Message(
        "the partition of the classes of data rows {rows}", rows=p.v("rows")),
    "why.ancestor": lambda p: Message(
        "{column}: a row's value is the partition's common ancestor itself",
        column=p.v("column")),
    "why.nothing_above": lambda p: Message(
        "{column}: the {at} leaves no row above it", column=p.v("column"), at=p.v("at")),
    "why.small_side": lambda p: Message(
        "{column}: the {at} leaves a side of {n} rows, fewer than k = {k}",
        column=p.v("column"), at=p.v("at"), n=p.v("size"), k=p.v("k")),
    "why.splits": lambda p: Message(
        "{column}: the {at} splits the class of data row {row}",
        column=p.v("column"), at=p.v("at"), row=p.v("row")),
    "at.median": lambda p: Message("median cut ({bound})", bound=f"<= {p.params['bound']}"),
    "at.median/hidden": lambda p: Message("median cut"),
    "at.children": lambda p: Message("cut into the children of the common ancestor"),
    "final": lambda p: Message(
        "the class of data row {row} ({n} rows) still admits an allowable {how} on column "
        "{column} (every part would keep at least k = {k} rows), so Mondrian would have cut "
        "it", row=p.v("row"), n=p.v("size"), how=p.v("how"), column=p.r("column"),
        k=p.v("k")),
    "how.median": lambda p: Message("median cut"),
    "how.children": lambda p: Message("cut into the children of its LCA"),
}
