"""The USTC lab's hierarchies, built from a case's data, in the lab's "child,parent" format.

    python -m reference.lab_hierarchies CASE_FOLDER [CASE_FOLDER ...]

Reads CASE_FOLDER/adult-hw1.csv (a header row with the lab's column names) and writes
CASE_FOLDER/DGHs/<column>.txt for the columns that can be QIs (the course's DESIGN):
- age (height 4): raw value -> [35-39] -> [30-39] -> [20-39] -> * (ranges of width 5, 10, 20
  aligned to multiples of the width); the leaves are the ages that occur in the data;
- sex: Male, Female -> * (height 1); race: the five values -> * (height 1);
- marital_status (height 2): Married = {Married-civ-spouse, Married-AF-spouse},
  leave = {Divorced, Separated}, alone = {Widowed, Married-spouse-absent},
  NM = {Never-married}, then *;
- education_num (height 1): 1 .. 16 -> *.
The categorical hierarchies are the lab's fixed ones (every value of the domain, whether the
case holds it or not); a data value outside its domain is an error naming the file, row,
column and value. Nodes are written in preorder, children in the order above (ages and
ranges ascending), so the same data gives the same files byte for byte.
"""
from __future__ import annotations

import argparse
import csv
import os
import sys

from kanon.files import atomic_write_text
from kanon.hierarchy_formats import render_child_parent

ROOT = "*"
AGE_WIDTHS = (5, 10, 20)
SEX = ("Male", "Female")
RACE = ("White", "Asian-Pac-Islander", "Amer-Indian-Eskimo", "Other", "Black")
MARITAL_GROUPS = {"Married": ("Married-civ-spouse", "Married-AF-spouse"),
                  "leave": ("Divorced", "Separated"),
                  "alone": ("Widowed", "Married-spouse-absent"),
                  "NM": ("Never-married",)}
EDUCATION_NUM = tuple(str(n) for n in range(1, 17))
COLUMNS = ("age", "sex", "race", "marital_status", "education_num")
DATA_FILE = "adult-hw1.csv"
DGH_DIR = "DGHs"

Tree = dict[str, "Tree"]  # label -> its children, in order


def _flat(values: tuple[str, ...]) -> Tree:
    return {ROOT: {v: {} for v in values}}


def age_tree(ages: set[int]) -> Tree:
    """age's hierarchy over the given ages: ranges of width 5, 10 and 20 under the root."""
    if not ages:
        raise ValueError("no ages to build the age hierarchy from")
    top: Tree = {}
    for age in sorted(ages):
        node = top
        for width in reversed(AGE_WIDTHS):
            lo = age // width * width
            node = node.setdefault(f"[{lo}-{lo + width - 1}]", {})
        node[str(age)] = {}
    return {ROOT: top}


def fixed_trees() -> dict[str, Tree]:
    """The lab's hierarchies that do not depend on the data."""
    return {"sex": _flat(SEX), "race": _flat(RACE),
            "marital_status": {ROOT: {g: {v: {} for v in vs} for g, vs in MARITAL_GROUPS.items()}},
            "education_num": _flat(EDUCATION_NUM)}


def render_tree(tree: Tree, name: str) -> str:
    """The tree as "child,parent" lines, nodes in preorder."""
    labels: list[str] = []
    parent: list[int] = []

    def walk(node: Tree, up: int) -> None:
        for label, children in node.items():
            labels.append(label)
            parent.append(up)
            walk(children, len(labels) - 1)

    walk(tree, -1)
    return render_child_parent(labels, parent, f"{name}.txt")


def _leaves(tree: Tree) -> list[str]:
    """The leaves in preorder."""
    found: list[str] = []
    for label, children in tree.items():
        found += _leaves(children) if children else [label]
    return found


def case_hierarchies(data_path: str) -> dict[str, str]:
    """The text of each hierarchy file for the data in `data_path`, keyed by column."""
    with open(data_path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        raise ValueError(f"{data_path}: the file is empty (it needs a header row)")
    header = rows[0]
    if len(rows) == 1:
        raise ValueError(f"{data_path}: no data rows (the age hierarchy needs at least one age)")
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        raise ValueError(f"{data_path}: no column {', '.join(missing)} in the header {header}")
    trees = fixed_trees()
    domains = {column: _leaves(tree) for column, tree in trees.items()}
    allowed = {column: set(values) for column, values in domains.items()}
    ages: set[int] = set()
    at = {c: header.index(c) for c in COLUMNS}
    for row_no, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            raise ValueError(f"{data_path}, row {row_no}: {len(row)} cells, the header has "
                             f"{len(header)}")
        age = row[at["age"]]
        if not age.isdigit():
            raise ValueError(f"{data_path}, row {row_no}, column age: {age!r} is not an age")
        ages.add(int(age))
        for column, values in allowed.items():
            value = row[at[column]]
            if value not in values:
                raise ValueError(f"{data_path}, row {row_no}, column {column}: {value!r} is "
                                 f"not in the lab's hierarchy (its values: "
                                 f"{', '.join(domains[column])})")
    trees["age"] = age_tree(ages)
    return {column: render_tree(trees[column], column) for column in COLUMNS}


def write_case_hierarchies(case_folder: str) -> list[str]:
    """Write CASE/DGHs/<column>.txt from CASE/adult-hw1.csv; returns the paths written."""
    texts = case_hierarchies(os.path.join(case_folder, DATA_FILE))
    written = []
    for column, text in texts.items():
        path = os.path.join(case_folder, DGH_DIR, f"{column}.txt")
        atomic_write_text(path, text)
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reference.lab_hierarchies",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("cases", nargs="+", metavar="CASE_FOLDER",
                        help=f"a folder holding {DATA_FILE}; its {DGH_DIR}/ is (re)written")
    args = parser.parse_args(argv)
    for case in args.cases:
        if not os.path.isfile(os.path.join(case, DATA_FILE)):
            print(f"error: no {DATA_FILE} in {case}", file=sys.stderr)
            return 2
        try:
            written = write_case_hierarchies(case)
        except ValueError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        print(f"wrote {len(written)} hierarchies to {os.path.join(case, DGH_DIR)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
