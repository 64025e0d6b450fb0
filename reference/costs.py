"""The two information-loss costs (HANDOUT.md, "Costs").

cost_MD: sum over rows and QIs of depth(raw) - depth(generalized).
cost_LM: sum over rows of the mean over QIs of (leaves(gen) - 1) / (|A| - 1); an interval
cell [lo-hi] of a numeric QI costs (hi - lo) / (U - L).
"""
from __future__ import annotations

import numpy as np

from kanon.cells import CellError, Column
from kanon.problem import Problem, load_problem
from kanon.table import read_table



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
    columns = [Column(raw.header[c], d, [r[c] for r in raw.rows])
               for c, d in zip(problem.qi_columns, problem.dghs)]
    for r, (raw_row, anon_row) in enumerate(zip(raw.rows, anon.rows)):
        for c, value in enumerate(raw_row):
            if c not in qi and anon_row[c] != value:
                raise ValueError(f"{anonymized_dataset_file}: data row {r + 1}, column "
                                 f"{raw.header[c]!r}: non-QI value {anon_row[c]!r} differs from "
                                 f"the raw value {value!r}")
        for j, (c, column) in enumerate(zip(problem.qi_columns, columns)):
            result = column.cost(raw_row[c], anon_row[c])
            if isinstance(result, CellError):
                raise ValueError(f"{anonymized_dataset_file}: data row {r + 1}, column "
                                 f"{raw.header[c]!r}: {result.describe()}")
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
