"""k-anonymity homework: your solution goes in this file.

Read HANDOUT.md first: it gives the exact rules, tie-breaks and worked examples of the
seven functions graded below. Fill in every function that raises NotImplementedError
(and the middle of random_anonymizer). You may add helper functions and change the
helpers given here, but keep the graded functions' signatures exactly as they are. The
grader has only numpy and the standard library.

Run one algorithm from the command line:

    python skeleton.py <algorithm> <DGH-folder> <raw.csv> <out.csv> <k> [s | l | max_sup]

where <algorithm> is one of random, clustering, bottomup, samarati or mondrian. Check yourself
with `pytest` (see HANDOUT.md, "Checking your work").

Importing this file must have no side effects: keep experiments under
`if __name__ == "__main__":`.
"""
from __future__ import annotations

import csv
import os
import sys
import tempfile
import time

import numpy as np

##############################################################################
# Helper functions                                                           #
# They read and write the files exactly as HANDOUT.md says. You may use,     #
# change or replace them.                                                    #
##############################################################################

ROW_INDEX = "#row"
"""Key under which random_anonymizer tags each record with its position (0-based: data row - 1)."""


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
# Graded functions                                                           #
# Keep these signatures exactly. HANDOUT.md gives the full rules.            #
##############################################################################


def cost_MD(raw_dataset_file: str, anonymized_dataset_file: str,
            DGH_folder: str) -> float:
    """Distortion metric (MD) of an anonymized dataset.

    Cell: depth(raw value) - depth(generalized value) in the column's DGH; an interval cell
    `[lo-hi]` of a numeric QI counts as the LCA of every leaf whose label is a number in
    [lo, hi]. Table: the sum over all rows and QIs. Raises ValueError naming the data row
    (from 1, the header not counted) and the column when a cell is not a valid generalization
    of its raw cell, or when the two files differ in header or row count.
    """
    raise NotImplementedError("cost_MD")


def cost_LM(raw_dataset_file: str, anonymized_dataset_file: str,
            DGH_folder: str) -> float:
    """Loss metric (LM) of an anonymized dataset.

    Cell: (leaves(gen) - 1) / (|A| - 1), 0 when the DGH has one leaf; an interval cell `[lo-hi]`
    costs (hi - lo) / (U - L), U and L the largest and smallest raw value of the column (0 when
    U = L). Record: the mean of its M QI cells. Table: the SUM over records (0 .. n). Errors as
    for cost_MD.
    """
    raise NotImplementedError("cost_LM")


def random_anonymizer(raw_dataset_file: str, DGH_folder: str, k: int,
                      s: int, output_file: str):
    """Random k-anonymization with seed s, written to output_file.

    1. (given) records in file order, each tagged with its position, go into a numpy array;
       np.random.seed(s); np.random.shuffle(array).
    2. EC j takes shuffled positions [j*k, (j+1)*k) for j = 0 .. n//k - 2; the last EC takes all
       remaining positions (k .. 2k-1 records). k < 1 or n < k is a ValueError.
    3. Each EC's QI cells become the LCA of that EC's raw values.
    4. (given) rows are written back in their original order.
    """
    header, raw_dataset = read_dataset(raw_dataset_file)
    DGHs = read_DGHs(DGH_folder)

    for i in range(len(raw_dataset)):  # tag each record with its position (0-based)
        raw_dataset[i][ROW_INDEX] = i

    raw_dataset = np.array(raw_dataset)
    np.random.seed(s)  # the same seed gives the same shuffle on every run
    np.random.shuffle(raw_dataset)

    clusters: list[list[dict]] = []
    D = len(raw_dataset)

    # TODO: START WRITING YOUR CODE HERE. Do not modify the code of this function above this line.
    # Store your ECs in the list named "clusters", in order: clusters[0] holds the records at
    # shuffled positions 0 .. k-1, and so on (each EC a list of the record dicts, generalized in
    # place, still carrying their ROW_INDEX tag).
    raise NotImplementedError("random_anonymizer: steps 2 and 3 (delete this line)")
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


def clustering_anonymizer(raw_dataset_file: str, DGH_folder: str, k: int,
                          output_file: str):
    """Greedy clustering k-anonymization, written to output_file.

    dist(r1, r2) = LM_dist + MD_dist / (2 * sum of DGH heights). curr = record 1; while at least
    k records are unused: EC = curr + the k-1 unused records nearest to curr (ties: lowest row
    number), generalized to their LCAs; curr becomes the EC's centroid; the next curr is the
    unused record with the largest sum of dist to all centroids (ties: lowest row number). Each
    leftover record, in row order, joins the EC whose centroid is nearest (ties: earliest EC),
    which is generalized again. k < 1 or n < k is a ValueError.
    """
    raise NotImplementedError("clustering_anonymizer")


def bottomup_anonymizer(raw_dataset_file: str, DGH_folder: str, k: int,
                        l: int, output_file: str):
    """Bottom-up lattice search for k-anonymity and l-diversity, written to output_file.

    A lattice node (s_1 .. s_M) replaces each QI value v of column i by up(v, s_i). Visit
    levels 0, 1, 2, ...; at the first level where some node gives ECs of at least k rows and at
    least l distinct sensitive values, output the satisfying node with the lowest cost_LM (ties:
    lexicographically smallest vector). ValueError when even the top node fails, or k < 1, or
    l < 1.
    """
    raise NotImplementedError("bottomup_anonymizer")


