import numpy as np


def load(raw_file, anon_file, folder):
    header, raw = read_dataset(raw_file)
    header2, anon = read_dataset(anon_file)
    if header != header2 or len(raw) != len(anon):
        raise ValueError("the anonymized file does not match the raw file")
    trees = {name: Tree(d) for name, d in read_DGHs(folder).items() if name in header}
    return raw, anon, trees


def cost_LM(raw_dataset_file, anonymized_dataset_file, DGH_folder):
    raw, anon, trees = load(raw_dataset_file, anonymized_dataset_file, DGH_folder)
    matrix = np.array([[t.loss(row[name]) for name, t in trees.items()] for row in anon])
    return float(matrix.mean(axis=1).sum())


class Tree:
    """Precomputed queries on one hierarchy."""

    def __init__(self, dgh):
        self.dgh = dgh
        self.leaves = {}
        self._count(dgh.root)
        self.height = max(dgh.depth.values())
        self.size = self.leaves[dgh.root]

    def _count(self, node):
        kids = self.dgh.children[node]
        self.leaves[node] = 1 if not kids else sum(self._count(c) for c in kids)
        return self.leaves[node]

    def up(self, node, steps):
        for _ in range(steps):
            node = self.dgh.parent[node]
        return node

    def lca(self, nodes):
        nodes = set(nodes)
        while len(nodes) > 1:
            deepest = max(self.dgh.depth[n] for n in nodes)
            nodes = {self.dgh.parent[n] if self.dgh.depth[n] == deepest else n for n in nodes}
        return nodes.pop()

    def loss(self, node):
        return 0.0 if self.size == 1 else (self.leaves[node] - 1) / (self.size - 1)


def cost_MD(raw_dataset_file, anonymized_dataset_file, DGH_folder):
    raw, anon, trees = load(raw_dataset_file, anonymized_dataset_file, DGH_folder)
    cost = np.zeros(len(raw))
    for name, t in trees.items():
        d = t.dgh.depth
        diffs = np.array([d[a[name]] - d[b[name]] for a, b in zip(raw, anon)])
        if (diffs < 0).any():
            raise ValueError(f"column {name}: row {int(np.argmax(diffs < 0)) + 1} is not generalized")
        cost += diffs
    return float(cost.sum())


def clustering_anonymizer(raw_dataset_file, DGH_folder, k, output_file):
    header, rows = read_dataset(raw_dataset_file)
    trees = {name: Tree(d) for name, d in read_DGHs(DGH_folder).items() if name in header}
    n, m = len(rows), len(trees)
    if n < k:
        raise ValueError(f"k = {k} but only {n} rows")
    H = 2 * sum(t.height for t in trees.values())
    cache = {}

    def dist(i, j):
        key = (min(i, j), max(i, j))
        if key not in cache:
            value = 0.0
            for name, t in trees.items():
                a, b = rows[i][name], rows[j][name]
                c = t.lca([a, b])
                value += t.loss(c) / m + (t.dgh.depth[a] + t.dgh.depth[b] - 2 * t.dgh.depth[c]) / H
            cache[key] = value
        return cache[key]

    free = np.ones(n, dtype=bool)
    label = np.full(n, -1)
    centers = []
    sums = np.zeros(n)
    c = 0
    while free.sum() >= k:
        free[c] = False
        cand = np.flatnonzero(free)
        d = np.array([dist(c, j) for j in cand])
        pick = cand[np.lexsort((cand, np.round(d, 9)))[:k - 1]]
        label[c] = len(centers)
        label[pick] = len(centers)
        free[pick] = False
        centers.append(c)
        sums += np.array([dist(c, j) for j in range(n)])
        rest = np.flatnonzero(free)
        if len(rest) < k:
            break
        c = int(rest[np.argmax(np.round(sums[rest], 9))])
    for j in np.flatnonzero(free):
        label[j] = int(np.argmin([round(dist(j, x), 9) for x in centers]))
    for g in range(len(centers)):
        members = np.flatnonzero(label == g)
        for name, t in trees.items():
            top = t.lca(rows[j][name] for j in members)
            for j in members:
                rows[j][name] = top
    write_dataset(rows, output_file, header, raw_dataset_file)


