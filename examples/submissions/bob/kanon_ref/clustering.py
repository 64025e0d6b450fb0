"""clustering_anonymizer (HANDOUT.md, "clustering_anonymizer"): greedy k-member clustering.

dist(r1, r2) = LM_dist + MD_dist / (2 * sum of heights), with LM_dist the mean LM of the
pair's LCAs and MD_dist the levels both records climb to reach them. The distance splits into
one term per QI, so each QI gets a table over its distinct raw values and a record's distance
to every other record is M table look-ups.

`cluster` goes further: QIs whose joint distinct values are few share one table over those
combinations (the sum of their terms), so a record's distance to all others takes a few
look-ups; only the still-unused records are kept in the working arrays (compacted as they
get used), the sums of distances to the centroids are updated in place, and the k - 1
nearest records are found from the exact (k-1)-th smallest distance, looked for among the
few distances below a bound instead of a partition of them all. Sums of the same terms in
another order differ by ~1e-16, far below the contract's 1e-9 tie tolerance, so the classes
are those of the plain algorithm.
"""
from __future__ import annotations

import numpy as np

from .kanon.classes import lca_per_class
from .kanon.problem import Problem, check_int, load_problem_for_k
from .kanon.table import check_output_path

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


_GROUP_LIMIT = 512  # joint distinct values of QIs sharing one table in `cluster`


def _joint(a: np.ndarray, size_a: int, b: np.ndarray, size_b: int) -> tuple[np.ndarray, int]:
    """Dense codes (0 .. count-1, numbered by (a, b) order) of the pairs (a[r], b[r])."""
    pair = a * size_b + b
    if size_a * size_b <= 1 << 22:
        present = np.bincount(pair, minlength=size_a * size_b) > 0
        renumber = np.cumsum(present) - 1
        return renumber[pair], int(present.sum())
    values, inverse = np.unique(pair, return_inverse=True)
    return inverse.reshape(-1), len(values)


class _Groups:
    """The QIs of a problem in groups sharing one table: per group, every row's code (its
    combination of the group's raw values) and the table of summed dist terms over pairs of
    codes (None for a lone QI with too many values for a table)."""

    def __init__(self, dist: Distances):
        # first fit by decreasing number of values: each QI joins the group with which it
        # has the most joint values up to _GROUP_LIMIT, else starts a group
        members: list[list[int]] = []
        codes: list[np.ndarray] = []
        sizes: list[int] = []
        tabled: list[bool] = []
        for j in sorted(range(dist.m), key=lambda j: (-len(dist.values[j]), j)):
            local, size = dist.local[j].astype(np.intp), len(dist.values[j])
            best = None
            if dist.tables[j] is not None:
                for g in range(len(members)):
                    if not tabled[g] or max(sizes[g], size) > _GROUP_LIMIT:
                        continue  # at least that many joint values
                    joint, count = _joint(codes[g], sizes[g], local, size)
                    if count <= _GROUP_LIMIT and (best is None or count > best[0]):
                        best = (count, g, joint)
            if best is None:
                members.append([j])
                codes.append(local)
                sizes.append(size)
                tabled.append(dist.tables[j] is not None)
            else:
                count, g, joint = best
                members[g].append(j)
                codes[g], sizes[g] = joint, count
        self.codes: list[np.ndarray] = []
        self.tables: list[np.ndarray | None] = []
        self.qis: list[list[int]] = []
        for g, qis in enumerate(members):
            self.qis.append(qis)
            self.codes.append(codes[g])
            if not tabled[g]:
                self.tables.append(None)
                continue
            # the raw-value index of each QI for every code of the group
            first = np.zeros(sizes[g], dtype=np.intp)
            first[codes[g]] = np.arange(len(codes[g]))
            table = None
            for j in qis:
                local = dist.local[j][first]
                term = dist.tables[j][local[:, None], local[None, :]]
                table = term if table is None else table + term
            self.tables.append(table)

    def to_rows(self, dist: Distances, r: int, codes: list[np.ndarray]) -> np.ndarray:
        """dist from the record whose group codes are `codes[g][r]` to each entry of `codes`."""
        total = None
        for qis, table, column in zip(self.qis, self.tables, codes):
            if table is not None:
                term = table[column[r]].take(column)
            else:
                (j,) = qis
                dgh, values = dist.dghs[j], dist.values[j]
                a, b = values[column[r]], values[column]
                term = dist._terms(dgh, a, b, _lca_with(dgh, a, b))
            if total is None:
                total = term
            else:
                total += term
        return total


def _nearest_positions(distances: np.ndarray, count: int) -> np.ndarray:
    """The `count` positions with the smallest distances (ties within EPS, chained as
    `tie_ranks`: lowest position), sorted; unusable positions hold inf, at least `count`
    are finite. The exact count-th smallest distance is found among the entries no larger
    than an upper bound of it, the count-th smallest of the minima of 8 * count slices."""
    if count == 0:
        return np.zeros(0, dtype=np.intp)
    n = len(distances)
    slices = min(n, 8 * count)
    minima = np.minimum.reduceat(distances, np.arange(slices) * n // slices)
    bound = np.partition(minima, count - 1)[count - 1]  # >= the count-th smallest
    near = np.flatnonzero(distances <= bound + EPS)  # holds every tie of the cutoff too
    values = distances[near]
    cutoff = np.partition(values, count - 1)[count - 1]
    close = near[values <= cutoff + EPS]
    if len(close) > count:
        ties = values[values <= cutoff + EPS]
        if ties.max() - ties.min() > EPS:  # else a single tie group: lowest positions
            order = np.lexsort((close, tie_ranks(ties)))
            close = np.sort(close[order[:count]])
        else:
            close = close[:count]
    return close


def cluster(problem: Problem, k: int, lm_only: bool = False) -> np.ndarray:
    """Class index of every row per the contract's clustering algorithm (with dist = LM_dist
    alone when `lm_only`)."""
    n = problem.n
    dist = Distances(problem, lm_only)
    groups = _Groups(dist)
    classes = np.full(n, -1, dtype=np.int64)
    centroids: list[int] = []
    # working arrays over the positions of `rows` (sorted row indices, still-unused records
    # plus some used ones until the next compaction)
    rows = np.arange(n)
    codes = list(groups.codes)
    sums = np.zeros(n)  # sum of dist to the centroids; -inf once used
    blocked = np.zeros(n)  # 0 while unused, inf once used
    n_unused = n
    curr = 0  # a position
    while n_unused >= k:
        to_curr = groups.to_rows(dist, curr, codes)
        sums += to_curr
        blocked[curr] = np.inf
        to_curr += blocked
        members = _nearest_positions(to_curr, k - 1)
        label = len(centroids)
        centroids.append(int(rows[curr]))
        classes[rows[curr]] = label
        classes[rows[members]] = label
        blocked[members] = np.inf
        sums[members] = -np.inf
        sums[curr] = -np.inf
        n_unused -= k
        if n_unused < k:
            break
        if n_unused * 5 < len(rows) * 4:  # compact: keep the unused positions only
            keep = np.flatnonzero(blocked == 0)
            rows, sums = rows[keep], sums[keep]
            codes = [column[keep] for column in codes]
            blocked = np.zeros(len(rows))
        curr = argmax_first(sums)
    centroid_rows = np.asarray(centroids)
    for r in np.flatnonzero(classes < 0):
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
