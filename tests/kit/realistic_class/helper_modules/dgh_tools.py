"""Hierarchy (DGH) helpers for the k-anonymity homework."""
import numpy as np


def load_hierarchy(path):
    """A DGH as a dict of dicts: parent, depth, children, plus root/height/n_leaves/leaves."""
    parent, depth, children = {}, {}, {}
    stack = []
    root = None
    with open(path, encoding="utf-8-sig", newline="") as f:
        for line in f.read().splitlines():
            if line.strip() == "":
                continue
            d = len(line) - len(line.lstrip("\t"))
            label = line.strip("\t").rstrip()
            stack = stack[:d]
            parent[label] = stack[-1] if stack else None
            depth[label] = d
            children[label] = []
            if stack:
                children[stack[-1]].append(label)
            else:
                root = label
            stack.append(label)
    leaves = {}

    def count(v):
        leaves[v] = 1 if not children[v] else sum(count(c) for c in children[v])
        return leaves[v]

    count(root)
    height = max(depth[v] for v in depth if not children[v])
    return {"parent": parent, "depth": depth, "children": children, "root": root,
            "leaves": leaves, "height": height, "n_leaves": leaves[root]}


def ancestors(t, v):
    out = [v]
    while t["parent"][out[-1]] is not None:
        out.append(t["parent"][out[-1]])
    return out


def lca(t, values):
    values = list(dict.fromkeys(values))
    common = ancestors(t, values[0])
    for v in values[1:]:
        anc = set(ancestors(t, v))
        common = [a for a in common if a in anc]
    return common[0]


def climb(t, v, s):
    chain = ancestors(t, v)
    return chain[min(s, len(chain) - 1)]


def lm_value(t, v):
    return 0.0 if t["n_leaves"] == 1 else (t["leaves"][v] - 1) / (t["n_leaves"] - 1)


def as_float(text):
    try:
        x = float(text)
    except ValueError:
        return None
    return x if np.isfinite(x) else None


def numeric_column(values):
    nums = {}
    for v in values:
        x = as_float(v)
        if x is None or nums.setdefault(x, v) != v:
            return False
    return True


def split_interval(cell):
    if not (cell.startswith("[") and cell.endswith("]")):
        return None
    inner = cell[1:-1]
    for i in range(1, len(inner)):
        if inner[i] == "-" and as_float(inner[:i]) is not None and as_float(inner[i + 1:]) is not None:
            return float(inner[:i]), float(inner[i + 1:])
    return None
