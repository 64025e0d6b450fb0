"""topdown_greedy (HANDOUT.md, "topdown_greedy"; optional part): Top-Down Greedy
partitioning with the NCP metric (Xu, Wang, Pei, Wang, Shi, Fu, KDD 2006).

Numeric QIs generalize to intervals, categorical QIs to DGH nodes. NCP of a cell: a leaf 0,
another node leaves(v)/|A|, an interval (hi - lo)/(U - L) (0 when U = L); of a record: the sum
over QIs. dist(a, b) = NCP of the joint generalization of a and b. A partition of 2k or more
records is split around a far-apart pair (u, v): every other record goes to u's group when
dist(u, r) <= dist(v, r), else to v's; a group of fewer than k records either takes its
nearest records from the other group or the two groups stay one final partition, whichever
costs less (size x NCP). Partitions of fewer than 2k records are final.

Vectorized: the categorical QIs' ancestor paths are concatenated into one (n, W) matrix P and
the NCP of the node at each path position is written as an increment D over its parent's
NCP (D at depth 0 is the root's NCP), so the NCP of the LCA of a generalization g and a
record r is the sum of g's increments over the positions where P[r] equals g's path.
"""
from __future__ import annotations

import numpy as np

from .kanon.cells import numeric_values
from .kanon.problem import Problem, check_int, load_problem_for_k
from .kanon.table import check_output_path, write_table

from .ties import EPS, argmax_first, tie_ranks


