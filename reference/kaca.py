"""kaca (HANDOUT.md, "kaca"; optional part): K-Anonymization by Clustering in Attribute
hierarchies (Li, Wong, Fu, Pei), with the weighted hierarchical distance (WHD).

Classes start as the groups of identical raw QI tuples. While a class has fewer than k
records, the one whose first record has the lowest row index merges with the class at the
smallest distance (ties: the lowest first record), both generalized to the per-QI LCA (no
other class can already have that tuple: it would have been strictly nearer).
dist(C1, C2) = |C1| * D(t1, g) + |C2| * D(t2, g): every record counted, t the class's current
tuple, g the joint tuple, D the sum over QIs of WHD(level(old), level(new)).

WHD with levels from the root (root = 1), h = height + 1 and weights 1/(j-1):
WHD(p, q) = cw[p] - cw[q] with cw[L] = sum_{j=2..L} 1/(j-1) / sum_{j=2..h} 1/(j-1), so
D(t, g) = A(t) - A(g) where A sums cw over the QIs, and A(LCA) is looked up per QI.

Vectorized: slots are the initial classes in order of their first record; a merged class
lives in the lower slot (its first record is the lower one), so the lowest slot among tied
distances is the tie-break. Dead slots are dropped when they are half of the arrays.
"""
from __future__ import annotations

import numpy as np

from kanon.hierarchy import DGH
from kanon.problem import Problem, check_int, load_problem_for_k
from kanon.table import check_output_path

from .ties import EPS


def level_weights(dgh: DGH) -> np.ndarray:
    """cw[L] for L = 0 .. h (cw[0] unused): the normalized cumulative weight of level L, so
    that WHD(p, q) = cw[p] - cw[q]. All zeros when h = 1 (a single-level hierarchy)."""
    h = dgh.height + 1
    steps = np.zeros(h + 1)
    steps[2:] = 1.0 / np.arange(1, h)  # W(j, j-1) = 1/(j-1) for j = 2..h
    cw = np.cumsum(steps)
    return cw / cw[-1] if cw[-1] > 0 else cw


def whd(dgh: DGH, p: int, q: int) -> float:
    """WHD(p, q) of one hierarchy, levels counted from the root (root = 1)."""
    cw = level_weights(dgh)
    return float(cw[p] - cw[q])


GROUP_NODES = 8192


