"""bottomup_anonymizer (HANDOUT.md, "bottomup_anonymizer"): the lowest lattice level with a
node that is k-anonymous and distinct l-diverse; among those nodes, the lowest cost_LM."""
from __future__ import annotations

import numpy as np

from kanon.problem import check_int, load_problem
from kanon.table import check_output_path

from .lattice import Lattice, Node, lowest_satisfying_level


def distinct_per_class(of_row: np.ndarray, n_classes: int, values: np.ndarray) -> np.ndarray:
    """Number of distinct `values` (dense non-negative codes) in each class."""
    width = int(values.max()) + 1 if len(values) else 1
    pairs = np.unique(of_row * width + values)
    return np.bincount(pairs // width, minlength=n_classes)


def bottomup_anonymizer(raw_dataset_file: str, DGH_folder: str, k: int, l: int,
                        output_file: str) -> None:
    """Full-domain generalization: levels 0, 1, 2, ... of the lattice; at the first level
    with a node whose classes have >= k rows and >= l distinct sensitive values, the
    satisfying node of lowest cost_LM (ties: lexicographically smallest vector)."""
    k = check_int("k", k, minimum=1)
    l = check_int("l", l, minimum=1)
    check_output_path(output_file, (raw_dataset_file,))
    problem = load_problem(raw_dataset_file, DGH_folder)
    sensitive_column = problem.sensitive_column()
    _, sensitive = np.unique([row[sensitive_column] for row in problem.table.rows],
                             return_inverse=True)
    sensitive = sensitive.reshape(-1)
    lattice = Lattice(problem)

    def satisfies(node: Node) -> bool:
        classes = lattice.classes(node)
        if len(classes.sizes) and classes.sizes.min() < k:
            return False
        if l > 1:
            distinct = distinct_per_class(classes.of_row, len(classes.sizes), sensitive)
            return bool(distinct.min() >= l) if len(distinct) else True
        return True

    found = lowest_satisfying_level(lattice, satisfies)
    if found is None:
        raise ValueError(f"no generalization of {raw_dataset_file} is {k}-anonymous and "
                         f"{l}-diverse: even the top of the lattice (every QI at its root) "
                         f"fails")
    problem.write(output_file, lattice.generalized(found[1]))
