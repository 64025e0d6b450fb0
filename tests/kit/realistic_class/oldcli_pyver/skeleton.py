##############################################################################
# k-anonymity homework skeleton (2023 version of the course)                 #
# Note: requires Python 3.5+                                                 #
##############################################################################

import csv
from enum import unique
import glob
import os
import sys
from copy import deepcopy
import numpy as np
import datetime
import time

if sys.version_info[0] < 3 or sys.version_info[1] < 5:
    sys.stdout.write("Requires Python 3.x.\n")
    sys.exit(1)


def read_dataset(dataset_file: str):
    """ Read a dataset into a list and return.

    Args:
        dataset_file (str): path to the dataset file.

    Returns:
        list[dict]: a list of dataset rows.
    """
    result = []
    with open(dataset_file, encoding="utf-8-sig", newline="") as f:
        records = csv.DictReader(f)
        for row in records:
            result.append(row)
    # print(result[0]['age']) # debug code
    return result


def write_dataset(dataset, dataset_file: str) -> bool:
    """ Writes a dataset to a csv file.

    Args:
        dataset: the data in list[dict] type
        dataset_file: str, path to the dataset file.

    Returns:
        bool: True if succeeds.
    """
    assert len(dataset) > 0, "The anonymized dataset is empty."
    keys = dataset[0].keys()
    with open(dataset_file, 'w', newline='', encoding="utf-8") as output_file:
        dict_writer = csv.DictWriter(output_file, keys)
        dict_writer.writeheader()
        dict_writer.writerows(dataset)
    return True


class Node:
    """A node of a domain generalization hierarchy."""

    def __init__(self, name, parent=None):
        self.name = name
        self.parent = parent
        self.children = []
        self.depth = 0 if parent is None else parent.depth + 1
        self.leafCount = 0

    def isLeaf(self):
        return len(self.children) == 0

    def __repr__(self):
        return f"Node({self.name}, depth={self.depth})"


class Tree:
    """A DGH: the root node and a lookup table name -> node."""

    def __init__(self, root):
        self.root = root
        self.nodes = {root.name: root}
        self.height = 0
        self.totalLeaves = 0

    def finish(self):
        """Compute leaf counts and height once the tree is built."""
        def countLeaves(node):
            if node.isLeaf():
                node.leafCount = 1
            else:
                node.leafCount = sum(countLeaves(c) for c in node.children)
            return node.leafCount
        self.totalLeaves = countLeaves(self.root)
        self.height = max(n.depth for n in self.nodes.values() if n.isLeaf())

    def get(self, name):
        return self.nodes[name]

    def lca(self, names):
        """Lowest common ancestor of a collection of labels."""
        names = list(set(names))
        node = self.nodes[names[0]]
        for other in names[1:]:
            node = self.commonAncestor(node, self.nodes[other])
        return node

    def commonAncestor(self, a, b):
        while a.depth > b.depth:
            a = a.parent
        while b.depth > a.depth:
            b = b.parent
        while a is not b:
            a = a.parent
            b = b.parent
        return a

    def up(self, name, steps):
        node = self.nodes[name]
        while steps > 0 and node.parent is not None:
            node = node.parent
            steps -= 1
        return node

    def lm(self, node):
        if self.totalLeaves <= 1:
            return 0.0
        return (node.leafCount - 1) / (self.totalLeaves - 1)


def read_DGH(DGH_file: str):
    """ Reads one DGH file and returns in desired format.

    Args:
        DGH_file (str): the path to DGH file.
    """
    tree = None
    stack = []
    with open(DGH_file, encoding="utf-8-sig") as f:
        for line in f:
            if not line.strip():
                continue
            label = line.lstrip("\t").rstrip()
            level = len(line) - len(line.lstrip("\t"))
            if tree is None:
                tree = Tree(Node(label))
                stack = [tree.root]
                continue
            stack = stack[:level]
            node = Node(label, stack[-1])
            stack[-1].children.append(node)
            tree.nodes[label] = node
            stack.append(node)
    tree.finish()
    return tree


