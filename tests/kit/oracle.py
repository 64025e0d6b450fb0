"""A deliberately naive, line-by-line transcription of HANDOUT.md (the test oracle).

Written from the contract alone, without reading the reference's algorithm code, so that a
bug in the reference shows up as a disagreement. Plain Python, no speed tricks: hierarchies
are parent dictionaries, costs and distances are exact `Fraction`s (real ties come out exactly
equal, so the contract's tie rules apply without any tolerance). Every anonymizer returns the
output table as `(header, rows)` instead of writing a file; compare it with a file written by
the implementation under test as parsed CSV.

Only for small inputs: clustering is O(n^2 * n/k), bottom-up and Samarati scan the lattice.
"""
from __future__ import annotations

import csv
import itertools
import os
from fractions import Fraction

import numpy as np


# ---------------------------------------------------------------- files (contract section 1)

class Hierarchy:
    """One DGH file, read exactly as section 1 says."""

    def __init__(self, path: str):
        self.path = path
        self.parent: dict[str, str | None] = {}
        self.depth: dict[str, int] = {}
        self.children: dict[str, list[str]] = {}
        self.root: str | None = None
        self._leaves: dict[str, int] = {}  # memo only
        self._paths: dict[str, list[str]] = {}  # memo only
        self._pairs: dict[tuple[str, str], str] = {}  # memo only
        self._height: int | None = None  # memo only
        self._whd: dict[tuple[int, int], Fraction] = {}  # memo only (whd)
        with open(path, encoding="utf-8-sig", newline="") as f:
            text = f.read()
        previous_depth = None
        last_at_depth: dict[int, str] = {}
        for line_no, line in enumerate(text.split("\n"), start=1):
            if line.strip() == "":
                continue
            d = 0
            while d < len(line) and line[d] == "\t":
                d += 1
            label = line[d:].rstrip()
            if self.root is None:
                if d != 0:
                    raise ValueError(f"{path}, line {line_no}: the root must not be indented")
                parent = None
            else:
                if d == 0:
                    raise ValueError(f"{path}, line {line_no}: a second root")
                if d > previous_depth + 1:
                    raise ValueError(f"{path}, line {line_no}: indentation jumps")
                parent = last_at_depth[d - 1]
            if label in self.parent:
                raise ValueError(f"{path}, line {line_no}: duplicate label {label!r}")
            self.parent[label] = parent
            self.depth[label] = d
            self.children[label] = []
            if parent is not None:
                self.children[parent].append(label)
            else:
                self.root = label
            last_at_depth[d] = label
            for deeper in [x for x in last_at_depth if x > d]:
                del last_at_depth[deeper]
            previous_depth = d
        if self.root is None:
            raise ValueError(f"{path}: empty hierarchy file")

    def is_leaf(self, v: str) -> bool:
        return len(self.children[v]) == 0

    def all_leaves(self) -> list[str]:
        return [v for v in self.parent if self.is_leaf(v)]

    def leaves(self, v: str) -> int:
        """Number of leaves in v's subtree (a leaf has 1)."""
        if v not in self._leaves:
            if self.is_leaf(v):
                self._leaves[v] = 1
            else:
                self._leaves[v] = sum(self.leaves(c) for c in self.children[v])
        return self._leaves[v]

    def n_leaves(self) -> int:
        return self.leaves(self.root)

    def height(self) -> int:
        """The largest leaf depth."""
        if self._height is None:  # memo only
            self._height = max(self.depth[v] for v in self.all_leaves())
        return self._height

    def path_to_root(self, v: str) -> list[str]:
        """v, its parent, ..., the root."""
        if v not in self._paths:
            result = [v]
            while self.parent[result[-1]] is not None:
                result.append(self.parent[result[-1]])
            self._paths[v] = result
        return list(self._paths[v])

    def is_ancestor_or_self(self, a: str, v: str) -> bool:
        return a in self.path_to_root(v)

    def lca(self, values) -> str:
        """The deepest node that is an ancestor-or-self of every value."""
        values = list(values)
        if len(values) == 2:  # memo only: pairs are asked again and again by clustering
            key = (values[0], values[1])
            if key not in self._pairs:
                self._pairs[key] = self._lca(values)
            return self._pairs[key]
        return self._lca(values)

    def _lca(self, values: list[str]) -> str:
        common = set(self.path_to_root(values[0]))
        for v in values[1:]:
            common &= set(self.path_to_root(v))
        return max(common, key=lambda node: self.depth[node])

    def up(self, v: str, s: int) -> str:
        """The ancestor s steps above v, or the root when v has fewer than s ancestors."""
        if v not in self._paths:
            self.path_to_root(v)
        path = self._paths[v]  # read only: no copy
        return path[min(s, len(path) - 1)]

    def lm(self, v: str) -> Fraction:
        """(leaves(v) - 1) / (|A| - 1), 0 when |A| = 1."""
        a = self.n_leaves()
        if a == 1:
            return Fraction(0)
        return Fraction(self.leaves(v) - 1, a - 1)


