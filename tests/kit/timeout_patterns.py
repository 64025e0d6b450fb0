"""Submissions that run out of time the way real students' code does, for the time policy's
tests (tests/kit/grading/test_grader_time_policy.py) and bench/bench_timeouts.py.

Two real patterns, each looping forever only on the hidden case "unbalanced" (53 rows), never
on adult-hw1.csv: a cost_MD whose own lowest-common-ancestor helper loops when an interval
cell's ends sit at different depths of the hierarchy (every adult hierarchy is balanced; the
unbalanced case's cell [24-35] spans depths 3 and 2), and a Mondrian that reads the interval
labels of each hierarchy and loops on one wider than 50 (the unbalanced case's [40,100);
adult's widest is 50). Everything else is the staff solution (`staffcopy`, see
staff_submission.py), so the larger adult cases are answered correctly and fast. And a
submission whose every graded function loops forever.
"""
from __future__ import annotations

from pathlib import Path

from staff_submission import staff_submission

FUNCTIONS = ("cost_MD", "cost_LM", "random_anonymizer", "clustering_anonymizer",
             "bottomup_anonymizer", "samarati", "mondrian")

# The student's own hierarchy helpers. The bug: to bring two labels to the same depth it
# climbs the SHALLOWER one (`<` where `>` was meant); the root is its own parent, so once one
# label is the root, the loop never ends. On a balanced hierarchy it is never entered.
HELPERS = '''import csv
import os


def read_rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def read_tree(dgh_file):
    """label -> [parent label, depth]; the root is its own parent."""
    tree, stack = {}, []
    with open(dgh_file, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            depth = len(line) - len(line.lstrip("\\t"))
            label = line.strip()
            del stack[depth:]
            tree[label] = [stack[-1] if stack else label, depth]
            stack.append(label)
    return tree


def read_trees(DGH_folder, columns):
    return {c: read_tree(os.path.join(DGH_folder, c + ".txt")) for c in columns
            if os.path.exists(os.path.join(DGH_folder, c + ".txt"))}


def lca(a, b, tree):
    """The lowest common ancestor of two labels."""
    while tree[a][1] != tree[b][1]:  # same depth first
        if tree[a][1] < tree[b][1]:
            a = tree[a][0]
        else:
            b = tree[b][0]
    while a != b:
        a, b = tree[a][0], tree[b][0]
    return a
'''

INTERVAL_COST = HELPERS + '''
from staffcopy import (cost_LM, random_anonymizer, clustering_anonymizer,
                       bottomup_anonymizer, samarati, mondrian)


def cost_MD(raw_dataset_file, anonymized_dataset_file, DGH_folder):
    raw, anon = read_rows(raw_dataset_file), read_rows(anonymized_dataset_file)
    trees = read_trees(DGH_folder, list(raw[0]))
    known, total = {}, 0
    for r, a in zip(raw, anon):
        for column, tree in trees.items():
            cell = a[column]
            if cell not in tree and (column, cell) not in known:  # an interval [lo-hi]
                cut = cell.index("-", 2)
                known[column, cell] = lca(cell[1:cut], cell[cut + 1:-1], tree)  # its ends
            gen = cell if cell in tree else known[column, cell]
            total += tree[r[column]][1] - tree[gen][1]
    return float(total)
'''

INTERVAL_MONDRIAN = HELPERS + '''
from staffcopy import (cost_MD, cost_LM, random_anonymizer, clustering_anonymizer,
                       bottomup_anonymizer, samarati)
from staffcopy import mondrian as partition


def interval_bins(tree):
    """The hierarchy's interval labels [lo,hi) as (lo, hi), narrowest first."""
    labels = [t for t in tree if t.startswith("[") and t.endswith(")")]
    bins, i = [], 0
    while i < len(labels):
        lo, hi = (float(x) for x in labels[i][1:-1].split(","))
        if hi - lo > 50:  # not a bin: a whole half of the range
            continue
        bins.append((lo, hi))
        i += 1
    return sorted(bins, key=lambda b: b[1] - b[0])


def mondrian(raw_dataset_file, DGH_folder, k, output_file):
    rows = read_rows(raw_dataset_file)
    bins = {c: interval_bins(t) for c, t in read_trees(DGH_folder, list(rows[0])).items()}
    return partition(raw_dataset_file, DGH_folder, k, output_file)
'''

LOOP_EVERYWHERE = "".join(f"def {name}(*args):\n    while True:\n        pass\n\n"
                          for name in FUNCTIONS)

PATTERNS = {"interval_cost": INTERVAL_COST, "interval_mondrian": INTERVAL_MONDRIAN}


def write_pattern(folder: Path, name: str) -> Path:
    """Write submission `name` (a key of PATTERNS, or "loop_everywhere") into folder/name."""
    if name == "loop_everywhere":
        (folder / name).mkdir(parents=True)
        (folder / name / "skeleton.py").write_text(LOOP_EVERYWHERE, encoding="utf-8")
        return folder / name
    return staff_submission(folder / name, PATTERNS[name])