def read_DGHs(DGH_folder: str) -> dict:
    """ Read all DGH files from a directory and put them into a dictionary.

    Args:
        DGH_folder (str): the path to the directory containing DGH files.

    Returns:
        dict: a dictionary where each key is attribute name and values
            are DGHs in your desired format.
    """
    DGHs = {}
    for DGH_file in os.listdir(DGH_folder):
        if not DGH_file.endswith(".txt"):
            continue
        attribute_name = DGH_file[:-4]
        DGHs[attribute_name] = read_DGH(os.path.join(DGH_folder, DGH_file))
    return DGHs


def quasiIdentifiers(dataset, DGHs):
    """QI columns in dataset order."""
    return [a for a in dataset[0].keys() if a in DGHs]


def sensitiveAttribute(dataset, DGHs):
    rest = [a for a in dataset[0].keys() if a not in DGHs]
    if len(rest) != 1:
        raise ValueError("there must be exactly one sensitive attribute")
    return rest[0]


def parseInterval(text):
    if not (text.startswith("[") and text.endswith("]")):
        return None
    body = text[1:-1]
    for pos in range(1, len(body)):
        if body[pos] == '-':
            try:
                return float(body[:pos]), float(body[pos + 1:])
            except ValueError:
                pass
    return None


def numberOrNone(text):
    try:
        value = float(text)
    except ValueError:
        return None
    if np.isfinite(value):
        return value
    return None


##############################################################################
# Mandatory Functions                                                        #
# You need to complete these functions without changing their parameters.   #
##############################################################################


def cellCosts(raw_dataset_file, anonymized_dataset_file, DGH_folder):
    """Yields (tree, raw node, generalized node or interval, column range, M) for every QI cell."""
    raw_dataset = read_dataset(raw_dataset_file)
    anonymized_dataset = read_dataset(anonymized_dataset_file)
    assert (len(raw_dataset) > 0 and len(raw_dataset) == len(anonymized_dataset)
            and len(raw_dataset[0]) == len(anonymized_dataset[0]))
    DGHs = read_DGHs(DGH_folder)
    qis = quasiIdentifiers(raw_dataset, DGHs)
    ranges = {}
    for a in qis:
        nums = [numberOrNone(r[a]) for r in raw_dataset]
        if None not in nums:
            ranges[a] = (min(nums), max(nums))
    result = []
    for raw, anon in zip(raw_dataset, anonymized_dataset):
        cells = []
        for a in qis:
            tree = DGHs[a]
            rawNode = tree.get(raw[a])
            if anon[a] in tree.nodes:
                cells.append((tree, rawNode, tree.get(anon[a]), None))
            else:
                lo, hi = parseInterval(anon[a])
                leaves = [n.name for n in tree.nodes.values()
                          if n.isLeaf() and numberOrNone(n.name) is not None
                          and lo <= float(n.name) <= hi]
                cells.append((tree, rawNode, tree.lca(leaves), (lo, hi, ranges[a])))
        result.append(cells)
    return result


def cost_MD(raw_dataset_file: str, anonymized_dataset_file: str,
            DGH_folder: str) -> float:
    """Calculate Distortion Metric (MD) cost between two datasets.

    Args:
        raw_dataset_file (str): the path to the raw dataset file.
        anonymized_dataset_file (str): the path to the anonymized dataset file.
        DGH_folder (str): the path to the DGH directory.

    Returns:
        float: the calculated cost.
    """
    total = 0
    for cells in cellCosts(raw_dataset_file, anonymized_dataset_file, DGH_folder):
        for tree, rawNode, genNode, interval in cells:
            total += rawNode.depth - genNode.depth
    return float(total)


