"""What a released cell means, per QI column, and whether it covers a raw value.

A categorical column (one with a hierarchy) releases a node label of its tree; it covers a
raw value when the node is the value or one of its ancestors. A numeric column (no
hierarchy) releases a number (the raw value itself) or a range `[lo-hi]` with lo < hi (no
spaces; bounds are decimal numbers, a sign and an exponent allowed); it covers a raw value v
when lo <= v <= hi (a number is the range [v-v]). Numbers are compared by value.

A parsed cell (`Parsed`) is a node id (categorical) or a (lo, hi) pair (numeric, lo == hi for
a plain number). A cell that does not parse gives a `Fault` instead: "label" (not a label of
the tree), "number" (neither a number nor a range) or "range" (a range with lo >= hi).
The middle of a set of raw values is their lowest common ancestor, or the pair (min, max).

The built-in anonymizers (HANDOUT.md, "Generalized cells") follow float()'s reading instead:
a column is numeric when every raw value is a finite float() and no two raw spellings give
the same number (`is_numeric_column`), and an interval cell is `[lo-hi]` split at the first
'-' that leaves two float()s (`parse_interval`); kanon and the self-check's validity check
(kcheck.checks) share these two.
"""
from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence

from .hierarchies import Tree

__all__ = ["Number", "Parsed", "Fault", "parse_number", "parse_range", "parse_interval",
           "is_numeric_column", "Categorical", "Numeric", "Column", "make_columns", "covers",
           "middle"]

Number = int | float
Parsed = int | tuple[Number, Number]
Fault = str

_NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"
_NUMBER_RE = re.compile(_NUMBER)
_INT_RE = re.compile(r"[+-]?\d+")
_RANGE_RE = re.compile(rf"\[({_NUMBER})-({_NUMBER})\]")


def parse_number(text: str) -> Number | None:
    """A decimal number (an int when it has no fraction or exponent), or None."""
    if _INT_RE.fullmatch(text):
        return int(text)
    if _NUMBER_RE.fullmatch(text):
        return float(text)
    return None


def parse_range(text: str) -> tuple[Number, Number] | None:
    """The bounds of `[lo-hi]` (any order), or None when the text is not of that form."""
    match = _RANGE_RE.fullmatch(text)
    if match is None:
        return None
    lo, hi = parse_number(match[1]), parse_number(match[2])
    assert lo is not None and hi is not None
    return lo, hi


def parse_interval(cell: str) -> tuple[float, float] | None:
    """`[lo-hi]` as two floats, split at the first '-' after the first character that leaves
    two numbers; None when the cell is not of that form (bounds may be infinite or NaN here:
    a check refuses them)."""
    if len(cell) < 5 or cell[0] != "[" or cell[-1] != "]":
        return None
    inner = cell[1:-1]
    for cut in range(1, len(inner)):
        if inner[cut] != "-":
            continue
        try:
            return float(inner[:cut]), float(inner[cut + 1:])
        except ValueError:
            continue
    return None


def is_numeric_column(raw_values: Sequence[str]) -> bool:
    """Whether a raw column is numeric for the built-in anonymizers: not empty, every value a
    finite float(), no two different spellings of one number ("5" and "5.0": categorical)."""
    spelling: dict[float, str] = {}
    for text in raw_values:
        try:
            number = float(text)
        except ValueError:
            return False
        if not math.isfinite(number) or spelling.setdefault(number, text) != text:
            return False
    return bool(raw_values)


class Categorical:
    """A QI column with a hierarchy: cells are node labels."""

    numeric = False

    def __init__(self, name: str, tree: Tree):
        self.name, self.tree = name, tree

    def raw(self, value: str) -> int:
        """The node id of a raw value (KeyError when it is not a label)."""
        return self.tree.index[value]

    def parse(self, cell: str) -> Parsed | Fault:
        node = self.tree.index.get(cell)
        return "label" if node is None else node

    def covers(self, parsed: Parsed, raw: int) -> bool:
        return self.tree.contains(parsed, raw)  # type: ignore[arg-type]

    def middle(self, raws: Iterable[int]) -> Parsed:
        """The lowest common ancestor of some raw node ids (at least one)."""
        return self.tree.lca_nodes(raws)

    def text(self, parsed: Parsed) -> str:
        return self.tree.labels[parsed]  # type: ignore[index]

    def ncp(self, parsed: Parsed) -> float:
        """leaves(u) / leaves(root); a leaf 0."""
        tree = self.tree
        return 0.0 if not tree.children[parsed] else \
            tree.leaf_count[parsed] / tree.n_leaves  # type: ignore[index]

    def lm(self, parsed: Parsed) -> float:
        """(leaves(u) - 1) / (leaves(root) - 1); 0 when the tree has one leaf."""
        tree = self.tree
        if tree.n_leaves == 1:
            return 0.0
        return (tree.leaf_count[parsed] - 1) / (tree.n_leaves - 1)  # type: ignore[index]


