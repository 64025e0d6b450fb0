"""The full-domain generalization lattice (HANDOUT.md, "bottomup_anonymizer" and "samarati").

A node is a vector (s_1 .. s_M), 0 <= s_i <= height_i, that replaces every raw value v of QI i
with up(v, s_i); its level is sum(s_i). Both k-anonymity (with or without suppression) and
distinct l-diversity are monotone: if a node satisfies, so does every node above it. Hence
"some node at level h satisfies" is monotone in h, and the lowest such level is found by
scanning levels from the top down and stopping at the first level where nothing satisfies;
a node whose immediate successor failed is known to fail without being evaluated.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Callable, Iterator

import numpy as np

from kanon.problem import Problem

from .ties import tie_ranks

Node = tuple[int, ...]
_DIRECT_COUNT_LIMIT = 1 << 21  # largest key space grouped with bincount instead of sorting


@dataclass
class Classes:
    """The equivalence classes a node induces: each row's class, and class sizes."""

    of_row: np.ndarray  # (n,) class index per row
    sizes: np.ndarray  # (number of classes,)


class Lattice:
    """Generalized codes of every QI at every level, and grouping of rows by a node."""

    def __init__(self, problem: Problem):
        self.problem = problem
        self.heights: list[int] = [d.height for d in problem.dghs]
        self.top: Node = tuple(self.heights)
        self.nodes_at: list[list[int]] = []  # [j][s]: node id of up(raw, s) per row
        self.compact: list[list[np.ndarray]] = []  # [j][s]: dense code of up(raw, s) per row
        self.domain: list[list[int]] = []  # [j][s]: number of distinct dense codes
        self.lm_sum: list[np.ndarray] = []  # [j][s]: sum over rows of LM(up(raw, s)) / M
        for j, dgh in enumerate(problem.dghs):
            raw = problem.codes[:, j]
            ids, dense, sizes, lm = [], [], [], []
            for s in range(dgh.height + 1):
                gen = dgh.up(raw, s)
                values, inverse = np.unique(gen, return_inverse=True)
                ids.append(gen)
                dense.append(inverse.reshape(-1).astype(np.int64))
                sizes.append(len(values))
                lm.append(float((dgh.lm(gen) / problem.m).sum()))
            self.nodes_at.append(ids)
            self.compact.append(dense)
            self.domain.append(sizes)
            self.lm_sum.append(np.asarray(lm))

    def level_nodes(self, level: int) -> list[Node]:
        """Every node whose coordinates sum to `level`, in lexicographic order."""
        result: list[Node] = []

        def extend(prefix: list[int], j: int, left: int) -> None:
            if j == len(self.heights):
                if left == 0:
                    result.append(tuple(prefix))
                return
            rest = sum(self.heights[j + 1:])
            for s in range(max(0, left - rest), min(self.heights[j], left) + 1):
                prefix.append(s)
                extend(prefix, j + 1, left - s)
                prefix.pop()

        extend([], 0, level)
        return result

    def all_nodes(self) -> Iterator[Node]:
        return itertools.product(*(range(h + 1) for h in self.heights))

    def lm(self, node: Node) -> float:
        """cost_LM of the table generalized by `node` (no suppression)."""
        return float(sum(self.lm_sum[j][s] for j, s in enumerate(node)))

    def generalized(self, node: Node) -> np.ndarray:
        """(n, M) node ids of the table generalized by `node`."""
        return np.stack([self.nodes_at[j][s] for j, s in enumerate(node)], axis=1)

    def classes(self, node: Node) -> Classes:
        """Group the rows by their generalized QI tuple under `node`."""
        key = np.zeros(self.problem.n, dtype=np.int64)
        space = 1
        for j, s in enumerate(node):
            size = self.domain[j][s]
            if space * size >= 2**62:  # re-densify before the key could overflow
                _, key = np.unique(key, return_inverse=True)
                key = key.reshape(-1).astype(np.int64)
                space = int(key.max()) + 1 if len(key) else 1
            key = key * size + self.compact[j][s]
            space *= size
        if space <= _DIRECT_COUNT_LIMIT:
            counts = np.bincount(key, minlength=space)
            present = np.flatnonzero(counts)
            dense = np.zeros(space, dtype=np.int64)
            dense[present] = np.arange(len(present))
            return Classes(of_row=dense[key], sizes=counts[present])
        _, of_row, sizes = np.unique(key, return_inverse=True, return_counts=True)
        return Classes(of_row=of_row.reshape(-1), sizes=sizes)

    def ordered_by_lm(self, nodes: list[Node]) -> list[Node]:
        """Nodes by increasing cost_LM; within 1e-9, lexicographically smallest first."""
        ranks = tie_ranks(np.array([self.lm(v) for v in nodes]))
        return [v for _, v in sorted(zip(ranks.tolist(), nodes))]


def lowest_satisfying_level(lattice: Lattice, satisfies: Callable[[Node], bool],
                            ) -> tuple[int, Node] | None:
    """The lowest level that has a satisfying node, with the first satisfying node met when
    that level's nodes are taken by increasing cost_LM (ties: lexicographic); None when even
    the top node fails. Uses the monotonicity of `satisfies` (see the module docstring)."""
    if not satisfies(lattice.top):
        return None
    best: tuple[int, Node] = (sum(lattice.top), lattice.top)
    failed: set[Node] = set()
    for level in range(sum(lattice.top) - 1, -1, -1):
        found = None
        failed_here: set[Node] = set()
        for node in lattice.ordered_by_lm(lattice.level_nodes(level)):
            if _has_failed_successor(node, lattice.heights, failed) or not satisfies(node):
                failed_here.add(node)
                continue
            found = node
            break
        if found is None:
            return best
        best, failed = (level, found), failed_here
    return best


def _has_failed_successor(node: Node, heights: list[int], failed: set[Node]) -> bool:
    """Whether a node one level up (one coordinate + 1) is known to fail."""
    if not failed:
        return False
    for j, s in enumerate(node):
        if s < heights[j] and node[:j] + (s + 1,) + node[j + 1:] in failed:
            return True
    return False