def cost_LM(raw_dataset_file: str, anonymized_dataset_file: str,
            DGH_folder: str) -> float:
    """Calculate Loss Metric (LM) cost between two datasets.

    Args:
        raw_dataset_file (str): the path to the raw dataset file.
        anonymized_dataset_file (str): the path to the anonymized dataset file.
        DGH_folder (str): the path to the DGH directory.

    Returns:
        float: the calculated cost.
    """
    total = 0.0
    for cells in cellCosts(raw_dataset_file, anonymized_dataset_file, DGH_folder):
        recordCost = 0.0
        for tree, rawNode, genNode, interval in cells:
            if interval is None:
                recordCost += tree.lm(genNode)
            else:
                lo, hi, (L, U) = interval
                recordCost += (hi - lo) / (U - L) if U > L else 0.0
        total += recordCost / len(cells)
    return total


def generalizeCluster(cluster, qis, DGHs):
    """Replace the QI values of every record of the cluster with their LCA (in place)."""
    for a in qis:
        common = DGHs[a].lca([r[a] for r in cluster]).name
        for r in cluster:
            r[a] = common


def random_anonymizer(raw_dataset_file: str, DGH_folder: str, k: int,
                      s: int, output_file: str):
    """ K-anonymization a dataset, given a set of DGHs and a k-anonymity param.

    Args:
        raw_dataset_file (str): the path to the raw dataset file.
        DGH_folder (str): the path to the DGH directory.
        k (int): k-anonymity parameter.
        s (int): seed of the randomization function
        output_file (str): the path to the output dataset file.
    """
    raw_dataset = read_dataset(raw_dataset_file)
    DGHs = read_DGHs(DGH_folder)

    for i in range(len(raw_dataset)):  ##set indexing to not lose original places of records
        raw_dataset[i]['index'] = i

    raw_dataset = np.array(raw_dataset)
    np.random.seed(s)  ## to ensure consistency between runs
    np.random.shuffle(raw_dataset)  ##shuffle the dataset to randomize

    clusters = []

    D = len(raw_dataset)

    # TODO: START WRITING YOUR CODE HERE. Do not modify code in this function above this line.
    if D < k:
        raise ValueError("not enough records for k")
    qis = [a for a in raw_dataset[0].keys() if a in DGHs]
    numClusters = D // k
    for j in range(numClusters):
        if j < numClusters - 1:
            cluster = list(raw_dataset[j * k:(j + 1) * k])
        else:
            cluster = list(raw_dataset[j * k:])
        generalizeCluster(cluster, qis, DGHs)
        clusters.append(cluster)
    # END OF STUDENT'S CODE. Do not modify code in this function below this line.

    anonymized_dataset = [None] * D

    for cluster in clusters:  ##restructure according to previous indexes
        for item in cluster:
            anonymized_dataset[item['index']] = item
            del item['index']

    write_dataset(anonymized_dataset, output_file)


def recordDistance(r1, r2, qis, DGHs, totalHeight):
    lmDist = 0.0
    mdDist = 0
    for a in qis:
        tree = DGHs[a]
        n1 = tree.get(r1[a])
        n2 = tree.get(r2[a])
        g = tree.commonAncestor(n1, n2)
        lmDist += tree.lm(g)
        mdDist += (n1.depth - g.depth) + (n2.depth - g.depth)
    lmDist = lmDist / len(qis)
    if totalHeight == 0:
        return lmDist
    return lmDist + mdDist / (2 * totalHeight)


