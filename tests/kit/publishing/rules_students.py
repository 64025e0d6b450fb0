"""Small USTC-lab students for the rules self-check's tests (standard library only): a
samarati and a mondrian written plainly, each right by the handout's rules but not the
reference's choice (samarati: the FIRST satisfying vector of the lowest height in lexicographic
order; mondrian: the NARROWEST allowable QI first), and single-bug variants selected by BUG.

`source(bug)` is the text of one student's file with BUG set (None: right). Bugs: samarati's
higher, satisfies, keep-outliers, star-outliers (outliers written with '*' QI cells instead of
deleted), not-full-domain; mondrian's k-1, upper-median, stop-early, equal-bounds (an interval
[v-v] where min = max); both functions' all-columns.
"""
from __future__ import annotations

STUDENT = r'''
import csv
import os
from collections import Counter
from itertools import product

BUG = {bug!r}
SENSITIVE = "occupation"


def read_data(raw_file, dgh_folder):
    with open(raw_file, encoding="utf-8", newline="") as f:
        rows = [r for r in csv.reader(f) if r]
    header, rows = rows[0], rows[1:]
    parents = {{}}
    for name in sorted(os.listdir(dgh_folder)):
        parent = {{}}
        with open(os.path.join(dgh_folder, name), encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    child, up = line.strip().rsplit(",", 1)
                    parent[child] = up
        root = next(v for v in parent.values() if v not in parent)
        parent[root] = None
        parents[name[:-4]] = parent
    qis = [c for c, name in enumerate(header) if name in parents]
    keep = [c for c, name in enumerate(header) if c in qis or name == SENSITIVE]
    if BUG == "all-columns":
        keep = list(range(len(header)))
    return header, rows, [parents[header[c]] for c in qis], qis, keep


def write(output_file, raw_file, header, rows, keep):
    if os.path.abspath(output_file) == os.path.abspath(raw_file):
        raise ValueError("output_file is the raw dataset file")
    with open(output_file, "w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow([header[c] for c in keep])
        writer.writerows([[row[c] for c in keep] for row in rows])


def up(parent, value, steps):
    for _ in range(steps):
        if parent[value] is None:
            break
        value = parent[value]
    return value


def height(parent):
    def depth(v):
        d = 0
        while parent[v] is not None:
            v, d = parent[v], d + 1
        return d
    return max(depth(v) for v in parent)


def samarati(raw_dataset_file, DGH_folder, k, max_sup, output_file):
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError("k must be an integer >= 1")
    if isinstance(max_sup, bool) or not isinstance(max_sup, int) or max_sup < 0:
        raise ValueError("max_sup must be an integer >= 0")
    if os.path.abspath(output_file) == os.path.abspath(raw_dataset_file):
        raise ValueError("output_file is the raw dataset file")
    header, rows, parents, qis, keep = read_data(raw_dataset_file, DGH_folder)

    tops = [height(p) for p in parents]
    raw_keys = [tuple(row[c] for c in qis) for row in rows]
    distinct = Counter(raw_keys)  # each row's QI values: the same for equal values

    def lifted(s):  # each distinct QI-value tuple -> its generalization by s
        return {{key: tuple(up(p, value, level) for p, value, level in zip(parents, key, s))
                for key in distinct}}

    def generalized(s):
        keys = lifted(s)
        return [keys[key] for key in raw_keys]

    def outliers_of(s):
        keys, sizes = lifted(s), Counter()
        for key, count in distinct.items():
            sizes[keys[key]] += count
        return [sizes[keys[key]] < k for key in raw_keys]

    found = {{}}
    lattice = product(*[range(top + 1) for top in tops])
    for s in sorted(lattice, key=sum):  # by height, each height in lexicographic order
        if found and sum(s) > min(map(sum, found)) + 1:
            break  # the lowest satisfying height and the one above it are all it reads
        outliers = outliers_of(s)
        if sum(outliers) <= max_sup:
            found[s] = outliers
    if not found:
        raise ValueError("no vector satisfies k and max_sup")
    low = min(map(sum, found))
    s = min(v for v in found if sum(v) == low)  # the first of the lowest height
    if BUG == "higher":
        s = min(v for v in found if sum(v) == low + 1)
    outliers = found[s]
    if BUG == "satisfies":
        below = [v for v in product(*[range(height(p) + 1) for p in parents])
                 if sum(v) == low - 1]
        s = below[0]
        outliers = outliers_of(s)
    if BUG == "keep-outliers":
        outliers = [False] * len(rows)
    out = []
    for row, key, outlier in zip(rows, generalized(s), outliers):
        if outlier and BUG == "star-outliers":  # suppressed with '*' cells, not deleted
            key = ["*"] * len(qis)
        elif outlier:
            continue
        cells = list(row)
        for c, cell in zip(qis, key):
            cells[c] = cell
        out.append(cells)
    if BUG == "not-full-domain":
        c = qis[0]
        out[0][c] = parents[0][out[0][c]] or out[0][c]
    write(output_file, raw_dataset_file, header, out, keep)


def mondrian(raw_dataset_file, DGH_folder, k, output_file):
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError("k must be an integer >= 1")
    if os.path.abspath(output_file) == os.path.abspath(raw_dataset_file):
        raise ValueError("output_file is the raw dataset file")
    header, rows, parents, qis, keep = read_data(raw_dataset_file, DGH_folder)
    if len(rows) < k:
        raise ValueError("fewer rows than k")
    numeric = []
    for c in qis:
        try:
            numeric.append([float(row[c]) for row in rows])
        except ValueError:
            numeric.append(None)
    spans = [max(v) - min(v) if v else 0 for v in numeric]
    least = k - 1 if BUG == "k-1" else k

    def path(parent, v):
        out = [v]
        while parent[out[-1]] is not None:
            out.append(parent[out[-1]])
        return out[::-1]

    def lca(parent, values):
        paths = [path(parent, v) for v in set(values)]
        d = 0
        while all(len(p) > d + 1 for p in paths) and len({{p[d + 1] for p in paths}}) == 1:
            d += 1
        return paths[0][d]

    def cut(part, j):
        if numeric[j] is not None:
            values = sorted(numeric[j][r] for r in part)
            position = len(values) // 2 if BUG == "upper-median" else (len(values) - 1) // 2
            split = values[position]
            left = [r for r in part if numeric[j][r] <= split]
            right = [r for r in part if numeric[j][r] > split]
            groups = [left, right]
        else:
            parent = parents[j]
            node = lca(parent, [rows[r][qis[j]] for r in part])
            by = {{}}
            for r in part:
                p = path(parent, rows[r][qis[j]])
                if len(p) <= len(path(parent, node)):
                    return None
                by.setdefault(p[len(path(parent, node))], []).append(r)
            groups = list(by.values())
        if len(groups) < 2 or min(map(len, groups)) < least:
            return None
        return groups

    def width(part, j):
        if numeric[j] is not None:
            values = [numeric[j][r] for r in part]
            return (max(values) - min(values)) / spans[j] if spans[j] else 0
        return len({{rows[r][qis[j]] for r in part}})

    final, pending = [], [list(range(len(rows)))]
    while pending:
        part = pending.pop()
        if BUG == "stop-early" and len(part) < 4 * k:
            final.append(part)
            continue
        for j in sorted(range(len(qis)), key=lambda j: (width(part, j), j)):
            groups = cut(part, j)
            if groups:
                pending.extend(groups)
                break
        else:
            final.append(part)
    out = [list(row) for row in rows]
    for part in final:
        for j, c in enumerate(qis):
            if numeric[j] is not None:
                low = min(part, key=lambda r: numeric[j][r])
                high = max(part, key=lambda r: numeric[j][r])
                same = numeric[j][low] == numeric[j][high] and BUG != "equal-bounds"
                cell = rows[low][c] if same else \
                    f"[{{rows[low][c]}}-{{rows[high][c]}}]"
            else:
                cell = lca(parents[j], [rows[r][c] for r in part])
            for r in part:
                out[r][c] = cell
    write(output_file, raw_dataset_file, header, out, keep)
'''


def source(bug: str | None) -> str:
    """One student's file: right (bug None) or with one bug."""
    return STUDENT.format(bug=bug)
