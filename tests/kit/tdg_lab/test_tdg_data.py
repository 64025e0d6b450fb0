"""The Top-Down Greedy lab's data (courses/tdg-lab): its data model is the UCI Adult model; its
public file is the USTC lab's synthetic twin byte for byte (the same cleaned UCI rows), and it
and the three hidden cases regenerate byte for byte from the course's own data-model.json with
the kit's generator; its ';' hierarchies are make_hierarchies.py's output in every case, hold
the lab's groups and cover every value of every case."""
from __future__ import annotations

import csv
import importlib.util
import json
from pathlib import Path

import pytest

from reference.data import LAB_COLUMNS, generate_csv

REPO = Path(__file__).resolve().parents[3]
COURSE = REPO / "courses" / "tdg-lab"
MODEL = COURSE / "data-model.json"
CASES = COURSE / "cases"
PUBLIC = CASES / "public" / "adult"
# name -> (rows, seed, ages): the commands of courses/tdg-lab/README.md
HIDDEN = {"sample-500": (500, 20060820, None), "sample-200": (200, 20060821, None),
          "ages-30-45": (61, 20060822, (30, 45))}
CASE_FOLDERS = [PUBLIC, *(CASES / "hidden" / name for name in sorted(HIDDEN))]
IDS = [f"{c.parent.name}/{c.name}" for c in CASE_FOLDERS]
QIS = ("age", "work_class", "education_num", "marital_status", "occupation", "race", "sex",
       "native_country")
CATEGORICAL = ("work_class", "marital_status", "occupation", "race", "sex", "native_country")


