"""datafly (HANDOUT.md, "datafly"; optional part): Sweeney's Datafly, full-domain.

Every QI starts at level 0 (its raw values). While the table is not k-anonymous, the QI with
the most distinct generalized values (ties: leftmost) among those whose values are not all at
the root climbs one level: every value v becomes up(v, level). No suppression.
"""
from __future__ import annotations

import numpy as np

from kanon.problem import check_int, load_problem_for_k
from kanon.table import check_output_path



def _k_anonymous(generalized: np.ndarray, k: int) -> bool:
    """Every class of identical rows has at least k rows (rows encoded column by column as
    dense integers, so no row-wise sort is needed)."""
    key = np.zeros(len(generalized), dtype=np.int64)
    for column in generalized.T:
        _, dense = np.unique(column, return_inverse=True)
        key = key * (int(dense.max()) + 1) + dense.reshape(-1)
        _, key = np.unique(key, return_inverse=True)
        key = key.reshape(-1)
    return bool(np.bincount(key).min() >= k)


def datafly_levels(problem, k: int) -> list[int]:
    """The generalization level of every QI when Datafly stops."""
    levels = [0] * problem.m
    current = problem.codes.copy()
    while not _k_anonymous(current, k):
        distinct = [len(np.unique(current[:, j])) if (current[:, j] != 0).any() else -1
                    for j in range(problem.m)]  # node 0 is the root: -1 when all are there
        j = int(np.argmax(distinct))  # the first of the largest counts: the leftmost QI
        if distinct[j] < 0:  # pragma: no cover - only when n < k, refused before
            raise AssertionError("every QI is at its root")
        levels[j] += 1
        current[:, j] = problem.dghs[j].up(problem.codes[:, j], levels[j])
    return levels


def datafly(raw_dataset_file: str, DGH_folder: str, k: int, output_file: str) -> None:
    """Full-domain generalization, one level of the QI with the most distinct values at a
    time, until every equivalence class has at least k rows."""
    k = check_int("k", k, minimum=1)
    check_output_path(output_file, (raw_dataset_file,))
    problem = load_problem_for_k(raw_dataset_file, DGH_folder, k)
    levels = datafly_levels(problem, k)
    generalized = np.column_stack([dgh.up(problem.codes[:, j], levels[j])
                                   for j, dgh in enumerate(problem.dghs)])
    problem.write(output_file, generalized.reshape(problem.n, problem.m))
