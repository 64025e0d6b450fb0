"""l-diversity of a table's equivalence classes (Machanavajjhala et al., ICDE 2006).

Every function takes `counts`, a (classes, m) matrix: counts[e, v] = rows of class e whose
sensitive value is v (`sensitive_counts` builds it).
"""
from __future__ import annotations

import math

import numpy as np

__all__ = ["sensitive_counts", "distinct_l", "class_entropies", "entropy_l", "entropy_l_real",
           "recursive_c",
           "recursive_l", "recursive_cl_holds", "homogeneous"]

# exp(log l) may come back as l - 1e-15: entropy l is floored with this slack
_SLACK = 1e-9


def sensitive_counts(class_of_row: np.ndarray, value_of_row: np.ndarray, n_classes: int,
                     m: int) -> np.ndarray:
    """counts[e, v]: rows of class e with sensitive value code v."""
    flat = np.bincount(class_of_row * m + value_of_row, minlength=n_classes * m)
    return flat.reshape(n_classes, m).astype(np.int64)


def distinct_l(counts: np.ndarray) -> int:
    """The smallest number of distinct sensitive values in a class."""
    return int((counts > 0).sum(axis=1).min())


def class_entropies(counts: np.ndarray) -> np.ndarray:
    """Entropy -sum p log p (natural log) of every class's sensitive values."""
    sizes = counts.sum(axis=1, keepdims=True)
    p = counts / sizes
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(counts > 0, p * np.log(np.where(counts > 0, p, 1.0)), 0.0)
    return -terms.sum(axis=1)


def entropy_l_real(counts: np.ndarray) -> float:
    """exp(smallest class entropy): the real-valued l of entropy l-diversity."""
    return float(math.exp(class_entropies(counts).min()))


def entropy_l(counts: np.ndarray) -> int:
    """The largest integer l with entropy >= log l in every class: floor(exp(min entropy))."""
    return int(math.floor(entropy_l_real(counts) * (1 + _SLACK)))


def _largest_l_per_class(counts: np.ndarray, c: float) -> np.ndarray:
    ordered = -np.sort(-counts, axis=1)  # r_1 >= r_2 >= ... >= r_m (zeros last)
    tails = np.cumsum(ordered[:, ::-1], axis=1)[:, ::-1]  # tails[:, i] = r_{i+1} + ... + r_m
    holds = ordered[:, :1] < c * tails  # column i: the condition for l = i + 1
    return holds.sum(axis=1)  # the condition holds for l = 1 .. L and fails after L


def recursive_l(counts: np.ndarray, c: float) -> int:
    """The largest l such that every class is recursive (c, l)-diverse: r_1 < c (r_l + ... +
    r_m) with r_1 >= ... >= r_m the class's counts; 0 when some class fails even l = 1."""
    if not c > 0:
        raise ValueError(f"c must be a positive number, got {c!r}")
    return int(_largest_l_per_class(counts, c).min())


def recursive_cl_holds(counts: np.ndarray, c: float, l: int) -> bool:
    """Whether every class is recursive (c, l)-diverse."""
    return recursive_l(counts, c) >= l


def homogeneous(counts: np.ndarray) -> np.ndarray:
    """Boolean per class: all its sensitive values are equal (the homogeneity attack)."""
    return (counts > 0).sum(axis=1) == 1


def recursive_c(counts: np.ndarray, l: int) -> int | None:
    """The smallest integer c for which every class is recursive (c, l)-diverse:
    max over classes of floor(r_1 / (r_l + ... + r_m)) + 1; None when some class has fewer
    than l distinct values (no c works)."""
    if l < 1:
        raise ValueError(f"l must be at least 1, got {l}")
    ordered = -np.sort(-counts, axis=1)
    tails = ordered[:, l - 1:].sum(axis=1)
    if (tails == 0).any():
        return None
    return int((ordered[:, 0] // tails).max() + 1)
