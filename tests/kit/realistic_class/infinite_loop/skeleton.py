"""k-anonymity homework: your solution goes in this file.

Read HANDOUT.md first: it gives the exact rules, tie-breaks and worked examples of the seven
graded functions below. Fill in every function that raises NotImplementedError (and the middle
of random_anonymizer). You may add helper functions and change the helpers given here, but keep
the seven signatures exactly as they are. Only the Python standard library and numpy are
available to the grader.

Run one algorithm from the command line:

    python skeleton.py <algorithm> <DGH-folder> <raw.csv> <out.csv> <k> [s | l | max_sup]

where <algorithm> is one of random, clustering, bottomup, samarati, mondrian. Check yourself
with `pytest` (see HANDOUT.md, "Checking your work").

Importing this file must have no side effects: keep experiments under
`if __name__ == "__main__":`.
"""
from __future__ import annotations

import csv
import heapq
import os
import sys
import tempfile
import time
from collections import Counter

import numpy as np

##############################################################################
# Helper functions                                                           #
# They read and write the files exactly as HANDOUT.md says. You may use,     #
# change or replace them.                                                    #
##############################################################################

ROW_INDEX = "#row"
"""Key under which random_anonymizer tags each record with its row index (0-based)."""


def read_dataset(dataset_file: str) -> tuple[list[str], list[dict[str, str]]]:
    """Read a CSV dataset: returns (header, rows), each row a dict column -> cell string.

    UTF-8 (a BOM is tolerated), default CSV dialect, blank lines ignored, cells kept exactly
    (only a trailing carriage return is dropped). Raises FileNotFoundError for a missing file and
    ValueError naming the file and row for a duplicated column name or a row of the wrong length.
    """
    if not os.path.isfile(dataset_file):
        raise FileNotFoundError(f"dataset file not found: {dataset_file}")
    with open(dataset_file, encoding="utf-8-sig", newline="") as f:
        records = [[cell.rstrip("\r") for cell in record] for record in csv.reader(f)]
    records = [record for record in records if record]  # blank lines are ignored
    if not records:
        raise ValueError(f"{dataset_file}: the file is empty; the first row must name the columns")
    header = records[0]
    if len(set(header)) != len(header):
        raise ValueError(f"{dataset_file}: a column name appears twice in the header {header}")
    rows = []
    for number, record in enumerate(records[1:], start=1):
        if len(record) != len(header):
            raise ValueError(f"{dataset_file}: data row {number} has {len(record)} cells, "
                             f"the header has {len(header)} columns")
        rows.append(dict(zip(header, record)))
    return header, rows


