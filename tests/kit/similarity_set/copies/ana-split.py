# Ana's solution: plain loops over dicts, helpers for tree queries.

def ancestors(dgh, value):
    """Path from value up to the root, value first."""
    path = [value]
    while dgh.parent[path[-1]] is not None:
        path.append(dgh.parent[path[-1]])
    return path


def lowest_common_ancestor(dgh, values):
    common = None
    for v in values:
        chain = ancestors(dgh, v)
        if common is None:
            common = chain
        else:
            keep = set(chain)
            common = [a for a in common if a in keep]
    return common[0]


def leaf_count(dgh, node):
    if not dgh.children[node]:
        return 1
    total = 0
    for child in dgh.children[node]:
        total += leaf_count(dgh, child)
    return total


def cost_MD(raw_dataset_file, anonymized_dataset_file, DGH_folder):
    header, raw = read_dataset(raw_dataset_file)
    _, anon = read_dataset(anonymized_dataset_file)
    DGHs = read_DGHs(DGH_folder)
    if len(raw) != len(anon):
        raise ValueError("row counts differ")
    total = 0
    for i in range(len(raw)):
        for column, dgh in DGHs.items():
            original = raw[i][column]
            generalized = anon[i][column]
            if generalized not in ancestors(dgh, original):
                raise ValueError(f"row {i + 1}, column {column}: bad cell")
            total += dgh.depth[original] - dgh.depth[generalized]
    return float(total)


def cost_LM(raw_dataset_file, anonymized_dataset_file, DGH_folder):
    header, raw = read_dataset(raw_dataset_file)
    _, anon = read_dataset(anonymized_dataset_file)
    DGHs = read_DGHs(DGH_folder)
    total = 0.0
    for i in range(len(anon)):
        row_cost = 0.0
        for column, dgh in DGHs.items():
            all_leaves = leaf_count(dgh, dgh.root)
            if all_leaves > 1:
                row_cost += (leaf_count(dgh, anon[i][column]) - 1) / (all_leaves - 1)
        total += row_cost / len(DGHs)
    return total


def record_distance(r1, r2, DGHs, total_height):
    lm = 0.0
    md = 0
    for column, dgh in DGHs.items():
        lca = lowest_common_ancestor(dgh, [r1[column], r2[column]])
        n = leaf_count(dgh, dgh.root)
        if n > 1:
            lm += (leaf_count(dgh, lca) - 1) / (n - 1)
        md += dgh.depth[r1[column]] + dgh.depth[r2[column]] - 2 * dgh.depth[lca]
    return lm / len(DGHs) + md / (2 * total_height)


def generalize_all(DGHs, clusters, raw):
    """Replace each group's cells by their common ancestors."""
    for members in clusters:
        for column, dgh in DGHs.items():
            lca = lowest_common_ancestor(dgh, [raw[j][column] for j in members])
            for j in members:
                raw[j][column] = lca


def clustering_anonymizer(raw_dataset_file, DGH_folder, k, output_file):
    header, raw = read_dataset(raw_dataset_file)
    DGHs = read_DGHs(DGH_folder)
    if len(raw) < k:
        raise ValueError("fewer rows than k")
    heights = 0
    for dgh in DGHs.values():
        heights += max(dgh.depth.values())
    unused = list(range(len(raw)))
    clusters = []
    centroids = []
    current = 0
    while len(unused) >= k:
        unused.remove(current)
        scored = sorted(unused, key=lambda j: (record_distance(raw[current], raw[j], DGHs, heights), j))
        members = [current] + scored[:k - 1]
        for j in members[1:]:
            unused.remove(j)
        clusters.append(members)
        centroids.append(current)
        if len(unused) < k:
            break
        best, best_sum = None, -1.0
        for j in unused:
            s = sum(record_distance(raw[c], raw[j], DGHs, heights) for c in centroids)
            if s > best_sum + 1e-9:
                best, best_sum = j, s
        current = best
    for j in unused:
        nearest = min(range(len(centroids)), key=lambda c: (record_distance(raw[centroids[c]], raw[j], DGHs, heights), c))
        clusters[nearest].append(j)
    generalize_all(DGHs, clusters, raw)
    write_dataset(raw, output_file, header, raw_dataset_file)
