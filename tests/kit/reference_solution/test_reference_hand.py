"""Hand-computed small examples (tests/data/reference/<case>/): the reference and the oracle
must both produce the hand-written expected files and the hand-computed costs.

The expected files were typed by hand from the arithmetic below, never produced by a program.

jobs (the handout's Job/Sex example): Job = Any{Professional{Engineer, Lawyer},
Artist{Writer, Dancer}} (|A| = 4, height 2), Sex = Any{Male, Female} (|A| = 2, height 1),
Disease is the sensitive column, Zip.txt is a hierarchy of no column (ignored). Rows:
r0 Engineer,Male,Flu  r1 Lawyer,Male,Cold  r2 Writer,Female,Flu  r3 Dancer,Female,Cold
r4 Engineer,Female,HIV  r5 Dancer,Male,Flu  r6 Lawyer,Female,Flu.
LM: Job leaf 0, Professional/Artist 1/3, Any 1; Sex leaf 0, Any 1. 2 * sum of heights = 6.
dist = Job part + Sex part with Job part 0 (same), 1/6 + 2/6 = 1/2 (siblings),
1/2 + 4/6 = 7/6 (other branch) and Sex part 0 (same), 1/2 + 2/6 = 5/6 (different).
"""
from __future__ import annotations

import csv
import os
import shutil
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import oracle

DATA = Path(__file__).resolve().parents[2] / "data" / "reference"
F = Fraction


def read_csv(path) -> list[list[str]]:
    with open(path, encoding="utf-8", newline="") as f:
        return [r for r in csv.reader(f) if r]


