"""The Top-Down Greedy lab's hierarchies, in the lab's ';' path format, for every case.

    python courses/tdg-lab/make_hierarchies.py

Writes DGHs/<column>.txt for the six categorical QIs into every case folder of this course
(cases/public/adult and each cases/hidden/*; the same files in each): one line per leaf, the
leaf and then its ancestors up to the root `*`, separated by ';' (`Self-emp-inc;Self-employ;*`),
lines in the sorted order of their leaves, one '\\n' each. The groups are the lab's
(../shared/courses/tdg-lab.md):
- work_class (height 2): Private; Self-employ = {Self-emp-not-inc, Self-emp-inc};
  gov = {Federal-gov, Local-gov, State-gov}; not-work = {Without-pay, Never-worked};
- marital_status (height 2): the USTC lab's four groups (reference.lab_hierarchies);
- occupation, race, sex, native_country (height 1): every value the course's data model
  (data-model.json) can draw, directly under `*`.
No file for age and education_num: the numeric QIs are those without one (CONTRACT.md).
A value of the model or of a case's data that no hierarchy holds is an error naming it; the
same model gives the same files byte for byte (tests/kit/tdg_lab/test_tdg_data.py).
"""
from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

COURSE = Path(__file__).resolve().parent
sys.path.insert(0, str(COURSE.parents[1]))  # the kit's root: reference/, kanon/

from kanon.files import atomic_write_text  # noqa: E402
from reference.data import LAB_COLUMNS, UCI_COLUMNS  # noqa: E402
from reference.lab_hierarchies import MARITAL_GROUPS  # noqa: E402

ROOT = "*"
MODEL = COURSE / "data-model.json"
DATA_FILE, DGH_DIR = "adult-hw1.csv", "DGHs"
WORK_CLASS_GROUPS = {"Private": (),
                     "Self-employ": ("Self-emp-not-inc", "Self-emp-inc"),
                     "gov": ("Federal-gov", "Local-gov", "State-gov"),
                     "not-work": ("Without-pay", "Never-worked")}
GROUPED = {"work_class": WORK_CLASS_GROUPS, "marital_status": MARITAL_GROUPS}
FLAT = ("occupation", "race", "sex", "native_country")
COLUMNS = ("work_class", "marital_status", "occupation", "race", "sex", "native_country")


def model_values(model: dict) -> dict[str, set[str]]:
    """Every value the model can draw, by the lab's column name."""
    values: dict[str, set[str]] = {a: set() for a in model["columns"]}
    values[next(a for a in model["sample_order"] if model["parent"][a] is None)] |= \
        set(model["root"])
    for column, table in model["cpt"].items():
        for distribution in table.values():
            values[column] |= set(distribution)
    names = dict(zip(UCI_COLUMNS, LAB_COLUMNS))
    return {names.get(a, a): v for a, v in values.items()}


def _paths(groups: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """leaf -> its ancestors up to the root; a group with no members is itself a leaf."""
    paths = {}
    for group, members in groups.items():
        for leaf in members:
            paths[leaf] = (group, ROOT)
        if not members:
            paths[group] = (ROOT,)
    return paths


def hierarchy_texts(model: dict) -> dict[str, str]:
    """The text of each hierarchy file, keyed by column, in COLUMNS order."""
    values = model_values(model)
    texts = {}
    for column in COLUMNS:
        if column in GROUPED:
            paths = _paths(GROUPED[column])
            outside = sorted(values[column] - set(paths))
            if outside:
                raise ValueError(f"{MODEL.name}: {column} values in no group of the lab's: "
                                 f"{', '.join(outside)}")
        else:
            paths = {leaf: (ROOT,) for leaf in values[column]}
        texts[column] = "".join(";".join((leaf, *paths[leaf])) + "\n" for leaf in sorted(paths))
    return texts


def case_folders(course: Path = COURSE) -> list[Path]:
    """The public case and every hidden case (sorted), each a folder holding DATA_FILE."""
    hidden = sorted(p for p in (course / "cases" / "hidden").glob("*") if p.is_dir())
    return [course / "cases" / "public" / "adult", *hidden]


def check_case(case: Path, texts: dict[str, str]) -> None:
    """Every value of the case's data is a leaf of its column's hierarchy."""
    path = case / DATA_FILE
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    header = rows[0]
    for column, text in texts.items():
        leaves = {line.split(";")[0] for line in text.splitlines()}
        at = header.index(column)
        for row_no, row in enumerate(rows[1:], start=2):
            if row[at] not in leaves:
                raise ValueError(f"{path}, line {row_no}, column {column}: {row[at]!r} is no "
                                 "leaf of its hierarchy")


def main() -> int:
    texts = hierarchy_texts(json.loads(MODEL.read_text(encoding="utf-8")))
    for case in case_folders():
        try:
            check_case(case, texts)
        except ValueError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        for column, text in texts.items():
            atomic_write_text(str(case / DGH_DIR / f"{column}.txt"), text)
        print(f"wrote {len(texts)} hierarchies to {(case / DGH_DIR).relative_to(COURSE)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
