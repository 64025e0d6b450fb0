"""Judging a Mondrian output's classes (kcheck.rules.partitions.Classes) against the strict
median cuts: the tree search (the classes are the leaves of a tree of usable cuts from the
whole table), why a partition has no usable cut (for messages), and the first class that
still admits an allowable cut.
"""
from __future__ import annotations

from collections import Counter

from ..text import Message
from .partitions import Classes, Part
from .words import phrase

__all__ = ["why_not", "search", "final_break"]


def why_not(classes: Classes, part: Part, j: int, hidden: bool) -> Message:
    """Why QI j has no usable cut of the partition (row by row, for a message)."""
    qi, k = classes.qis[j], classes.k
    keys = classes.part_keys(part, j)
    if qi.numeric:
        split = sorted(keys)[(len(keys) - 1) // 2]
        sides = {c: {key > split for key in classes.keys[j][c]} for c in part}
        counts = Counter(key > split for key in keys)
        at = phrase("at.median", hidden, bound=qi.spellings[split])
    else:
        tree = qi.tree
        node = tree.lca_nodes(set(keys))
        if not tree.children[node] or node in keys:
            return phrase("why.ancestor", qi=qi.name)
        below = tree.depth[node] + 1
        sides = {c: {tree.path[key][below] for key in classes.keys[j][c]} for c in part}
        counts = Counter(tree.path[key][below] for key in keys)
        at = phrase("at.children")
    if len(counts) < 2:
        return phrase("why.nothing_above", qi=qi.name, at=at)
    if min(counts.values()) < k:
        return phrase("why.small_side", qi=qi.name, at=at, size=min(counts.values()), k=k)
    mixed = [c for c in part if len(sides[c]) > 1]
    return phrase("why.splits", qi=qi.name, at=at, row=classes.first_row[mixed[0]] + 1)


def search(classes: Classes, budget: int | None = None) -> tuple[Part | None, bool]:
    """(None, False) when the classes are the leaves of a tree of usable cuts from the whole
    table, else the first partition met (depth first, widest QI first) that has no usable
    cut. Memoised on the partition; after `budget` partitions (default: 10,000 plus ten per
    class, where a tree without backtracking meets two per class) it gives up: (every class,
    True)."""
    if budget is None:
        budget = 10_000 + 10 * len(classes.sizes)
    memo: dict[Part, bool] = {}
    dead: list[Part] = []

    def tree(part: Part) -> bool:
        if len(part) == 1:
            return True
        if part in memo:
            return memo[part]
        if len(memo) >= budget:
            raise _GaveUp
        memo[part] = False
        widths = [classes.width(part, j) for j in range(len(classes.qis))]
        any_cut = False
        for j in sorted(range(len(widths)), key=lambda j: -widths[j]):
            parts = classes.usable(part, j) if widths[j] > 0 else None
            if parts is not None:
                any_cut = True
                if all(tree(p) for p in parts):
                    memo[part] = True
                    return True
        if not any_cut and not dead:
            dead.append(part)
        return False

    everything = tuple(range(len(classes.sizes)))
    try:
        return (None if tree(everything) else dead[0] if dead else everything), False
    except (_GaveUp, RecursionError):
        return everything, True


def final_break(classes: Classes) -> tuple[int, int] | None:
    """(class, QI) of the first class (then QI) that still admits an allowable cut."""
    k = classes.k
    for c, size in enumerate(classes.sizes):
        for j, qi in enumerate(classes.qis):
            keys = classes.keys[j][c]
            if qi.numeric:  # keys sorted
                split = keys[(size - 1) // 2]
                n_left = sum(1 for key in keys if key <= split)
                if n_left >= k and size - n_left >= k:
                    return c, j
                continue
            tree = qi.tree
            node = classes.lca[j][c]
            below = tree.depth[node] + 1
            if node in keys:  # a value equal to the LCA (a leaf LCA included)
                continue
            counts = Counter(tree.path[key][below] for key in keys)
            if len(counts) >= 2 and min(counts.values()) >= k:
                return c, j
    return None


class _GaveUp(Exception):
    """The cut search met more partitions than its budget."""