# (case, raw file, algorithm, parameters, expected file, hand MD, hand LM)
CASES = [
    # clustering k=2: curr r0 -> nearest r1 (1/2): EC {r0,r1} = (Professional, Male).
    # Sum of dist to [r0]: r2 2, r3 2, r4 5/6, r5 7/6, r6 4/3 -> r2 (tie with r3, lowest row).
    # curr r2 -> nearest r3 (1/2): EC {r2,r3}. Sums to [r0, r2]: r4 5/6+7/6 = 2,
    # r5 7/6+4/3 = 5/2, r6 4/3+7/6 = 5/2 -> r5 (tie with r6). curr r5 -> r4 or r6 both at 2
    # -> r4: EC {r5,r4} = (Any, Any). Left over r6: dist to centroids r0 4/3, r2 7/6, r5 2
    # -> joins {r2,r3}, regeneralized over Writer, Dancer, Lawyer / Female x3 = (Any, Female).
    # MD 1+1+2+2+3+3+2 = 14; LM 1/6+1/6+1/2+1/2+1+1+1/2 = 23/6.
    ("jobs", "raw.csv", "clustering", dict(k=2), "clustering_k2.csv", 14, F(23, 6)),
    # random k=2 s=42: numpy's permutation is [0, 1, 5, 2, 4, 3, 6] (see test below);
    # ECs {r0,r1} = (Professional, Male), {r5,r2} = (Artist, Any), {r4,r3,r6} = (Any, Female).
    # MD 1+1+2+2+2+2+2 = 12; LM 1/6+1/6+2/3+1/2+1/2+2/3+1/2 = 19/6.
    ("jobs", "raw.csv", "random", dict(k=2, s=42), "random_k2_s42.csv", 12, F(19, 6)),
    # bottom-up k=2 l=2: level 0 all singletons; level 1: (0,1) leaves Writer alone, (1,0)
    # leaves (Artist, Male) = r5 alone; level 2: (1,1) ECs {r0,r1,r4,r6} {r2,r3,r5} and
    # (2,0) ECs {r0,r1,r5} {r2,r3,r4,r6} both satisfy; LM 7 * 2/3 = 14/3 vs 7 * 1/2 = 7/2
    # -> (2,0). MD 7 * 2 = 14.
    ("jobs", "raw.csv", "bottomup", dict(k=2, l=2), "bottomup_k2_l2.csv", 14, F(7, 2)),
    # l=3: at level 2, (1,1)'s {r2,r3,r5} has {Flu, Cold} and (2,0)'s {r0,r1,r5} too -> level
    # 3 (2,1): one EC with {Flu, Cold, HIV}. MD 7 * 3 = 21, LM 7.
    ("jobs", "raw.csv", "bottomup", dict(k=2, l=3), "bottomup_k2_l3.csv", 21, F(7)),
    # Samarati k=2 max_sup=0: height 1 nodes have 1 outlier each -> h* = 2, same as bottom-up.
    ("jobs", "raw.csv", "samarati", dict(k=2, max_sup=0), "samarati_k2_sup0.csv", 14, F(7, 2)),
    # max_sup=1: try 1: (0,1) outlier r2, (1,0) outlier r5, both satisfy; try 0 fails -> h*=1.
    # (0,1): 6 rows (0+1)/2 + suppressed r2 1 = 4; (1,0): 6 rows 1/6 + suppressed r5 1 = 2.
    # -> (1,0). MD 6 * 1 + r5 (2+1) = 9.
    ("jobs", "raw.csv", "samarati", dict(k=2, max_sup=1), "samarati_k2_sup1.csv", 9, F(2)),
    # Mondrian k=2: widths Job 1, Sex 1 -> Job (column order): Professional {r0,r1,r4,r6},
    # Artist {r2,r3,r5}. First part: Sex 1 > Job 1/3: Male {r0,r1}, Female {r4,r6}; each
    # cannot cut Job (1 Engineer, 1 Lawyer). Second part: Sex F{r2,r3} M{r5} and Job
    # Writer{r2} Dancer{r3,r5} not allowed -> (Artist, Any).
    # MD 4 * 1 + 3 * 2 = 10; LM 4 * 1/6 + 3 * 2/3 = 8/3.
    ("jobs", "raw.csv", "mondrian", dict(k=2), "mondrian_k2.csv", 10, F(8, 3)),
    # ages: Age numeric (U - L = 57 - 21 = 36), leaves 21 25 28 30 34 41 45 52 57 in
    # Any{[0,40){[20,30){21,25,28},[30,40){30,34}},[40,80){[40,50){41,45},[50,60){52,57}}}.
    # k=2: widths Age 1, Sex 1 -> Age: sorted 21 25 28 30 41 45 52 57, split = 4th = 30.
    # Left {25,30,21,28}: Sex 1 > Age 9/36: M {25,21} F {30,28}; [21-25] can't cut (split 21
    # leaves 1). Right: Sex: F {45,41} M {52,57}.
    # LM: Age 4/36, 2/36, 4/36, 5/36 (two rows each), halved: 15/36 = 5/12.
    # MD (LCA of the DGH leaves inside the interval): [21-25] -> [20,30) 1, [28-30] ->
    # [0,40) 2, [41-45] -> [40,50) 1, [52-57] -> [50,60) 1; two rows each: 10.
    ("ages", "raw.csv", "mondrian", dict(k=2), "mondrian_k2.csv", 10, F(5, 12)),
    # k=3: Age cut 4/4; then Sex groups of 2 and Age split at 25 / 45 leave 2 -> final.
    # MD: [21-30] -> [0,40) (leaves 21 25 28 30) 2, [41-57] -> [40,80) 2, Sex 1: 8 * 3 = 24.
    # LM: 4 * (9/36 + 1)/2 + 4 * (16/36 + 1)/2 = 5/2 + 26/9 = 97/18.
    ("ages", "raw.csv", "mondrian", dict(k=3), "mondrian_k3.csv", 24, F(97, 18)),
    # dupes k=2: Age split at 30 (sorted 30 30 41 41): {30,30} can't cut Sex (1 M, 1 F) ->
    # Age min = max -> raw "30", Sex *; {41,41} all M -> "41", M. MD 2, LM 2 * 1/2 = 1.
    ("ages", "raw_dupes.csv", "mondrian", dict(k=2), "mondrian_dupes_k2.csv", 2, F(1)),
    # grid (QIs in column order B, A; DGH files are read alphabetically A, B): level 1 nodes
    # (0,1) and (1,0) both satisfy k=2 with LM 4 * 1/2 = 2 -> lexicographically smallest
    # (0,1) = B raw, A generalized. MD 4, LM 2.
    ("grid", "raw.csv", "bottomup", dict(k=2, l=1), "bottomup_k2_l1.csv", 4, F(2)),
    # l=2: (0,1)'s EC b1 has {x, x} -> (1,0) = B generalized, A raw.
    ("grid", "raw.csv", "bottomup", dict(k=2, l=2), "bottomup_k2_l2.csv", 4, F(2)),
    ("grid", "raw.csv", "samarati", dict(k=2, max_sup=0), "samarati_k2_sup0.csv", 4, F(2)),
    # max_sup=3: level 0 has 4 outliers > 3; level 1 as above.
    ("grid", "raw.csv", "samarati", dict(k=2, max_sup=3), "samarati_k2_sup3.csv", 4, F(2)),
    # max_sup=4: level 0 satisfies with all 4 rows suppressed. MD 8, LM 4.
    ("grid", "raw.csv", "samarati", dict(k=2, max_sup=4), "samarati_k2_sup4.csv", 8, F(4)),
    # unbalanced U = *{p{q{u1,u2},u3},u4} (|A| = 4, height 3): rows u1 u2 u3 u4 u1.
    # level 1: q{r0,r1,r4} p{r2} *{r3} fails; level 2 (u1,u2 -> p; u3, u4 -> root):
    # p{r0,r1,r4} *{r2,r3}. LM 3 * 2/3 + 2 = 4; MD 2+2+2+1+2 = 9.
    ("unbalanced", "raw.csv", "bottomup", dict(k=2, l=1), "bottomup_k2_l1.csv", 9, F(4)),
    ("unbalanced", "raw.csv", "samarati", dict(k=2, max_sup=1), "samarati_k2_sup1.csv", 9,
     F(4)),
    # max_sup=2: level 1 has 2 outliers (r2, r3) -> q q * * q. LM 3 * 1/3 + 2 = 3, MD 6.
    ("unbalanced", "raw.csv", "samarati", dict(k=2, max_sup=2), "samarati_k2_sup2.csv", 6,
     F(3)),
    # internal: raw values u1 u2 q u1 u2 q; LCA = q, and rows whose value is q itself make
    # the cut not allowed -> all q. MD 1+1+0+1+1+0 = 4, LM 6 * 1/3 = 2.
    ("internal", "raw.csv", "mondrian", dict(k=2), "mondrian_k2.csv", 4, F(2)),
]


