"""The Top-Down Greedy lab's staff reference: topdown_greedy and cost_NCP exactly as the
course's CONTRACT.md states them (Xu, Wang, Pei, Wang, Shi, Fu, KDD 2006, with NCP).

Self-contained (numpy and the standard library; nothing of the kit), run by the grader outside
the sandbox and never shipped to students.

    python tdg.py RAW.csv DGH_FOLDER K OUT.csv [--seed S] [--rounds R]   # prints NCP, GCP, time
    python tdg.py --cost RAW.csv ANONYMIZED.csv DGH_FOLDER                # prints the NCP

How it is fast. Every QI is coded as an integer: a numeric QI as its value, a categorical QI as
its leaf's rank in the hierarchy's preorder, so that the leaves under any node are a run of
consecutive ranks. The middle of any set of records is then exactly its per-QI (min, max): a
numeric range, or the lowest common ancestor of the lowest- and highest-ranked leaves (the LCA
of the whole set). A table per categorical QI gives NCP(LCA(leaf a, leaf b)) for every pair of
ranks, so the NCP of the middle of a generalization (lo, hi) joined with each of m records is
one minimum, one maximum and one gather over an (m, QIs) array.

Ties: two distances or costs within EPS = 1e-9 of each other are equal (CONTRACT.md).
Randomness: the partitions are split depth first, u's group before v's; each split of a
partition P draws its first record as P[rng.randrange(len(P))] (P in file order), rng =
random.Random(seed); `first` (tests) names the top partition's first record instead.
"""
from __future__ import annotations

import argparse
import csv
import io
import operator
import os
import random
import re
import sys
import tempfile
import time

import numpy as np

QIS = ("age", "work_class", "education_num", "marital_status", "occupation", "race", "sex",
       "native_country")
SENSITIVE = "class"
EPS = 1e-9
ROUNDS = 3
_INTEGER = re.compile(r"-?\d+")
_RANGE = re.compile(r"\[(-?\d+)-(-?\d+)\]")


# ------------------------------------------------------------------------------ hierarchies

class Hierarchy:
    """One ';' hierarchy file: nodes in preorder (root first), each node's run of leaf ranks
    [first, last], the NCP of each node, and the LCA of every pair of leaf ranks."""

    def __init__(self, path: str):
        self.path = path
        parent: dict[str, str | None] = {}
        children: dict[str, list[str]] = {}
        leaves: list[str] = []
        root = None
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
        for line_no, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            labels = [label.strip() for label in line.split(";")]
            where = f"{path}, line {line_no}"
            if "" in labels:
                raise ValueError(f"{where}: an empty label in {line!r}")
            if len(set(labels)) != len(labels):
                raise ValueError(f"{where}: a label repeats in {line!r}")
            if root is None:
                root = labels[-1]
            elif labels[-1] != root:
                raise ValueError(f"{where}: the line ends in {labels[-1]!r}, not in the root "
                                 f"{root!r} of the lines above")
            for child, up in zip(labels, labels[1:] + [None]):
                if child in parent and parent[child] != up:
                    raise ValueError(f"{where}: {child!r} has the parent {up!r} here and "
                                     f"{parent[child]!r} above")
                if child not in parent:
                    parent[child] = up
                    children.setdefault(child, [])
                    if up is not None:
                        children.setdefault(up, []).append(child)
            if labels[0] not in leaves:
                leaves.append(labels[0])
        if root is None:
            raise ValueError(f"{path}: no hierarchy (the file has no line)")
        inner = [leaf for leaf in leaves if children[leaf]]
        if inner:
            raise ValueError(f"{path}: {inner[0]!r} is a leaf (a line starts with it) and the "
                             "parent of another node")
        # preorder, children in the order they first appear
        self.labels: list[str] = []
        stack = [root]
        while stack:
            node = stack.pop()
            self.labels.append(node)
            stack.extend(reversed(children[node]))
        self.index = {label: i for i, label in enumerate(self.labels)}
        self.leaf_rank: dict[str, int] = {}
        for label in self.labels:
            if not children[label]:
                self.leaf_rank[label] = len(self.leaf_rank)
        size = len(self.labels)
        self.first = np.zeros(size, dtype=np.int64)
        self.last = np.zeros(size, dtype=np.int64)
        for i in reversed(range(size)):  # children after parents in preorder
            label = self.labels[i]
            if not children[label]:
                self.first[i] = self.last[i] = self.leaf_rank[label]
            else:
                kids = [self.index[c] for c in children[label]]
                self.first[i], self.last[i] = self.first[kids[0]], self.last[kids[-1]]
        self.n_leaves = len(self.leaf_rank)
        self.is_leaf = np.array([not children[label] for label in self.labels])
        self.node_ncp = np.where(self.is_leaf, 0.0,
                                 (self.last - self.first + 1) / self.n_leaves)
        # lca[a, b]: the deepest node whose run holds ranks a and b (preorder: deeper later)
        self.lca = np.zeros((self.n_leaves, self.n_leaves), dtype=np.int64)
        for i in range(size):
            a, b = int(self.first[i]), int(self.last[i]) + 1
            self.lca[a:b, a:b] = i
        self.pair_ncp = self.node_ncp[self.lca]


