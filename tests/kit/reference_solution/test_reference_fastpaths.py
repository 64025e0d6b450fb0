"""The reference's fast paths (issue 14) against plain versions of the same rules.

Clustering's shared tables, compacted working arrays and bounded nearest-record search, and
Mondrian's level-by-level partitioning, must give exactly what the contract's plain algorithm
gives; the oracle cross-checks cover small random cases, these cover the paths that only large
or unusual inputs reach (a QI with too many values for a table, many-child hierarchies).
"""
from __future__ import annotations

import csv
import importlib
import random
from collections import Counter

import numpy as np
import pytest

import reference
from reference import clustering
from reference.clustering import Distances, _nearest_positions, cluster
from kanon.problem import load_problem
from reference.ties import argmax_first, argmin_first, tie_ranks

INF = np.inf


@pytest.mark.parametrize("distances,count,want", [
    # 0.1 first; then 0.2, 0.2 + 5e-10 and 0.2 + 1.2e-9 form one tie group (neighbours within
    # 1e-9, chained), so the lowest positions of that group, 1 and 3, come next
    ([0.5, 0.2, INF, 0.2 + 5e-10, 0.2 + 1.2e-9, 0.1], 3, [1, 3, 5]),
    # a gap of 2e-9 splits the group: 0.2 (position 4) is strictly nearer than 0.2 + 2e-9
    ([0.2 + 2e-9, INF, 0.2 + 2e-9, 0.9, 0.2], 2, [0, 4]),
    # all tied: the lowest positions; unusable (inf) positions never chosen
    ([INF, 0.3, 0.3, 0.3, 0.3], 2, [1, 2]),
    ([0.7, INF, 0.4], 2, [0, 2]),  # exactly count usable positions
    ([0.7, INF, 0.4], 0, []),
])
def test_nearest_positions_ties(distances, count, want):
    got = _nearest_positions(np.array(distances), count)
    assert got.tolist() == want


def _plain_cluster(problem, k: int, lm_only: bool = False) -> np.ndarray:
    """HANDOUT.md's clustering, step by step, with per-QI distances over all records."""
    n = problem.n
    dist = Distances(problem, lm_only)
    unused = np.ones(n, dtype=bool)
    classes = np.full(n, -1)
    centroids, sums, curr = [], np.zeros(n), 0
    while unused.sum() >= k:
        to_curr = dist.to_rows(curr)
        unused[curr] = False
        others = np.flatnonzero(unused)
        order = np.lexsort((others, tie_ranks(to_curr[others])))
        members = others[order[:k - 1]]
        classes[curr] = classes[members] = len(centroids)
        unused[members] = False
        centroids.append(curr)
        sums += to_curr
        remaining = np.flatnonzero(unused)
        if len(remaining) < k:
            break
        curr = int(remaining[argmax_first(sums[remaining])])
    for r in np.flatnonzero(unused):
        classes[r] = argmin_first(dist.to_rows(int(r), np.asarray(centroids)))
    return classes


def _write_case(folder, rows: list[list[str]], header: list[str], hierarchies: dict[str, str]):
    (folder / "DGHs").mkdir()
    for name, text in hierarchies.items():
        (folder / "DGHs" / f"{name}.txt").write_text(text, encoding="utf-8")
    with open(folder / "raw.csv", "w", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows([header] + rows)
    return load_problem(str(folder / "raw.csv"), str(folder / "DGHs"))


@pytest.mark.parametrize("lm_only", [False, True])
def test_clustering_untabled_qi_matches_the_plain_algorithm(tmp_path, lm_only):
    # 'item' has 2,200 distinct values (more than a pairwise table keeps), 'kind' and 'size'
    # few (they share one table)
    rng = random.Random(14)
    item = "Any\n" + "".join(f"\tb{b}\n" + "".join(f"\t\tv{b}_{i}\n" for i in range(60))
                             for b in range(40))
    hierarchies = {"item": item, "kind": "Any\n\tx\n\t\tx1\n\t\tx2\n\ty\n\t\ty1\n",
                   "size": "Any\n\ts\n\tm\n\tl\n"}
    values = [f"v{b}_{i}" for b in range(40) for i in range(60)]
    rng.shuffle(values)
    rows = [[values[r], rng.choice(["x1", "x2", "y1", "x", "y"]), rng.choice("sml"), "z"]
            for r in range(2200)]
    problem = _write_case(tmp_path, rows, ["item", "kind", "size", "s"], hierarchies)
    assert len(np.unique(problem.codes[:, 0])) > clustering._TABLE_LIMIT
    k = 150
    assert cluster(problem, k, lm_only).tolist() == _plain_cluster(problem, k, lm_only).tolist()


def test_clustering_groups_match_the_plain_algorithm_on_adult(repo):
    problem = load_problem(str(repo / "adult-hw1.csv"), str(repo / "DGHs"))
    groups = clustering._Groups(Distances(problem))
    assert len(groups.qis) < problem.m  # some QIs share a table
    assert sorted(j for qis in groups.qis for j in qis) == list(range(problem.m))
    k = 400  # few iterations of the plain version
    assert cluster(problem, k).tolist() == _plain_cluster(problem, k).tolist()


def test_mondrian_wide_hierarchy_counts_alike(tmp_path, monkeypatch):
    # a root with 300 children, cut by counting (partition, child) pairs with one bincount or,
    # past the size limit, with np.unique: the same output
    rng = random.Random(6)
    hierarchies = {"c": "Any\n" + "".join(f"\tg{i}\n" for i in range(300)),
                   "x": "Any\n" + "".join(f"\t{i}\n" for i in range(50))}
    rows = [[f"g{rng.randrange(300)}", str(rng.randrange(50)), "s"] for _ in range(1500)]
    _write_case(tmp_path, rows, ["c", "x", "s"], hierarchies)
    raw, dghs = str(tmp_path / "raw.csv"), str(tmp_path / "DGHs")
    reference.mondrian(raw, dghs, 3, str(tmp_path / "bincount.csv"))
    monkeypatch.setattr(importlib.import_module("reference.mondrian"), "_BINCOUNT_LIMIT", 0)
    reference.mondrian(raw, dghs, 3, str(tmp_path / "unique.csv"))
    first = (tmp_path / "bincount.csv").read_bytes()
    assert first == (tmp_path / "unique.csv").read_bytes()
    with open(tmp_path / "unique.csv", encoding="utf-8", newline="") as f:
        classes = Counter(tuple(row[:2]) for row in list(csv.reader(f))[1:])
    assert min(classes.values()) >= 3 and len(classes) > 20  # 3-anonymous, and cut
