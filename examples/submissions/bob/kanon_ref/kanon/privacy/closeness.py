"""t-closeness (Li, Li, Venkatasubramanian, ICDE 2007): the Earth Mover's Distance between
each class's distribution of sensitive values P and the whole table's Q, under three ground
distances. Distributions are rows of a (classes, m) matrix over the sensitive domain (the m
distinct values of the table, in the order `sensitive_domain` gives).

- ordered:      D = 1/(m-1) * sum_i |r_1 + ... + r_i|, r = P - Q, values in their order
- equal:        D = 1/2 * sum_i |r_i|
- hierarchical: D = sum over nodes N of (H - depth(N)) / H * min(pos(N), neg(N)), where
  extra(N) = sum of r over the values in N's subtree, pos(N) / neg(N) = the sum of the
  positive / negative extras of N's children (and of N's own value when N is one), H = the
  hierarchy's height.
"""
from __future__ import annotations

import math
import re

import numpy as np

from ..hierarchy import DGH
from ..cells import numeric_values

__all__ = ["DISTANCES", "range_key", "sensitive_domain", "ordered_emd", "equal_emd",
           "hierarchical_emd", "t_closeness"]

DISTANCES = ("ordered", "equal", "hierarchical")

_NUMBER = re.compile(r"((?:(?<![\w.])-)?\d+(?:\.\d+)?)\s*([kKmM]?)(?![a-zA-Z])")
_BELOW = ("<", "below", "under", "less than", "up to", "at most")
_ABOVE = (">", "above", "over", "more than", "at least")


def range_key(label: str) -> tuple[float, float] | None:
    """(low, high) of a value written as a range or bound, for ordering: "[0, 12.5K]" ->
    (0, 12500), "(12.5K, 25K]" -> (12500, 25000), "<=50K" -> (-inf, 50000), ">50K" and
    "above 87.5k" -> (.., inf), "7" -> (7, 7); None when the label holds no number. A K / M
    suffix multiplies by 1e3 / 1e6."""
    numbers = [float(a) * {"": 1, "k": 1e3, "m": 1e6}[b.lower()]
               for a, b in _NUMBER.findall(label)]
    if not numbers or len(numbers) > 2:
        return None
    text = label.strip().lower()
    if len(numbers) == 1:
        x = numbers[0]
        if text.startswith(_BELOW):
            return (-math.inf, x)
        if text.startswith(_ABOVE) or text.endswith("+"):
            return (x, math.inf)
        return (x, x)
    return (numbers[0], numbers[1])


def sensitive_domain(values: list[str], dgh: DGH | None = None
                     ) -> tuple[list[str], str | None]:
    """(domain, order): the distinct sensitive values of the table, sorted, and where their
    order comes from: "hierarchy" (order of the labels in the DGH file), "numeric" (every value
    a number), "ranges" (every value a range or bound with distinct (low, high)), or None
    (unordered: sorted as strings; the ordered distance does not apply)."""
    distinct = sorted(set(values))
    if dgh is not None:
        return sorted(distinct, key=lambda v: dgh.index[v]), "hierarchy"
    numbers = numeric_values(distinct)
    if numbers is not None:
        return [distinct[i] for i in np.argsort(numbers, kind="stable")], "numeric"
    keys = {v: range_key(v) for v in distinct}
    if all(k is not None for k in keys.values()) and len(set(keys.values())) == len(keys):
        return sorted(distinct, key=lambda v: keys[v]), "ranges"
    return distinct, None


def ordered_emd(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Ordered distance of each row of p (classes, m) from q (m,)."""
    m = p.shape[-1]
    if m < 2:
        return np.zeros(p.shape[:-1])
    return np.abs(np.cumsum(p - q, axis=-1)).sum(axis=-1) / (m - 1)


def equal_emd(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Equal distance (half the L1 distance) of each row of p from q."""
    return np.abs(p - q).sum(axis=-1) / 2


def hierarchical_emd(p: np.ndarray, q: np.ndarray, dgh: DGH, domain: list[str]) -> np.ndarray:
    """Hierarchical distance of each row of p from q; domain[i] is a label of `dgh`. The
    ground distance of two values is (H - depth(LCA)) / H; a value that is an inner node
    counts as a leaf hanging below that node."""
    p = np.atleast_2d(p)
    height = dgh.height
    if height == 0:
        return np.zeros(p.shape[0])
    r = p - q
    nodes = np.asarray([dgh.index[v] for v in domain], dtype=np.int64)
    paths = dgh.ancestors[nodes]  # (m, H+1)
    relevant = np.unique(paths[paths >= 0])
    position = {int(v): i for i, v in enumerate(relevant)}
    below = np.zeros((len(relevant), len(domain)))  # below[N, v]: N is v's ancestor-or-self
    for v, path in enumerate(paths):
        for node in path[path >= 0]:
            below[position[int(node)], v] = 1.0
    extra = r @ below.T  # (classes, |R|)
    # children of each relevant node: the relevant nodes below it, and its own value (if any)
    items, parents = [], []
    for i, node in enumerate(relevant):
        if node != 0:
            items.append(extra[:, i])
            parents.append(position[int(dgh.parent[node])])
    for v, node in enumerate(nodes):
        if dgh.children[int(node)]:
            items.append(r[:, v])
            parents.append(position[int(node)])
    if not items:
        return np.zeros(p.shape[0])
    x = np.stack(items, axis=1)  # (classes, items)
    owner = np.zeros((len(items), len(relevant)))
    owner[np.arange(len(items)), parents] = 1.0
    pos = np.maximum(x, 0) @ owner
    neg = np.maximum(-x, 0) @ owner
    weight = (height - dgh.depth[relevant]) / height
    return np.minimum(pos, neg) @ weight


def t_closeness(counts: np.ndarray, distance: str, dgh: DGH | None = None,
                domain: list[str] | None = None) -> float:
    """The smallest t for which the table is t-close: the largest EMD of a class's
    distribution from the table's. `counts` columns follow the domain order (for "ordered"
    the values' order; "hierarchical" needs the DGH and the domain's labels)."""
    sizes = counts.sum(axis=1, keepdims=True)
    p = counts / sizes
    q = counts.sum(axis=0) / counts.sum()
    if distance == "ordered":
        d = ordered_emd(p, q)
    elif distance == "equal":
        d = equal_emd(p, q)
    elif distance == "hierarchical":
        if dgh is None or domain is None:
            raise ValueError("the hierarchical distance needs the sensitive attribute's "
                             "hierarchy")
        d = hierarchical_emd(p, q, dgh, domain)
    else:
        raise ValueError(f"unknown ground distance {distance!r}; use one of "
                         f"{', '.join(DISTANCES)}")
    return float(max(0.0, d.max()))