class Numeric:
    """A numeric QI column: cells are numbers or ranges; `low`/`high` span the raw column."""

    numeric = True

    def __init__(self, name: str, raw_values: Sequence[str], table: str = "raw"):
        """`raw_values` must all be numbers (a ValueError names the table, row and column)."""
        self.name = name
        self.spelling: dict[Number, str] = {}
        for value in dict.fromkeys(raw_values):  # each distinct value once, in row order
            number = parse_number(value)
            if number is None:
                row = list(raw_values).index(value) + 1
                raise ValueError(f"{table}, data row {row}, column {name!r}: {value!r} is not a "
                                 "number (the column is numeric)")
            self.spelling.setdefault(number, value)
        self.low = min(self.spelling) if self.spelling else 0
        self.high = max(self.spelling) if self.spelling else 0
        self.span = self.high - self.low

    def raw(self, value: str) -> Number:
        number = parse_number(value)
        if number is None:
            raise KeyError(value)
        return number

    def parse(self, cell: str) -> Parsed | Fault:
        number = parse_number(cell)
        if number is not None:
            return number, number
        bounds = parse_range(cell)
        if bounds is None:
            return "number"
        return bounds if bounds[0] < bounds[1] else "range"

    def covers(self, parsed: Parsed, raw: Number) -> bool:
        lo, hi = parsed  # type: ignore[misc]
        return lo <= raw <= hi

    def middle(self, raws: Iterable[Number]) -> Parsed:
        """(min, max) of some raw values (at least one)."""
        values = list(raws)
        return min(values), max(values)

    def _spell(self, number: Number) -> str:
        return self.spelling.get(number, repr(number))

    def text(self, parsed: Parsed) -> str:
        """The value when lo == hi, else `[lo-hi]` (raw spellings when the raw data has them)."""
        lo, hi = parsed  # type: ignore[misc]
        return self._spell(lo) if lo == hi else f"[{self._spell(lo)}-{self._spell(hi)}]"

    def ncp(self, parsed: Parsed) -> float:
        """(hi - lo) / (max - min of the raw column); 0 when that span is 0."""
        lo, hi = parsed  # type: ignore[misc]
        return (hi - lo) / self.span if self.span else 0.0

    lm = ncp


Column = Categorical | Numeric


def make_columns(header: Sequence[str], rows: Sequence[Sequence[str]],
                 hierarchies: dict[str, Tree], qis: Sequence[str], numeric: Iterable[str],
                 table: str = "raw") -> dict[str, Column]:
    """The QI columns of a raw table, in `qis` order: numeric ones from their raw values,
    the others from their hierarchy. A missing column or hierarchy, or a raw value that is
    not a number / not a label, is a ValueError naming the table, data row and column."""
    numeric = set(numeric)
    unknown = numeric - set(qis)
    if unknown:
        raise ValueError(f"numeric columns {sorted(unknown)} are not QIs {list(qis)}")
    columns: dict[str, Column] = {}
    for name in qis:
        if name not in header:
            raise ValueError(f"{table}: no column {name!r} (the columns are {', '.join(header)})")
        at = list(header).index(name)
        values = [row[at] for row in rows]  # a list: .index finds a bad value's row
        if name in numeric:
            columns[name] = Numeric(name, values, table)
            continue
        tree = hierarchies.get(name)
        if tree is None:
            raise ValueError(f"the QI {name!r} is not numeric and has no hierarchy")
        for value in dict.fromkeys(values):
            if value not in tree.index:
                row = values.index(value) + 1
                raise ValueError(f"{table}, data row {row}, column {name!r}: {value!r} is not a "
                                 f"label of {tree.file}")
        columns[name] = Categorical(name, tree)
    return columns


def covers(column: Column, cell: str, raw: str) -> bool:
    """Whether the released `cell` parses and covers the raw value `raw` (a raw value that is
    not a label / not a number is a KeyError)."""
    parsed = column.parse(cell)
    return not isinstance(parsed, str) and column.covers(parsed, column.raw(raw))


def middle(column: Column, raws: Iterable[str]) -> str:
    """The middle of some raw values (at least one) as a released cell: their range or value,
    or their lowest common ancestor."""
    return column.text(column.middle(column.raw(v) for v in raws))  # type: ignore[arg-type]