class _Kaca:
    def __init__(self, problem: Problem, k: int):
        self.problem, self.k = problem, k
        self.cw = [level_weights(dgh) for dgh in problem.dghs]
        self.tables = [self._table(j) for j in range(problem.m)]
        # slots: the distinct raw tuples in order of their first record
        tuples, first, inverse = np.unique(problem.codes, axis=0, return_index=True,
                                           return_inverse=True)
        order = np.argsort(first, kind="stable")
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order))
        slot_of_row = rank[np.asarray(inverse).reshape(-1)]
        self.gen = np.ascontiguousarray(tuples[order].T).astype(np.intp)  # (M, S) node ids
        self.size = np.bincount(slot_of_row, minlength=len(order)).astype(np.float64)
        self.members: list[list[int]] = [[] for _ in range(len(order))]
        for r, slot in enumerate(slot_of_row.tolist()):
            self.members[slot].append(r)
        a = np.zeros(len(order))
        for j, dgh in enumerate(problem.dghs):
            a += self.cw[j][dgh.depth[self.gen[j]] + 1]
        self.weighted = self.size * a  # |C| * A(C's tuple); +inf for a dead slot
        # QIs packed into groups of at most GROUP_NODES node combinations: one gather per
        # group and step instead of one per QI (a group's row is an outer sum of its QIs')
        self.groups: list[list[int]] = []
        product = GROUP_NODES + 1
        for j, dgh in enumerate(problem.dghs):
            if product * dgh.n_nodes > GROUP_NODES:
                self.groups.append([])
                product = 1
            self.groups[-1].append(j)
            product *= dgh.n_nodes
        self.combined = np.stack([self.combine(group, self.gen) for group in self.groups])

    def combine(self, group: list[int], gen: np.ndarray) -> np.ndarray:
        """The mixed-radix index of each tuple's nodes of a group of QIs."""
        index = np.zeros(gen.shape[1:], dtype=np.intp)
        for j in group:
            index = index * self.problem.dghs[j].n_nodes + gen[j]
        return index

    def _table(self, j: int) -> tuple[np.ndarray, np.ndarray] | None:
        """(cw of the LCA's level, the LCA) for every pair of nodes of QI j's hierarchy, or
        None when the hierarchy is too large for a table (rows are then computed per step)."""
        dgh = self.problem.dghs[j]
        if dgh.n_nodes > 512:
            return None
        anc = dgh.ancestors
        shared = ((anc[:, None, :] == anc[None, :, :]) & (anc[None, :, :] >= 0)).sum(axis=2)
        lca = anc[np.arange(dgh.n_nodes)[:, None], shared - 1]
        return self.cw[j][shared], lca

    def lca_row(self, j: int, node: int) -> tuple[np.ndarray, np.ndarray]:
        """(cw of the level of LCA(node, v), LCA(node, v)) for every node v of QI j."""
        if self.tables[j] is not None:
            return self.tables[j][0][node], self.tables[j][1][node]
        anc = self.problem.dghs[j].ancestors
        path = anc[node]
        shared = ((anc == path) & (path >= 0)).sum(axis=1)  # LCA depth + 1 = its level
        return self.cw[j][shared], path[shared - 1]

    def compact(self) -> None:
        keep = np.flatnonzero(np.isfinite(self.weighted))
        self.gen = np.ascontiguousarray(self.gen[:, keep])
        self.combined = np.ascontiguousarray(self.combined[:, keep])
        self.size, self.weighted = self.size[keep], self.weighted[keep]
        self.members = [self.members[slot] for slot in keep.tolist()]

    def merge_into(self, low: int, high: int, gen: np.ndarray, joint_a: float) -> None:
        """Slot `high` joins slot `low` (low < high); the class's tuple becomes gen."""
        self.members[low].extend(self.members[high])
        self.members[high] = []
        self.size[low] += self.size[high]
        self.size[high] = 0.0
        self.weighted[high] = np.inf
        self.gen[:, low] = gen
        for g, group in enumerate(self.groups):
            self.combined[g, low] = self.combine(group, gen)
        self.weighted[low] = self.size[low] * joint_a

    def run(self) -> list[tuple[list[int], np.ndarray]]:
        k, m = self.k, self.problem.m
        s = 0
        alive = len(self.size)
        while True:
            n_slots = len(self.size)
            while s < n_slots and (self.size[s] >= k or self.size[s] == 0):
                s += 1
            if s == n_slots:
                break
            if alive * 4 < n_slots * 3:
                s = int(np.isfinite(self.weighted[:s]).sum())
                self.compact()
                n_slots = len(self.size)
            rows = [self.lca_row(j, int(self.gen[j, s])) for j in range(m)]
            joint = np.zeros(n_slots)
            for g, group in enumerate(self.groups):
                row = rows[group[0]][0]
                for j in group[1:]:
                    row = (row[:, None] + rows[j][0][None, :]).reshape(-1)
                joint += row[self.combined[g]]  # A(LCA tuple) of s with every slot
            # dist = |s|(A_s - J) + |c|(A_c - J); the same for every slot: |s| A_s
            dist = self.weighted - (self.size + self.size[s]) * joint
            dist[s] = np.inf
            best = int(np.flatnonzero(dist <= dist.min() + EPS)[0])
            tuple_ = np.array([rows[j][1][self.gen[j, best]] for j in range(m)],
                              dtype=np.intp)
            # No other class has the joint tuple: it would be strictly nearer (HANDOUT.md)
            self.merge_into(min(s, best), max(s, best), tuple_, float(joint[best]))
            alive -= 1
        keep = np.flatnonzero(np.isfinite(self.weighted))
        return [(self.members[slot], self.gen[:, slot]) for slot in keep]


def kaca_classes(problem: Problem, k: int) -> list[tuple[list[int], np.ndarray]]:
    """The final classes: (row indices, generalized tuple as node ids)."""
    return _Kaca(problem, k).run()


def kaca(raw_dataset_file: str, DGH_folder: str, k: int, output_file: str) -> None:
    """KACA: merge the earliest class of fewer than k records with its nearest class (WHD
    distortion, every record counted) until every class has at least k records."""
    k = check_int("k", k, minimum=1)
    check_output_path(output_file, (raw_dataset_file,))
    problem = load_problem_for_k(raw_dataset_file, DGH_folder, k)
    generalized = np.empty_like(problem.codes)
    for rows, gen in kaca_classes(problem, k):
        generalized[rows] = gen
    problem.write(output_file, generalized)
