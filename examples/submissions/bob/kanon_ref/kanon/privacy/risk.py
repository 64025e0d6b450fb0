"""Re-identification risks and attacks on an anonymized table.

- Prosecutor risk (El Emam): a record of class E is re-identified with probability 1 / |E|;
  the largest is 1 / k, the average over records is classes / n.
- Homogeneity attack (Machanavajjhala et al.): in a class whose sensitive values are all
  equal, knowing someone's class reveals their value; we count those records and classes.
- Unsorted matching attack (Sweeney): when a release keeps the raw table's row order, an
  attacker holding another release (or the raw order) matches rows by position.
"""
from __future__ import annotations

import numpy as np

from .diversity import homogeneous

__all__ = ["prosecutor_max", "prosecutor_avg", "homogeneity", "row_order_matches",
           "ROW_ORDER_NOTE"]

ROW_ORDER_NOTE = ("kept on purpose: the homework's output contract (HANDOUT.md, \"Files\") "
                  "makes row N of the output the generalization of raw row N so that costs "
                  "can be computed row by row; shuffle the rows before any real release "
                  "(unsorted matching attack)")


def prosecutor_max(sizes: np.ndarray) -> float:
    """The largest re-identification probability: 1 / (smallest class size)."""
    return 1.0 / int(np.min(sizes))


def prosecutor_avg(sizes: np.ndarray) -> float:
    """The mean over records of 1 / |class|: classes / n."""
    return len(sizes) / float(np.sum(sizes))


def homogeneity(counts: np.ndarray) -> tuple[int, int]:
    """(records, classes) in classes whose sensitive values are all equal."""
    mask = homogeneous(counts)
    return int(counts[mask].sum()), int(mask.sum())


def row_order_matches(raw_rows: list[list[str]], anon_rows: list[list[str]],
                      columns: list[int]) -> bool:
    """Whether the anonymized table lists the records in the raw order: every non-QI cell
    (`columns`) equals the raw cell of the same row (true of every homework output)."""
    return len(raw_rows) == len(anon_rows) and all(
        all(a[c] == r[c] for c in columns) for r, a in zip(raw_rows, anon_rows))
