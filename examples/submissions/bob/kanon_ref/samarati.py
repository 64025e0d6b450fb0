"""samarati (HANDOUT.md, "samarati"): full-domain generalization with suppression of at most
max_sup outlier rows, at the lowest lattice height that allows it."""
from __future__ import annotations

import numpy as np

from .kanon.problem import check_int, load_problem
from .kanon.schema import DEFAULT, Schema
from .kanon.table import check_output_path

from .lattice import Lattice, Node, lowest_satisfying_level
from .ties import EPS


def samarati(raw_dataset_file: str, DGH_folder: str, k: int, max_sup: int,
             output_file: str, *, schema: Schema = DEFAULT) -> None:
    """The lowest height h* with a node whose outliers (rows in classes of fewer than k)
    number at most max_sup, as Samarati's binary search finds it; among the satisfying nodes
    at h*, the one whose output (outliers suppressed to the roots) has the lowest cost_LM
    (ties: lexicographically smallest vector). With a course's `schema` (kanon/schema.py)
    whose suppression is "delete", the outliers are left out of the output instead (a deleted
    record counts as fully generalized in LM, so the choice is the same); its hierarchy format
    and released columns apply too."""
    k = check_int("k", k, minimum=1)
    max_sup = check_int("max_sup", max_sup, minimum=0)
    check_output_path(output_file, (raw_dataset_file,))
    problem = load_problem(raw_dataset_file, DGH_folder, schema)
    lattice = Lattice(problem)
    root_lm = sum(1.0 for d in problem.dghs if d.n_leaves > 1) / problem.m

    def outliers(node: Node) -> np.ndarray:
        classes = lattice.classes(node)
        return classes.sizes[classes.of_row] < k

    def satisfies(node: Node) -> bool:
        classes = lattice.classes(node)
        return int(classes.sizes[classes.sizes < k].sum()) <= max_sup

    def suppressed_lm(node: Node, mask: np.ndarray) -> float:
        rows_lm = sum(problem.dghs[j].lm(lattice.nodes_at[j][s][mask]) for j, s in
                      enumerate(node)) / problem.m
        return lattice.lm(node) - float(np.sum(rows_lm)) + root_lm * int(mask.sum())

    found = lowest_satisfying_level(lattice, satisfies)
    if found is None:
        raise ValueError(f"no generalization of {raw_dataset_file} is {k}-anonymous with at "
                         f"most {max_sup} suppressed rows: even the top of the lattice fails")
    best: tuple[float, Node, np.ndarray] | None = None
    # Suppression only raises cost_LM, so once a node's unsuppressed cost exceeds the best
    # suppressed cost found so far, no later node (in increasing order) can win.
    for node in lattice.ordered_by_lm(lattice.level_nodes(found[0])):
        if best is not None and lattice.lm(node) > best[0] + EPS:
            break
        mask = outliers(node)
        if int(mask.sum()) > max_sup:
            continue
        cost = suppressed_lm(node, mask)
        if best is None or cost < best[0] - EPS or (abs(cost - best[0]) <= EPS and node < best[1]):
            best = (cost, node, mask)
    assert best is not None
    _, node, mask = best
    generalized = lattice.generalized(node)
    if schema.suppression == "delete":
        problem.write(output_file, generalized, deleted=mask)
        return
    generalized[mask] = 0  # every QI cell of a suppressed row becomes its root
    problem.write(output_file, generalized)
