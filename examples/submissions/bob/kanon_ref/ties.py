"""The contract's tie rule (section 4): two values within 1e-9 of each other are equal."""
from __future__ import annotations

import numpy as np

EPS = 1e-9


def tie_ranks(values: np.ndarray) -> np.ndarray:
    """Dense ranks of `values` in which neighbours (in sorted order) closer than EPS share
    a rank; sorting by (rank, secondary key) then breaks ties by the secondary key."""
    values = np.asarray(values, dtype=np.float64)
    if values.size == 0:
        return np.zeros(0, dtype=np.int64)
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    group = np.concatenate(([0], np.cumsum(np.diff(ordered) > EPS)))
    ranks = np.empty(len(values), dtype=np.int64)
    ranks[order] = group
    return ranks


def argmin_first(values: np.ndarray) -> int:
    """Position of the smallest value; among values within EPS of it, the first position."""
    values = np.asarray(values, dtype=np.float64)
    return int(np.flatnonzero(values <= values.min() + EPS)[0])


def argmax_first(values: np.ndarray) -> int:
    """Position of the largest value; among values within EPS of it, the first position."""
    values = np.asarray(values, dtype=np.float64)
    return int(np.flatnonzero(values >= values.max() - EPS)[0])