def clustering_anonymizer(raw_dataset_file: str, DGH_folder: str, k: int,
                          output_file: str):
    """ Clustering-based anonymization a dataset, given a set of DGHs.

    Args:
        raw_dataset_file (str): the path to the raw dataset file.
        DGH_folder (str): the path to the DGH directory.
        k (int): k-anonymity parameter.
        output_file (str): the path to the output dataset file.
    """
    raw_dataset = read_dataset(raw_dataset_file)
    DGHs = read_DGHs(DGH_folder)
    n = len(raw_dataset)
    if n < k:
        raise ValueError("k is larger than the dataset")
    qis = quasiIdentifiers(raw_dataset, DGHs)
    totalHeight = sum(DGHs[a].height for a in qis)

    # distances between two value-tuples are cached: adult has many duplicates
    cache = {}

    def dist(i, j):
        key1 = tuple(raw_dataset[i][a] for a in qis)
        key2 = tuple(raw_dataset[j][a] for a in qis)
        key = (key1, key2) if key1 <= key2 else (key2, key1)
        if key not in cache:
            cache[key] = recordDistance(raw_dataset[i], raw_dataset[j], qis, DGHs, totalHeight)
        return cache[key]

    unused = set(range(n))
    centroids = []
    clusters = []
    scoreToCentroids = np.zeros(n)
    curr = 0
    while len(unused) >= k:
        unused.discard(curr)
        ranked = sorted(unused, key=lambda j: (round(dist(curr, j), 9), j))
        members = [curr] + ranked[:k - 1]
        for j in members:
            unused.discard(j)
        clusters.append(members)
        centroids.append(curr)
        if not unused:
            break
        for j in unused:
            scoreToCentroids[j] += dist(curr, j)
        curr = max(sorted(unused), key=lambda j: round(scoreToCentroids[j], 9))

    for j in sorted(unused):
        distances = [round(dist(c, j), 9) for c in centroids]
        best = distances.index(min(distances))
        clusters[best].append(j)

    anonymized = [dict(r) for r in raw_dataset]
    for members in clusters:
        group = [anonymized[j] for j in members]
        generalizeCluster(group, qis, DGHs)
    write_dataset(anonymized, output_file)


class Lattice:
    """Full-domain generalization lattice shared by bottom-up and Samarati."""

    def __init__(self, dataset, DGHs):
        self.dataset = dataset
        self.qis = quasiIdentifiers(dataset, DGHs)
        self.DGHs = DGHs
        self.heights = [DGHs[a].height for a in self.qis]
        # upTable[i][s][value] -> generalized Node
        self.upTable = []
        for a, h in zip(self.qis, self.heights):
            values = set(r[a] for r in dataset)
            self.upTable.append([{v: DGHs[a].up(v, s) for v in values} for s in range(h + 1)])

    def nodesAtLevel(self, level, position=0):
        """Yield all vectors (tuples) of the given level, lexicographically."""
        if position == len(self.heights):
            if level == 0:
                yield ()
            return
        for s in range(min(level, self.heights[position]) + 1):
            for rest in self.nodesAtLevel(level - s, position + 1):
                yield (s,) + rest

    def apply(self, vector):
        out = []
        for r in self.dataset:
            out.append(tuple(self.upTable[i][s][r[a]]
                             for i, (a, s) in enumerate(zip(self.qis, vector))))
        return out

    def classes(self, generalized):
        groups = {}
        for idx, key in enumerate(generalized):
            groups.setdefault(tuple(n.name for n in key), []).append(idx)
        return groups

    def cost(self, generalized, suppressed=frozenset()):
        total = 0.0
        for idx, key in enumerate(generalized):
            if idx in suppressed:
                c = sum(self.DGHs[a].lm(self.DGHs[a].root) for a in self.qis)
            else:
                c = sum(self.DGHs[a].lm(node) for a, node in zip(self.qis, key))
            total += c / len(self.qis)
        return total

    def output(self, generalized, suppressed=frozenset()):
        result = []
        for idx, (r, key) in enumerate(zip(self.dataset, generalized)):
            row = dict(r)
            for a, node in zip(self.qis, key):
                row[a] = self.DGHs[a].root.name if idx in suppressed else node.name
            result.append(row)
        return result