def samarati(raw_dataset_file: str, DGH_folder: str, k: int,
             max_sup: int, output_file: str):
    """Samarati's binary search over lattice heights with suppression, written to output_file.

    Outliers of a node are the rows in ECs of fewer than k rows; a node satisfies when there
    are at most max_sup outliers. Binary search (low = 0, high = sum of heights, try =
    (low+high)//2) finds the lowest satisfying height; among its satisfying nodes output the one
    with the lowest cost_LM (ties: lexicographically smallest vector). Outliers are suppressed
    (every QI cell becomes its DGH root). ValueError when no node satisfies, k < 1 or max_sup < 0.
    """
    raise NotImplementedError("samarati")


def mondrian(raw_dataset_file: str, DGH_folder: str, k: int, output_file: str):
    """Strict multidimensional Mondrian partitioning, written to output_file.

    Try the QIs of non-zero normalized width, widest first (ties: column order). Numeric: split
    at the lower median (position (|P|-1)//2 of the sorted values), left <= split < right.
    Categorical: one part per child of the partition's LCA. A cut is allowed when every part has
    at least k rows; take the first allowed QI and recurse. A final partition writes numeric
    cells as `[min-max]` (raw strings; the raw value when min = max) and categorical cells as
    the LCA. k < 1 or n < k is a ValueError.
    """
    raise NotImplementedError("mondrian")


##############################################################################
# Command line                                                               #
##############################################################################

def _parser() -> "argparse.ArgumentParser":
    """The command line (HANDOUT.md, "Command line")."""
    import argparse
    parser = argparse.ArgumentParser(
        prog="python skeleton.py", description="Anonymize a dataset with your solution and "
        "print the MD and LM costs of the output and the run time.",
        epilog="The sixth argument is s (random: the seed, default 0), l (bottomup: distinct "
               "l-diversity, default 1) or max_sup (samarati: most suppressed rows, default 0); "
               "clustering and mondrian take none.")
    parser.add_argument("algorithm", choices=list(ALGORITHMS), metavar="algorithm",
                        help="random, clustering, bottomup, samarati or mondrian")
    parser.add_argument("dgh_folder", metavar="DGH-folder",
                        help="folder of <column>.txt hierarchies")
    parser.add_argument("raw", metavar="raw.csv", help="the dataset to anonymize")
    parser.add_argument("out", metavar="out.csv", help="where to write the anonymized dataset")
    parser.add_argument("k", type=int, help="every equivalence class has at least k rows")
    parser.add_argument("extra", type=int, nargs="?", metavar="s | l | max_sup",
                        help="random: s; bottomup: l; samarati: max_sup")
    return parser


# algorithm on the command line -> (function, default of its sixth argument or None)
ALGORITHMS = {"random": ("random_anonymizer", 0), "clustering": ("clustering_anonymizer", None),
              "bottomup": ("bottomup_anonymizer", 1), "samarati": ("samarati", 0),
              "mondrian": ("mondrian", None)}


def _call(name: str, *args) -> tuple[object, str | None]:
    """Call the graded function `name` of this file: (its result, None) or (None, a one-line
    error message)."""
    try:
        return globals()[name](*args), None
    except NotImplementedError:
        return None, f"{name} is not implemented yet"
    except Exception as e:  # one line, no traceback
        return None, f"{name}: {type(e).__name__}: {e}"


def _missing_hierarchies(raw_file: str, DGH_folder: str) -> list[str]:
    """Columns of the dataset without a <column>.txt in DGH_folder; [] if unreadable."""
    try:
        header, _ = read_dataset(raw_file)
        files = os.listdir(DGH_folder)
    except (OSError, ValueError):
        return []
    return [column for column in header if column + ".txt" not in files]


def _cost_text(value) -> str:
    """Whole numbers without decimals, others with six (as the reference prints them)."""
    value = float(value)
    return f"{value:.0f}" if value.is_integer() else f"{value:.6f}"


def _run(argv: list[str]) -> int:
    """Run one anonymizer from the command line; returns the exit status: 0 done, 1 an error
    from your code (one line), 2 bad arguments (usage and error on stderr)."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # --help: 0, bad arguments: 2
        return int(e.code or 0)
    name, default = ALGORITHMS[args.algorithm]
    if args.extra is not None and default is None:
        parser.print_usage(sys.stderr)
        print(f"{parser.prog}: error: {args.algorithm} takes no sixth argument", file=sys.stderr)
        return 2
    call: list = [args.raw, args.dgh_folder, args.k]
    if default is not None:
        call.append(default if args.extra is None else args.extra)
    unprotected = _missing_hierarchies(args.raw, args.dgh_folder)
    if len(unprotected) > 1:  # one column, the sensitive attribute, normally has none
        print(f"warning: {len(unprotected)} columns have no hierarchy file in "
              f"{args.dgh_folder}: {', '.join(unprotected)}; they are not quasi-identifiers and "
              f"are published unchanged (is a <column>.txt missing?)", file=sys.stderr)
    start = time.perf_counter()
    _, error = _call(name, *call, args.out)
    elapsed = time.perf_counter() - start
    if error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"{args.algorithm}: wrote {args.out}")
    for cost in ("cost_MD", "cost_LM"):
        value, error = _call(cost, args.raw, args.out, args.dgh_folder)
        if error and not error.endswith("not implemented yet"):
            print(f"error: {error}", file=sys.stderr)
            return 1
        print(f"{cost[-2:]} cost: {error or _cost_text(value)}")
    print(f"time: {elapsed:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(_run(sys.argv[1:]))