def read_dataset(path: str) -> tuple[list[str], list[list[str]]]:
    """Header and rows; blank lines ignored, a trailing \\r is never part of a value."""
    if not os.path.isfile(path):
        raise FileNotFoundError(path)
    with open(path, encoding="utf-8-sig", newline="") as f:
        records = [[c[:-1] if c.endswith("\r") else c for c in r] for r in csv.reader(f)]
    records = [r for r in records if r != []]
    header, rows = records[0], records[1:]
    for i, row in enumerate(rows, start=1):
        if len(row) != len(header):
            raise ValueError(f"{path}: row {i} has {len(row)} cells")
    return header, rows


class Problem:
    """A raw dataset with the hierarchies of its QIs."""

    def __init__(self, raw_file: str, dgh_folder: str):
        if not os.path.isdir(dgh_folder):
            raise FileNotFoundError(dgh_folder)
        self.header, self.rows = read_dataset(raw_file)
        hierarchies = {}
        for name in os.listdir(dgh_folder):
            if name.endswith(".txt"):
                hierarchies[name[:-4]] = Hierarchy(os.path.join(dgh_folder, name))
        self.qi = [c for c, name in enumerate(self.header) if name in hierarchies]
        self.h = {c: hierarchies[self.header[c]] for c in self.qi}
        for c in self.qi:
            for row in self.rows:
                if row[c] not in self.h[c].parent:
                    raise ValueError(f"column {self.header[c]!r}: value {row[c]!r} not in DGH")
        self.others = [c for c in range(len(self.header)) if c not in self.qi]
        self._numeric: dict[int, bool] = {}  # memo only
        self._bounds: dict[int, tuple[float, float]] = {}  # memo only
        self.interval_lca: dict[tuple[int, float, float], str] = {}  # memo only

    @property
    def n(self) -> int:
        return len(self.rows)

    def sensitive(self) -> int:
        if len(self.others) != 1:
            raise ValueError("l-diversity needs exactly one non-QI column")
        return self.others[0]

    def is_numeric(self, c: int) -> bool:
        """Every raw value of the column parses with float() to a finite number, and no two
        different raw strings give the same number (the course's reading of HANDOUT.md, "Files")."""
        if c not in self._numeric:
            self._numeric[c] = bool(self.rows)
            spelling: dict[float, str] = {}
            for row in self.rows:
                try:
                    x = float(row[c])
                except ValueError:
                    self._numeric[c] = False
                    break
                if x != x or x in (float("inf"), float("-inf")) or spelling.setdefault(x, row[c]) != row[c]:
                    self._numeric[c] = False
                    break
        return self._numeric[c]

    def bounds(self, c: int) -> tuple[float, float]:
        """(U, L): the largest and smallest raw value of a numeric column."""
        if c not in self._bounds:
            values = [float(row[c]) for row in self.rows]
            self._bounds[c] = (max(values), min(values))
        return self._bounds[c]


