"""Generalized cells (HANDOUT.md, "Generalized cells"): the numeric-QI rule, interval cells,
and the one rule deciding whether a cell generalizes a raw value, with its MD and LM cost.

A cell generalizes raw value r of a QI when it is r or a label of an ancestor of r in the
column's hierarchy, or, for a numeric QI, an interval `[lo-hi]` with finite lo < hi that
contains r. A column is numeric when every raw value parses with float() to a finite number
and no two different raw strings give the same number ("5" and "5.0" make it categorical).
A cell that breaks the rule gives a `CellError`: what is wrong (`CellFault`), the cell and the
raw value; each caller words it for its reader (`CellError.describe` is the costs' wording).
"""
from __future__ import annotations

import enum
import math
from dataclasses import dataclass

import numpy as np

from kcheck.cells import is_numeric_column, parse_interval

from .hierarchy import DGH

__all__ = ["as_number", "numeric_values", "is_numeric", "parse_interval", "CellFault",
           "CellError", "Column"]


def as_number(text: str) -> float | None:
    """The value of a cell as a number, or None when float() rejects it."""
    try:
        return float(text)
    except ValueError:
        return None


def numeric_values(raw_values: list[str]) -> np.ndarray | None:
    """The column's values as floats when the column is numeric (module docstring), else
    None."""
    if not is_numeric_column(raw_values):  # kcheck's: the self-check's rule too
        return None
    return np.asarray([float(v) for v in raw_values], dtype=np.float64)


def is_numeric(raw_values: list[str]) -> bool:
    """The numeric-QI rule (module docstring)."""
    return numeric_values(raw_values) is not None


class CellFault(enum.Enum):
    """Why a cell does not generalize its raw value."""

    NOT_ANCESTOR = "a label that is neither the raw value nor one of its ancestors"
    NOT_A_CELL = "neither a label of the hierarchy nor an interval [lo-hi]"
    INTERVAL_NOT_ALLOWED = "an interval in a column that is not numeric (or where none is allowed)"
    INTERVAL_NOT_FINITE = "an interval with an infinite or NaN bound"
    INTERVAL_EMPTY = "an interval with lo >= hi"
    INTERVAL_MISSES = "an interval that does not contain the raw value"

    @property
    def is_interval(self) -> bool:
        return self.name.startswith("INTERVAL_")


@dataclass(frozen=True)
class CellError:
    """A cell that breaks the generalized-cell rule."""

    fault: CellFault
    column: str
    cell: str
    raw: str
    hierarchy: str  # the hierarchy file's path

    def describe(self) -> str:
        """The staff solution's wording (cost_MD / cost_LM errors), values quoted."""
        cell, raw = self.cell, self.raw
        return {
            CellFault.NOT_ANCESTOR: f"{cell!r} is not {raw!r} or one of its ancestors in "
                                    f"{self.hierarchy}",
            CellFault.NOT_A_CELL: f"{cell!r} is neither a label of {self.hierarchy} nor an "
                                  f"interval [lo-hi]",
            CellFault.INTERVAL_NOT_ALLOWED: f"{cell!r} is an interval, but column "
                                            f"{self.column!r} is not numeric",
            CellFault.INTERVAL_NOT_FINITE: f"interval {cell!r} needs finite bounds",
            CellFault.INTERVAL_EMPTY: f"interval {cell!r} needs lo < hi",
            CellFault.INTERVAL_MISSES: f"interval {cell!r} does not contain the raw value "
                                       f"{raw!r}",
        }[self.fault]


class Column:
    """One QI column: its hierarchy, whether it is numeric, the cell rule and cell costs."""

    def __init__(self, name: str, dgh: DGH, raw_values: list[str]):
        self.name, self.dgh = name, dgh
        numbers = numeric_values(raw_values)
        self.numeric = numbers is not None
        self.low = float(numbers.min()) if numbers is not None else 0.0
        self.high = float(numbers.max()) if numbers is not None else 0.0
        self._leaf_numbers: list[tuple[float, int]] | None = None
        self.cache: dict[tuple[str, str], tuple[int, float] | CellError] = {}

    def _error(self, fault: CellFault, raw: str, cell: str) -> CellError:
        return CellError(fault, self.name, cell, raw, self.dgh.path)

    def check(self, raw: str, cell: str, intervals: bool = True) -> CellError | None:
        """None when `cell` generalizes `raw` (a label of the hierarchy); `intervals=False`
        refuses interval cells even in a numeric column."""
        dgh = self.dgh
        node = dgh.index.get(cell)
        if node is not None:
            ok = dgh.is_ancestor_or_self(node, dgh.index[raw])
            return None if ok else self._error(CellFault.NOT_ANCESTOR, raw, cell)
        bounds = parse_interval(cell)
        if bounds is None:
            return self._error(CellFault.NOT_A_CELL, raw, cell)
        if not (self.numeric and intervals):
            return self._error(CellFault.INTERVAL_NOT_ALLOWED, raw, cell)
        lo, hi = bounds
        if not (math.isfinite(lo) and math.isfinite(hi)):
            return self._error(CellFault.INTERVAL_NOT_FINITE, raw, cell)
        if not lo < hi:
            return self._error(CellFault.INTERVAL_EMPTY, raw, cell)
        if not lo <= float(raw) <= hi:
            return self._error(CellFault.INTERVAL_MISSES, raw, cell)
        return None

    def cost(self, raw: str, cell: str) -> tuple[int, float] | CellError:
        """(MD, LM) of one cell, or why it does not generalize `raw` (cached per pair)."""
        key = (raw, cell)
        if key not in self.cache:
            self.cache[key] = self._cost(raw, cell)
        return self.cache[key]

    def _cost(self, raw: str, cell: str) -> tuple[int, float] | CellError:
        error = self.check(raw, cell)
        if error is not None:
            return error
        dgh = self.dgh
        raw_node = dgh.index[raw]
        node = dgh.index.get(cell)
        if node is not None:
            return int(dgh.depth[raw_node] - dgh.depth[node]), float(dgh.lm(node))
        lo, hi = parse_interval(cell)
        inside = [n for v, n in self.leaf_numbers() if lo <= v <= hi]
        if not dgh.is_leaf(raw_node):
            inside.append(raw_node)
        gen = dgh.lca(np.asarray(inside))
        md = int(dgh.depth[raw_node] - dgh.depth[gen])
        lm = (hi - lo) / (self.high - self.low) if self.high > self.low else 0.0
        return md, lm

    def leaf_numbers(self) -> list[tuple[float, int]]:
        """(value, node) of every leaf whose label is a number (numeric columns only)."""
        if self._leaf_numbers is None:
            self._leaf_numbers = [] if not self.numeric else [
                (value, node) for node, label in enumerate(self.dgh.labels)
                if self.dgh.is_leaf(node) and (value := as_number(label)) is not None]
        return self._leaf_numbers
