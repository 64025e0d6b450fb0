"""The two information-loss costs (HANDOUT.md, "Costs").

cost_MD: sum over rows and QIs of depth(raw) - depth(generalized).
cost_LM: sum over rows of the mean over QIs of (leaves(gen) - 1) / (|A| - 1); an interval
cell [lo-hi] of a numeric QI costs (hi - lo) / (U - L).
"""
from __future__ import annotations

import numpy as np

from .dgh import DGH
from .generalize import as_number, numeric_values, parse_interval
from .io import Problem, load_problem, read_table


class _Column:
    """Cost of each generalized cell of one QI column, with the validity check."""

    def __init__(self, name: str, dgh: DGH, raw_values: list[str]):
        self.name, self.dgh = name, dgh
        numbers = numeric_values(raw_values)
        self.numeric = numbers is not None
        self.low = float(numbers.min()) if numbers is not None else 0.0
        self.high = float(numbers.max()) if numbers is not None else 0.0
        self.leaf_numbers: list[tuple[float, int]] = []
        if self.numeric:
            for node, label in enumerate(dgh.labels):
                value = as_number(label)
                if dgh.is_leaf(node) and value is not None:
                    self.leaf_numbers.append((value, node))
        self.cache: dict[tuple[str, str], tuple[int, float] | str] = {}

    def cost(self, raw: str, cell: str) -> tuple[int, float] | str:
        """(MD, LM) of one cell, or the reason it is not a generalization of `raw`."""
        key = (raw, cell)
        if key not in self.cache:
            self.cache[key] = self._cost(raw, cell)
        return self.cache[key]

    def _cost(self, raw: str, cell: str) -> tuple[int, float] | str:
        dgh = self.dgh
        raw_node = dgh.index[raw]
        node = dgh.index.get(cell)
        if node is not None:
            if not dgh.is_ancestor_or_self(node, raw_node):
                return f"{cell!r} is not {raw!r} or one of its ancestors in {dgh.path}"
            return int(dgh.depth[raw_node] - dgh.depth[node]), float(dgh.lm(node))
        bounds = parse_interval(cell)
        if bounds is None:
            return f"{cell!r} is neither a label of {dgh.path} nor an interval [lo-hi]"
        if not self.numeric:
            return f"{cell!r} is an interval, but column {self.name!r} is not numeric"
        lo, hi = bounds
        value = float(raw)
        if not (np.isfinite(lo) and np.isfinite(hi)):
            return f"interval {cell!r} needs finite bounds"
        if not lo < hi:
            return f"interval {cell!r} needs lo < hi"
        if not lo <= value <= hi:
            return f"interval {cell!r} does not contain the raw value {raw!r}"
        inside = [n for v, n in self.leaf_numbers if lo <= v <= hi]
        if not dgh.is_leaf(raw_node):
            inside.append(raw_node)
        gen = dgh.lca(np.asarray(inside))
        md = int(dgh.depth[raw_node] - dgh.depth[gen])
        lm = (hi - lo) / (self.high - self.low) if self.high > self.low else 0.0
        return md, lm


def cell_costs(raw_dataset_file: str, anonymized_dataset_file: str,
               DGH_folder: str) -> tuple[Problem, np.ndarray, np.ndarray]:
    """Validate an anonymized table against its raw table; return the problem and the (n, M)
    arrays of MD and LM cell costs. Errors name the 1-based data row and the column."""
    problem = load_problem(raw_dataset_file, DGH_folder)
    raw, anon = problem.table, read_table(anonymized_dataset_file)
    if anon.header != raw.header:
        raise ValueError(f"{anonymized_dataset_file}: header {anon.header} differs from the raw "
                         f"file's header {raw.header}")
    if len(anon.rows) != len(raw.rows):
        raise ValueError(f"{anonymized_dataset_file}: {len(anon.rows)} data rows, the raw file "
                         f"{raw_dataset_file} has {len(raw.rows)}")
    n, m = problem.codes.shape
    md = np.zeros((n, m), dtype=np.int64)
    lm = np.zeros((n, m), dtype=np.float64)
    qi = set(problem.qi_columns)
    columns = [_Column(raw.header[c], d, [r[c] for r in raw.rows])
               for c, d in zip(problem.qi_columns, problem.dghs)]
    for r, (raw_row, anon_row) in enumerate(zip(raw.rows, anon.rows)):
        for c, value in enumerate(raw_row):
            if c not in qi and anon_row[c] != value:
                raise ValueError(f"{anonymized_dataset_file}: data row {r + 1}, column "
                                 f"{raw.header[c]!r}: non-QI value {anon_row[c]!r} differs from "
                                 f"the raw value {value!r}")
        for j, (c, column) in enumerate(zip(problem.qi_columns, columns)):
            result = column.cost(raw_row[c], anon_row[c])
            if isinstance(result, str):
                raise ValueError(f"{anonymized_dataset_file}: data row {r + 1}, column "
                                 f"{raw.header[c]!r}: {result}")
            md[r, j], lm[r, j] = result
    return problem, md, lm


def cost_MD(raw_dataset_file: str, anonymized_dataset_file: str, DGH_folder: str) -> float:
    """Distortion: the sum over all rows and QIs of depth(raw) - depth(generalized)."""
    _, md, _ = cell_costs(raw_dataset_file, anonymized_dataset_file, DGH_folder)
    return float(md.sum())


def cost_LM(raw_dataset_file: str, anonymized_dataset_file: str, DGH_folder: str) -> float:
    """Loss metric: the sum over records of the mean LM of the record's M QI cells."""
    problem, _, lm = cell_costs(raw_dataset_file, anonymized_dataset_file, DGH_folder)
    return float((lm.sum(axis=1) / problem.m).sum())
