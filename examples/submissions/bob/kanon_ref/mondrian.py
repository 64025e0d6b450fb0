"""mondrian (HANDOUT.md, "mondrian"): strict multidimensional partitioning (LeFevre, DeWitt,
Ramakrishnan, ICDE 2006).

A partition is cut on the widest QI that allows a cut (ties: column order): a numeric QI at
its lower median (left = values <= split), a categorical QI into the children of the
partition's LCA. Final partitions generalize numeric QIs to [min-max] (each row keeps its raw
value when min = max) and categorical QIs to their LCA.
"""
from __future__ import annotations

import numpy as np

from .kanon.cells import numeric_values
from .kanon.problem import Problem, check_int, load_problem_for_k
from .kanon.table import check_output_path, write_table

from .ties import tie_ranks


class _Partitioner:
    def __init__(self, problem: Problem, k: int):
        self.problem, self.k = problem, k
        self.raw_strings: list[list[str]] = []
        self.numbers: list[np.ndarray | None] = []  # per QI: float values, None if categorical
        self.spans: list[float] = []  # per QI: U - L (numeric) or |A| - 1 (categorical)
        self.paths: list[np.ndarray] = []  # per QI: (n, h+1) ancestors of each raw value
        for j, (col, dgh) in enumerate(zip(problem.qi_columns, problem.dghs)):
            strings = [row[col] for row in problem.table.rows]
            values = numeric_values(strings)
            self.raw_strings.append(strings)
            if values is not None:
                self.numbers.append(values)
                self.spans.append(float(values.max() - values.min()))
            else:
                self.numbers.append(None)
                self.spans.append(float(dgh.n_leaves - 1))
            self.paths.append(dgh.ancestors[problem.codes[:, j]])
        self.final: list[np.ndarray] = []

    def lca_depth(self, j: int, rows: np.ndarray) -> int:
        paths = self.paths[j][rows]
        low, high = paths.min(axis=0), paths.max(axis=0)
        return int(((low == high) & (low >= 0)).sum()) - 1

    def width(self, j: int, rows: np.ndarray) -> float:
        if self.spans[j] == 0:
            return 0.0
        numbers = self.numbers[j]
        if numbers is not None:
            values = numbers[rows]
            return float(values.max() - values.min()) / self.spans[j]
        lca = self.paths[j][rows[0], self.lca_depth(j, rows)]
        return float(self.problem.dghs[j].leaf_count[lca] - 1) / self.spans[j]

    def cut(self, j: int, rows: np.ndarray) -> list[np.ndarray] | None:
        """The parts of `rows` when cut on QI j, or None when that cut is not allowed."""
        k = self.k
        numbers = self.numbers[j]
        if numbers is not None:
            values = numbers[rows]
            split = np.sort(values)[(len(rows) - 1) // 2]
            left = values <= split
            n_left = int(left.sum())
            if n_left < k or len(rows) - n_left < k:
                return None
            return [rows[left], rows[~left]]
        depth = self.lca_depth(j, rows)
        children = self.paths[j][rows, depth + 1] if depth + 1 < self.paths[j].shape[1] \
            else np.full(len(rows), -1)
        if (children < 0).any():
            return None  # some row's value is the LCA itself
        groups, inverse, counts = np.unique(children, return_inverse=True, return_counts=True)
        if len(groups) < 2 or counts.min() < k:
            return None
        inverse = inverse.reshape(-1)
        return [rows[inverse == g] for g in range(len(groups))]

    def run(self) -> list[np.ndarray]:
        """The final partitions, as arrays of row indices."""
        pending = [np.arange(self.problem.n)]
        while pending:
            rows = pending.pop()
            parts = None
            if len(rows) >= 2 * self.k:  # otherwise no cut can leave k rows on each side
                widths = np.array([self.width(j, rows) for j in range(self.problem.m)])
                candidates = np.flatnonzero(widths > 0)
                order = np.lexsort((candidates, tie_ranks(-widths[candidates])))
                for j in candidates[order]:
                    parts = self.cut(int(j), rows)
                    if parts is not None:
                        break
            if parts is None:
                self.final.append(rows)
            else:
                pending.extend(reversed(parts))
        return self.final


def _generalize(problem: Problem, part: _Partitioner, rows_out: list[list[str]],
                rows: np.ndarray) -> None:
    """Write the final cells of one partition into `rows_out`."""
    for j, (col, dgh) in enumerate(zip(problem.qi_columns, problem.dghs)):
        numbers = part.numbers[j]
        if numbers is not None:
            values = numbers[rows]
            low, high = values.min(), values.max()
            if low == high:
                continue  # every row keeps its own raw value
            strings = part.raw_strings[j]  # one spelling per number in a numeric column
            lo = strings[int(rows[np.argmin(values)])]
            hi = strings[int(rows[np.argmax(values)])]
            cell = f"[{lo}-{hi}]"
        else:
            cell = dgh.labels[int(part.paths[j][rows[0], part.lca_depth(j, rows)])]
        for r in rows:
            rows_out[r][col] = cell


def mondrian(raw_dataset_file: str, DGH_folder: str, k: int, output_file: str) -> None:
    """Strict Mondrian: recursive median / hierarchy cuts while both sides keep >= k rows."""
    k = check_int("k", k, minimum=1)
    check_output_path(output_file, (raw_dataset_file,))
    problem = load_problem_for_k(raw_dataset_file, DGH_folder, k)
    part = _Partitioner(problem, k)
    rows_out = [list(r) for r in problem.table.rows]
    for rows in part.run():
        _generalize(problem, part, rows_out, np.sort(rows))
    write_table(output_file, problem.table.header, rows_out, forbidden=(raw_dataset_file,))
