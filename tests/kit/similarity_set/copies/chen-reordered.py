from functools import lru_cache
from itertools import combinations


def _leaf_sets(dgh):
    result = {}
    def walk(node):
        kids = dgh.children[node]
        result[node] = frozenset([node]) if not kids else frozenset().union(*map(walk, kids))
        return result[node]
    walk(dgh.root)
    return result


def cost_MD(raw_dataset_file, anonymized_dataset_file, DGH_folder):
    _, before = read_dataset(raw_dataset_file)
    _, after = read_dataset(anonymized_dataset_file)
    _check(before, after)
    hierarchies = read_DGHs(DGH_folder)
    distortion = 0
    for attr, h in hierarchies.items():
        path = _paths(h)
        for number, (x, y) in enumerate(zip(before, after), 1):
            if y[attr] not in path(x[attr]):
                raise ValueError(f"data row {number}, column {attr!r}: {y[attr]!r} does not generalize {x[attr]!r}")
            distortion += path(x[attr]).index(y[attr])
    return float(distortion)


def clustering_anonymizer(raw_dataset_file, DGH_folder, k, output_file):
    header, table = read_dataset(raw_dataset_file)
    hierarchies = read_DGHs(DGH_folder)
    if k > len(table):
        raise ValueError("not enough records for k")
    attrs = list(hierarchies)
    paths = {a: _paths(hierarchies[a]) for a in attrs}
    leaves = {a: _leaf_sets(hierarchies[a]) for a in attrs}
    norm = 2 * sum(max(h.depth.values()) for h in hierarchies.values())

    def meet(a, values):
        chains = [paths[a](v) for v in values]
        shared = set(chains[0]).intersection(*chains[1:])
        return next(node for node in chains[0] if node in shared)

    def gap(x, y):
        lm = md = 0.0
        for a in attrs:
            top = meet(a, (x[a], y[a]))
            size = len(leaves[a][hierarchies[a].root])
            lm += (len(leaves[a][top]) - 1) / (size - 1) if size > 1 else 0.0
            md += paths[a](x[a]).index(top) + paths[a](y[a]).index(top)
        return lm / len(attrs) + md / norm

    remaining = dict.fromkeys(range(len(table)))
    groups, heads = [], []
    head = 0
    while len(remaining) >= k:
        del remaining[head]
        order = sorted(remaining, key=lambda r: (round(gap(table[head], table[r]), 9), r))
        group = [head, *order[:k - 1]]
        for r in group[1:]:
            del remaining[r]
        groups.append(group)
        heads.append(head)
        if len(remaining) < k:
            break
        head = max(remaining, key=lambda r: (round(sum(gap(table[h], table[r]) for h in heads), 9), -r))
    for r in remaining:
        best = min(range(len(heads)), key=lambda g: (round(gap(table[heads[g]], table[r]), 9), g))
        groups[best].append(r)
    for group in groups:
        for a in attrs:
            top = meet(a, [table[r][a] for r in group])
            for r in group:
                table[r][a] = top
    write_dataset(table, output_file, header, raw_dataset_file)


def _paths(dgh):
    @lru_cache(maxsize=None)
    def path(node):
        p = dgh.parent[node]
        return (node,) if p is None else (node,) + path(p)
    return path


def _check(raw_rows, anon_rows):
    if len(raw_rows) != len(anon_rows):
        raise ValueError(f"{len(anon_rows)} anonymized rows for {len(raw_rows)} raw rows")


def cost_LM(raw_dataset_file, anonymized_dataset_file, DGH_folder):
    _, before = read_dataset(raw_dataset_file)
    _, after = read_dataset(anonymized_dataset_file)
    _check(before, after)
    hierarchies = read_DGHs(DGH_folder)
    per_attr = []
    for attr, h in hierarchies.items():
        leaves = _leaf_sets(h)
        width = len(leaves[h.root]) - 1
        per_attr.append([(len(leaves[r[attr]]) - 1) / width if width else 0.0 for r in after])
    return sum(sum(col) for col in zip(*per_attr)) / len(hierarchies) if per_attr else 0.0