def bottomup_anonymizer(raw_dataset_file: str, DGH_folder: str, k: int,
                        l: int, output_file: str):
    """ Bottom up-based anonymization a dataset, given a set of DGHs.

    Args:
        raw_dataset_file (str): the path to the raw dataset file.
        DGH_folder (str): the path to the DGH directory.
        k (int): k-anonymity parameter.
        l (int): l-diversity parameter.
        output_file (str): the path to the output dataset file.
    """
    if k < 1 or l < 1:
        raise ValueError("k and l must be positive")
    raw_dataset = read_dataset(raw_dataset_file)
    DGHs = read_DGHs(DGH_folder)
    sensitive = sensitiveAttribute(raw_dataset, DGHs)
    lattice = Lattice(raw_dataset, DGHs)

    for level in range(sum(lattice.heights) + 1):
        candidates = []
        for vector in lattice.nodesAtLevel(level):
            generalized = lattice.apply(vector)
            good = True
            for members in lattice.classes(generalized).values():
                if len(members) < k or len({raw_dataset[m][sensitive] for m in members}) < l:
                    good = False
                    break
            if good:
                candidates.append((round(lattice.cost(generalized), 9), vector, generalized))
        if candidates:
            candidates.sort(key=lambda c: (c[0], c[1]))
            write_dataset(lattice.output(candidates[0][2]), output_file)
            return
    raise ValueError("even the most general node is not k-anonymous and l-diverse")


def samarati(raw_dataset_file: str, DGH_folder: str, k: int,
             max_sup: int, output_file: str):
    """ Samarati anonymization of a dataset, with suppression of at most max_sup rows.

    Args:
        raw_dataset_file (str): the path to the raw dataset file.
        DGH_folder (str): the path to the DGH directory.
        k (int): k-anonymity parameter.
        max_sup (int): the maximum number of suppressed records.
        output_file (str): the path to the output dataset file.
    """
    if k < 1 or max_sup < 0:
        raise ValueError("bad k or max_sup")
    raw_dataset = read_dataset(raw_dataset_file)
    DGHs = read_DGHs(DGH_folder)
    lattice = Lattice(raw_dataset, DGHs)

    def outliers(generalized):
        out = set()
        for members in lattice.classes(generalized).values():
            if len(members) < k:
                out.update(members)
        return out

    def satisfies(vector):
        return len(outliers(lattice.apply(vector))) <= max_sup

    low, high = 0, sum(lattice.heights)
    while low < high:
        tryHeight = (low + high) // 2
        if any(satisfies(v) for v in lattice.nodesAtLevel(tryHeight)):
            high = tryHeight
        else:
            low = tryHeight + 1

    best = None
    for vector in lattice.nodesAtLevel(low):
        generalized = lattice.apply(vector)
        sup = outliers(generalized)
        if len(sup) > max_sup:
            continue
        c = round(lattice.cost(generalized, sup), 9)
        if best is None or c < best[0]:
            best = (c, vector, generalized, sup)
    if best is None:
        raise ValueError("no node satisfies k with max_sup suppressions")
    write_dataset(lattice.output(best[2], best[3]), output_file)