# cost_LM of the raw file against itself: 0 unless raw values are internal nodes
# (internal: the two "q" cells each cost (2 - 1) / 3).
RAW_LM = {"internal": F(2, 3)}


def run_reference(algorithm: str, raw: str, dghs: str, params: dict, out: str) -> None:
    import reference
    if algorithm == "random":
        reference.random_anonymizer(raw, dghs, params["k"], params["s"], out)
    elif algorithm == "clustering":
        reference.clustering_anonymizer(raw, dghs, params["k"], out)
    elif algorithm == "bottomup":
        reference.bottomup_anonymizer(raw, dghs, params["k"], params["l"], out)
    elif algorithm == "samarati":
        reference.samarati(raw, dghs, params["k"], params["max_sup"], out)
    elif algorithm == "mondrian":
        reference.mondrian(raw, dghs, params["k"], out)
    else:  # pragma: no cover
        raise AssertionError(algorithm)


def run_oracle(algorithm: str, raw: str, dghs: str, params: dict) -> list[list[str]]:
    fn = {"random": oracle.random_anonymizer, "clustering": oracle.clustering_anonymizer,
          "bottomup": oracle.bottomup_anonymizer, "samarati": oracle.samarati,
          "mondrian": oracle.mondrian}[algorithm]
    header, rows = fn(raw, dghs, *params.values())
    return [header] + rows