def write_dataset(dataset: list[dict[str, str]], dataset_file: str, header: list[str],
                  raw_dataset_file: str | None = None) -> None:
    """Write rows (dicts) under `header` with csv.writer (minimal quoting, LF line endings).

    The rows go to a temporary file in the same folder that is renamed over `dataset_file` at
    the end, so a half-written output never exists. Refuses (ValueError) to overwrite
    `raw_dataset_file`.
    """
    if raw_dataset_file is not None and (
            os.path.abspath(dataset_file) == os.path.abspath(raw_dataset_file)
            or (os.path.exists(dataset_file) and os.path.exists(raw_dataset_file)
                and os.path.samefile(dataset_file, raw_dataset_file))):
        raise ValueError(f"output file {dataset_file} is the raw dataset itself; "
                         f"choose another output file")
    folder = os.path.dirname(os.path.abspath(dataset_file))
    fd, tmp = tempfile.mkstemp(prefix=".anon-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            writer = csv.writer(f, lineterminator="\n")
            writer.writerow(header)
            for row in dataset:
                writer.writerow([row[column] for column in header])
        os.replace(tmp, dataset_file)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


class DGH:
    """One domain generalization hierarchy, as read from `<column>.txt`.

    Attributes: `root` (the root label), `parent` (label -> parent label, None for the root),
    `children` (label -> list of child labels, in file order) and `depth` (label -> edges from
    the root). Tree queries (leaves, LCA, up, height, ...) are yours to write.
    """

    def __init__(self, root: str):
        self.root = root
        self.parent: dict[str, str | None] = {root: None}
        self.children: dict[str, list[str]] = {root: []}
        self.depth: dict[str, int] = {root: 0}

    def add(self, label: str, parent: str) -> None:
        self.parent[label] = parent
        self.children[label] = []
        self.children[parent].append(label)
        self.depth[label] = self.depth[parent] + 1


def read_DGH(DGH_file: str) -> DGH:
    """Read one hierarchy: one node per line, depth = number of leading tabs, the first
    non-blank line is the root, blank lines ignored, labels unique. A malformed file is a
    ValueError naming the file and the line number."""
    with open(DGH_file, encoding="utf-8-sig", newline="") as f:
        lines = f.read().splitlines()
    dgh: DGH | None = None
    stack: list[str] = []  # stack[d] = the last label seen at depth d
    for line_no, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        stripped = line.lstrip("\t")
        depth = len(line) - len(stripped)
        label = stripped.rstrip()
        where = f"{DGH_file}, line {line_no}"
        if dgh is None:
            if depth != 0:
                raise ValueError(f"{where}: the root must not be indented")
            dgh, stack = DGH(label), [label]
            continue
        if depth == 0:
            raise ValueError(f"{where}: {label!r} is a second root")
        if depth > len(stack):
            raise ValueError(f"{where}: {label!r} is more than one tab deeper than the line "
                             f"before it")
        if label in dgh.parent:
            raise ValueError(f"{where}: label {label!r} is repeated")
        del stack[depth:]
        dgh.add(label, stack[-1])
        stack.append(label)
    if dgh is None:
        raise ValueError(f"{DGH_file}: the hierarchy file is empty")
    return dgh


def read_DGHs(DGH_folder: str) -> dict[str, DGH]:
    """Read every `<column>.txt` of a folder into a dict column name -> DGH."""
    if not os.path.isdir(DGH_folder):
        raise FileNotFoundError(f"DGH folder not found: {DGH_folder}")
    DGHs = {}
    for entry in sorted(os.listdir(DGH_folder)):
        path = os.path.join(DGH_folder, entry)
        if entry.endswith(".txt") and not entry.startswith(".") and os.path.isfile(path):
            DGHs[entry[:-4]] = read_DGH(path)
    return DGHs


##############################################################################
# My helper functions for the hierarchies                                     #
##############################################################################


def get_qi_columns(header, DGHs):
    """The quasi-identifiers: the columns that have a DGH file, in dataset order."""
    return [column for column in header if column in DGHs]


def get_sensitive_column(header, DGHs):
    others = [column for column in header if column not in DGHs]
    if len(others) != 1:
        raise ValueError(f"need exactly one sensitive column, found {others}")
    return others[0]


def is_leaf(dgh, label):
    return len(dgh.children[label]) == 0


def count_leaves(dgh, label):
    """Number of leaves under label (a leaf counts itself)."""
    if is_leaf(dgh, label):
        return 1
    total = 0
    for child in dgh.children[label]:
        total += count_leaves(dgh, child)
    return total


def all_leaf_counts(dgh):
    counts = {}
    for label in dgh.parent:
        counts[label] = count_leaves(dgh, label)
    return counts


def tree_height(dgh):
    height = 0
    for label in dgh.parent:
        if is_leaf(dgh, label) and dgh.depth[label] > height:
            height = dgh.depth[label]
    return height


def path_to_root(dgh, label):
    """[label, parent, grandparent, ..., root]"""
    path = []
    while label is not None:
        path.append(label)
        label = dgh.parent[label]
    return path


def lca_of_two(dgh, a, b):
    ancestors_a = set(path_to_root(dgh, a))
    while b not in ancestors_a:
        b = dgh.parent[b]
    return b


def lca_of_list(dgh, values):
    result = values[0]
    for value in values[1:]:
        if value != result:
            result = lca_of_two(dgh, result, value)
    return result


def generalize_up(dgh, label, steps):
    """The ancestor `steps` levels above label (stops at the root)."""
    for _ in range(steps):
        if dgh.parent[label] is None:
            break
        label = dgh.parent[label]
    return label


def lm_of_node(dgh, label, leaf_counts, total_leaves):
    if total_leaves == 1:
        return 0.0
    return (leaf_counts[label] - 1) / (total_leaves - 1)


def check_raw_values(rows, qi_columns, DGHs):
    for column in qi_columns:
        for row in rows:
            if row[column] not in DGHs[column].parent:
                raise ValueError(f"value {row[column]!r} of column {column} is not in its DGH")


def parse_interval(cell):
    """'[lo-hi]' -> (lo, hi) as floats, or None if the cell is not an interval."""
    if len(cell) < 5 or cell[0] != "[" or cell[-1] != "]":
        return None
    inside = cell[1:-1]
    for i in range(1, len(inside)):
        if inside[i] == "-":
            try:
                return float(inside[:i]), float(inside[i + 1:])
            except ValueError:
                continue
    return None


def to_number(text):
    try:
        x = float(text)
    except ValueError:
        return None
    if x != x or x in (float("inf"), float("-inf")):
        return None
    return x


def is_numeric_column(rows, column):
    seen = {}
    for row in rows:
        x = to_number(row[column])
        if x is None:
            return False
        if x in seen and seen[x] != row[column]:
            return False
        seen[x] = row[column]
    return True


def leaves_in_interval(dgh, lo, hi):
    found = []
    for label in dgh.parent:
        if is_leaf(dgh, label):
            x = to_number(label)
            if x is not None and lo <= x <= hi:
                found.append(label)
    return found


def check_same_shape(raw_header, raw_rows, anon_header, anon_rows):
    if raw_header != anon_header:
        raise ValueError("the raw and anonymized files have different headers")
    if len(raw_rows) != len(anon_rows):
        raise ValueError("the raw and anonymized files have a different number of rows")


##############################################################################
# Graded functions                                                           #
# Keep these signatures exactly. HANDOUT.md gives the full rules.            #
##############################################################################


def cost_MD(raw_dataset_file: str, anonymized_dataset_file: str,
            DGH_folder: str) -> float:
    """Distortion metric (MD) of an anonymized dataset."""
    raw_header, raw_rows = read_dataset(raw_dataset_file)
    anon_header, anon_rows = read_dataset(anonymized_dataset_file)
    DGHs = read_DGHs(DGH_folder)
    check_same_shape(raw_header, raw_rows, anon_header, anon_rows)
    qi_columns = get_qi_columns(raw_header, DGHs)

    total = 0
    for row_number in range(len(raw_rows)):
        for column in qi_columns:
            dgh = DGHs[column]
            raw_value = raw_rows[row_number][column]
            gen_value = anon_rows[row_number][column]
            if gen_value in dgh.parent:
                if gen_value not in path_to_root(dgh, raw_value):
                    raise ValueError(f"row {row_number + 1}, column {column}: {gen_value!r} "
                                     f"does not generalize {raw_value!r}")
                gen_node = gen_value
            else:
                interval = parse_interval(gen_value)
                if interval is None:
                    raise ValueError(f"row {row_number + 1}, column {column}: bad cell "
                                     f"{gen_value!r}")
                lo, hi = interval
                leaves = leaves_in_interval(dgh, lo, hi)
                gen_node = lca_of_list(dgh, leaves)
            total += dgh.depth[raw_value] - dgh.depth[gen_node]
    return float(total)


def cost_LM(raw_dataset_file: str, anonymized_dataset_file: str,
            DGH_folder: str) -> float:
    """Loss metric (LM) of an anonymized dataset (sum over the records)."""
    raw_header, raw_rows = read_dataset(raw_dataset_file)
    anon_header, anon_rows = read_dataset(anonymized_dataset_file)
    DGHs = read_DGHs(DGH_folder)
    check_same_shape(raw_header, raw_rows, anon_header, anon_rows)
    qi_columns = get_qi_columns(raw_header, DGHs)
    M = len(qi_columns)

    leaf_counts = {}
    total_leaves = {}
    ranges = {}
    for column in qi_columns:
        leaf_counts[column] = all_leaf_counts(DGHs[column])
        total_leaves[column] = leaf_counts[column][DGHs[column].root]
        numbers = [to_number(row[column]) for row in raw_rows]
        if None not in numbers:
            ranges[column] = (min(numbers), max(numbers))

    total = 0.0
    for row_number in range(len(raw_rows)):
        record_cost = 0.0
        for column in qi_columns:
            dgh = DGHs[column]
            raw_value = raw_rows[row_number][column]
            gen_value = anon_rows[row_number][column]
            if gen_value in dgh.parent:
                if gen_value not in path_to_root(dgh, raw_value):
                    raise ValueError(f"row {row_number + 1}, column {column}: {gen_value!r} "
                                     f"does not generalize {raw_value!r}")
                record_cost += lm_of_node(dgh, gen_value, leaf_counts[column],
                                          total_leaves[column])
            else:
                interval = parse_interval(gen_value)
                if interval is None or column not in ranges:
                    raise ValueError(f"row {row_number + 1}, column {column}: bad cell "
                                     f"{gen_value!r}")
                lo, hi = interval
                L, U = ranges[column]
                if U > L:
                    record_cost += (hi - lo) / (U - L)
        total += record_cost / M
    return total


def random_anonymizer(raw_dataset_file: str, DGH_folder: str, k: int,
                      s: int, output_file: str):
    """Random k-anonymization with seed s, written to output_file."""
    header, raw_dataset = read_dataset(raw_dataset_file)
    DGHs = read_DGHs(DGH_folder)

    for i in range(len(raw_dataset)):  # tag each record with its row index
        raw_dataset[i][ROW_INDEX] = i

    raw_dataset = np.array(raw_dataset)
    np.random.seed(s)  # the same seed gives the same shuffle on every run
    np.random.shuffle(raw_dataset)

    clusters: list[list[dict]] = []
    D = len(raw_dataset)

    # TODO: START WRITING YOUR CODE HERE. Do not modify the code of this function above this line.
    if D < k:
        raise ValueError(f"k = {k} is larger than the number of records ({D})")
    qi_columns = get_qi_columns(header, DGHs)
    number_of_ecs = D // k
    for j in range(number_of_ecs):
        start = j * k
        if j == number_of_ecs - 1:
            end = D  # the last EC takes everything that is left
        else:
            end = (j + 1) * k
        cluster = [raw_dataset[i] for i in range(start, end)]
        for column in qi_columns:
            values = [record[column] for record in cluster]
            generalized = lca_of_list(DGHs[column], values)
            for record in cluster:
                record[column] = generalized
        clusters.append(cluster)
    # END OF YOUR CODE. Do not modify the code of this function below this line.

    anonymized_dataset: list[dict | None] = [None] * D
    for cluster in clusters:  # put every record back at its original row
        for item in cluster:
            anonymized_dataset[item[ROW_INDEX]] = item
            del item[ROW_INDEX]
    missing = [i + 1 for i, row in enumerate(anonymized_dataset) if row is None]
    if missing:
        raise ValueError(f"random_anonymizer: the clusters miss data row {missing[0]} "
                         f"({len(missing)} rows missing)")

    write_dataset(anonymized_dataset, output_file, header, raw_dataset_file)


def generalize_group(rows, indices, qi_columns, DGHs, out_rows):
    """Write the LCA of each QI over rows[indices] into out_rows[indices]."""
    for column in qi_columns:
        values = [rows[i][column] for i in indices]
        generalized = lca_of_list(DGHs[column], values)
        for i in indices:
            out_rows[i][column] = generalized


def clustering_anonymizer(raw_dataset_file: str, DGH_folder: str, k: int,
                          output_file: str):
    """Greedy clustering k-anonymization, written to output_file."""
    header, rows = read_dataset(raw_dataset_file)
    DGHs = read_DGHs(DGH_folder)
    qi_columns = get_qi_columns(header, DGHs)
    check_raw_values(rows, qi_columns, DGHs)
    n = len(rows)
    if n < k:
        raise ValueError(f"k = {k} is larger than the number of records ({n})")
    M = len(qi_columns)

    leaf_counts = {c: all_leaf_counts(DGHs[c]) for c in qi_columns}
    total_leaves = {c: leaf_counts[c][DGHs[c].root] for c in qi_columns}
    sum_heights = sum(tree_height(DGHs[c]) for c in qi_columns)

    # the QI values of every record, as a list (faster than the dicts)
    values = [[row[c] for c in qi_columns] for row in rows]

    # pair_cost[j][a][b]: what column j adds to dist() for the values a and b
    # = LM(lca) / M + (levels a and b climb) / (2 * sum of heights)
    pair_cost = []
    for c in qi_columns:
        dgh = DGHs[c]
        column_values = set(row[c] for row in rows)
        table = {}
        for a in column_values:
            table[a] = {}
            for b in column_values:
                g = lca_of_two(dgh, a, b)
                cost = lm_of_node(dgh, g, leaf_counts[c], total_leaves[c]) / M
                if sum_heights > 0:
                    climbed = (dgh.depth[a] - dgh.depth[g]) + (dgh.depth[b] - dgh.depth[g])
                    cost += climbed / (2 * sum_heights)
                table[a][b] = cost
        pair_cost.append(table)

    def dist(x, y):
        total = 0.0
        for j in range(M):
            total += pair_cost[j][x[j]][y[j]]
        return total

    used = [False] * n
    unused = list(range(n))  # kept in row order
    centroids = []       # row index of each EC's centroid
    clusters = []        # list of lists of row indices
    sum_to_centroids = [0.0] * n
    curr = 0
    while len(unused) >= k:
        # the row of each column's table for curr's value, then one sum per unused record
        curr_tables = [pair_cost[j][values[curr][j]] for j in range(M)]
        distances = []
        for i in unused:
            if i != curr:
                d = 0.0
                for table, value in zip(curr_tables, values[i]):
                    d += table[value]
                distances.append((round(d, 9), i, d))
        nearest = heapq.nsmallest(k - 1, distances)  # ties: lowest row index
        members = [curr] + [i for _, i, _ in nearest]
        for i in members:
            used[i] = True
        clusters.append(members)
        centroids.append(curr)
        unused = [i for i in unused if not used[i]]
        if not unused:
            break
        # curr is now a centroid: add its distance to every unused record's sum
        for _, i, d in distances:
            if not used[i]:
                sum_to_centroids[i] += d
        best = unused[0]
        best_sum = round(sum_to_centroids[best], 9)
        for i in unused:
            total = round(sum_to_centroids[i], 9)
            if total > best_sum:  # strictly larger: ties keep the lowest row index
                best = i
                best_sum = total
        curr = best

    # leftovers join the EC of their nearest centroid (ties: the earliest EC)
    for i in unused:
        best_ec = 0
        best_d = None
        for ec_number, centroid in enumerate(centroids):
            d = round(dist(values[centroid], values[i]), 9)
            if best_d is None or d < best_d:
                best_d = d
                best_ec = ec_number
        clusters[best_ec].append(i)

    out_rows = [dict(row) for row in rows]
    for members in clusters:
        generalize_group(rows, members, qi_columns, DGHs, out_rows)
    write_dataset(out_rows, output_file, header, raw_dataset_file)


def all_nodes_at_level(heights, level):
    """Every lattice vector with the given level, in lexicographic order."""
    nodes = []

    def build(prefix, position, remaining):
        if position == len(heights):
            if remaining == 0:
                nodes.append(tuple(prefix))
            return
        for s in range(0, min(heights[position], remaining) + 1):
            build(prefix + [s], position + 1, remaining - s)

    build([], 0, level)
    return nodes


class Lattice:
    """Pre-computed generalizations of every column at every level.

    columns[i][s] is the list of the n generalized values of QI i at level s (row order), and
    column_lm[i][s] the sum of their LM costs, so that a node only has to zip columns together.
    """

    def __init__(self, rows, qi_columns, DGHs):
        self.rows = rows
        self.qi_columns = qi_columns
        self.DGHs = DGHs
        self.M = len(qi_columns)
        self.heights = [tree_height(DGHs[c]) for c in qi_columns]
        self.roots = [DGHs[c].root for c in qi_columns]
        self.lm = []          # lm[i][label] = LM cost of the label
        self.columns = []
        self.column_lm = []
        for i, c in enumerate(qi_columns):
            dgh = DGHs[c]
            counts = all_leaf_counts(dgh)
            total = counts[dgh.root]
            lm = {label: lm_of_node(dgh, label, counts, total) for label in dgh.parent}
            self.lm.append(lm)
            per_level = []
            per_level_lm = []
            for s in range(self.heights[i] + 1):
                up_value = {}
                column = []
                for row in rows:
                    value = row[c]
                    if value not in up_value:
                        up_value[value] = generalize_up(dgh, value, s)
                    column.append(up_value[value])
                per_level.append(column)
                per_level_lm.append(sum(lm[label] for label in column))
            self.columns.append(per_level)
            self.column_lm.append(per_level_lm)

    def generalize(self, node):
        """The generalized QI tuple of every row."""
        return list(zip(*[self.columns[i][node[i]] for i in range(self.M)]))

    def ec_sizes(self, generalized):
        """EC (generalized QI tuple) -> number of rows."""
        return Counter(generalized)

    def lm_cost(self, node, generalized, suppressed=()):
        """cost_LM of the node's output: the sum over records of the mean of their cells."""
        total = 0.0
        for i in range(self.M):
            total += self.column_lm[i][node[i]]
        for index in suppressed:  # a suppressed row costs its roots instead
            for i in range(self.M):
                total += self.lm[i][self.roots[i]] - self.lm[i][generalized[index][i]]
        return total / self.M

    def write(self, generalized, header, output_file, raw_dataset_file, suppressed=()):
        out_rows = []
        for index, row in enumerate(self.rows):
            new_row = dict(row)
            for i, c in enumerate(self.qi_columns):
                if index in suppressed:
                    new_row[c] = self.roots[i]
                else:
                    new_row[c] = generalized[index][i]
            out_rows.append(new_row)
        write_dataset(out_rows, output_file, header, raw_dataset_file)


def bottomup_anonymizer(raw_dataset_file: str, DGH_folder: str, k: int,
                        l: int, output_file: str):
    """Bottom-up lattice search for k-anonymity and l-diversity, written to output_file."""
    if k < 1 or l < 1:
        raise ValueError("k and l must be at least 1")
    header, rows = read_dataset(raw_dataset_file)
    DGHs = read_DGHs(DGH_folder)
    qi_columns = get_qi_columns(header, DGHs)
    sensitive = get_sensitive_column(header, DGHs)
    check_raw_values(rows, qi_columns, DGHs)
    lattice = Lattice(rows, qi_columns, DGHs)
    sensitive_values = [row[sensitive] for row in rows]

    for level in range(sum(lattice.heights) + 1):
        best_node = None
        best_cost = None
        best_generalized = None
        for node in all_nodes_at_level(lattice.heights, level):
            generalized = lattice.generalize(node)
            sizes = lattice.ec_sizes(generalized)
            if min(sizes.values()) < k:
                continue
            if l > 1:
                # number of distinct sensitive values of each EC
                distinct = Counter(key for key, value in set(zip(generalized, sensitive_values)))
                if min(distinct.values()) < l:
                    continue
            cost = lattice.lm_cost(node, generalized)
            # nodes come in lexicographic order, so only a clearly lower cost wins
            if best_cost is None or cost < best_cost - 1e-9:
                best_node, best_cost, best_generalized = node, cost, generalized
        if best_node is not None:
            lattice.write(best_generalized, header, output_file, raw_dataset_file)
            return
    raise ValueError(f"no generalization is {k}-anonymous and {l}-diverse, not even the top")


def samarati(raw_dataset_file: str, DGH_folder: str, k: int,
             max_sup: int, output_file: str):
    """Samarati's binary search over lattice heights with suppression."""
    if k < 1 or max_sup < 0:
        raise ValueError("k must be at least 1 and max_sup at least 0")
    header, rows = read_dataset(raw_dataset_file)
    DGHs = read_DGHs(DGH_folder)
    qi_columns = get_qi_columns(header, DGHs)
    check_raw_values(rows, qi_columns, DGHs)
    lattice = Lattice(rows, qi_columns, DGHs)

    def outliers_of(generalized):
        sizes = lattice.ec_sizes(generalized)
        return [index for index, key in enumerate(generalized) if sizes[key] < k]

    def height_has_solution(height):
        for node in all_nodes_at_level(lattice.heights, height):
            if len(outliers_of(lattice.generalize(node))) <= max_sup:
                return True
        return False

    low = 0
    high = sum(lattice.heights)
    while low < high:
        middle = (low + high) // 2
        if height_has_solution(middle):
            high = middle
        else:
            low = middle + 1

    best = None
    for node in all_nodes_at_level(lattice.heights, low):
        generalized = lattice.generalize(node)
        outliers = outliers_of(generalized)
        if len(outliers) > max_sup:
            continue
        cost = lattice.lm_cost(node, generalized, outliers)
        if best is None or cost < best[0] - 1e-9:
            best = (cost, generalized, set(outliers))
    if best is None:
        raise ValueError(f"no generalization satisfies k = {k} with at most {max_sup} "
                         f"suppressed rows")
    lattice.write(best[1], header, output_file, raw_dataset_file, best[2])


def mondrian(raw_dataset_file: str, DGH_folder: str, k: int, output_file: str):
    """Strict multidimensional Mondrian partitioning, written to output_file."""
    header, rows = read_dataset(raw_dataset_file)
    DGHs = read_DGHs(DGH_folder)
    qi_columns = get_qi_columns(header, DGHs)
    n = len(rows)
    if n < k:
        raise ValueError(f"k = {k} is larger than the number of records ({n})")

    numeric = {}
    for c in qi_columns:
        numeric[c] = is_numeric_column(rows, c)
    if not all(numeric.values()):
        check_raw_values(rows, [c for c in qi_columns if not numeric[c]], DGHs)
    number = {}      # numeric value of each raw cell
    full_range = {}  # U - L of each numeric column
    leaf_counts = {}
    for c in qi_columns:
        if numeric[c]:
            values = [float(row[c]) for row in rows]
            full_range[c] = max(values) - min(values)
            number[c] = values
        else:
            leaf_counts[c] = all_leaf_counts(DGHs[c])

    def width(part, c):
        if numeric[c]:
            values = [number[c][i] for i in part]
            if full_range[c] == 0:
                return 0.0
            return (max(values) - min(values)) / full_range[c]
        dgh = DGHs[c]
        lca = lca_of_list(dgh, [rows[i][c] for i in part])
        total = leaf_counts[c][dgh.root]
        if total == 1:
            return 0.0
        return (leaf_counts[c][lca] - 1) / (total - 1)

    def try_cut(part, c):
        """The parts of an allowed cut on column c, or None."""
        if numeric[c]:
            values = sorted(number[c][i] for i in part)
            split = values[(len(part) - 1) // 2]
            left = [i for i in part if number[c][i] <= split]
            right = [i for i in part if number[c][i] > split]
            if len(left) >= k and len(right) >= k:
                return [left, right]
            return None
        dgh = DGHs[c]
        lca = lca_of_list(dgh, [rows[i][c] for i in part])
        groups = {}
        for i in part:
            value = rows[i][c]
            if value == lca:
                return None
            # climb until the parent is the LCA: that is the child on the path
            while dgh.parent[value] != lca:
                value = dgh.parent[value]
            groups.setdefault(value, []).append(i)
        for members in groups.values():
            if len(members) < k:
                return None
        return list(groups.values())

    # no recursion (python recursion limit!): a queue of partitions still to be cut
    final_parts = []
    queue = [list(range(n))]
    while True:
        if len(queue) == 0:
            break
        part = queue.pop(0)
        widths = []
        for position, c in enumerate(qi_columns):
            w = width(part, c)
            if w > 0:
                widths.append((-round(w, 9), position, c))
        widths.sort()
        was_cut = False
        for _, _, c in widths:
            pieces = try_cut(part, c)
            if pieces is not None:
                queue.extend(pieces)
                was_cut = True
                break
        if not was_cut:
            # cannot cut this one any more, check it again later
            queue.append(part)
        # print(len(queue), len(final_parts))

    out_rows = [dict(row) for row in rows]
    for part in final_parts:
        for c in qi_columns:
            if numeric[c]:
                smallest = min(part, key=lambda i: number[c][i])
                largest = max(part, key=lambda i: number[c][i])
                if number[c][smallest] == number[c][largest]:
                    cell = rows[smallest][c]
                else:
                    cell = f"[{rows[smallest][c]}-{rows[largest][c]}]"
            else:
                cell = lca_of_list(DGHs[c], [rows[i][c] for i in part])
            for i in part:
                out_rows[i][c] = cell
    write_dataset(out_rows, output_file, header, raw_dataset_file)


##############################################################################
# Command line                                                               #
##############################################################################

USAGE = ("usage: python skeleton.py <algorithm> <DGH-folder> <raw.csv> <out.csv> <k> "
         "[s | l | max_sup]  (algorithm: random, clustering, bottomup, samarati, mondrian)")


def _call(name: str, *args) -> tuple[object, str | None]:
    """Call the graded function `name` of this file: (its result, None) or (None, a one-line
    error message)."""
    try:
        return globals()[name](*args), None
    except NotImplementedError:
        return None, f"{name} is not implemented yet"
    except Exception as e:  # one line, no traceback
        return None, f"{name}: {type(e).__name__}: {e}"


def _run(argv: list[str]) -> int:
    """Run one anonymizer from the command line; returns the exit status (0, 1 or 2)."""
    algorithms = {"random": "random_anonymizer", "clustering": "clustering_anonymizer",
                  "bottomup": "bottomup_anonymizer", "samarati": "samarati",
                  "mondrian": "mondrian"}
    extra_default = {"random": 0, "bottomup": 1, "samarati": 0}  # s, l, max_sup
    if len(argv) not in (5, 6) or argv[0] not in algorithms:
        print(USAGE, file=sys.stderr)
        return 2
    algorithm, dgh_folder, raw_file, out_file = argv[:4]
    if len(argv) == 6 and algorithm not in extra_default:
        print(f"error: {algorithm} takes no sixth argument; {USAGE}", file=sys.stderr)
        return 2
    try:
        numbers = [int(a) for a in argv[4:]]
    except ValueError:
        print(f"error: k, s, l and max_sup must be integers, got {' '.join(argv[4:])}; {USAGE}",
              file=sys.stderr)
        return 2
    args: list = [raw_file, dgh_folder, numbers[0]]
    if algorithm in extra_default:
        args.append(numbers[1] if len(numbers) == 2 else extra_default[algorithm])
    name = algorithms[algorithm]
    start = time.perf_counter()
    _, error = _call(name, *args, out_file)
    elapsed = time.perf_counter() - start
    if error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    for cost in ("cost_MD", "cost_LM"):
        value, error = _call(cost, raw_file, out_file, dgh_folder)
        if error and not error.endswith("not implemented yet"):
            print(f"error: {error}", file=sys.stderr)
            return 1
        print(f"{cost[-2:]} cost: {error or value}")
    print(f"Time: {elapsed:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(_run(sys.argv[1:]))
