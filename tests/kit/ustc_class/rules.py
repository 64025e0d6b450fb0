"""A brute-force judge of the USTC lab's rules (as the course states them), written independently of the
kit for labelling this class: which rules an output breaks.

Samarati rules, in order: columns, full-domain, satisfies, lowest-height, deletion.
Mondrian rules, in order: columns, cover, exact, k, median-cuts, final.
Each judge returns the list of broken rules (empty: a right answer), each with a reason.
"""
from __future__ import annotations

import csv
import itertools
import os
from collections import Counter, defaultdict

SENSITIVE = "occupation"


def read_csv(path: str) -> tuple[list[str], list[list[str]]]:
    with open(path, newline="", encoding="utf-8") as f:
        rows = [r for r in csv.reader(f) if r]
    return rows[0], rows[1:]


def read_dghs(folder: str) -> dict[str, dict[str, str | None]]:
    """column -> {node: parent} from "child,parent" files (the root's parent is None)."""
    result = {}
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".txt"):
            continue
        parent: dict[str, str | None] = {}
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    child, up = line.rstrip("\n").split(",")
                    parent[child] = up
        for up in list(parent.values()):
            parent.setdefault(up, None)
        result[name[:-4]] = parent
    return result


def chain(tree: dict, value: str) -> list[str]:
    out = [value]
    while tree[out[-1]] is not None:
        out.append(tree[out[-1]])
    return out


class Case:
    """The raw table, the QIs (columns with a hierarchy, raw order) and the released columns."""

    def __init__(self, raw: str, dgh_folder: str):
        self.header, self.rows = read_csv(raw)
        self.trees = read_dghs(dgh_folder)
        self.qis = [c for c in self.header if c in self.trees]
        self.released = [c for c in self.header if c in self.trees or c == SENSITIVE]
        self.col = {c: self.header.index(c) for c in self.header}
        self.height = {q: len(chain(self.trees[q], self.rows[0][self.col[q]])) - 1
                       for q in self.qis}

    def up(self, q: str, value: str, level: int) -> str:
        return chain(self.trees[q], value)[level]

    def generalized(self, vector: tuple[int, ...]) -> list[tuple[str, ...]]:
        cache: dict = {}
        out = []
        for r in self.rows:
            key = tuple(r[self.col[q]] for q in self.qis)
            if key not in cache:
                cache[key] = tuple(self.up(q, v, s) for q, v, s in zip(self.qis, key, vector))
            out.append(cache[key])
        return out

    def outliers(self, vector: tuple[int, ...], k: int) -> list[int]:
        g = self.generalized(vector)
        sizes = Counter(g)
        return [i for i, key in enumerate(g) if sizes[key] < k]


def judge_samarati(case: Case, k: int, max_sup: int, output: str) -> list[str]:
    header, rows = read_csv(output)
    broken = []
    if header != case.released:
        return [f"columns: header {header} != {case.released}"]
    if not rows and len(case.rows) > max_sup:  # no cell to read a vector from
        return [f"deletion: all {len(case.rows)} rows deleted (max_sup {max_sup})"]
    pos = {c: header.index(c) for c in header}
    # the level of each cell (-1: not a node of the column's hierarchy)
    levels = []
    for q in case.qis:
        tree = case.trees[q]
        depth = {}
        counts: Counter = Counter()
        for r in rows:
            cell = r[pos[q]]
            if cell not in depth:
                depth[cell] = case.height[q] - (len(chain(tree, cell)) - 1) if cell in tree else -1
            counts[depth[cell]] += 1
        levels.append(counts)
    vector = tuple(c.most_common(1)[0][0] for c in levels)
    if any(len(c) > 1 or -1 in c for c in levels):
        broken.append(f"full-domain: cells of several levels {[dict(c) for c in levels]}")
    g = case.generalized(vector)
    out_i, kept = 0, []
    for i, (raw, key) in enumerate(zip(case.rows, g)):
        if out_i < len(rows) and rows[out_i][pos[SENSITIVE]] == raw[case.col[SENSITIVE]] \
                and tuple(rows[out_i][pos[q]] for q in case.qis) == key:
            kept.append(i)
            out_i += 1
    if out_i < len(rows) and not broken:
        broken.append(f"full-domain: output row {out_i + 1} is not a raw row generalized "
                      f"by {vector} (rows in raw order)")
    outliers = case.outliers(vector, k)
    if len(outliers) > max_sup:
        broken.append(f"satisfies: {vector} leaves {len(outliers)} outliers > {max_sup}")
    h = sum(vector)
    lower = [v for v in itertools.product(*(range(case.height[q] + 1) for q in case.qis))
             if sum(v) < h]
    for v in sorted(lower, key=sum):
        if len(case.outliers(v, k)) <= max_sup:
            broken.append(f"lowest-height: {v} (height {sum(v)}) satisfies, output is at "
                          f"{vector} (height {h})")
            break
    deleted = sorted(set(range(len(case.rows))) - set(kept))
    if out_i < len(rows) or deleted != outliers:
        broken.append(f"deletion: {len(case.rows) - len(rows)} rows deleted, {vector} has "
                      f"{len(outliers)} outliers")
    return broken