# ---------------------------------------------------------------- costs (sections 2 and 3)

def parse_interval(cell: str) -> tuple[float, float] | None:
    """`[lo-hi]` split at the first '-' after the first character that leaves two numbers."""
    if len(cell) < 2 or cell[0] != "[" or cell[-1] != "]":
        return None
    inner = cell[1:-1]
    for p in range(1, len(inner)):
        if inner[p] == "-":
            try:
                return float(inner[:p]), float(inner[p + 1:])
            except ValueError:
                continue
    return None


def _cell_costs(p: Problem, c: int, raw: str, cell: str) -> tuple[int, int, Fraction] | None:
    """(MD, leaves(gen) - 1, hi - lo) of one generalized cell: a label has hi - lo = 0, an
    interval has leaves(gen) - 1 = 0 (its LM uses (hi - lo) instead); None when the cell is
    not a valid generalization of raw."""
    h = p.h[c]
    if cell in h.parent:
        if not h.is_ancestor_or_self(cell, raw):
            return None
        return h.depth[raw] - h.depth[cell], h.leaves(cell) - 1, Fraction(0)
    if not p.is_numeric(c):
        return None
    interval = parse_interval(cell)
    if interval is None:
        return None
    lo, hi = interval
    if not lo < hi or not lo <= float(raw) <= hi:
        return None
    if (c, lo, hi) not in p.interval_lca:  # memo only
        inside = []
        for leaf in h.all_leaves():
            try:
                x = float(leaf)
            except ValueError:
                continue
            if lo <= x <= hi:
                inside.append(leaf)
        p.interval_lca[(c, lo, hi)] = h.lca(inside)
    gen = p.interval_lca[(c, lo, hi)]
    return h.depth[raw] - h.depth[gen], 0, Fraction(hi) - Fraction(lo)


def costs(raw_file: str, anon_file: str, dgh_folder: str) -> tuple[Fraction, Fraction]:
    """(cost_MD, cost_LM), exact. The LM sum over records of (1/M) * sum over QIs is
    accumulated per QI: (1/M) * sum over QIs of (sum of leaves(gen) - 1) / (|A| - 1)
    + (sum of hi - lo) / (U - L)."""
    p = Problem(raw_file, dgh_folder)
    header, rows = read_dataset(anon_file)
    if header != p.header:
        raise ValueError("the two files differ in header")
    if len(rows) != p.n:
        raise ValueError("the two files differ in row count")
    md = 0
    lm = Fraction(0)
    for c in p.qi:
        leaf_sum, width_sum = 0, Fraction(0)
        for i in range(p.n):
            result = _cell_costs(p, c, p.rows[i][c], rows[i][c])
            if result is None:
                raise ValueError(f"row {i + 1}, column {p.header[c]!r}: invalid cell")
            md += result[0]
            leaf_sum += result[1]
            width_sum += result[2]
        a = p.h[c].n_leaves()
        if a > 1:
            lm += Fraction(leaf_sum, a - 1)
        if width_sum:
            big_u, small_l = p.bounds(c)
            if big_u != small_l:
                lm += width_sum / (Fraction(big_u) - Fraction(small_l))
    return Fraction(md), lm / len(p.qi)


def cost_MD(raw_file: str, anon_file: str, dgh_folder: str) -> Fraction:
    return costs(raw_file, anon_file, dgh_folder)[0]


def cost_LM(raw_file: str, anon_file: str, dgh_folder: str) -> Fraction:
    return costs(raw_file, anon_file, dgh_folder)[1]


def rows_cost_LM(p: Problem, rows: list[list[str]]) -> Fraction:
    """cost_LM of output rows made of DGH labels only (lattice outputs)."""
    total = Fraction(0)
    for row in rows:
        total += sum((p.h[c].lm(row[c]) for c in p.qi), Fraction(0)) / len(p.qi)
    return total