# ------------------------------------------------------------------------------ the table

def _read_csv(path: str) -> tuple[list[str], list[list[str]]]:
    with open(path, encoding="utf-8", newline="") as f:
        rows = [row for row in csv.reader(f) if row]
    if not rows:
        raise ValueError(f"{path}: the file is empty (it needs a header row)")
    header = [name.strip() for name in rows[0]]
    for i, row in enumerate(rows[1:], start=1):
        if len(row) != len(header):
            raise ValueError(f"{path}: data row {i} has {len(row)} cells, the header "
                             f"{len(header)}")
    return header, rows[1:]


def _distinct(cells: list[str]) -> tuple[list[str], np.ndarray]:
    """The distinct cells in order of first appearance, and each cell's position among them."""
    index: dict[str, int] = {}
    inverse = np.fromiter((index.setdefault(c, len(index)) for c in cells), dtype=np.int64,
                          count=len(cells))
    return list(index), inverse


def _column_of(header: list[str], name: str, path: str) -> int:
    if name not in header:
        raise ValueError(f"{path}: no column {name!r} in the header {header}")
    return header.index(name)


class Table:
    """A raw table coded for the algorithm. The QIs (qi_columns, qi_names, hierarchies) are
    in file order; X (records, QIs) holds them as integers with the numeric QIs first (its
    first n_numeric columns) and then the categorical ones: `order` lists the QI of each of
    X's columns, `column` the X column of each QI."""

    def __init__(self, raw_dataset_file: str, DGH_folder: str):
        self.path = raw_dataset_file
        self.header, self.rows = _read_csv(raw_dataset_file)
        at = {name: _column_of(self.header, name, raw_dataset_file) for name in QIS}
        self.qi_columns = sorted(at.values())
        self.qi_names = [self.header[c] for c in self.qi_columns]
        self.hierarchies: list[Hierarchy | None] = []
        for name in self.qi_names:
            path = os.path.join(DGH_folder, f"{name}.txt")
            self.hierarchies.append(Hierarchy(path) if os.path.isfile(path) else None)
        q = len(self.qi_columns)
        self.order = ([j for j in range(q) if self.hierarchies[j] is None]
                      + [j for j in range(q) if self.hierarchies[j] is not None])
        self.column = {j: c for c, j in enumerate(self.order)}
        self.n_numeric = nn = sum(d is None for d in self.hierarchies)
        n = len(self.rows)
        self.X = np.zeros((n, q), dtype=np.int64)
        for c, j in enumerate(self.order):
            cells = [row[self.qi_columns[j]].strip() for row in self.rows]
            self.X[:, c] = self._code(cells, self.qi_names[j], self.hierarchies[j])
        spans = (self.X[:, :nn].max(axis=0) - self.X[:, :nn].min(axis=0) if n
                 else np.zeros(nn, dtype=np.int64))
        self.inv_span = np.where(spans > 0, 1.0 / np.maximum(spans, 1), 0.0)
        # one flat table of NCP(LCA(a, b)) for every categorical QI, each at its offset
        dghs = [self.hierarchies[j] for j in self.order[nn:]]
        tables = [d.pair_ncp.ravel() for d in dghs]
        self.n_leaves = np.array([d.n_leaves for d in dghs], dtype=np.int64)
        self.offset = np.cumsum([0] + [len(t) for t in tables[:-1]]).astype(np.int64)
        self.flat = np.concatenate(tables) if tables else np.zeros(0)

    def _code(self, cells: list[str], name: str, dgh: Hierarchy | None) -> np.ndarray:
        values, inverse = _distinct(cells)
        codes = np.zeros(len(values), dtype=np.int64)
        for i, value in enumerate(values):
            if dgh is None:
                ok = _INTEGER.fullmatch(value) is not None
                codes[i] = int(value) if ok else 0
                says = "is not an integer (the column has no hierarchy file: it is numeric)"
            else:
                ok = value in dgh.leaf_rank
                codes[i] = dgh.leaf_rank.get(value, 0)
                says = f"is no leaf of {dgh.path}"
            if not ok:
                row = int(np.flatnonzero(inverse == i)[0]) + 1
                raise ValueError(f"{self.path}: data row {row}, column {name}: {value!r} {says}")
        return codes[inverse]

    # ---------------------------------------------------------------- NCP
    def ncp(self, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        """NCP of each generalization (lo[i], hi[i]) (arrays (m, QIs), X's columns)."""
        nn = self.n_numeric
        total = (hi[:, :nn] - lo[:, :nn]) @ self.inv_span
        if len(self.n_leaves):
            index = lo[:, nn:] * self.n_leaves
            index += hi[:, nn:]
            index += self.offset
            total += self.flat[index].sum(axis=1)
        return total

    def dist(self, lo: np.ndarray, hi: np.ndarray, X: np.ndarray) -> np.ndarray:
        """NCP of the middle of the generalization (lo, hi) joined with each record of X."""
        return self.ncp(np.minimum(X, lo), np.maximum(X, hi))

    def cost(self, X: np.ndarray) -> float:
        """Records x NCP of their middle."""
        return len(X) * float(self.ncp(X.min(axis=0)[None], X.max(axis=0)[None])[0])

    def cells(self, lo: np.ndarray, hi: np.ndarray) -> list[str]:
        """The middle (lo, hi) written as QI cells, in file order."""
        out = []
        for j, dgh in enumerate(self.hierarchies):
            a, b = int(lo[self.column[j]]), int(hi[self.column[j]])
            if dgh is None:
                out.append(str(a) if a == b else f"[{a}-{b}]")
            else:
                out.append(dgh.labels[int(dgh.lca[a, b])])
        return out


# ------------------------------------------------------------------------------ the algorithm

def _argmax_first(d: np.ndarray) -> int:
    return int(np.flatnonzero(d >= d.max() - EPS)[0])


def _tie_ranks(d: np.ndarray) -> np.ndarray:
    """Dense ranks of d in which sorted neighbours within EPS share a rank."""
    order = np.argsort(d, kind="stable")
    group = np.concatenate(([0], np.cumsum(np.diff(d[order]) > EPS)))
    ranks = np.empty(len(d), dtype=np.int64)
    ranks[order] = group
    return ranks


def _split(table: Table, rows: np.ndarray, k: int, u: int,
           rounds: int) -> tuple[np.ndarray, np.ndarray] | None:
    """The groups of u and of v (data rows, ascending) a partition splits into, or None when
    balancing makes it final. `u`: the first record's position in rows."""
    X = table.X[rows]
    v, d = u, None
    for round_ in range(rounds):
        d = table.dist(X[u], X[u], X)
        d[u] = -np.inf  # v is another record
        v = _argmax_first(d)
        if round_ < rounds - 1:
            u = v
    d[u] = 0.0  # d: the distances from the last round's u
    to_u = d <= table.dist(X[v], X[v], X) + EPS
    to_u[u], to_u[v] = True, False
    groups = [rows[to_u], rows[~to_u]]
    short = [i for i in (0, 1) if len(groups[i]) < k]
    if not short:
        return groups[0], groups[1]
    small, large = groups[short[0]], groups[1 - short[0]]
    part = table.X[small]
    d = table.dist(part.min(axis=0), part.max(axis=0), table.X[large])
    moved = np.zeros(len(large), dtype=bool)
    moved[np.lexsort((large, _tie_ranks(d)))[:k - len(small)]] = True
    grown, rest = np.sort(np.concatenate((small, large[moved]))), large[~moved]
    if table.cost(table.X[grown]) + table.cost(table.X[rest]) <= table.cost(X) + EPS:
        return (grown, rest) if short[0] == 0 else (rest, grown)
    return None


def _partitions(table: Table, k: int, seed, rounds: int, first: int | None) -> list[np.ndarray]:
    if k == 1:  # every split leaves u and v apart, down to single records, whatever the start
        return [np.array([r]) for r in range(len(table.rows))]
    rng = random.Random(seed)
    final: list[np.ndarray] = []
    stack: list[tuple[np.ndarray, int | None]] = [(np.arange(len(table.rows)), first)]
    while stack:
        rows, u = stack.pop()
        if len(rows) < 2 * k:
            final.append(rows)
            continue
        groups = _split(table, rows, k, rng.randrange(len(rows)) if u is None else u, rounds)
        if groups is None:
            final.append(rows)
        else:
            stack.append((groups[1], None))  # v's group after u's
            stack.append((groups[0], None))
    return final


def _check_arguments(table: Table, k, rounds, first) -> tuple[int, int]:
    if isinstance(k, bool) or isinstance(rounds, bool):
        raise TypeError("k and rounds must be integers, not booleans")
    k, rounds = operator.index(k), operator.index(rounds)
    n = len(table.rows)
    if k < 1:
        raise ValueError(f"k must be at least 1, not {k}")
    if k > n:
        raise ValueError(f"k = {k} is more than the {n} records of {table.path}")
    if rounds < 1:
        raise ValueError(f"rounds must be at least 1, not {rounds}")
    if first is not None and not 0 <= operator.index(first) < n:
        raise ValueError(f"first must be a record's index, 0 to {n - 1}, not {first}")
    return k, rounds


def greedy_partitions(raw_dataset_file: str, DGH_folder: str, k: int, *, seed=None,
                      rounds: int = ROUNDS, first: int | None = None) -> list[list[int]]:
    """The final partitions as lists of data-row indices (0-based, ascending), sorted by
    their first row."""
    table = Table(raw_dataset_file, DGH_folder)
    k, rounds = _check_arguments(table, k, rounds, first)
    parts = _partitions(table, k, seed, rounds, first)
    return sorted((p.tolist() for p in parts), key=lambda p: p[0])


def _write_atomically(path: str, text: str) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=folder, prefix=".tdg-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, path)
    except BaseException:
        if os.path.exists(temp):
            os.unlink(temp)
        raise


def topdown_greedy(raw_dataset_file: str, DGH_folder: str, k: int, output_file: str, *,
                   seed=None, rounds: int = ROUNDS, first: int | None = None) -> None:
    """Top-Down Greedy (CONTRACT.md): write output_file, the released columns (the QIs and
    class, in the raw file's order), one row per raw record in the raw file's order, each
    record's QIs generalized to its final partition's middle. `seed` seeds the random first
    records (None: a random start); `rounds`: the pair search's rounds; `first` (tests): the
    index of the top partition's first record."""
    table = Table(raw_dataset_file, DGH_folder)
    k, rounds = _check_arguments(table, k, rounds, first)
    if os.path.exists(output_file) and os.path.samefile(output_file, raw_dataset_file):
        raise ValueError(f"the output file {output_file} is the raw dataset file")
    sensitive = _column_of(table.header, SENSITIVE, raw_dataset_file)
    released = sorted(table.qi_columns + [sensitive])
    at_qi = {c: j for j, c in enumerate(table.qi_columns)}
    cells: list[list[str] | None] = [None] * len(table.rows)
    for rows in _partitions(table, k, seed, rounds, first):
        X = table.X[rows]
        middle = table.cells(X.min(axis=0), X.max(axis=0))
        for r in rows.tolist():
            cells[r] = middle
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([table.header[c] for c in released])
    for row, middle in zip(table.rows, cells):
        writer.writerow([middle[at_qi[c]] if c in at_qi else row[c] for c in released])
    _write_atomically(output_file, buffer.getvalue())


# ------------------------------------------------------------------------------ cost

def _cell_bounds(cell: str, dgh: Hierarchy | None) -> tuple[int, int, float] | None:
    """(lo, hi, NCP factor) of a generalized cell in the coded space, None when it is not a
    cell of the column; for a numeric range the factor is hi - lo (times 1/span later)."""
    if dgh is None:
        if _INTEGER.fullmatch(cell):
            return int(cell), int(cell), 0.0
        found = _RANGE.fullmatch(cell)
        if found and int(found[1]) <= int(found[2]):
            lo, hi = int(found[1]), int(found[2])
            return lo, hi, float(hi - lo)
        return None
    node = dgh.index.get(cell)
    if node is None:
        return None
    return int(dgh.first[node]), int(dgh.last[node]), float(dgh.node_ncp[node])


def cost_NCP(raw_dataset_file: str, anonymized_dataset_file: str, DGH_folder: str) -> float:
    """The table's NCP: the sum over records of the NCP of their QI cells (CONTRACT.md)."""
    table = Table(raw_dataset_file, DGH_folder)
    header, rows = _read_csv(anonymized_dataset_file)
    if len(rows) != len(table.rows):
        raise ValueError(f"{anonymized_dataset_file} has {len(rows)} records, "
                         f"{raw_dataset_file} {len(table.rows)}: one row per raw record")
    total = 0.0
    for j, (name, dgh) in enumerate(zip(table.qi_names, table.hierarchies)):
        column = _column_of(header, name, anonymized_dataset_file)
        cells = [row[column].strip() for row in rows]
        values, inverse = _distinct(cells)
        lo = np.zeros(len(values), dtype=np.int64)
        hi = np.zeros(len(values), dtype=np.int64)
        cost = np.zeros(len(values))
        for i, value in enumerate(values):
            bounds = _cell_bounds(value, dgh)
            if bounds is None:
                row = int(np.flatnonzero(inverse == i)[0]) + 1
                what = "an integer or a range [lo-hi]" if dgh is None else \
                    f"a node of {dgh.path}"
                raise ValueError(f"{anonymized_dataset_file}: data row {row}, column {name}: "
                                 f"{value!r} is not {what}")
            lo[i], hi[i], cost[i] = bounds
        c = table.column[j]
        raw = table.X[:, c]
        bad = np.flatnonzero((raw < lo[inverse]) | (raw > hi[inverse]))
        if len(bad):
            r = int(bad[0])
            raise ValueError(f"{anonymized_dataset_file}: data row {r + 1}, column {name}: "
                             f"{cells[r]!r} does not cover the raw value "
                             f"{table.rows[r][table.qi_columns[j]].strip()!r}")
        if c < table.n_numeric:
            cost = cost * table.inv_span[c]
        total += float(cost[inverse].sum())
    return total


# ------------------------------------------------------------------------------ command line

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tdg.py", description=__doc__.split("\n")[0])
    parser.add_argument("--cost", action="store_true",
                        help="RAW ANONYMIZED DGH_FOLDER: print the anonymized table's NCP")
    parser.add_argument("args", nargs="+")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    args = parser.parse_args(argv)
    try:
        if args.cost:
            if len(args.args) != 3:
                parser.error("--cost takes RAW ANONYMIZED DGH_FOLDER")
            print(f"NCP {cost_NCP(*args.args):.6f}")
            return 0
        if len(args.args) != 4:
            parser.error("expected RAW DGH_FOLDER K OUT")
        raw, dghs, k, out = args.args
        start = time.perf_counter()
        topdown_greedy(raw, dghs, int(k), out, seed=args.seed, rounds=args.rounds)
        seconds = time.perf_counter() - start
        ncp = cost_NCP(raw, out, dghs)
        cells = len(_read_csv(raw)[1]) * len(QIS)
        print(f"NCP {ncp:.6f}, GCP {100 * ncp / cells:.4f}%, {seconds:.2f} s")
    except (ValueError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
