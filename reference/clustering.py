"""clustering_anonymizer (HANDOUT.md, "clustering_anonymizer"): greedy k-member clustering.

dist(r1, r2) = LM_dist + MD_dist / (2 * sum of heights), with LM_dist the mean LM of the
pair's LCAs and MD_dist the levels both records climb to reach them. The distance splits into
one term per QI, so each QI gets a table over its distinct raw values and a record's distance
to every other record is M table look-ups.
"""
from __future__ import annotations

import numpy as np

from kanon.classes import lca_per_class
from kanon.problem import Problem, check_int, load_problem_for_k
from kanon.table import check_output_path

from .ties import EPS, argmax_first, argmin_first, tie_ranks


_TABLE_LIMIT = 2048  # distinct values of one QI beyond which no pairwise table is kept


def _lca_with(dgh, a: int, others: np.ndarray) -> np.ndarray:
    """LCA of node a with each node of `others`."""
    mine, theirs = dgh.ancestors[a], dgh.ancestors[others]
    shared = (theirs == mine[None, :]) & (theirs >= 0)
    return mine[shared.sum(axis=1) - 1]


class Distances:
    """dist between records of a problem, per QI tabulated over its distinct raw values."""

    def __init__(self, problem: Problem, lm_only: bool = False):
        self.m = problem.m
        # the Fall 2025 variant (lm_only) drops the MD term: as if the heights summed to 0
        self.total_height = 0 if lm_only else sum(d.height for d in problem.dghs)
        self.dghs = problem.dghs
        self.local: list[np.ndarray] = []  # per QI: row -> index of its distinct raw value
        self.values: list[np.ndarray] = []  # per QI: node id of each distinct raw value
        self.tables: list[np.ndarray | None] = []  # per QI: dist term per pair of raw values
        for j, dgh in enumerate(problem.dghs):
            values, local = np.unique(problem.codes[:, j], return_inverse=True)
            self.local.append(local.reshape(-1))
            self.values.append(values)
            if len(values) > _TABLE_LIMIT:  # too many for a table: computed per query
                self.tables.append(None)
                continue
            self.tables.append(self._terms(dgh, values[:, None], values[None, :],
                                           dgh.pairwise_lca(values)))

    def _terms(self, dgh, a: np.ndarray, b: np.ndarray, lca: np.ndarray) -> np.ndarray:
        """One QI's term of dist for raw values a and b whose LCA is lca."""
        term = dgh.lm(lca) / self.m
        if self.total_height:
            term = term + (dgh.depth[a] + dgh.depth[b] - 2 * dgh.depth[lca]) / (
                2 * self.total_height)
        return term

    def to_rows(self, r: int, rows: np.ndarray | slice = slice(None)) -> np.ndarray:
        """dist from record r to each record of `rows`."""
        total = None
        for dgh, values, local, table in zip(self.dghs, self.values, self.local, self.tables):
            if table is not None:
                term = table[local[r], local[rows]]
            else:
                a, b = values[local[r]], values[local[rows]]
                term = self._terms(dgh, a, b, _lca_with(dgh, a, b))
            total = term if total is None else total + term
        return total


def record_distance(problem: Problem, i: int, j: int) -> float:
    """dist between rows i and j of a problem (the handout's worked example gives 1/2)."""
    return float(Distances(problem).to_rows(i, np.array([j]))[0])


def nearest(distances: np.ndarray, candidates: np.ndarray, count: int) -> np.ndarray:
    """The `count` candidates with the smallest distances (ties: lowest row index);
    `candidates` is sorted by row index and `distances` is aligned with it."""
    if count == 0:
        return candidates[:0]
    if count >= len(candidates):
        return candidates
    cutoff = np.partition(distances, count - 1)[count - 1]
    close = np.flatnonzero(distances <= cutoff + EPS)
    if len(close) > count:
        order = np.lexsort((candidates[close], tie_ranks(distances[close])))
        close = close[order[:count]]
    return np.sort(candidates[close])


def cluster(problem: Problem, k: int, lm_only: bool = False) -> np.ndarray:
    """Class index of every row per the contract's clustering algorithm (with dist = LM_dist
    alone when `lm_only`)."""
    n = problem.n
    dist = Distances(problem, lm_only)
    unused = np.ones(n, dtype=bool)
    classes = np.full(n, -1, dtype=np.int64)
    centroids: list[int] = []
    centroid_sums = np.zeros(n)
    curr = 0
    while unused.sum() >= k:
        to_curr = dist.to_rows(curr)
        unused[curr] = False
        others = np.flatnonzero(unused)
        members = nearest(to_curr[others], others, k - 1)
        classes[curr] = len(centroids)
        classes[members] = len(centroids)
        unused[members] = False
        centroids.append(curr)
        centroid_sums += to_curr
        remaining = np.flatnonzero(unused)
        if len(remaining) < k:
            break
        curr = int(remaining[argmax_first(centroid_sums[remaining])])
    centroid_rows = np.asarray(centroids)
    for r in np.flatnonzero(unused):
        classes[r] = argmin_first(dist.to_rows(int(r), centroid_rows))
    return classes


def _clustering(raw_dataset_file: str, DGH_folder: str, k: int, output_file: str,
                lm_only: bool) -> None:
    k = check_int("k", k, minimum=1)
    check_output_path(output_file, (raw_dataset_file,))
    problem = load_problem_for_k(raw_dataset_file, DGH_folder, k)
    problem.write(output_file, lca_per_class(problem, cluster(problem, k, lm_only)))


def clustering_anonymizer(raw_dataset_file: str, DGH_folder: str, k: int,
                          output_file: str) -> None:
    """Greedy clustering into classes of at least k records, each generalized to its LCAs."""
    _clustering(raw_dataset_file, DGH_folder, k, output_file, lm_only=False)


def clustering_anonymizer_lm_only(raw_dataset_file: str, DGH_folder: str, k: int,
                                  output_file: str) -> None:
    """The Fall 2025 variant (HANDOUT.md, "Variant: LM-only distance"): dist = LM_dist, no
    MD term; the same algorithm and ties otherwise. Graded as `clustering_anonymizer` by a
    rubric part with `variant = "lm-only"`."""
    _clustering(raw_dataset_file, DGH_folder, k, output_file, lm_only=True)
