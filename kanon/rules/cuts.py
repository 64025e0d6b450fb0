"""Judging a Mondrian output's classes (kanon.rules.partitions.Classes) against the strict
median cuts: the tree search (the classes are the leaves of a tree of usable cuts from the
whole table), why a partition has no usable cut (for messages), and the first class that
still admits an allowable cut.
"""
from __future__ import annotations

import numpy as np

from .partitions import Classes

__all__ = ["why_not", "search", "final_break"]


def why_not(classes: Classes, part: np.ndarray, j: int, hidden: bool) -> str:
    """Why QI j has no usable cut of the partition (row by row, for a message)."""
    qi, k = classes.qis[j], classes.k
    keys = classes.grouped[j][classes.rows_of(part)]
    owner = np.repeat(part, classes.sizes[part])
    if qi.numeric:
        middle = (len(keys) - 1) // 2
        split = np.partition(keys, middle)[middle]
        side = keys > split
        at = "median cut" + ("" if hidden else f" (<= {qi.spellings[split]})")
    else:
        dgh = qi.dgh
        node = dgh.lca(keys)
        if not dgh.children[node] or (keys == node).any():
            return f"{qi.name}: a row's value is the partition's common ancestor itself"
        side = dgh.ancestors[keys, dgh.depth[node] + 1]
        at = "cut into the children of the common ancestor"
    _, counts = np.unique(side, return_counts=True)
    if len(counts) < 2:
        return f"{qi.name}: the {at} leaves no row above it"
    if counts.min() < k:
        return f"{qi.name}: the {at} leaves a side of {int(counts.min())} " \
               f"rows, fewer than k = {k}"
    mixed = [c for c in part if len(np.unique(side[owner == c])) > 1]
    return f"{qi.name}: the {at} splits the class of data row " \
           f"{int(classes.first_row[mixed[0]]) + 1}"


def search(classes: Classes, budget: int | None = None) -> tuple[np.ndarray | None, bool]:
    """(None, False) when the classes are the leaves of a tree of usable cuts from the whole
    table, else the first partition met (depth first, widest QI first) that has no usable
    cut. Memoised on the partition; after `budget` partitions (default: 10,000 plus ten per
    class, where a tree without backtracking meets two per class) it gives up: (every class,
    True)."""
    if budget is None:
        budget = 10_000 + 10 * len(classes.sizes)
    memo: dict[bytes, bool] = {}
    dead: list[np.ndarray] = []

    def tree(part: np.ndarray) -> bool:
        if len(part) == 1:
            return True
        key = part.tobytes()
        if key in memo:
            return memo[key]
        if len(memo) >= budget:
            raise _GaveUp
        memo[key] = False
        widths = [classes.width(part, j) for j in range(len(classes.qis))]
        any_cut = False
        for j in sorted(range(len(widths)), key=lambda j: -widths[j]):
            parts = classes.usable(part, j) if widths[j] > 0 else None
            if parts is not None:
                any_cut = True
                if all(tree(p) for p in parts):
                    memo[key] = True
                    return True
        if not any_cut and not dead:
            dead.append(part)
        return False

    everything = np.arange(len(classes.sizes))
    try:
        return (None if tree(everything) else dead[0] if dead else everything), False
    except _GaveUp:
        return everything, True


def final_break(classes: Classes) -> tuple[int, int] | None:
    """(class, QI) of the first class (then QI) that still admits an allowable cut."""
    found = np.zeros((len(classes.sizes), len(classes.qis)), dtype=bool)
    class_of = np.repeat(np.arange(len(classes.sizes)), classes.sizes)
    for j, qi in enumerate(classes.qis):
        keys = classes.grouped[j]
        if qi.numeric:
            combined = np.sort(class_of * (int(keys.max()) + 1) + keys)
            split = combined[classes.starts + (classes.sizes - 1) // 2]
            n_left = np.searchsorted(combined, split, side="right") - classes.starts
            found[:, j] = (n_left >= classes.k) & (classes.sizes - n_left >= classes.k)
            continue
        ancestors, depth = qi.dgh.ancestors, qi.dgh.depth[classes.lca[j]]
        below = np.minimum(depth + 1, ancestors.shape[1] - 1)[class_of]
        child = np.where((depth + 1 < ancestors.shape[1])[class_of],
                         ancestors[keys, below], -1)
        bad = np.bincount(class_of, weights=child < 0, minlength=len(classes.sizes)) > 0
        pairs, counts = np.unique(class_of * qi.dgh.n_nodes + child.clip(0),
                                  return_counts=True)
        owner = pairs // qi.dgh.n_nodes
        groups = np.bincount(owner, minlength=len(classes.sizes))
        smallest = np.full(len(classes.sizes), np.iinfo(np.int64).max)
        np.minimum.at(smallest, owner, counts)
        found[:, j] = ~bad & (groups >= 2) & (smallest >= classes.k)
    if not found.any():
        return None
    c = int(np.argmax(found.any(axis=1)))
    return c, int(np.argmax(found[c]))


class _GaveUp(Exception):
    """The cut search met more partitions than its budget."""
