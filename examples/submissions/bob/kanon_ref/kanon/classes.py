"""Equivalence classes: rows with identical QI cells (compared as strings), and generalizing
each class of a problem to the lowest common ancestors of its raw values. `group_rows` (each
class's data rows) is kcheck's, the students' self-check's too."""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ..kcheck.checks import group_rows  # the self-check's classes too

from .problem import Problem

__all__ = ["equivalence_classes", "group_rows", "lca_per_class"]


def equivalence_classes(qi_cells: Sequence[Sequence[str]] | np.ndarray
                        ) -> tuple[np.ndarray, np.ndarray]:
    """(class_of_row, sizes): rows with identical QI cells share a class id 0..c-1 (ids in
    order of each class's first row); sizes[c] is the number of rows of class c.

    `qi_cells` is a sequence of rows, each the row's QI cells (strings)."""
    rows = [tuple(r) for r in qi_cells]
    ids: dict[tuple, int] = {}
    class_of_row = np.fromiter((ids.setdefault(r, len(ids)) for r in rows), dtype=np.int64,
                               count=len(rows))
    sizes = np.bincount(class_of_row, minlength=len(ids)).astype(np.int64)
    return class_of_row, sizes


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
