"""Generalizing equivalence classes to their LCAs, and reading Mondrian interval cells."""
from __future__ import annotations

import numpy as np

from .io import Problem


def lca_per_class(problem: Problem, class_of_row: np.ndarray) -> np.ndarray:
    """(n, M) node ids: every QI cell replaced by the LCA of its class's raw values.

    `class_of_row[r]` is any integer label of row r's equivalence class."""
    n, m = problem.codes.shape
    result = np.empty((n, m), dtype=np.int64)
    if n == 0:
        return result
    order = np.argsort(class_of_row, kind="stable")
    sorted_classes = class_of_row[order]
    starts = np.flatnonzero(np.concatenate(([True], sorted_classes[1:] != sorted_classes[:-1])))
    sizes = np.diff(np.append(starts, n))
    for j, dgh in enumerate(problem.dghs):
        paths = dgh.ancestors[problem.codes[order, j]]  # (n, h+1), -1 below a node
        low = np.minimum.reduceat(paths, starts, axis=0)
        high = np.maximum.reduceat(paths, starts, axis=0)
        shared = (low == high) & (low >= 0)  # a prefix of True along the depth axis
        lca_depth = shared.sum(axis=1) - 1
        lca = low[np.arange(len(starts)), lca_depth]
        result[order, j] = np.repeat(lca, sizes)
    return result


def parse_interval(cell: str) -> tuple[float, float] | None:
    """`[lo-hi]` as two floats, splitting at the first '-' after the first character that
    leaves two numbers; None when the cell is not of that form."""
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


def as_number(text: str) -> float | None:
    """The value of a cell as a number, or None when float() rejects it."""
    try:
        return float(text)
    except ValueError:
        return None


def numeric_values(raw_values: list[str]) -> np.ndarray | None:
    """The column's values as floats when the column is numeric, else None.

    Numeric (the course's reading of HANDOUT.md, "Files"): every raw value parses with
    float() to a finite number, and no two different raw strings give the same number (so
    "5" and "5.0", or "nan" and "inf", make a column categorical)."""
    if not raw_values:
        return None
    spelling: dict[float, str] = {}
    for text in raw_values:
        value = as_number(text)
        if value is None or not np.isfinite(value) or spelling.setdefault(value, text) != text:
            return None
    return np.asarray([float(v) for v in raw_values], dtype=np.float64)
