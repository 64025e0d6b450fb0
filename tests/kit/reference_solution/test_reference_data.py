"""The bundled data: adult-hw1.csv is exactly what reference.data generates from
../shared/adult-model.json (skipped with a reason when the model is absent), every value the
model can produce is a leaf of the right column's hierarchy in DGHs/, and every age band
"[a,b)" holds exactly the ages a <= age < b.
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import oracle

REPO = Path(__file__).resolve().parents[3]
MODEL = (REPO / ".." / "shared" / "adult-model.json").resolve()


@pytest.fixture(scope="module")
def model_path() -> Path:
    if not MODEL.is_file():
        pytest.skip(f"generator model absent: {MODEL} (it lives in ../shared beside the "
                    "checkout and is never copied into the project)")
    return MODEL


@pytest.fixture(scope="module")
def model(model_path) -> dict:
    import json
    return json.loads(model_path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def hierarchies() -> dict[str, oracle.Hierarchy]:
    return {p.stem: oracle.Hierarchy(str(p)) for p in sorted((REPO / "DGHs").glob("*.txt"))}


def test_generator_reproduces_the_committed_dataset(model_path):
    from reference.data import generate_csv
    assert generate_csv(str(model_path)) == (REPO / "adult-hw1.csv").read_bytes()


def test_generator_cli_reproduces_the_committed_dataset(model_path, tmp_path):
    out = tmp_path / "regenerated.csv"
    done = subprocess.run([sys.executable, "-m", "reference.data", str(model_path), str(out)],
                          cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes() == (REPO / "adult-hw1.csv").read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["regenerated.csv"]


def test_generator_depends_on_the_seed_only(model_path):
    from reference.data import generate_csv
    a = generate_csv(str(model_path), rows=200, seed=1)
    assert a == generate_csv(str(model_path), rows=200, seed=1)
    assert a != generate_csv(str(model_path), rows=200, seed=2)
    assert a.count(b"\n") == 201 and a.endswith(b"\n")


def _model_values(model: dict) -> dict[str, set[str]]:
    """Every value the model can draw, per column ('root' and every row of 'cpt')."""
    values = {model["root"]["attribute"]: set(model["root"]["p"])}
    for column, table in model["cpt"].items():
        values.setdefault(column, set())
        for distribution in table["p"].values():
            values[column] |= set(distribution)
    return values


def test_model_columns_match_the_dataset_header(model):
    header = (REPO / "adult-hw1.csv").read_text(encoding="utf-8").split("\n", 1)[0]
    assert model["columns"] == header.split(",")
    assert set(_model_values(model)) == set(model["columns"])


def test_every_model_value_is_a_leaf_of_its_hierarchy(model, hierarchies):
    problems = []
    checked = 0
    for column, values in _model_values(model).items():
        if column not in hierarchies:
            continue  # the sensitive column has no hierarchy
        h = hierarchies[column]
        for value in sorted(values):
            checked += 1
            if value not in h.parent:
                problems.append(f"{column}: {value!r} is not in DGHs/{column}.txt")
            elif not h.is_leaf(value):
                problems.append(f"{column}: {value!r} is not a leaf of DGHs/{column}.txt")
    assert checked > 100 and not problems, problems


def test_every_dataset_value_is_a_leaf_of_its_hierarchy(hierarchies):
    header, rows = oracle.read_dataset(str(REPO / "adult-hw1.csv"))
    assert len(rows) == 9999
    assert set(hierarchies) == set(header) - {"income"}
    for c, column in enumerate(header):
        if column in hierarchies:
            h = hierarchies[column]
            bad = sorted({r[c] for r in rows if r[c] not in h.parent or not h.is_leaf(r[c])})
            assert not bad, f"{column}: {bad} are not leaves of DGHs/{column}.txt"


BAND = re.compile(r"\[(\d+),(\d+)\)")


def test_age_bands_hold_exactly_their_ages(hierarchies):
    h = hierarchies["age"]
    leaves = h.all_leaves()
    assert all(re.fullmatch(r"\d+", v) for v in leaves), "every age leaf is an integer"
    internal = [v for v in h.parent if not h.is_leaf(v) and v != h.root]
    assert internal and all(BAND.fullmatch(v) for v in internal), \
        f"internal age labels that are not bands: {[v for v in internal if not BAND.fullmatch(v)]}"
    for band in internal:
        a, b = map(int, BAND.fullmatch(band).groups())
        assert a < b, band
        below = {v for v in leaves if band in h.path_to_root(v)}
        in_range = {v for v in leaves if a <= int(v) < b}
        assert below == in_range, (f"{band}: outside the band {sorted(below - in_range)}, "
                                   f"in range but elsewhere {sorted(in_range - below)}")