def _numeric(case: Case, q: str) -> bool:
    try:
        for r in case.rows:
            float(r[case.col[q]])
        return True
    except ValueError:
        return False


def _cell(case: Case, q: str, members: list[int], numeric: bool) -> str:
    values = [case.rows[i][case.col[q]] for i in members]
    if numeric:
        lo, hi = min(values, key=float), max(values, key=float)
        return lo if float(lo) == float(hi) else f"[{lo}-{hi}]"
    common = None
    for v in values:
        path = chain(case.trees[q], v)
        common = path if common is None else [n for n in common if n in path]
    return common[0]


def _cut(case: Case, q: str, members: list[int], numeric: bool, k: int) -> list[list[int]] | None:
    """The strict cut of `members` on q when allowable (its sides), else None."""
    if numeric:
        values = sorted(float(case.rows[i][case.col[q]]) for i in members)
        split = values[(len(values) - 1) // 2]
        lhs = [i for i in members if float(case.rows[i][case.col[q]]) <= split]
        rhs = [i for i in members if float(case.rows[i][case.col[q]]) > split]
        return [lhs, rhs] if len(lhs) >= k and len(rhs) >= k else None
    lca = _cell(case, q, members, False)
    groups: dict[str, list[int]] = defaultdict(list)
    for i in members:
        path = chain(case.trees[q], case.rows[i][case.col[q]])
        if path[0] == lca:
            return None
        groups[path[path.index(lca) - 1]].append(i)
    if len(groups) < 2 or min(len(g) for g in groups.values()) < k:
        return None
    return list(groups.values())


def _tree_of_cuts(case, members, class_of, numeric, k) -> bool:
    if len({class_of[i] for i in members}) == 1:
        return True
    for q in case.qis:
        sides = _cut(case, q, members, numeric[q], k)
        if sides is None:
            continue
        sets = [{class_of[i] for i in side} for side in sides]
        if sum(map(len, sets)) != len(set().union(*sets)):
            continue  # a class lies on both sides: not this cut
        if all(_tree_of_cuts(case, side, class_of, numeric, k) for side in sides):
            return True
    return False


def judge_mondrian(case: Case, k: int, output: str) -> list[str]:
    header, rows = read_csv(output)
    if header != case.released:
        return [f"columns: header {header} != {case.released}"]
    if len(rows) != len(case.rows):
        return [f"columns: {len(rows)} rows, raw has {len(case.rows)}"]
    pos = {c: header.index(c) for c in header}
    broken = []
    for n, (raw, row) in enumerate(zip(case.rows, rows), 1):
        if row[pos[SENSITIVE]] != raw[case.col[SENSITIVE]]:
            return [f"columns: row {n}: {SENSITIVE} changed"]
    numeric = {q: _numeric(case, q) for q in case.qis}
    for n, (raw, row) in enumerate(zip(case.rows, rows), 1):
        bad = None
        for q in case.qis:
            cell, value = row[pos[q]], raw[case.col[q]]
            if numeric[q] and cell.startswith("[") and cell.endswith("]") and "-" in cell[2:]:
                cut = cell.index("-", 2)
                lo, hi = float(cell[1:cut]), float(cell[cut + 1:-1])
                ok = lo <= float(value) <= hi
            elif numeric[q]:
                ok = cell == value
            else:
                ok = cell in chain(case.trees[q], value)
            if not ok:
                bad = f"cover: row {n}, {q}: {cell!r} does not cover {value!r}"
                break
        if bad:
            broken.append(bad)
            break
    classes: dict[tuple, list[int]] = defaultdict(list)
    for i, row in enumerate(rows):
        classes[tuple(row[pos[q]] for q in case.qis)].append(i)
    for key, members in classes.items():
        want = tuple(_cell(case, q, members, numeric[q]) for q in case.qis)
        if want != key:
            broken.append(f"exact: a class of {len(members)} rows written {key}, its cells are {want}")
            break
    small = [len(m) for m in classes.values() if len(m) < k]
    if small:
        broken.append(f"k: {len(small)} classes smaller than k = {k} (e.g. {small[0]} rows)")
    class_of = {}
    for c, members in enumerate(classes.values()):
        for i in members:
            class_of[i] = c
    if not _tree_of_cuts(case, list(range(len(rows))), class_of, numeric, k):
        broken.append("median-cuts: the classes are not the leaves of a tree of allowable "
                      "strict median cuts")
    for key, members in classes.items():
        for q in case.qis:
            if _cut(case, q, members, numeric[q], k) is not None:
                broken.append(f"final: the class {key} ({len(members)} rows) admits a cut on {q}")
                break
        else:
            continue
        break
    return broken
