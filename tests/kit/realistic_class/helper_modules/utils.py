"""Reading/writing and lattice helpers."""
import csv
import itertools
import os
import tempfile

from dgh_tools import load_hierarchy, lca, climb, lm_value


def load_table(path):
    """header (list) and rows (list of lists of strings)"""
    with open(path, encoding="utf-8-sig", newline="") as f:
        rows = [[c.rstrip("\r") for c in r] for r in csv.reader(f) if r]
    return rows[0], rows[1:]


def save_table(path, header, rows, raw_path=None):
    if raw_path is not None and os.path.abspath(path) == os.path.abspath(raw_path):
        raise ValueError("refusing to overwrite the raw dataset")
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)
    os.replace(tmp, path)


def load_hierarchies(folder):
    if not os.path.isdir(folder):
        raise FileNotFoundError(folder)
    return {name[:-4]: load_hierarchy(os.path.join(folder, name))
            for name in sorted(os.listdir(folder)) if name.endswith(".txt")}


def setup(raw_file, dgh_folder):
    header, rows = load_table(raw_file)
    dghs = load_hierarchies(dgh_folder)
    qi_idx = [i for i, col in enumerate(header) if col in dghs]
    trees = [dghs[header[i]] for i in qi_idx]
    for i, t in zip(qi_idx, trees):
        for r in rows:
            if r[i] not in t["parent"]:
                raise ValueError(f"{header[i]}: value {r[i]!r} is not in the hierarchy")
    return header, rows, qi_idx, trees


def sensitive_index(header, qi_idx):
    rest = [i for i in range(len(header)) if i not in qi_idx]
    if len(rest) != 1:
        raise ValueError("exactly one sensitive column is needed")
    return rest[0]


def lattice_level(heights, level):
    return [v for v in itertools.product(*[range(h + 1) for h in heights]) if sum(v) == level]


class FullDomain:
    def __init__(self, rows, qi_idx, trees):
        self.rows, self.qi_idx, self.trees = rows, qi_idx, trees
        self.heights = [t["height"] for t in trees]
        self.cols = [[r[i] for r in rows] for i in qi_idx]

    def generalize(self, node):
        gen_cols = []
        for col, t, s in zip(self.cols, self.trees, node):
            memo = {}
            gen_cols.append([memo.setdefault(v, climb(t, v, s)) if v not in memo else memo[v]
                             for v in col])
        return list(zip(*gen_cols))

    def classes(self, keys):
        groups = {}
        for r, key in enumerate(keys):
            groups.setdefault(key, []).append(r)
        return list(groups.values())

    def lm(self, keys, suppressed=()):
        m = len(self.trees)
        total = 0.0
        for r, key in enumerate(keys):
            if r in suppressed:
                total += sum(lm_value(t, t["root"]) for t in self.trees) / m
            else:
                total += sum(lm_value(t, v) for t, v in zip(self.trees, key)) / m
        return total

    def table(self, keys, suppressed=()):
        out = [list(r) for r in self.rows]
        for r, key in enumerate(keys):
            for j, i in enumerate(self.qi_idx):
                out[r][i] = self.trees[j]["root"] if r in suppressed else key[j]
        return out


def generalize_rows(rows, members, qi_idx, trees):
    for i, t in zip(qi_idx, trees):
        g = lca(t, [rows[m][i] for m in members])
        for m in members:
            rows[m][i] = g
