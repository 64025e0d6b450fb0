"""The reference on a real course's data (../shared/course-data, 9,999 rows, 8 QIs, income
sensitive) for k in {4, 16, 64}: every output is a valid generalization with the privacy
property its algorithm promises, the reference's costs of it equal the oracle's exact costs,
and where the naive oracle is fast enough (random, Mondrian) the outputs are identical.
Random row samples with column subsets ("slices") of the course data and of the project's own
adult-hw1.csv are cross-checked against the oracle for all five algorithms.
Course-data tests are skipped with a reason when it is absent (see conftest.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

import oracle
import properties

KS = [4, 16, 64]
ALGORITHMS = ["random", "clustering", "bottomup", "samarati", "mondrian"]
SEED = 20261123  # random_anonymizer's s
L = 2  # bottom-up's l (income has several values)
MAX_SUP = 100  # Samarati's max_sup


@pytest.fixture(scope="module")
def outputs(course_data, tmp_path_factory):
    """Run each (algorithm, k) once per module; returns a getter of the output path."""
    import reference
    folder = tmp_path_factory.mktemp("course-outputs")
    raw, dghs = str(course_data / "adult-hw1.csv"), str(course_data / "DGHs")
    done: dict[tuple[str, int], Path] = {}

    def get(algorithm: str, k: int) -> Path:
        if (algorithm, k) not in done:
            out = folder / f"{algorithm}-{k}.csv"
            if algorithm == "random":
                reference.random_anonymizer(raw, dghs, k, SEED, str(out))
            elif algorithm == "clustering":
                reference.clustering_anonymizer(raw, dghs, k, str(out))
            elif algorithm == "bottomup":
                reference.bottomup_anonymizer(raw, dghs, k, L, str(out))
            elif algorithm == "samarati":
                reference.samarati(raw, dghs, k, MAX_SUP, str(out))
            else:
                reference.mondrian(raw, dghs, k, str(out))
            done[(algorithm, k)] = out
        return done[(algorithm, k)]

    return get


def options(algorithm: str, k: int) -> dict:
    if algorithm == "bottomup":
        return dict(k=k, l=L, full_domain=True)
    if algorithm == "samarati":
        return dict(k=k, max_sup=MAX_SUP, full_domain=True)
    if algorithm == "mondrian":
        return dict(k=k, intervals=True, minimal=True)
    return dict(k=k, minimal=True)


@pytest.mark.slow
@pytest.mark.parametrize("k", KS)
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_course_output_is_valid_and_private(algorithm, k, outputs, course_data):
    out = outputs(algorithm, k)
    problem = properties.check_output(str(course_data / "adult-hw1.csv"), str(out),
                                      str(course_data / "DGHs"), **options(algorithm, k))
    assert problem is None, problem


@pytest.mark.slow
@pytest.mark.parametrize("k", KS)
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_course_costs_equal_oracle_costs(algorithm, k, outputs, course_data):
    import reference
    args = (str(course_data / "adult-hw1.csv"), str(outputs(algorithm, k)),
            str(course_data / "DGHs"))
    md, lm = oracle.costs(*args)
    assert reference.cost_MD(*args) == pytest.approx(float(md), rel=1e-12, abs=1e-9)
    assert reference.cost_LM(*args) == pytest.approx(float(lm), rel=1e-12, abs=1e-9)


@pytest.mark.slow
@pytest.mark.parametrize("algorithm,k", [("random", 4), ("random", 16), ("random", 64),
                                         ("mondrian", 16)])
def test_course_output_equals_oracle_output(algorithm, k, outputs, course_data):
    raw, dghs = str(course_data / "adult-hw1.csv"), str(course_data / "DGHs")
    if algorithm == "random":
        header, rows = oracle.random_anonymizer(raw, dghs, k, SEED)
    else:
        header, rows = oracle.mondrian(raw, dghs, k)
    got_header, got_rows = oracle.read_dataset(str(outputs(algorithm, k)))
    assert got_header == header
    differ = [i + 1 for i, (a, b) in enumerate(zip(rows, got_rows)) if a != b]
    assert not differ and len(got_rows) == len(rows), f"rows {differ[:10]} differ"


def _node_of(p: oracle.Problem, rows: list[list[str]]) -> tuple[int, ...]:
    """The lattice vector that explains every row not entirely made of roots."""
    kept = [(r, o) for r, o in zip(p.rows, rows)
            if any(o[c] != p.h[c].root for c in p.qi)]
    return tuple(min(s for s in range(p.h[c].height() + 1)
                     if all(p.h[c].up(r[c], s) == o[c] for r, o in kept))
                 for c in p.qi)


def _classes(p: oracle.Problem, vector: tuple[int, ...]) -> list[list[int]]:
    tables = [{v: p.h[c].up(v, s) for v in p.h[c].parent} for c, s in zip(p.qi, vector)]
    classes: dict[tuple, list[int]] = {}
    for i, row in enumerate(p.rows):
        key = tuple(t[row[c]] for t, c in zip(tables, p.qi))
        classes.setdefault(key, []).append(i)
    return list(classes.values())


@pytest.mark.parametrize("algorithm", ["bottomup", "samarati"])
def test_course_lattice_node_has_no_satisfying_predecessor(algorithm, outputs, course_data):
    # A necessary condition of "lowest level": every node one step below the output's node
    # (s_i - 1 in one QI) fails; the output's node itself satisfies.
    k = 16
    p = oracle.Problem(str(course_data / "adult-hw1.csv"), str(course_data / "DGHs"))
    _, rows = oracle.read_dataset(str(outputs(algorithm, k)))
    node = _node_of(p, rows)
    sens = p.sensitive()

    def satisfies(vector) -> bool:
        classes = _classes(p, vector)
        if algorithm == "bottomup":
            return all(len(m) >= k and len({p.rows[i][sens] for i in m}) >= L
                       for m in classes)
        return sum(len(m) for m in classes if len(m) < k) <= MAX_SUP

    assert satisfies(node), node
    for j in range(len(node)):
        if node[j]:
            below = node[:j] + (node[j] - 1,) + node[j + 1:]
            assert not satisfies(below), f"{below} below the output's {node} satisfies"


# ---------------------------------------------------------------- real-data slices vs oracle
# Random row samples of the course data with a subset of its columns (the other hierarchy
# files in DGHs/ must then be ignored): real hierarchies and value frequencies, with many
# exact ties, small enough for the naive oracle. Each slice is compared as in
# test_reference_crosscheck (same output, properties, costs).
SMALL_QIS = [["age", "education", "marital-status", "gender"],
             ["native-country", "age", "occupation", "relationship"],
             ["workclass", "education", "gender", "marital-status"]]
SLICES = [  # (algorithm, seed, rows, columns (None = all), parameters)
    ("random", 1, 500, None, dict(k=5, s=7)),
    ("random", 2, 300, SMALL_QIS[1], dict(k=3, s=2**32 - 1)),
    ("clustering", 1, 300, None, dict(k=4)),
    ("clustering", 2, 250, SMALL_QIS[0], dict(k=3)),
    ("clustering", 3, 250, SMALL_QIS[2], dict(k=6)),
    ("bottomup", 1, 300, SMALL_QIS[0], dict(k=3, l=2)),
    ("bottomup", 2, 300, SMALL_QIS[1], dict(k=5, l=2)),
    ("bottomup", 3, 300, SMALL_QIS[2], dict(k=2, l=1)),
    ("samarati", 1, 300, SMALL_QIS[0], dict(k=5, max_sup=10)),
    ("samarati", 2, 300, SMALL_QIS[1], dict(k=4, max_sup=0)),
    ("samarati", 3, 300, SMALL_QIS[2], dict(k=8, max_sup=30)),
    ("mondrian", 1, 600, None, dict(k=3)),
    ("mondrian", 2, 300, SMALL_QIS[1], dict(k=2)),
    ("clustering", 4, 500, None, dict(k=8)),
    ("clustering", 5, 400, SMALL_QIS[1], dict(k=2)),
]


@pytest.mark.slow
@pytest.mark.parametrize("algorithm,seed,n,columns,params", SLICES,
                         ids=[f"{s[0]}-{s[1]}" for s in SLICES])
def test_course_slice_agrees_with_oracle(algorithm, seed, n, columns, params, course_data,
                                         tmp_path):
    _check_slice(course_data, algorithm, seed, n, columns, params, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("algorithm,seed,n,columns,params", SLICES[::2],
                         ids=[f"{s[0]}-{s[1]}" for s in SLICES[::2]])
def test_project_slice_agrees_with_oracle(algorithm, seed, n, columns, params, repo,
                                          tmp_path):
    # The same on the project's own adult-hw1.csv and DGHs/ (runs without the course data).
    _check_slice(repo, algorithm, seed + 100, n, columns, params, tmp_path)


def _check_slice(data: Path, algorithm, seed, n, columns, params, tmp_path) -> None:
    import csv
    import random

    from test_reference_crosscheck import Case, check_case
    header, rows = oracle.read_dataset(str(data / "adult-hw1.csv"))
    keep = [header.index(c) for c in (columns + ["income"] if columns else header)]
    rng = random.Random(seed)
    picked = rng.sample(range(len(rows)), n)  # random order too
    folder = tmp_path / "slice"
    folder.mkdir()
    with open(folder / "raw.csv", "w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow([header[c] for c in keep])
        writer.writerows([[rows[i][c] for c in keep] for i in picked])
    (folder / "DGHs").symlink_to(data / "DGHs", target_is_directory=True)
    problem = check_case(Case(algorithm, seed, folder, params, n))
    assert problem is None, problem
