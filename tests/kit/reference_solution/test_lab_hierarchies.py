"""The USTC lab's hierarchies (courses/ustc/cases/*/DGHs, "child,parent" files):
reference.lab_hierarchies rebuilds each case's files byte for byte from its data; each parses
in the lab's format with the course's heights; every raw value of its column is a leaf; age's
ranges are the aligned widths 5, 10, 20 holding exactly their ages; bad data is refused by
file, row, column and value."""
from __future__ import annotations

import csv
import re
import shutil
from pathlib import Path

import pytest

from kanon import read_dgh_folder
from reference.lab_hierarchies import case_hierarchies, main

REPO = Path(__file__).resolve().parents[3]
CASES = REPO / "courses" / "ustc" / "cases"
CASE_FOLDERS = [CASES / "public" / "adult",
                *(CASES / "hidden" / name for name in ("sample-500", "sample-200", "ages-30-45"))]
HEIGHTS = {"age": 4, "sex": 1, "race": 1, "marital_status": 2, "education_num": 1}
IDS = [f"{c.parent.name}/{c.name}" for c in CASE_FOLDERS]


def _columns(case: Path) -> dict[str, list[str]]:
    with open(case / "adult-hw1.csv", encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    return {name: [row[c] for row in rows[1:]] for c, name in enumerate(rows[0])}


def _chain(dgh, label: str) -> list[str]:
    node, chain = dgh.index[label], []
    while node >= 0:
        chain.append(dgh.labels[node])
        node = int(dgh.parent[node])
    return chain


@pytest.mark.parametrize("case", CASE_FOLDERS, ids=IDS)
def test_the_hierarchies_regenerate_byte_for_byte(case: Path) -> None:
    assert sorted(p.name for p in (case / "DGHs").iterdir()) == sorted(f"{c}.txt" for c in HEIGHTS)
    texts = case_hierarchies(str(case / "adult-hw1.csv"))
    for column, text in texts.items():
        assert text.encode("utf-8") == (case / "DGHs" / f"{column}.txt").read_bytes(), column


@pytest.mark.parametrize("case", CASE_FOLDERS, ids=IDS)
def test_each_file_parses_with_the_course_heights_and_every_value_is_a_leaf(case: Path) -> None:
    dghs = read_dgh_folder(str(case / "DGHs"), fmt="child-parent")
    assert {name: dgh.height for name, dgh in dghs.items()} == HEIGHTS
    assert all(dgh.root_label == "*" for dgh in dghs.values())
    columns = _columns(case)
    for name, dgh in dghs.items():
        leaves = {dgh.labels[v] for v in range(dgh.n_nodes) if dgh.is_leaf(v)}
        assert all(dgh.depth[dgh.index[leaf]] == HEIGHTS[name] for leaf in leaves), name
        assert set(columns[name]) <= leaves, (name, sorted(set(columns[name]) - leaves))
    ages = dghs["age"]
    assert {ages.labels[v] for v in range(ages.n_nodes) if ages.is_leaf(v)} == set(columns["age"])


def test_the_lab_hierarchies_are_the_courses() -> None:
    dghs = read_dgh_folder(str(CASE_FOLDERS[0] / "DGHs"), fmt="child-parent")
    assert _chain(dghs["age"], "37") == ["37", "[35-39]", "[30-39]", "[20-39]", "*"]
    assert _chain(dghs["age"], "17") == ["17", "[15-19]", "[10-19]", "[0-19]", "*"]
    assert _chain(dghs["age"], "90") == ["90", "[90-94]", "[90-99]", "[80-99]", "*"]
    assert dghs["sex"].labels == ["*", "Male", "Female"]
    assert dghs["race"].labels == ["*", "White", "Asian-Pac-Islander", "Amer-Indian-Eskimo",
                                   "Other", "Black"]
    assert dghs["education_num"].labels == ["*", *map(str, range(1, 17))]
    m = dghs["marital_status"]
    groups = {m.labels[g]: [m.labels[c] for c in m.children[g]] for g in m.children[0]}
    assert groups == {"Married": ["Married-civ-spouse", "Married-AF-spouse"],
                      "leave": ["Divorced", "Separated"],
                      "alone": ["Widowed", "Married-spouse-absent"], "NM": ["Never-married"]}


RANGE = re.compile(r"\[(\d+)-(\d+)\]")


@pytest.mark.parametrize("case", CASE_FOLDERS, ids=IDS)
def test_age_ranges_are_aligned_and_hold_exactly_their_ages(case: Path) -> None:
    dgh = read_dgh_folder(str(case / "DGHs"), fmt="child-parent")["age"]
    leaves = [v for v in range(dgh.n_nodes) if dgh.is_leaf(v)]
    for node in range(1, dgh.n_nodes):
        if dgh.is_leaf(node):
            continue
        lo, hi = map(int, RANGE.fullmatch(dgh.labels[node]).groups())
        width = {1: 20, 2: 10, 3: 5}[int(dgh.depth[node])]
        assert hi - lo + 1 == width and lo % width == 0, dgh.labels[node]
        below = {int(dgh.labels[v]) for v in leaves if dgh.is_ancestor_or_self(node, v)}
        assert below and below == {int(dgh.labels[v]) for v in leaves
                                   if lo <= int(dgh.labels[v]) <= hi}, dgh.labels[node]


def test_the_command_writes_a_case_folder(tmp_path: Path, capsys) -> None:
    case = tmp_path / "case"
    case.mkdir()
    shutil.copyfile(CASES / "hidden" / "ages-30-45" / "adult-hw1.csv", case / "adult-hw1.csv")
    assert main([str(case)]) == 0
    assert capsys.readouterr().out == f"wrote 5 hierarchies to {case / 'DGHs'}\n"
    for path in (CASES / "hidden" / "ages-30-45" / "DGHs").iterdir():
        assert (case / "DGHs" / path.name).read_bytes() == path.read_bytes(), path.name
    assert main([str(tmp_path / "nowhere")]) == 2
    assert "error: no adult-hw1.csv in " in capsys.readouterr().err


HEADER = "age,sex,race,marital_status,education_num,occupation\n"


@pytest.mark.parametrize("text, says", [
    (HEADER + "37,Male,White,Divorced,9,Sales\n37,male,White,Divorced,9,Sales\n",
     "row 3, column sex: 'male' is not in the lab's hierarchy (its values: Male, Female)"),
    (HEADER + "37,Male,White,Divorced,17,Sales\n", "row 2, column education_num: '17'"),
    (HEADER + "37,Male,White,Married,9,Sales\n", "row 2, column marital_status: 'Married'"),
    (HEADER + "3x,Male,White,Divorced,9,Sales\n", "row 2, column age: '3x' is not an age"),
    (HEADER + "37,Male,White,Divorced,9\n", "row 2: 5 cells, the header has 6"),
    ("age,sex,race,education_num\n37,Male,White,9\n", "no column marital_status in the header"),
    ("", "the file is empty"),
    (HEADER, "no data rows (the age hierarchy needs at least one age)"),
])
def test_bad_data_is_refused_by_file_row_column_and_value(tmp_path: Path, text, says) -> None:
    path = tmp_path / "adult-hw1.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=re.escape(says)) as error:
        case_hierarchies(str(path))
    assert str(error.value).startswith(f"{path}")
    assert main([str(tmp_path)]) == 2 and not (tmp_path / "DGHs").exists()
