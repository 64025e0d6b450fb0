"""Utility (information-loss) metrics of an anonymized table.

- MD and LM: the homework's cost_MD and cost_LM (HANDOUT.md, "Costs"), from the cell costs.
- NCP / GCP (Xu et al. KDD 2006; Ghinita et al. VLDB 2007): a cell's NCP is leaves(v) / |A|
  for a label v covering more than one leaf, 0 for a leaf, (hi - lo) / (U - L) for an
  interval; GCP = the mean NCP over all n * M cells, in [0, 1].
- Discernibility (Bayardo and Agrawal, ICDE 2005): DM = sum over classes of |E|^2.
- Normalized average class size (LeFevre et al., ICDE 2006): C_avg = (n / classes) / k.
"""
from __future__ import annotations

import numpy as np

__all__ = ["md_total", "lm_total", "ncp_per_qi", "gcp", "discernibility", "c_avg"]


def md_total(md: np.ndarray) -> float:
    """cost_MD: the sum of the (n, M) MD cell costs."""
    return float(md.sum())


def lm_total(lm: np.ndarray) -> float:
    """cost_LM: the sum over records of the mean of their M LM cell costs."""
    return float((lm.sum(axis=1) / lm.shape[1]).sum()) if lm.size else 0.0


def ncp_per_qi(ncp: np.ndarray) -> np.ndarray:
    """The mean NCP of each QI column over the records."""
    return ncp.mean(axis=0)


def gcp(ncp: np.ndarray) -> float:
    """Global certainty penalty: the mean NCP over all cells (0 = raw, 1 = all roots)."""
    return float(ncp.mean()) if ncp.size else 0.0


def discernibility(sizes: np.ndarray) -> int:
    """Discernibility metric: every record costs the size of its class, sum |E|^2."""
    return int((np.asarray(sizes, dtype=np.int64) ** 2).sum())


def c_avg(sizes: np.ndarray, k: int) -> float:
    """Normalized average class size: (records / classes) / k (1 is ideal)."""
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")
    return float(np.sum(sizes) / len(sizes) / k)