def case_id(case) -> str:
    return f"{case[0]}-{case[4][:-4]}"


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_reference_matches_hand_output(case, tmp_path):
    name, raw, algorithm, params, expected, _, _ = case
    folder = DATA / name
    out = tmp_path / "out.csv"
    run_reference(algorithm, str(folder / raw), str(folder / "DGHs"), params, str(out))
    assert read_csv(out) == read_csv(folder / expected)
    assert os.listdir(tmp_path) == ["out.csv"], "a temporary file was left behind"


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_oracle_matches_hand_output(case):
    name, raw, algorithm, params, expected, _, _ = case
    folder = DATA / name
    got = run_oracle(algorithm, str(folder / raw), str(folder / "DGHs"), params)
    assert got == read_csv(folder / expected)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_reference_costs_of_hand_outputs(case):
    import reference
    name, raw, _, _, expected, md, lm = case
    folder = DATA / name
    args = (str(folder / raw), str(folder / expected), str(folder / "DGHs"))
    assert reference.cost_MD(*args) == pytest.approx(float(md), abs=1e-9)
    assert reference.cost_LM(*args) == pytest.approx(float(lm), abs=1e-9)
    assert reference.cost_MD(str(folder / raw), str(folder / raw), str(folder / "DGHs")) == 0
    assert reference.cost_LM(str(folder / raw), str(folder / raw), str(folder / "DGHs")) == \
        pytest.approx(float(RAW_LM.get(name, 0)), abs=1e-9)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_oracle_costs_of_hand_outputs(case):
    name, raw, _, _, expected, md, lm = case
    folder = DATA / name
    args = (str(folder / raw), str(folder / expected), str(folder / "DGHs"))
    assert oracle.cost_MD(*args) == md
    assert oracle.cost_LM(*args) == lm
    assert oracle.cost_MD(str(folder / raw), str(folder / raw), str(folder / "DGHs")) == 0
    assert oracle.cost_LM(str(folder / raw), str(folder / raw), str(folder / "DGHs")) == \
        RAW_LM.get(name, 0)


# intervals: Temp = All{[-5-0]{-5,-2,0}, [1-5]{1,3,5}, Hot{8,12}} (|A| = 8, labels that look
# like intervals), Code = X{a, b}; raw Temp -5 3 0 12 (U - L = 17).
# anon row 1 "[-5-0]" is a label: MD 1, LM 2/7 (as an interval it would be 5/17); Code a: 0.
# row 2 "[1-5]" is a label: MD 1, LM 2/7 (not 4/17); Code X (root): MD 1, LM 1.
# row 3 "[-2-0]" is an interval (split at the '-' after "-2"): leaves -2, 0 -> LCA [-5-0],
# MD 1; LM 2/17. row 4 "[3-12]": leaves 3 5 8 12 -> LCA All, MD 2; LM 9/17.
# MD = 1 + 2 + 1 + 2 = 6; LM = 1/7 + 9/14 + 1/17 + 9/34 = 11/14 + 11/34 = 132/119.
INTERVALS = DATA / "intervals"


def test_reference_costs_read_labels_before_intervals():
    import reference
    args = (str(INTERVALS / "raw.csv"), str(INTERVALS / "anon.csv"), str(INTERVALS / "DGHs"))
    assert reference.cost_MD(*args) == pytest.approx(6, abs=1e-9)
    assert reference.cost_LM(*args) == pytest.approx(132 / 119, abs=1e-9)


def test_oracle_costs_read_labels_before_intervals():
    args = (str(INTERVALS / "raw.csv"), str(INTERVALS / "anon.csv"), str(INTERVALS / "DGHs"))
    assert oracle.cost_MD(*args) == 6
    assert oracle.cost_LM(*args) == F(132, 119)


