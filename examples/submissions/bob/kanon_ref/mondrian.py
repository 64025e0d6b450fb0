"""mondrian (HANDOUT.md, "mondrian"): strict multidimensional partitioning (LeFevre, DeWitt,
Ramakrishnan, ICDE 2006).

A partition is cut on the widest QI that allows a cut (ties: column order): a numeric QI at
its lower median (left = values <= split), a categorical QI into the children of the
partition's LCA. Final partitions generalize numeric QIs to [min-max] (each row keeps its raw
value when min = max) and categorical QIs to their LCA.

A partition's outcome depends on its rows only, so the partitions are processed level by
level, all of one level at once: the rows of a level's partitions lie in contiguous blocks,
and a QI's per-partition minimum and maximum are one `reduceat` each. Hierarchy nodes are
numbered in file order, a preorder, so the LCA of a partition's values is the LCA of its
smallest and largest node id. Numeric values are replaced by their ranks among the column's
distinct values (the same order, so the same medians and cuts).
"""
from __future__ import annotations

import numpy as np

from .kanon.cells import numeric_values
from .kanon.problem import Problem, check_int, load_problem_for_k, write_released
from .kanon.schema import DEFAULT, Schema
from .kanon.table import check_output_path

from .ties import EPS

_BINCOUNT_LIMIT = 1 << 22  # largest (partitions x values) table counted with one bincount


