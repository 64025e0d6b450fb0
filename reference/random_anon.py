"""random_anonymizer (HANDOUT.md, "random_anonymizer"): consecutive blocks of a seeded shuffle."""
from __future__ import annotations

import numpy as np

from kanon.classes import lca_per_class
from kanon.problem import check_int, load_problem_for_k
from kanon.table import check_output_path



def shuffled_order(n: int, s: int) -> np.ndarray:
    """Row indices in the order `np.random.seed(s); np.random.shuffle(array)` leaves an
    n-element array (the permutation does not depend on the array's dtype)."""
    order = np.arange(n)
    np.random.RandomState(s).shuffle(order)
    return order


def random_classes(n: int, k: int, s: int) -> np.ndarray:
    """Class index of every row: class j takes shuffled positions [j*k, (j+1)*k), the last
    class also every remaining position."""
    position_class = np.minimum(np.arange(n) // k, n // k - 1)
    classes = np.empty(n, dtype=np.int64)
    classes[shuffled_order(n, s)] = position_class
    return classes


def random_anonymizer(raw_dataset_file: str, DGH_folder: str, k: int, s: int,
                      output_file: str) -> None:
    """Shuffle with seed s, cut into classes of k (the last takes k..2k-1 rows), generalize
    each class to its LCAs, and write the rows in their original order."""
    k = check_int("k", k, minimum=1)
    s = check_int("s", s, minimum=0)
    if s > 2**32 - 1:
        raise ValueError(f"s must be at most 2**32 - 1 (numpy's seed range), got {s}")
    check_output_path(output_file, (raw_dataset_file,))
    problem = load_problem_for_k(raw_dataset_file, DGH_folder, k)
    problem.write(output_file, lca_per_class(problem, random_classes(problem.n, k, s)))
