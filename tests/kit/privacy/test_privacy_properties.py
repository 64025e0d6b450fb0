"""Properties of the privacy measures on random tables, and the Earth Mover's Distance checked
against a linear-programming solution of the transportation problem (scipy, when installed)."""
from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from kanon.hierarchy import parse_dgh
from kanon.privacy import (class_entropies, distinct_l, entropy_l, equal_emd,
                               equivalence_classes, hierarchical_emd, ordered_emd,
                               recursive_c, recursive_l, sensitive_counts, t_closeness)

SEEDS = range(40)
TREE = parse_dgh("Any\n\tA\n\t\ta1\n\t\ta2\n\t\tA3\n\t\t\ta31\n\t\t\ta32\n\tb\n\tC\n\t\tc1\n",
                 "s", "s.txt")
TREE_VALUES = ["a1", "a2", "A3", "a31", "a32", "b", "C", "c1"]  # inner nodes A3, C are values


def random_table(seed: int, m: int = 5):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 60))
    qi = [[f"x{rng.integers(0, 3)}", f"y{rng.integers(0, 2)}"] for _ in range(n)]
    values = rng.integers(0, m, size=n)
    cls, sizes = equivalence_classes(qi)
    return qi, values, cls, sizes, sensitive_counts(cls, values, len(sizes), m)


@pytest.mark.parametrize("seed", SEEDS)
def test_properties(seed):
    qi, values, cls, sizes, counts = random_table(seed)
    groups: dict[tuple, list[int]] = {}
    for row, v in zip(qi, values):
        groups.setdefault(tuple(row), []).append(int(v))
    assert sorted(sizes.tolist()) == sorted(len(g) for g in groups.values())
    assert int(sizes.min()) == min(len(g) for g in groups.values())  # k = smallest class
    assert distinct_l(counts) == min(len(set(g)) for g in groups.values())
    # entropy l: the largest l with entropy >= log l in every class (searched by brute force)
    ent = [-sum(c / len(g) * math.log(c / len(g)) for c in Counter(g).values())
           for g in groups.values()]
    assert np.allclose(sorted(class_entropies(counts)), sorted(ent))
    brute = max(l for l in range(1, 7) if all(h >= math.log(l) - 1e-9 for h in ent))
    assert entropy_l(counts) == brute
    assert 1 <= entropy_l(counts) <= distinct_l(counts)
    # recursive (c, l) by its definition
    for c in (0.5, 1, 2, 3.5):
        def holds(l):
            for g in groups.values():
                r = sorted(Counter(g).values(), reverse=True)
                if not r[0] < c * sum(r[l - 1:]):
                    return False
            return True
        largest = max([l for l in range(1, 7) if holds(l)], default=0)
        assert recursive_l(counts, c) == largest
        assert recursive_l(counts, c) <= distinct_l(counts)
    l = distinct_l(counts)
    c = recursive_c(counts, l)
    assert recursive_l(counts, c) >= l and (c == 1 or recursive_l(counts, c - 1) < l)
    # t-closeness: in [0, 1]; ordered and hierarchical ground distances are at most the equal
    # one (1), so are their EMDs; one class is the whole table: t = 0
    p = counts / counts.sum(axis=1, keepdims=True)
    q = counts.sum(axis=0) / counts.sum()
    e, o = equal_emd(p, q), ordered_emd(p, q)
    h = hierarchical_emd(p, q, TREE, ["a1", "a2", "b", "C", "c1"])
    assert (0 <= e).all() and (e <= 1 + 1e-12).all()
    assert (o <= e + 1e-12).all() and (h <= e + 1e-12).all() and (0 <= h).all()
    assert t_closeness(counts.sum(axis=0, keepdims=True), "equal") == 0


def ground_distances(m: int, kind: str, values: list[str] | None = None) -> np.ndarray:
    i, j = np.indices((m, m))
    if kind == "ordered":
        return np.abs(i - j) / (m - 1)
    if kind == "equal":
        return (i != j).astype(float)
    nodes = [TREE.index[v] for v in values]
    h = TREE.height
    return np.array([[0.0 if a == b else (h - TREE.depth[TREE.lca([a, b])]) / h
                      for b in nodes] for a in nodes])


def lp_emd(p: np.ndarray, q: np.ndarray, d: np.ndarray) -> float:
    """min sum f_ij d_ij over flows f >= 0 with row sums p and column sums q."""
    linprog = pytest.importorskip("scipy.optimize", reason="scipy (the crosscheck extra) is "
                                  "needed for the linear-programming oracle").linprog
    m = len(p)
    rows = np.kron(np.eye(m), np.ones(m))
    cols = np.kron(np.ones(m), np.eye(m))
    done = linprog(d.ravel(), A_eq=np.vstack([rows, cols]), b_eq=np.concatenate([p, q]),
                   bounds=(0, None), method="highs")
    assert done.success
    return float(done.fun)


@pytest.mark.parametrize("seed", range(12))
def test_emd_formulas_equal_the_transportation_optimum(seed):
    rng = np.random.default_rng(100 + seed)
    m = len(TREE_VALUES)
    p, q = rng.dirichlet(np.ones(m) * 0.7), rng.dirichlet(np.ones(m))
    p[rng.integers(0, m)] = 0
    p /= p.sum()
    assert ordered_emd(p, q) == pytest.approx(lp_emd(p, q, ground_distances(m, "ordered")),
                                              abs=1e-7)
    assert equal_emd(p, q) == pytest.approx(lp_emd(p, q, ground_distances(m, "equal")),
                                            abs=1e-7)
    hier = hierarchical_emd(p[None], q, TREE, TREE_VALUES)[0]
    assert hier == pytest.approx(lp_emd(p, q, ground_distances(m, "hier", TREE_VALUES)),
                                 abs=1e-7)