def _load_maker():
    spec = importlib.util.spec_from_file_location("tdg_make_hierarchies",
                                                  COURSE / "make_hierarchies.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def maker():
    return _load_maker()


def _read(path: Path) -> tuple[list[str], list[list[str]]]:
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def test_the_data_model_is_the_uci_adult_model() -> None:
    shared = REPO.parent / "shared" / "uci-adult-model.json"
    if shared.is_file():
        assert MODEL.read_bytes() == shared.read_bytes()
    model = json.loads(MODEL.read_text(encoding="utf-8"))
    assert model["columns"][:2] == ["age", "workclass"] and len(model["columns"]) == 15


def test_the_public_file_is_the_ustc_twin_byte_for_byte() -> None:
    ustc = REPO / "courses" / "ustc" / "cases" / "public" / "adult" / "adult-hw1.csv"
    assert (PUBLIC / "adult-hw1.csv").read_bytes() == ustc.read_bytes()


def test_the_public_file_regenerates_from_the_course_model() -> None:
    assert generate_csv(str(MODEL)) == (PUBLIC / "adult-hw1.csv").read_bytes()
    header, rows = _read(PUBLIC / "adult-hw1.csv")
    assert header == list(LAB_COLUMNS) and len(rows) == 30162
    assert all(len(row) == 15 for row in rows)


@pytest.mark.parametrize("name", sorted(HIDDEN))
def test_each_hidden_case_regenerates_from_the_course_model(name) -> None:
    rows, seed, ages = HIDDEN[name]
    committed = (CASES / "hidden" / name / "adult-hw1.csv").read_bytes()
    assert generate_csv(str(MODEL), rows, seed, ages) == committed


def test_the_hidden_cases_are_fresh_draws() -> None:
    assert sorted(p.name for p in (CASES / "hidden").iterdir()) == sorted(HIDDEN)
    seen = {tuple(row) for row in _read(PUBLIC / "adult-hw1.csv")[1]}
    ustc = {tuple(row) for name in HIDDEN for row in
            _read(REPO / "courses" / "ustc" / "cases" / "hidden" / name / "adult-hw1.csv")[1]}
    for name, (n, _, ages) in HIDDEN.items():
        header, rows = _read(CASES / "hidden" / name / "adult-hw1.csv")
        assert header == list(LAB_COLUMNS) and len(rows) == n, name
        assert not [r for r in rows if tuple(r) in seen], f"{name}: rows of the public file"
        assert len([r for r in rows if tuple(r) in ustc]) < n // 10, f"{name}: the USTC draw"
        if ages:
            assert {int(row[0]) for row in rows} <= set(range(ages[0], ages[1] + 1)), name


# ------------------------------------------------------------------ the hierarchies

@pytest.mark.parametrize("case", CASE_FOLDERS, ids=IDS)
def test_the_committed_hierarchies_are_the_script_output(maker, case) -> None:
    texts = maker.hierarchy_texts(json.loads(MODEL.read_text(encoding="utf-8")))
    assert list(texts) == list(CATEGORICAL)
    assert sorted(p.name for p in (case / "DGHs").iterdir()) == \
        sorted(f"{c}.txt" for c in CATEGORICAL)  # none for the numeric QIs
    for column, text in texts.items():
        assert (case / "DGHs" / f"{column}.txt").read_text(encoding="utf-8") == text, column
    assert maker.case_folders(COURSE) == CASE_FOLDERS


def _paths(case: Path, column: str) -> dict[str, list[str]]:
    lines = (case / "DGHs" / f"{column}.txt").read_text(encoding="utf-8").splitlines()
    return {line.split(";")[0]: line.split(";")[1:] for line in lines}


def test_the_lab_groups() -> None:
    assert _paths(PUBLIC, "work_class") == {
        "Private": ["*"], "Self-emp-not-inc": ["Self-employ", "*"],
        "Self-emp-inc": ["Self-employ", "*"], "Federal-gov": ["gov", "*"],
        "Local-gov": ["gov", "*"], "State-gov": ["gov", "*"],
        "Without-pay": ["not-work", "*"], "Never-worked": ["not-work", "*"]}
    assert _paths(PUBLIC, "marital_status") == {
        "Married-civ-spouse": ["Married", "*"], "Married-AF-spouse": ["Married", "*"],
        "Divorced": ["leave", "*"], "Separated": ["leave", "*"],
        "Widowed": ["alone", "*"], "Married-spouse-absent": ["alone", "*"],
        "Never-married": ["NM", "*"]}
    sizes = {"occupation": 14, "race": 5, "sex": 2, "native_country": 41}
    for column, size in sizes.items():
        paths = _paths(PUBLIC, column)
        assert len(paths) == size and all(up == ["*"] for up in paths.values()), column


@pytest.mark.parametrize("case", CASE_FOLDERS, ids=IDS)
def test_the_format_and_every_value_covered(case) -> None:
    header, rows = _read(case / "adult-hw1.csv")
    for column in CATEGORICAL:
        text = (case / "DGHs" / f"{column}.txt").read_text(encoding="utf-8")
        lines = text.splitlines()
        assert text.endswith("\n") and all(line.endswith(";*") for line in lines), column
        leaves = [line.split(";")[0] for line in lines]
        assert leaves == sorted(leaves) and len(set(leaves)) == len(leaves), column
        data = {row[header.index(column)] for row in rows}
        assert data <= set(leaves), (column, sorted(data - set(leaves)))
    for column in ("age", "education_num"):
        assert all(row[header.index(column)].isdigit() for row in rows)


def test_a_value_outside_the_hierarchies_is_named(maker, tmp_path) -> None:
    texts = maker.hierarchy_texts(json.loads(MODEL.read_text(encoding="utf-8")))
    header, rows = _read(PUBLIC / "adult-hw1.csv")
    rows = [list(r) for r in rows[:3]]
    rows[1][header.index("race")] = "Martian"
    with open(tmp_path / "adult-hw1.csv", "w", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows([header, *rows])
    with pytest.raises(ValueError, match=r"line 3, column race: 'Martian' is no leaf"):
        maker.check_case(tmp_path, texts)
    model = json.loads(MODEL.read_text(encoding="utf-8"))
    table = model["cpt"]["workclass"]
    first = next(iter(table))
    table[first] = {**table[first], "Astronaut": 0.0}
    with pytest.raises(ValueError, match="work_class values in no group of the lab's: Astronaut"):
        maker.hierarchy_texts(model)