class _Column:
    """One QI: every row's key (rank of its number, or its node id) and what the cuts and
    the final cells need."""

    def __init__(self, dgh, codes: np.ndarray):
        present = np.flatnonzero(np.bincount(codes, minlength=dgh.n_nodes))
        labels = [dgh.labels[int(c)] for c in present]
        numbers = numeric_values(labels)  # the same verdict as over every row's string
        self.numeric = numbers is not None
        if self.numeric:
            by_value = np.argsort(numbers, kind="stable")  # numbers are distinct
            rank = np.zeros(dgh.n_nodes, dtype=np.intp)  # node id -> rank of its number
            rank[present[by_value]] = np.arange(len(present))
            self.key = rank[codes]
            self.values = numbers[by_value]  # value of each rank
            self.spellings = [labels[int(i)] for i in by_value]
            self.span = float(self.values[-1] - self.values[0])
            self.size = len(present)
        else:
            self.key = codes.astype(np.intp)
            self.ancestors = dgh.ancestors
            self.leaf_count = dgh.leaf_count
            self.labels = np.asarray(dgh.labels, dtype=object)
            self.span = float(dgh.n_leaves - 1)
            sibling = np.zeros(dgh.n_nodes, dtype=np.intp)  # index among the parent's children
            for kids in dgh.children:
                sibling[kids] = np.arange(len(kids))
            self.sibling = sibling
            self.fan = max(1, max(len(kids) for kids in dgh.children))

    def lca(self, low: np.ndarray, high: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """LCA (node, depth) of each pair of smallest and largest node ids."""
        a, b = self.ancestors[low], self.ancestors[high]
        depth = ((a == b) & (a >= 0)).sum(axis=1) - 1
        return a[np.arange(len(low)), depth], depth


def _blocks(sizes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Start of each block, and the block index of every position."""
    starts = np.zeros(len(sizes), dtype=np.intp)
    np.cumsum(sizes[:-1], out=starts[1:])
    return starts, np.repeat(np.arange(len(sizes)), sizes)


def _numeric_cut(key: np.ndarray, local: np.ndarray, sizes: np.ndarray, size: int,
                 k: int) -> tuple[np.ndarray, np.ndarray]:
    """Per partition whether the lower-median cut is allowed, and each row's side."""
    combined = local * size + key
    ordered = np.sort(combined)
    starts, _ = _blocks(sizes)
    split = ordered[starts + (sizes - 1) // 2]
    n_left = np.searchsorted(ordered, split, side="right") - starts
    allowed = (n_left >= k) & (sizes - n_left >= k)
    return allowed, (combined > split[local]).astype(np.intp)


def _categorical_cut(column: _Column, key: np.ndarray, local: np.ndarray, sizes: np.ndarray,
                     depth: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Per partition whether the cut into the LCA's children is allowed, and each row's
    child (its index among the LCA's children)."""
    n_parts = len(sizes)
    child = column.ancestors[key, depth[local] + 1]  # width > 0: the LCA is not a leaf
    bad = np.bincount(local, weights=child < 0, minlength=n_parts) > 0
    group = column.sibling[child]
    fan = column.fan
    combined = local * fan + group
    if n_parts * fan <= _BINCOUNT_LIMIT:
        counts = np.bincount(combined, minlength=n_parts * fan).reshape(n_parts, fan)
        present = counts > 0
        n_groups = present.sum(axis=1)
        smallest = np.where(present, counts, len(key) + 1).min(axis=1)
    else:
        values, counts = np.unique(combined, return_counts=True)
        owner = values // fan
        n_groups = np.bincount(owner, minlength=n_parts)
        smallest = np.full(n_parts, len(key) + 1)
        np.minimum.at(smallest, owner, counts)
    allowed = ~bad & (n_groups >= 2) & (smallest >= k)
    return allowed, group


def _order_by_width(widths: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per partition (row of `widths`), the QIs with width > 0 largest first, ties (within
    EPS, chained as `tie_ranks`) in column order; and how many there are."""
    n_parts, m = widths.shape
    negated = np.where(widths > 0, -widths, np.inf)  # the others sort last
    order = np.argsort(negated, axis=1, kind="stable")
    ordered = np.take_along_axis(negated, order, axis=1)
    steps = np.zeros((n_parts, m), dtype=np.intp)
    with np.errstate(invalid="ignore"):  # inf - inf among the others
        np.cumsum(np.diff(ordered, axis=1) > EPS, axis=1, out=steps[:, 1:])
    ranks = np.empty_like(steps)
    np.put_along_axis(ranks, order, steps, axis=1)
    by_rank = np.argsort(ranks * m + np.arange(m), axis=1)
    return by_rank, (widths > 0).sum(axis=1)


def _partition(columns: list[_Column], n: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The final partitions of n rows: the rows grouped in contiguous blocks, and the block
    sizes."""
    m = len(columns)
    final_rows: list[np.ndarray] = []
    final_sizes: list[np.ndarray] = []
    order = np.arange(n)  # rows of the partitions still to be examined, block by block
    sizes = np.array([n])
    if n < 2 * k:  # no cut can leave k rows on each side
        final_rows.append(order)
        final_sizes.append(sizes)
        sizes = sizes[:0]
    while len(sizes):
        n_parts = len(sizes)
        starts, block = _blocks(sizes)
        keys, depths = [], []
        widths = np.zeros((n_parts, m))
        for j, column in enumerate(columns):
            key = column.key[order]
            keys.append(key)
            depths.append(None)
            if column.span == 0:
                continue
            low, high = np.minimum.reduceat(key, starts), np.maximum.reduceat(key, starts)
            if column.numeric:
                widths[:, j] = (column.values[high] - column.values[low]) / column.span
            else:
                lca, depths[j] = column.lca(low, high)
                widths[:, j] = (column.leaf_count[lca] - 1) / column.span
        by_width, n_candidates = _order_by_width(widths)
        cut = np.zeros(n_parts, dtype=bool)
        part_of = np.zeros(len(order), dtype=np.intp)  # the row's part once its block is cut
        for t in range(m):
            todo = ~cut & (n_candidates > t)
            if not todo.any():
                break
            qi = by_width[:, t]
            for j in np.unique(qi[todo]):
                chosen = np.flatnonzero(todo & (qi == j))
                positions = np.flatnonzero((todo & (qi == j))[block])
                chosen_sizes = sizes[chosen]
                local = np.repeat(np.arange(len(chosen)), chosen_sizes)
                column, key = columns[j], keys[j][positions]
                if column.numeric:
                    allowed, side = _numeric_cut(key, local, chosen_sizes, column.size, k)
                else:
                    allowed, side = _categorical_cut(column, key, local, chosen_sizes,
                                                     depths[j][chosen], k)
                cut[chosen[allowed]] = True
                rows_allowed = allowed[local]
                part_of[positions[rows_allowed]] = side[rows_allowed]
        stays = ~cut[block]
        final_rows.append(order[stays])
        final_sizes.append(sizes[~cut])
        moving = np.flatnonzero(~stays)
        if not len(moving):
            break
        combined = block[moving] * (int(part_of.max()) + 1) + part_of[moving]
        by_part = np.argsort(combined, kind="stable")
        order, combined = order[moving][by_part], combined[by_part]
        edges = np.flatnonzero(np.diff(combined)) + 1
        sizes = np.diff(np.concatenate(([0], edges, [len(combined)])))
        small = sizes < 2 * k
        if small.any():
            small_rows = np.repeat(small, sizes)
            final_rows.append(order[small_rows])
            final_sizes.append(sizes[small])
            order, sizes = order[~small_rows], sizes[~small]
    return np.concatenate(final_rows), np.concatenate(final_sizes)


def _generalized_columns(problem: Problem, columns: list[_Column], rows: np.ndarray,
                         sizes: np.ndarray) -> list[list[str]]:
    """Every column of the output, as a list of cells in row order."""
    table = problem.table
    result: list[list[str]] = [None] * len(table.header)  # type: ignore[list-item]
    starts, _ = _blocks(sizes)
    for col, column in zip(problem.qi_columns, columns):
        key = column.key[rows]
        low, high = np.minimum.reduceat(key, starts), np.maximum.reduceat(key, starts)
        if column.numeric:
            cells = np.asarray(column.spellings, dtype=object)[column.key]  # the raw strings
            wide = low != high
            spell = column.spellings
            text = np.asarray([f"[{spell[lo]}-{spell[hi]}]" for lo, hi in
                               zip(low[wide].tolist(), high[wide].tolist())], dtype=object)
            cells[rows[np.repeat(wide, sizes)]] = np.repeat(text, sizes[wide])
        else:
            cells = np.empty(problem.n, dtype=object)
            lca, _ = column.lca(low, high)
            cells[rows] = np.repeat(column.labels[lca], sizes)
        result[col] = cells.tolist()
    for col in range(len(table.header)):
        if result[col] is None:
            result[col] = [row[col] for row in table.rows]
    return result


def mondrian(raw_dataset_file: str, DGH_folder: str, k: int, output_file: str, *,
             schema: Schema = DEFAULT) -> None:
    """Strict Mondrian: recursive median / hierarchy cuts while both sides keep >= k rows.
    `schema` (a course's, kanon/schema.py) chooses the hierarchy format and the released
    columns."""
    k = check_int("k", k, minimum=1)
    check_output_path(output_file, (raw_dataset_file,))
    problem = load_problem_for_k(raw_dataset_file, DGH_folder, k, schema)
    columns = [_Column(dgh, problem.codes[:, j]) for j, dgh in enumerate(problem.dghs)]
    rows, sizes = _partition(columns, problem.n, k)
    out = _generalized_columns(problem, columns, rows, sizes)
    write_released(output_file, problem, zip(*out))