def test_numpy_permutation_used_by_the_random_case():
    order = np.arange(7)
    np.random.seed(42)
    np.random.shuffle(order)
    assert order.tolist() == [0, 1, 5, 2, 4, 3, 6]


# The contract's worked example: Engineer/Male vs Lawyer/Male -> (Professional, Male):
# LM_dist = (1/3 + 0) / 2 = 1/6, MD_dist = 1 + 1 = 2, maximum 2 * (2 + 1) = 6, dist = 1/2.
# Other pairs from the table in the module docstring.
DISTANCES = [(0, 1, F(1, 2)), (1, 0, F(1, 2)), (0, 2, F(2)), (1, 4, F(4, 3)), (0, 4, F(5, 6)),
             (0, 5, F(7, 6)), (2, 3, F(1, 2)), (3, 3, F(0)), (5, 6, F(2))]


@pytest.mark.parametrize("i,j,want", DISTANCES)
def test_reference_record_distance(i, j, want):
    from reference.clustering import record_distance
    from kanon.problem import load_problem
    problem = load_problem(str(DATA / "jobs" / "raw.csv"), str(DATA / "jobs" / "DGHs"))
    assert record_distance(problem, i, j) == pytest.approx(float(want), abs=1e-9)


@pytest.mark.parametrize("i,j,want", DISTANCES)
def test_oracle_record_distance(i, j, want):
    p = oracle.Problem(str(DATA / "jobs" / "raw.csv"), str(DATA / "jobs" / "DGHs"))
    assert oracle.dist(p, i, j) == want


@pytest.mark.parametrize("name,params", [("jobs", dict(k=2, l=4)), ("grid", dict(k=2, l=3))])
@pytest.mark.parametrize("implementation", ["reference", "oracle"])
def test_bottomup_top_node_fails(name, params, implementation, tmp_path):
    # jobs has 3 distinct diseases, grid 2: even the top node (one EC) fails l.
    folder = DATA / name
    raw, dghs = str(folder / "raw.csv"), str(folder / "DGHs")
    with pytest.raises(ValueError):
        if implementation == "reference":
            run_reference("bottomup", raw, dghs, params, str(tmp_path / "out.csv"))
        else:
            run_oracle("bottomup", raw, dghs, params)
    assert os.listdir(tmp_path) == []


def test_hand_fixtures_are_never_rewritten(tmp_path):
    # Running an algorithm on a copy must not touch anything but its output file.
    folder = tmp_path / "jobs"
    shutil.copytree(DATA / "jobs", folder)
    before = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    run_reference("mondrian", str(folder / "raw.csv"), str(folder / "DGHs"), dict(k=2),
                  str(tmp_path / "out.csv"))
    assert {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()} == before


CLI_CASES = [("random", ["2", "42"], "random_k2_s42.csv"),
             ("clustering", ["2"], "clustering_k2.csv"),
             ("bottomup", ["2", "2"], "bottomup_k2_l2.csv"),
             ("samarati", ["2", "1"], "samarati_k2_sup1.csv"),
             ("mondrian", ["2"], "mondrian_k2.csv")]


@pytest.mark.slow
@pytest.mark.parametrize("algorithm,args,expected", CLI_CASES)
def test_reference_command_line_writes_the_hand_output(algorithm, args, expected, tmp_path):
    # python -m reference <algorithm> <DGH-folder> <raw.csv> <out.csv> <k> [s|l|max_sup]
    import subprocess
    import sys
    repo = Path(__file__).resolve().parents[3]
    out = tmp_path / "out.csv"
    done = subprocess.run([sys.executable, "-m", "reference", algorithm,
                           str(DATA / "jobs" / "DGHs"), str(DATA / "jobs" / "raw.csv"),
                           str(out), *args], cwd=repo, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert read_csv(out) == read_csv(DATA / "jobs" / expected)
