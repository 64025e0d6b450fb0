"""The USTC lab's synthetic twin (courses/ustc/cases): reference.data regenerates the public
file and the three hidden cases byte for byte from courses/ustc/data-model.json (the course's
data model, in its folder); the public file has the cleaned UCI file's shape, only the
model's values and the model's marginals; the hidden cases are fresh draws. Hand-made models
pin the fnlwgt-bin rule and both model layouts without ../shared."""
from __future__ import annotations

import csv
import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from reference.data import LAB_COLUMNS, UCI_COLUMNS, USTC_ROWS, generate_csv, generate_rows

REPO = Path(__file__).resolve().parents[3]
MODEL = REPO / "courses" / "ustc" / "data-model.json"  # the course's data model, in its folder
CASES = REPO / "courses" / "ustc" / "cases"
PUBLIC = CASES / "public" / "adult" / "adult-hw1.csv"
# name -> (rows, seed, ages): the commands of docs/developers.md, "The data"
HIDDEN = {"sample-500": (500, 20210316, None), "sample-200": (200, 20210317, None),
          "ages-30-45": (61, 20210318, (30, 45))}
RENAME = dict(zip(UCI_COLUMNS, LAB_COLUMNS))


@pytest.fixture(scope="module")
def model_path() -> Path:
    if not MODEL.is_file():
        pytest.skip(f"UCI Adult model absent: {MODEL} (the course's data model, committed "
                    "in its folder)")
    return MODEL


@pytest.fixture(scope="module")
def model(model_path) -> dict:
    return json.loads(model_path.read_text(encoding="utf-8"))


def _read(path: Path) -> tuple[list[str], list[list[str]]]:
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


@pytest.fixture(scope="module")
def public() -> tuple[list[str], list[list[str]]]:
    return _read(PUBLIC)


def test_the_twin_regenerates_byte_for_byte(model_path) -> None:
    assert generate_csv(str(model_path)) == PUBLIC.read_bytes()


@pytest.mark.parametrize("name", sorted(HIDDEN))
def test_each_hidden_case_regenerates_byte_for_byte(model_path, name) -> None:
    rows, seed, ages = HIDDEN[name]
    committed = (CASES / "hidden" / name / "adult-hw1.csv").read_bytes()
    assert generate_csv(str(model_path), rows, seed, ages) == committed