# ---------------------------------------------------------------- helpers

def _check_int(name: str, value, minimum=None) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an integer")
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be at least {minimum}")


def _generalize_group(p: Problem, rows: list[list[str]], members: list[int]) -> None:
    """Every QI cell of the members becomes the LCA of the members' raw values."""
    for c in p.qi:
        g = p.h[c].lca([p.rows[i][c] for i in members])
        for i in members:
            rows[i][c] = g


# ---------------------------------------------------------------- section 5

def random_anonymizer(raw_file: str, dgh_folder: str, k: int, s: int):
    _check_int("k", k, 1)
    _check_int("s", s)
    p = Problem(raw_file, dgh_folder)
    n = p.n
    if n < k:
        raise ValueError("n < k")
    order = np.arange(n)
    np.random.seed(s)
    np.random.shuffle(order)
    order = [int(x) for x in order]
    groups = []
    for j in range(0, n // k - 1):
        groups.append(order[j * k:(j + 1) * k])
    groups.append(order[(n // k - 1) * k:])
    rows = [list(r) for r in p.rows]
    for g in groups:
        _generalize_group(p, rows, g)
    return p.header, rows


# ---------------------------------------------------------------- section 6

def dist(p: Problem, a: int, b: int) -> Fraction:
    """LM_dist + MD_dist / (2 * sum of heights)."""
    m = len(p.qi)
    lm_dist = Fraction(0)
    md_dist = 0
    for c in p.qi:
        h = p.h[c]
        x, y = p.rows[a][c], p.rows[b][c]
        g = h.lca([x, y])
        lm_dist += h.lm(g)
        md_dist += (h.depth[x] - h.depth[g]) + (h.depth[y] - h.depth[g])
    lm_dist = lm_dist / m
    total_height = sum(p.h[c].height() for c in p.qi)
    if total_height == 0:
        return lm_dist
    return lm_dist + Fraction(md_dist, 2 * total_height)


def clustering_anonymizer(raw_file: str, dgh_folder: str, k: int):
    _check_int("k", k, 1)
    p = Problem(raw_file, dgh_folder)
    n = p.n
    if n < k:
        raise ValueError("n < k")
    memo: dict[tuple, Fraction] = {}  # dist depends on the two records' QI values only
    keys = [tuple(row[c] for c in p.qi) for row in p.rows]

    def d(a: int, b: int) -> Fraction:
        key = (keys[a], keys[b])
        if key not in memo:
            memo[key] = memo[(keys[b], keys[a])] = dist(p, a, b)
        return memo[key]

    used = [False] * n
    clusters: list[list[int]] = []
    centroids: list[int] = []
    to_centroids = [Fraction(0)] * n  # sum of dist to every centroid so far (exact)
    curr = 0
    while used.count(False) >= k:
        candidates = [i for i in range(n) if not used[i] and i != curr]
        candidates.sort(key=lambda i: (d(curr, i), i))
        members = [curr] + candidates[:k - 1]
        for i in members:
            used[i] = True
        clusters.append(members)
        centroids.append(curr)
        unused = [i for i in range(n) if not used[i]]
        if not unused:
            break
        best = None
        for i in unused:  # row order; a later record must be strictly farther
            to_centroids[i] += d(i, curr)
            if best is None or to_centroids[i] > best[0]:
                best = (to_centroids[i], i)
        curr = best[1]
    for i in range(n):
        if not used[i]:
            best = None
            for e, c in enumerate(centroids):
                if best is None or d(i, c) < best[0]:
                    best = (d(i, c), e)
            clusters[best[1]].append(i)
            used[i] = True
    rows = [list(r) for r in p.rows]
    for members in clusters:
        _generalize_group(p, rows, members)
    return p.header, rows


# ---------------------------------------------------------------- sections 7 and 8

def lattice_nodes(p: Problem) -> list[tuple[int, ...]]:
    return list(itertools.product(*[range(p.h[c].height() + 1) for c in p.qi]))


def apply_node(p: Problem, node: tuple[int, ...]) -> list[list[str]]:
    rows = [list(r) for r in p.rows]
    for row in rows:
        for c, s in zip(p.qi, node):
            row[c] = p.h[c].up(row[c], s)
    return rows


def equivalence_classes(p: Problem, rows: list[list[str]]) -> dict[tuple, list[int]]:
    classes: dict[tuple, list[int]] = {}
    for i, row in enumerate(rows):
        classes.setdefault(tuple(row[c] for c in p.qi), []).append(i)
    return classes


def bottomup_anonymizer(raw_file: str, dgh_folder: str, k: int, l: int):
    _check_int("k", k, 1)
    _check_int("l", l, 1)
    p = Problem(raw_file, dgh_folder)
    sens = p.sensitive()
    nodes = lattice_nodes(p)
    top = max(sum(v) for v in nodes)
    for level in range(top + 1):
        found = []
        for node in nodes:
            if sum(node) != level:
                continue
            rows = apply_node(p, node)
            ok = True
            for members in equivalence_classes(p, rows).values():
                if len(members) < k or len({p.rows[i][sens] for i in members}) < l:
                    ok = False
            if ok:
                found.append((rows_cost_LM(p, rows), node, rows))
        if found:
            found.sort(key=lambda t: (t[0], t[1]))
            return p.header, found[0][2]
    raise ValueError("even the top node fails")


def samarati_node_rows(p: Problem, node: tuple[int, ...], k: int) -> tuple[int, list[list[str]]]:
    """(number of outliers, output rows with the outliers suppressed)."""
    rows = apply_node(p, node)
    outliers = []
    for members in equivalence_classes(p, rows).values():
        if len(members) < k:
            outliers.extend(members)
    for i in outliers:
        for c in p.qi:
            rows[i][c] = p.h[c].root
    return len(outliers), rows


def samarati(raw_file: str, dgh_folder: str, k: int, max_sup: int):
    """Linear scan over heights instead of the binary search: same h* by monotonicity."""
    _check_int("k", k, 1)
    _check_int("max_sup", max_sup, 0)
    p = Problem(raw_file, dgh_folder)
    nodes = lattice_nodes(p)
    top = max(sum(v) for v in nodes)
    for height in range(top + 1):
        found = []
        for node in nodes:
            if sum(node) != height:
                continue
            outliers, rows = samarati_node_rows(p, node, k)
            if outliers <= max_sup:
                found.append((rows_cost_LM(p, rows), node, rows))
        if found:
            found.sort(key=lambda t: (t[0], t[1]))
            return p.header, found[0][2]
    raise ValueError("no satisfying node")


# ---------------------------------------------------------------- section 9

def mondrian(raw_file: str, dgh_folder: str, k: int):
    _check_int("k", k, 1)
    p = Problem(raw_file, dgh_folder)
    if p.n < k:
        raise ValueError("n < k")
    numeric = {c: p.is_numeric(c) for c in p.qi}
    rows = [list(r) for r in p.rows]

    def width(part: list[int], c: int) -> Fraction:
        if numeric[c]:
            big_u, small_l = p.bounds(c)
            if big_u == small_l:
                return Fraction(0)
            values = [float(p.rows[i][c]) for i in part]
            return (Fraction(max(values)) - Fraction(min(values))) / (
                Fraction(big_u) - Fraction(small_l))
        return p.h[c].lm(p.h[c].lca([p.rows[i][c] for i in part]))

    def cut(part: list[int], c: int) -> list[list[int]] | None:
        if numeric[c]:
            values = sorted(float(p.rows[i][c]) for i in part)
            split = values[(len(part) - 1) // 2]
            left = [i for i in part if float(p.rows[i][c]) <= split]
            right = [i for i in part if float(p.rows[i][c]) > split]
            if len(left) >= k and len(right) >= k:
                return [left, right]
            return None
        h = p.h[c]
        top = h.lca([p.rows[i][c] for i in part])
        groups: dict[str, list[int]] = {}
        for i in part:
            v = p.rows[i][c]
            if v == top:
                return None
            path = h.path_to_root(v)
            child = path[path.index(top) - 1]
            groups.setdefault(child, []).append(i)
        if all(len(g) >= k for g in groups.values()):
            return list(groups.values())
        return None

    def finish(part: list[int]) -> None:
        for c in p.qi:
            if numeric[c]:
                values = [p.rows[i][c] for i in part]
                smallest = min(values, key=float)
                largest = max(values, key=float)
                # Values written differently but numerically equal ("5", "5.0") are left
                # out of the test data: the contract does not say which string to write.
                cell = smallest if float(smallest) == float(largest) else f"[{smallest}-{largest}]"
            else:
                cell = p.h[c].lca([p.rows[i][c] for i in part])
            for i in part:
                rows[i][c] = cell

    def recurse(part: list[int]) -> None:
        order = [c for c in p.qi if width(part, c) > 0]
        order.sort(key=lambda c: (-width(part, c), p.qi.index(c)))
        for c in order:
            parts = cut(part, c)
            if parts is not None:
                for sub in parts:
                    recurse(sub)
                return
        finish(part)

    recurse(list(range(p.n)))
    return p.header, rows


# ---------------------------------------------------------------- optional parts

def topdown_anonymizer(raw_file: str, dgh_folder: str, k: int):
    """HANDOUT.md, "topdown_anonymizer": specialize from the roots, each node on its own."""
    _check_int("k", k, 1)
    p = Problem(raw_file, dgh_folder)
    if p.n < k:
        raise ValueError("n < k")
    rows = [list(r) for r in p.rows]

    def child_of(c: int, v: str, raw: str) -> str | None:
        """The child of v whose subtree holds raw, None when raw is v itself."""
        path = p.h[c].path_to_root(raw)
        if raw == v:
            return None
        return path[path.index(v) - 1]

    def recurse(members: list[int], values: dict[int, str]) -> None:
        options = []  # (number of children, L1 distance, column position, groups)
        for position, c in enumerate(p.qi):
            groups: dict[str, list[int]] = {}
            ok = True
            for i in members:
                child = child_of(c, values[c], p.rows[i][c])
                if child is None:
                    ok = False
                    break
                groups.setdefault(child, []).append(i)
            if not ok or any(len(g) < k for g in groups.values()):
                continue
            count = len(groups)
            l1 = sum(abs(Fraction(len(g), len(members)) - Fraction(1, count))
                     for g in groups.values())
            options.append((count, l1, position, c, groups))
        if not options:
            for i in members:
                for c in p.qi:
                    rows[i][c] = values[c]
            return
        count, l1, position, c, groups = min(options, key=lambda o: (o[0], o[1], o[2]))
        for child, group in groups.items():
            recurse(group, {**values, c: child})

    recurse(list(range(p.n)), {c: p.h[c].root for c in p.qi})
    return p.header, rows


def dist_lm_only(p: Problem, a: int, b: int) -> Fraction:
    """The Fall 2025 clustering distance: LM_dist alone."""
    m = len(p.qi)
    return sum((p.h[c].lm(p.h[c].lca([p.rows[a][c], p.rows[b][c]])) for c in p.qi),
               Fraction(0)) / m


def clustering_anonymizer_lm_only(raw_file: str, dgh_folder: str, k: int):
    """clustering_anonymizer with dist = LM_dist (HANDOUT.md, "clustering_anonymizer", LM-only distance)."""
    global dist
    saved = dist
    dist = dist_lm_only
    try:
        return clustering_anonymizer(raw_file, dgh_folder, k)
    finally:
        dist = saved


def datafly(raw_file: str, dgh_folder: str, k: int):
    """HANDOUT.md, "datafly": one level at a time of the QI with the most distinct values."""
    _check_int("k", k, 1)
    p = Problem(raw_file, dgh_folder)
    if p.n < k:
        raise ValueError("n < k")
    level = {c: 0 for c in p.qi}

    def table() -> list[list[str]]:
        rows = [list(r) for r in p.rows]
        for row in rows:
            for c in p.qi:
                row[c] = p.h[c].up(row[c], level[c])
        return rows

    rows = table()
    while any(len(members) < k for members in equivalence_classes(p, rows).values()):
        best = None
        for c in p.qi:  # column order: a later QI must have strictly more distinct values
            values = {row[c] for row in rows}
            if values == {p.h[c].root}:
                continue
            if best is None or len(values) > best[0]:
                best = (len(values), c)
        level[best[1]] += 1
        rows = table()
    return p.header, rows


def topdown_greedy(raw_file: str, dgh_folder: str, k: int):
    """HANDOUT.md, "topdown_greedy": Top-Down Greedy with NCP, literally (exact fractions).

    A generalization is a dict column -> cell: a DGH label (categorical) or a pair (lo, hi)
    of Fractions (numeric)."""
    _check_int("k", k, 1)
    p = Problem(raw_file, dgh_folder)
    if p.n < k:
        raise ValueError("n < k")
    numeric = {c: p.is_numeric(c) for c in p.qi}

    def cell_ncp(c: int, cell) -> Fraction:
        if numeric[c]:
            big_u, small_l = p.bounds(c)
            if big_u == small_l:
                return Fraction(0)
            return (cell[1] - cell[0]) / (Fraction(big_u) - Fraction(small_l))
        h = p.h[c]
        if h.is_leaf(cell):
            return Fraction(0)
        return Fraction(h.leaves(cell), h.n_leaves())

    def ncp(g: dict) -> Fraction:
        return sum((cell_ncp(c, g[c]) for c in p.qi), Fraction(0))

    records: dict[int, dict] = {}  # memo only (never changed: join makes new dicts)
    distances: dict[tuple[int, int], Fraction] = {}  # memo only: dist of two records

    def record(i: int) -> dict:
        if i not in records:
            records[i] = {c: (Fraction(float(p.rows[i][c])),) * 2 if numeric[c]
                          else p.rows[i][c] for c in p.qi}
        return records[i]

    def join(a: dict, b: dict) -> dict:
        return {c: (min(a[c][0], b[c][0]), max(a[c][1], b[c][1])) if numeric[c]
                else p.h[c].lca([a[c], b[c]]) for c in p.qi}

    def generalization(members: list[int]) -> dict:
        g = record(members[0])
        for i in members[1:]:
            g = join(g, record(i))
        return g

    def dist(a: dict, b: dict) -> Fraction:
        return ncp(join(a, b))

    def record_dist(i: int, j: int) -> Fraction:
        """dist(record(i), record(j)) (symmetric)."""
        key = (min(i, j), max(i, j))
        if key not in distances:
            distances[key] = dist(record(i), record(j))
        return distances[key]

    final: list[list[int]] = []

    def recurse(part: list[int]) -> None:
        part = sorted(part)
        if len(part) < 2 * k:
            final.append(part)
            return
        u = part[0]
        for round_ in range(3):
            best = None
            for r in part:  # index order: a later record must be strictly farther
                if r == u:
                    continue
                d = record_dist(u, r)
                if best is None or d > best[0]:
                    best = (d, r)
            v = best[1]
            if round_ < 2:
                u = v
        group_u, group_v = [u], [v]
        for r in part:
            if r in (u, v):
                continue
            if record_dist(u, r) <= record_dist(v, r):
                group_u.append(r)
            else:
                group_v.append(r)
        if len(group_u) < k or len(group_v) < k:
            small, large = (group_u, group_v) if len(group_u) < k else (group_v, group_u)
            g = generalization(small)
            nearest = sorted(large, key=lambda r: (dist(g, record(r)), r))[:k - len(small)]
            grown = small + nearest
            rest = [r for r in large if r not in nearest]
            option1 = len(grown) * ncp(generalization(grown)) + \
                len(rest) * ncp(generalization(rest))
            option2 = len(part) * ncp(generalization(part))
            if option1 > option2:
                final.append(part)
                return
            group_u, group_v = grown, rest
        recurse(group_u)
        recurse(group_v)

    recurse(list(range(p.n)))
    rows = [list(r) for r in p.rows]
    for part in final:
        for c in p.qi:
            if numeric[c]:
                values = [p.rows[i][c] for i in part]
                smallest = min(values, key=float)
                largest = max(values, key=float)
                if float(smallest) == float(largest):
                    continue  # every row keeps its own raw value
                cell = f"[{smallest}-{largest}]"
            else:
                cell = p.h[c].lca([p.rows[i][c] for i in part])
            for i in part:
                rows[i][c] = cell
    return p.header, rows


def whd(h: Hierarchy, p: int, q: int) -> Fraction:
    """WHD(p, q): levels from the root (root = 1), weights W(j, j-1) = 1/(j-1), h = height + 1;
    0 when h = 1."""
    if (p, q) not in h._whd:
        top = h.height() + 1
        total = sum((Fraction(1, j - 1) for j in range(2, top + 1)), Fraction(0))
        h._whd[p, q] = Fraction(0) if total == 0 else \
            sum((Fraction(1, j - 1) for j in range(q + 1, p + 1)), Fraction(0)) / total
    return h._whd[p, q]


def kaca(raw_file: str, dgh_folder: str, k: int):
    """HANDOUT.md, "kaca": merge the earliest small class with its nearest class (exact)."""
    _check_int("k", k, 1)
    p = Problem(raw_file, dgh_folder)
    if p.n < k:
        raise ValueError("n < k")
    classes: list[dict] = []  # {"members": [...], "tuple": {c: label}}
    for i, row in enumerate(p.rows):
        t = {c: row[c] for c in p.qi}
        for cls in classes:
            if cls["tuple"] == t:
                cls["members"].append(i)
                break
        else:
            classes.append({"members": [i], "tuple": t})

    def level(c: int, v: str) -> int:
        return p.h[c].depth[v] + 1

    def distortion(old: dict, new: dict) -> Fraction:
        return sum((whd(p.h[c], level(c, old[c]), level(c, new[c])) for c in p.qi),
                   Fraction(0))

    def joint(a: dict, b: dict) -> dict:
        return {c: p.h[c].lca([a[c], b[c]]) for c in p.qi}

    def distance(a: dict, b: dict) -> Fraction:
        g = joint(a["tuple"], b["tuple"])
        total = Fraction(0)
        for cls in (a, b):
            for _ in cls["members"]:  # every record counted, with its class's current tuple
                total += distortion(cls["tuple"], g)
        return total

    while any(len(cls["members"]) < k for cls in classes):
        small = min((cls for cls in classes if len(cls["members"]) < k),
                    key=lambda cls: min(cls["members"]))
        best = None
        for cls in sorted(classes, key=lambda c: min(c["members"])):
            if cls is small:
                continue
            d = distance(small, cls)
            if best is None or d < best[0]:
                best = (d, cls)
        other = best[1]
        g = joint(small["tuple"], other["tuple"])
        merged = {"members": small["members"] + other["members"], "tuple": g}
        rest = [cls for cls in classes if cls is not small and cls is not other]
        # HANDOUT.md: no other class already has the joint tuple (it would be strictly nearer)
        assert all(cls["tuple"] != g for cls in rest)
        classes = rest + [merged]

    rows = [list(r) for r in p.rows]
    for cls in classes:
        for i in cls["members"]:
            for c in p.qi:
                rows[i][c] = cls["tuple"][c]
    return p.header, rows