class _Greedy:
    def __init__(self, problem: Problem, k: int):
        self.problem, self.k = problem, k
        n = problem.n
        self.raw_strings: list[list[str]] = []
        self.numeric: list[int] = []  # QI positions of the numeric QIs
        self.categorical: list[int] = []
        columns_x, inv_spans = [], []
        paths, increments, self.segments = [], [], []
        width = 0
        for j, (col, dgh) in enumerate(zip(problem.qi_columns, problem.dghs)):
            strings = [row[col] for row in problem.table.rows]
            self.raw_strings.append(strings)
            values = numeric_values(strings)
            if values is not None:
                self.numeric.append(j)
                columns_x.append(values)
                span = float(values.max() - values.min())
                inv_spans.append(1.0 / span if span > 0 else 0.0)
                continue
            self.categorical.append(j)
            ncp = dgh.leaf_count / dgh.n_leaves
            ncp[[not c for c in dgh.children]] = 0.0  # a leaf has NCP 0
            path = dgh.ancestors[problem.codes[:, j]]  # (n, h+1), -1 below the raw value
            node_ncp = np.where(path >= 0, ncp[np.maximum(path, 0)], 0.0)
            step = node_ncp.copy()
            step[:, 1:] -= node_ncp[:, :-1]
            step[path < 0] = 0.0  # positions below the raw value add nothing
            paths.append(path)
            increments.append(step)
            self.segments.append((width, width + path.shape[1]))
            width += path.shape[1]
        self.P = np.hstack(paths) if paths else np.zeros((n, 0), dtype=np.int64)
        self.D = np.hstack(increments) if increments else np.zeros((n, 0))
        self.X = np.column_stack(columns_x) if columns_x else np.zeros((n, 0))
        self.inv_span = np.asarray(inv_spans, dtype=np.float64)

    # ---------------------------------------------------------------- generalizations
    def record(self, r: int):
        """A single raw record as a generalization (path, increments, low, high)."""
        return self.P[r], self.D[r], self.X[r], self.X[r]

    def generalization(self, rows: np.ndarray):
        """The joint generalization of some records: shared path positions (others -2,
        which nothing equals), their increments, and the numeric interval bounds."""
        p = self.P[rows]
        low, high = p.min(axis=0), p.max(axis=0)
        shared = (low == high) & (low >= 0)
        path = np.where(shared, low, -2)
        inc = np.where(shared, self.D[rows[0]], 0.0)
        x = self.X[rows]
        return path, inc, x.min(axis=0), x.max(axis=0)

    def ncp(self, g) -> float:
        path, inc, low, high = g
        return float(inc.sum() + ((high - low) * self.inv_span).sum())

    def dist(self, g, rows: np.ndarray) -> np.ndarray:
        """NCP of the joint generalization of g with each of the records `rows`."""
        path, inc, low, high = g
        result = (self.P[rows] == path) @ inc
        if len(self.inv_span):
            x = self.X[rows]
            result = result + ((np.maximum(x, high) - np.minimum(x, low)) @ self.inv_span)
        return result

    def cost(self, rows: np.ndarray) -> float:
        return len(rows) * self.ncp(self.generalization(rows))

    # ---------------------------------------------------------------- the algorithm
    def pair(self, rows: np.ndarray) -> tuple[int, int]:
        """Positions (in rows) of u and v: three rounds of "v = the farthest record from u,
        then u = v", starting from the lowest-index record."""
        u = v = 0
        for round_ in range(3):
            d = self.dist(self.record(int(rows[u])), rows)
            d[u] = -np.inf  # v is another record
            v = argmax_first(d)
            if round_ < 2:
                u = v
        return u, v

    def split(self, rows: np.ndarray) -> list[np.ndarray] | None:
        """The two groups a partition splits into, or None when it is final."""
        k = self.k
        if len(rows) < 2 * k:
            return None
        u, v = self.pair(rows)
        to_u = self.dist(self.record(int(rows[u])), rows) <= \
            self.dist(self.record(int(rows[v])), rows) + EPS
        to_u[u], to_u[v] = True, False
        groups = [rows[to_u], rows[~to_u]]
        if min(len(g) for g in groups) >= k:
            return groups
        small, large = sorted(groups, key=len)
        d = self.dist(self.generalization(small), large)
        moved = np.zeros(len(large), dtype=bool)
        moved[np.lexsort((large, tie_ranks(d)))[:k - len(small)]] = True
        grown, rest = np.sort(np.concatenate((small, large[moved]))), large[~moved]
        if self.cost(grown) + self.cost(rest) <= self.cost(rows) + EPS:
            return [grown, rest]
        return None

    def run(self) -> list[np.ndarray]:
        final, pending = [], [np.arange(self.problem.n)]
        while pending:
            rows = pending.pop()
            groups = self.split(rows)
            if groups is None:
                final.append(rows)
            else:
                pending.extend(groups)
        return final

    # ---------------------------------------------------------------- output
    def write_cells(self, rows_out: list[list[str]], rows: np.ndarray) -> None:
        problem = self.problem
        path = self.generalization(rows)[0]
        for (start, end), j in zip(self.segments, self.categorical):
            shared = path[start:end]
            node = int(shared[shared >= 0][-1])  # the deepest shared position: the LCA
            label = problem.dghs[j].labels[node]
            col = problem.qi_columns[j]
            for r in rows:
                rows_out[r][col] = label
        for i, j in enumerate(self.numeric):
            values = self.X[rows, i]
            if values.min() == values.max():
                continue  # every row keeps its own raw value
            strings = self.raw_strings[j]
            cell = f"[{strings[int(rows[np.argmin(values)])]}-" \
                   f"{strings[int(rows[np.argmax(values)])]}]"
            col = problem.qi_columns[j]
            for r in rows:
                rows_out[r][col] = cell


def greedy_partitions(problem: Problem, k: int) -> list[np.ndarray]:
    """The final partitions (arrays of row indices, ascending)."""
    return _Greedy(problem, k).run()


def topdown_greedy(raw_dataset_file: str, DGH_folder: str, k: int, output_file: str) -> None:
    """Top-Down Greedy (NCP): split partitions of 2k or more records around a far-apart pair."""
    k = check_int("k", k, minimum=1)
    check_output_path(output_file, (raw_dataset_file,))
    problem = load_problem_for_k(raw_dataset_file, DGH_folder, k)
    greedy = _Greedy(problem, k)
    rows_out = [list(r) for r in problem.table.rows]
    for rows in greedy.run():
        greedy.write_cells(rows_out, rows)
    write_table(output_file, problem.table.header, rows_out, forbidden=(raw_dataset_file,))
