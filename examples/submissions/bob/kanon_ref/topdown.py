"""topdown_anonymizer (HANDOUT.md, "topdown_anonymizer"; optional part, Fall 2025).

Start with one node holding every record, each QI at its DGH root. Specializing QI j of a
node replaces its value v by v's children and splits the node's records by the child whose
subtree holds their raw value; it is allowed when every record's raw value lies strictly
below v and every non-empty child group has at least k records. A node takes the allowed
specialization with the fewest non-empty children, then the smallest L1 distance between the
groups' size shares and the uniform distribution (1e-9 tie rule), then the leftmost QI; it
stops when none is allowed. Each record is written with its final node's values.
"""
from __future__ import annotations

import numpy as np

from .kanon.problem import Problem, check_int, load_problem_for_k
from .kanon.table import check_output_path

from .ties import EPS


def share_distance(sizes: np.ndarray) -> float:
    """L1 distance between the size shares of the groups and the uniform distribution."""
    sizes = np.asarray(sizes, dtype=np.float64)
    return float(np.abs(sizes / sizes.sum() - 1.0 / len(sizes)).sum())


def _specialization(problem: Problem, k: int, rows: np.ndarray, values: list[int]
                    ) -> tuple[int, np.ndarray, np.ndarray] | None:
    """The chosen specialization of a node: (QI, child node of every row, the children's
    node ids), or None when no specialization is allowed."""
    candidates = []  # (children, distance, j, child of each row), QIs left to right
    for j, dgh in enumerate(problem.dghs):
        v = values[j]
        depth = int(dgh.depth[v])
        if depth + 1 >= dgh.ancestors.shape[1]:
            continue  # v is at the largest depth: a leaf
        child = dgh.ancestors[problem.codes[rows, j], depth + 1]
        if (child < 0).any():
            continue  # some record's raw value is v itself
        counts = np.bincount(child, minlength=dgh.n_nodes)
        counts = counts[counts > 0]  # the non-empty children's group sizes
        if counts.min() < k:
            continue
        candidates.append((len(counts), share_distance(counts), j, child))
    if not candidates:
        return None
    fewest = min(c[0] for c in candidates)
    candidates = [c for c in candidates if c[0] == fewest]
    smallest = min(c[1] for c in candidates)
    best = next(c for c in candidates if c[1] <= smallest + EPS)  # ties: leftmost QI
    return best[2], best[3], np.unique(best[3])


def topdown(problem: Problem, k: int) -> np.ndarray:
    """(n, M) node ids: every record's final node values."""
    result = np.empty_like(problem.codes)
    pending = [(np.arange(problem.n), [0] * problem.m)]  # node 0 is every DGH's root
    while pending:
        rows, values = pending.pop()
        chosen = _specialization(problem, k, rows, values)
        if chosen is None:
            result[rows] = values
            continue
        j, child, children = chosen
        for c in children:
            values_c = list(values)
            values_c[j] = int(c)
            pending.append((rows[child == c], values_c))
    return result


def topdown_anonymizer(raw_dataset_file: str, DGH_folder: str, k: int,
                       output_file: str) -> None:
    """Top-down specialization from the roots while every child group keeps >= k records."""
    k = check_int("k", k, minimum=1)
    check_output_path(output_file, (raw_dataset_file,))
    problem = load_problem_for_k(raw_dataset_file, DGH_folder, k)
    problem.write(output_file, topdown(problem, k))