def test_the_command_line_draws_a_restricted_case(model_path, tmp_path) -> None:
    out = tmp_path / "case.csv"
    done = subprocess.run([sys.executable, "-m", "reference.data", str(model_path), str(out),
                           "--rows", "61", "--seed", "20210318", "--ages", "30-45"],
                          cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"wrote 61 rows to {out} (seed 20210318)\n"
    assert out.read_bytes() == (CASES / "hidden" / "ages-30-45" / "adult-hw1.csv").read_bytes()


@pytest.mark.parametrize("ages, says", [("45-30", "an empty age range"),
                                        ("thirty", "expected LO-HI"),
                                        ("100-120", "the model has no age in 100-120")])
def test_a_bad_age_range_is_refused(model_path, tmp_path, ages, says) -> None:
    done = subprocess.run([sys.executable, "-m", "reference.data", str(model_path),
                           str(tmp_path / "x.csv"), "--ages", ages],
                          cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and says in done.stderr, done.stderr
    assert not (tmp_path / "x.csv").exists()


def test_the_public_file_has_the_cleaned_uci_shape(public) -> None:
    header, rows = public
    assert header == list(LAB_COLUMNS) and len(header) == 15
    assert len(rows) == USTC_ROWS == 30162
    assert all(len(row) == 15 for row in rows)
    assert all(cell and cell == cell.strip() and cell != "?" for row in rows for cell in row)


def _model_values(model: dict) -> dict[str, set[str]]:
    values = {a: set() for a in model["columns"]}
    values[model["sample_order"][0]] |= set(model["root"])
    for column, table in model["cpt"].items():
        for distribution in table.values():
            values[column] |= set(distribution)
    return values


def _bin_of(value: int, bins: set[str]) -> str:
    found = [b for b in bins if int(b.split("-")[0]) <= value < int(b.split("-")[1])]
    assert len(found) == 1, (value, found)
    return found[0]


def _as_model_values(model: dict, header: list[str], rows: list[list[str]]) -> dict[str, list]:
    """Each column's cells, as the model's values (final_weight as its fnlwgt bin)."""
    bins = _model_values(model)["fnlwgt"]
    columns = {}
    for c, name in enumerate(header):
        cells = [row[c] for row in rows]
        columns[name] = [_bin_of(int(v), bins) for v in cells] if name == "final_weight" else cells
    return columns


def test_every_value_is_one_the_model_can_draw(model, public) -> None:
    values = _model_values(model)
    columns = _as_model_values(model, *public)
    for uci, lab in RENAME.items():
        extra = set(columns[lab]) - values[uci]
        assert not extra, f"{lab}: values the model cannot draw: {sorted(extra)[:5]}"
    assert all(v.isdigit() for v in columns["age"]) and len(set(columns["age"])) > 60


def _marginals(model: dict) -> dict[str, dict[str, float]]:
    """P(attribute = value) of every attribute, propagated down the tree from the root."""
    root = model["sample_order"][0]
    result = {root: dict(model["root"])}
    for attribute in model["sample_order"][1:]:
        parent = result[model["parent"][attribute]]
        p: Counter = Counter()
        for parent_value, q in parent.items():
            for value, r in model["cpt"][attribute][parent_value].items():
                p[value] += q * r
        result[attribute] = dict(p)
    return result


def test_each_marginal_is_within_two_points_of_the_model(model, public) -> None:
    columns = _as_model_values(model, *public)
    worst = {}
    for uci, expected in _marginals(model).items():
        assert sum(expected.values()) == pytest.approx(1, abs=1e-3), uci
        counts = Counter(columns[RENAME[uci]])
        n = len(columns[RENAME[uci]])
        worst[uci] = max(abs(counts[v] / n - p) for v, p in expected.items())
    assert len(worst) == 15 and max(worst.values()) < 0.02, worst


def test_the_hidden_cases_are_fresh_draws(model, public) -> None:
    seen = {tuple(row) for row in public[1]}
    values = _model_values(model)
    for name, (n, _, ages) in HIDDEN.items():
        header, rows = _read(CASES / "hidden" / name / "adult-hw1.csv")
        assert header == list(LAB_COLUMNS) and len(rows) == n, name
        assert not [row for row in rows if tuple(row) in seen], f"{name}: rows of the public file"
        columns = _as_model_values(model, header, rows)
        for uci, lab in RENAME.items():
            assert set(columns[lab]) <= values[uci], (name, lab)
        if ages:
            assert {int(a) for a in columns["age"]} <= set(range(ages[0], ages[1] + 1)), name


# ------------------------------------------------------------------ hand-made models

TINY_UCI = {"columns": ["age", "w", "job"], "sample_order": ["age", "w", "job"],
            "parent": {"age": None, "w": "age", "job": "age"},
            "root": {"30": 0.25, "40": 0.75},
            "cpt": {"w": {"30": {"10-20": 1.0}, "40": {"100-200": 0.5, "200-1000": 0.5}},
                    "job": {"30": {"a": 1.0}, "40": {"a": 0.5, "b": 0.5}}}}


def _by_hand(seed: int, rows: int) -> list[list[str]]:
    """TINY_UCI sampled by the rule: inverse CDF over sorted values, then the bin's integer
    lo + int(random() * (hi - lo)) from the same stream right after the bin."""
    rng = random.Random(seed)
    out = []
    for _ in range(rows):
        age = "30" if rng.random() * 1.0 < 0.25 else "40"
        if age == "30":
            rng.random()
            lo, hi = 10, 20
        else:
            lo, hi = (100, 200) if rng.random() < 0.5 else (200, 1000)
        w = lo + int(rng.random() * (hi - lo))
        job = "a" if age == "30" else ("a" if rng.random() < 0.5 else "b")
        if age == "30":
            rng.random()
        out.append([age, str(w), job])
    return out


def test_a_binned_column_draws_an_integer_from_the_same_stream() -> None:
    header, rows = generate_rows(TINY_UCI, 200, 7, binned=("w",))
    assert header == ["age", "w", "job"] and rows == _by_hand(7, 200)
    assert {r[0] for r in rows} == {"30", "40"}
    assert all(10 <= int(w) < 20 for a, w, _ in rows if a == "30")
    assert all(100 <= int(w) < 1000 for a, w, _ in rows if a == "40")


def test_both_model_layouts_and_the_age_restriction() -> None:
    kit_layout = {**TINY_UCI, "root": {"attribute": "age", "p": TINY_UCI["root"]},
                  "cpt": {c: {"parent": "age", "p": t} for c, t in TINY_UCI["cpt"].items()}}
    assert generate_rows(kit_layout, 50, 3) == generate_rows(TINY_UCI, 50, 3)
    _, rows = generate_rows(TINY_UCI, 50, 3, binned=("w",), ages=(35, 45))
    assert {r[0] for r in rows} == {"40"}
    with pytest.raises(ValueError, match="the model has no age in 50-60"):
        generate_rows(TINY_UCI, 5, 3, ages=(50, 60))
    other_root = {**TINY_UCI, "sample_order": ["job", "age", "w"],
                  "parent": {"job": None, "age": "job", "w": "age"}}
    with pytest.raises(ValueError, match="needs a model whose root is age, not 'job'"):
        generate_rows(other_root, 5, 3, ages=(30, 40))