def mondrian(raw_dataset_file: str, DGH_folder: str, k: int, output_file: str):
    """ Mondrian (strict multidimensional) anonymization.

    Args:
        raw_dataset_file (str): the path to the raw dataset file.
        DGH_folder (str): the path to the DGH directory.
        k (int): k-anonymity parameter.
        output_file (str): the path to the output dataset file.
    """
    raw_dataset = read_dataset(raw_dataset_file)
    DGHs = read_DGHs(DGH_folder)
    n = len(raw_dataset)
    if n < k:
        raise ValueError("k larger than the number of rows")
    qis = quasiIdentifiers(raw_dataset, DGHs)

    numeric = {}
    for a in qis:
        nums = [numberOrNone(r[a]) for r in raw_dataset]
        if None in nums:
            continue
        byNumber = {}
        ok = True
        for r, x in zip(raw_dataset, nums):
            if byNumber.setdefault(x, r[a]) != r[a]:
                ok = False
        if ok:
            numeric[a] = (min(nums), max(nums))

    def widthOf(part, a):
        if a in numeric:
            L, U = numeric[a]
            if U == L:
                return 0.0
            xs = [float(raw_dataset[i][a]) for i in part]
            return (max(xs) - min(xs)) / (U - L)
        tree = DGHs[a]
        return tree.lm(tree.lca([raw_dataset[i][a] for i in part]))

    def cut(part, a):
        if a in numeric:
            xs = sorted(float(raw_dataset[i][a]) for i in part)
            median = xs[(len(xs) - 1) // 2]
            left = [i for i in part if float(raw_dataset[i][a]) <= median]
            right = [i for i in part if float(raw_dataset[i][a]) > median]
            return [left, right] if len(left) >= k and len(right) >= k else None
        tree = DGHs[a]
        top = tree.lca([raw_dataset[i][a] for i in part])
        groups = {}
        for i in part:
            node = tree.get(raw_dataset[i][a])
            if node is top:
                return None
            while node.parent is not top:
                node = node.parent
            groups.setdefault(node.name, []).append(i)
        if all(len(g) >= k for g in groups.values()):
            return list(groups.values())
        return None

    anonymized = [dict(r) for r in raw_dataset]

    def anonymize(part):
        widths = [(round(widthOf(part, a), 9), pos, a) for pos, a in enumerate(qis)]
        order = sorted([w for w in widths if w[0] > 0], key=lambda w: (-w[0], w[1]))
        for _, _, a in order:
            pieces = cut(part, a)
            if pieces:
                for p in pieces:
                    anonymize(p)
                return
        # no allowed cut: this partition is final
        for a in qis:
            if a in numeric:
                lowIdx = min(part, key=lambda i: float(raw_dataset[i][a]))
                highIdx = max(part, key=lambda i: float(raw_dataset[i][a]))
                lo, hi = raw_dataset[lowIdx][a], raw_dataset[highIdx][a]
                cell = lo if float(lo) == float(hi) else "[" + lo + "-" + hi + "]"
            else:
                cell = DGHs[a].lca([raw_dataset[i][a] for i in part]).name
            for i in part:
                anonymized[i][a] = cell

    sys.setrecursionlimit(10000)
    anonymize(list(range(n)))
    write_dataset(anonymized, output_file)


# Command line argument handling and calling of respective anonymizer:
if len(sys.argv) < 6:
    print(f"Usage: python3 {sys.argv[0]} algorithm DGH-folder raw-dataset.csv anonymized.csv k")
    print(f"\tWhere algorithm is one of [clustering, random, bottomup, samarati, mondrian]")
    sys.exit(1)

algorithm = sys.argv[1]
if algorithm not in ['clustering', 'random', 'bottomup', 'samarati', 'mondrian']:
    print("Invalid algorithm.")
    sys.exit(2)

start_time = datetime.datetime.now() ##
print(start_time) ##

dgh_path = sys.argv[2]
raw_file = sys.argv[3]
anonymized_file = sys.argv[4]
k = int(sys.argv[5])

if algorithm in ['samarati', 'mondrian']:
    function = eval(algorithm)
else:
    function = eval(f"{algorithm}_anonymizer")
if function == random_anonymizer or function == bottomup_anonymizer or function == samarati:
    if len(sys.argv) < 7:
        print(f"Usage: python3 {sys.argv[0]} algorithm DGH-folder raw-dataset.csv anonymized.csv k seed/l/max_sup")
        sys.exit(1)
    extra = int(sys.argv[6])
    function(raw_file, dgh_path, k, extra, anonymized_file)
else:
    function(raw_file, dgh_path, k, anonymized_file)

cost_md = cost_MD(raw_file, anonymized_file, dgh_path)
cost_lm = cost_LM(raw_file, anonymized_file, dgh_path)
print (f"Results of {k}-anonimity:\n\tCost_MD: {cost_md}\n\tCost_LM: {cost_lm}\n")

end_time = datetime.datetime.now() ##
print(end_time) ##
print(end_time - start_time)  ##

# Sample usage:
# python3 code.py clustering DGHs/ adult-hw1.csv result.csv 300

