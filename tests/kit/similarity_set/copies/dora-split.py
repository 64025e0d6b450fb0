import numpy as np


def encode(dgh):
    """Number the nodes of a hierarchy in depth-first order; return the label list, parent
    array, depth array and leaf-count array."""
    labels, parent, depth = [], [], []
    stack = [(dgh.root, -1)]
    while stack:
        label, up = stack.pop()
        labels.append(label)
        parent.append(up)
        depth.append(0 if up < 0 else depth[up] + 1)
        me = len(labels) - 1
        for child in reversed(dgh.children[label]):
            stack.append((child, me))
    parent, depth = np.array(parent), np.array(depth)
    leaves = np.zeros(len(labels), dtype=int)
    is_leaf = np.array([not dgh.children[l] for l in labels])
    for node in np.flatnonzero(is_leaf):
        while node >= 0:
            leaves[node] += 1
            node = parent[node]
    return {l: i for i, l in enumerate(labels)}, labels, parent, depth, leaves


def lca_of(parent, depth, nodes):
    nodes = np.unique(nodes)
    while len(nodes) > 1:
        top = depth[nodes].max()
        nodes = np.unique(np.where(depth[nodes] == top, parent[nodes], nodes))
    return int(nodes[0])


def columns(dataset_file, DGH_folder):
    header, data = read_dataset(dataset_file)
    hier = read_DGHs(DGH_folder)
    qis = [c for c in header if c in hier]
    return header, data, qis, {c: encode(hier[c]) for c in qis}


def cost_MD(raw_dataset_file, anonymized_dataset_file, DGH_folder):
    header, raw, qis, enc = columns(raw_dataset_file, DGH_folder)
    _, anon = read_dataset(anonymized_dataset_file)
    md = 0
    for c in qis:
        index, _, parent, depth, _ = enc[c]
        a = np.array([index[r[c]] for r in raw])
        b = np.array([index[r[c]] for r in anon])
        walk = a.copy()
        for _ in range(depth.max()):
            walk = np.where((walk != b) & (walk >= 0), parent[walk], walk)
        if (walk != b).any():
            bad = int(np.flatnonzero(walk != b)[0])
            raise ValueError(f"row {bad + 1} column {c}: not an ancestor")
        md += int((depth[a] - depth[b]).sum())
    return float(md)


def cost_LM(raw_dataset_file, anonymized_dataset_file, DGH_folder):
    header, raw, qis, enc = columns(raw_dataset_file, DGH_folder)
    _, anon = read_dataset(anonymized_dataset_file)
    lm = np.zeros(len(anon))
    for c in qis:
        index, _, _, _, leaves = enc[c]
        if leaves[0] > 1:
            lm += (leaves[[index[r[c]] for r in anon]] - 1) / (leaves[0] - 1)
    return float((lm / len(qis)).sum())


def generalize_all(codes, data, ecs, enc, qis):
    """Replace each group's cells by their common ancestors."""
    for ec in ecs:
        for j, c in enumerate(qis):
            _, labels, parent, depth, _ = enc[c]
            top = labels[lca_of(parent, depth, codes[ec, j])]
            for y in ec:
                data[y][c] = top


def clustering_anonymizer(raw_dataset_file, DGH_folder, k, output_file):
    header, data, qis, enc = columns(raw_dataset_file, DGH_folder)
    n = len(data)
    if n < k:
        raise ValueError("k exceeds the number of records")
    codes = np.array([[enc[c][0][r[c]] for c in qis] for r in data])
    total_h = sum(int(enc[c][3].max()) for c in qis)
    dist = np.zeros((n, n))
    for j, c in enumerate(qis):
        _, _, parent, depth, leaves = enc[c]
        for x in range(n):
            for y in range(x + 1, n):
                l = lca_of(parent, depth, [codes[x, j], codes[y, j]])
                term = (leaves[l] - 1) / max(leaves[0] - 1, 1) / len(qis)
                term += (depth[codes[x, j]] + depth[codes[y, j]] - 2 * depth[l]) / (2 * total_h)
                dist[x, y] += term
                dist[y, x] += term
    dist = np.round(dist, 9)
    open_rows = set(range(n))
    ecs, cents = [], []
    cur = 0
    while len(open_rows) >= k:
        open_rows.discard(cur)
        near = sorted(open_rows, key=lambda y: (dist[cur, y], y))[:k - 1]
        open_rows -= set(near)
        ecs.append([cur] + near)
        cents.append(cur)
        if len(open_rows) < k:
            break
        cur = min(open_rows, key=lambda y: (-dist[cents, y].sum(), y))
    for y in sorted(open_rows):
        ecs[int(np.argmin(dist[cents, y]))].append(y)
    generalize_all(codes, data, ecs, enc, qis)
    write_dataset(data, output_file, header, raw_dataset_file)
