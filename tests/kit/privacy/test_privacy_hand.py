"""Hand-computed examples of every measure of kanon.privacy and reference.check.

The release tests/data/privacy/jobs (HANDOUT.md, "Beyond k-anonymity"): QIs Job (the
handout's Job hierarchy) and Sex, sensitive Disease with the hierarchy
Any{Respiratory{Flu, Cold}, Other{HIV, Cancer}} (H = 2). 8 rows in 3 classes:
A = (Professional, Male) rows 1, 2, 5: Flu, Cold, Flu
B = (Artist, Any)        rows 3, 6:    Flu, HIV
C = (Any, Female)        rows 4, 7, 8: Cancer, Cancer, HIV
Q (whole table), in the hierarchy's order Flu, Cold, HIV, Cancer: (3, 1, 2, 2) / 8.

- k = 2, 3 classes (sizes {2: 1, 3: 2}), distinct l = 2.
- entropy: A and C have p = (2/3, 1/3): H = ln 3 - (2/3) ln 2, exp(H) = 3 / 2^(2/3) = 1.889882;
  B has ln 2. Entropy l = floor(1.889882) = 1.
- recursive, c = 2: A (2, 1): l = 1: 2 < 2 * 3 yes; l = 2: 2 < 2 * 1 no -> 1. B (1, 1) -> 2.
  C -> 1. Largest l = 1. Smallest integer c for l = 2: floor(2 / 1) + 1 = 3.
- r = P - Q in 24ths: A (7, 5, -6, -6), B (3, -3, 6, -6), C (-9, -3, 2, 10).
  equal: sum |r| / 2 = 1/2, 3/8, 1/2 -> t = 1/2.
  ordered (m = 4): prefix sums A 7, 12, 6, 0 -> 25/24 / 3 = 25/72; B 3, 0, 6, 0 -> 9/72;
  C -9, -12, -10, 0 -> 31/72 -> t = 31/72.
  hierarchical: A: Respiratory's children 7, 5 and Other's -6, -6 have one sign (cost 0);
  root: extras +12, -12 -> min 12/24 * (2 - 0)/2 = 1/2. B: Respiratory min(3, 3)/24 * 1/2 =
  3/48, Other 6/48, root extras 0, 0 -> 9/48 = 3/16. C: root 12/24 -> 1/2. t = 1/2.
- MD: Professional/Artist climb 1, Job Any 2, Sex Any 1: A 3 * 1, B 2 * 2, C 3 * 2 = 13.
- LM: A 3 * (1/3 + 0)/2 = 1/2, B 2 * (1/3 + 1)/2 = 4/3, C 3 * (1 + 0)/2 = 3/2 -> 10/3.
- NCP: Professional, Artist 2/4, Job Any 1, Sex Any 1, leaves 0. Job mean (3 * 1/2 + 2 * 1/2
  + 3 * 1) / 8 = 11/16, Sex 2/8 = 1/4; GCP = 7.5 / 16 = 15/32.
- discernibility 9 + 4 + 9 = 22; C_avg = (8 / 3) / 2 = 4/3.
- prosecutor risk: largest 1/2, average 3 classes / 8 rows = 3/8; homogeneity: 0 records.
"""
from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from reference import check
from kanon.privacy import (c_avg, discernibility, distinct_l, entropy_l, entropy_l_real,
                               equal_emd, equivalence_classes, gcp, hierarchical_emd,
                               homogeneity, load_release, ordered_emd, prosecutor_avg,
                               prosecutor_max, range_key, recursive_c, recursive_l,
                               sensitive_domain, t_closeness)
from kanon.hierarchy import parse_dgh

REPO = Path(__file__).resolve().parents[3]
JOBS = REPO / "tests" / "data" / "privacy" / "jobs"
ARGS = [str(JOBS / "anon.csv"), "--raw", str(JOBS / "raw.csv"), "--dghs", str(JOBS / "DGHs")]
INCOME = ["[0, 12.5K]", "(12.5K, 25K]", "(25K, 37.5K]", "(37.5K, 50K]", "(50K, 62.5K]",
          "(62.5K, 75K]", "(75K, 87.5K]", "above 87.5k"]


def dgh(text: str):
    return parse_dgh(text.replace("    ", "\t"), "s", "s.txt")


@pytest.fixture(scope="module")
def report() -> dict:
    release = load_release(str(JOBS / "raw.csv"), str(JOBS / "anon.csv"), str(JOBS / "DGHs"),
                           sensitive_dgh=str(JOBS / "Disease.txt"))
    return check.build_report(release, c=2.0)


# ---- the jobs release, figure by figure ----

def test_jobs_classes(report):
    assert report["k"] == 2 and report["classes"] == 3
    assert report["class_sizes"]["distribution"] == {"2": 1, "3": 2}
    assert report["quasi_identifiers"] == ["Job", "Sex"] and report["sensitive"] == "Disease"


def test_jobs_diversity(report):
    assert report["distinct_l"] == 2
    assert report["entropy_l_real"] == pytest.approx(3 / 2 ** (2 / 3))
    assert report["entropy_l"] == 1
    assert report["recursive"] == {"c": 2.0, "largest_l": 1,
                                   "smallest_integer_c_for_distinct_l": 3}


def test_jobs_closeness(report):
    assert report["sensitive_order"] == "hierarchy"
    assert report["sensitive_domain"] == ["Flu", "Cold", "HIV", "Cancer"]
    t = report["t_closeness"]
    assert t["equal"] == pytest.approx(1 / 2)
    assert t["ordered"] == pytest.approx(31 / 72)
    assert t["hierarchical"] == pytest.approx(1 / 2)


def test_jobs_per_class_distances():
    q = np.array([3, 1, 2, 2]) / 8
    p = np.array([[2, 1, 0, 0], [1, 0, 1, 0], [0, 0, 1, 2]]) / np.array([[3], [2], [3]])
    assert equal_emd(p, q) == pytest.approx([1 / 2, 3 / 8, 1 / 2])
    assert ordered_emd(p, q) == pytest.approx([25 / 72, 9 / 72, 31 / 72])
    tree = dgh("Any\n    Respiratory\n        Flu\n        Cold\n    Other\n        HIV\n"
               "        Cancer\n")
    assert hierarchical_emd(p, q, tree, ["Flu", "Cold", "HIV", "Cancer"]) == pytest.approx(
        [1 / 2, 3 / 16, 1 / 2])


def test_jobs_utility_and_risk(report):
    u, r = report["utility"], report["risk"]
    assert u["MD"] == 13 and u["LM"] == pytest.approx(10 / 3)
    assert u["NCP"] == pytest.approx({"Job": 11 / 16, "Sex": 1 / 4})
    assert u["GCP"] == pytest.approx(15 / 32)
    assert u["discernibility"] == 22 and u["C_avg"] == pytest.approx(4 / 3)
    assert r["prosecutor_max"] == pytest.approx(1 / 2)
    assert r["prosecutor_avg"] == pytest.approx(3 / 8)
    assert (r["homogeneity_records"], r["homogeneity_classes"]) == (0, 0)
    assert r["row_order_matches_raw"] is True and "kept on purpose" in r["row_order_note"]


def test_jobs_costs_equal_the_graded_cost_functions():
    from reference import cost_LM, cost_MD
    release = load_release(str(JOBS / "raw.csv"), str(JOBS / "anon.csv"), str(JOBS / "DGHs"))
    rep = check.build_report(release)
    raw, anon, dghs = str(JOBS / "raw.csv"), str(JOBS / "anon.csv"), str(JOBS / "DGHs")
    assert rep["utility"]["MD"] == cost_MD(raw, anon, dghs)
    assert rep["utility"]["LM"] == pytest.approx(cost_LM(raw, anon, dghs))
    # without a hierarchy, Disease is unordered: equal distance only
    assert rep["sensitive_order"] is None and list(rep["t_closeness"]) == ["equal"]


# ---- small measures by hand ----

def test_equivalence_classes_group_identical_qi_cells():
    cls, sizes = equivalence_classes([["a", "x"], ["b", "x"], ["a", "x"], ["a", "y"]])
    assert cls.tolist() == [0, 1, 0, 2] and sizes.tolist() == [2, 1, 1]


def test_entropy_l_five_equal_values_is_five():
    # exp(log 5) is 4.999999999999999 in floating point: a plain int() would say 4.
    counts = np.array([[1, 1, 1, 1, 1], [2, 2, 2, 2, 2]])
    assert math.floor(math.exp(math.log(5))) == 4
    assert entropy_l(counts) == 5 and distinct_l(counts) == 5


def test_entropy_l_homogeneous_class_is_one():
    assert entropy_l(np.array([[3, 0], [1, 1]])) == 1
    assert entropy_l_real(np.array([[1, 1]])) == pytest.approx(2)


def test_recursive_by_hand():
    # (5, 3, 2): c = 2, l = 2: 5 < 2 * (3 + 2) = 10 yes; l = 3: 5 < 2 * 2 no -> 2.
    counts = np.array([[5, 3, 2]])
    assert recursive_l(counts, 2) == 2
    assert recursive_l(counts, 3) == 3  # 5 < 3 * 2
    assert recursive_l(counts, 0.5) == 0  # even l = 1: 5 < 0.5 * 10 fails
    assert recursive_c(counts, 3) == 3 and recursive_c(counts, 2) == 2  # floor(5/5)+1
    assert recursive_c(np.array([[2, 0]]), 2) is None


def test_homogeneity_and_risks_by_hand():
    counts = np.array([[4, 0, 0], [1, 1, 0], [0, 0, 2]])
    assert homogeneity(counts) == (6, 2)
    sizes = np.array([4, 2, 2])
    assert prosecutor_max(sizes) == 1 / 2 and prosecutor_avg(sizes) == 3 / 8
    assert discernibility(sizes) == 24 and c_avg(sizes, 2) == pytest.approx(4 / 3)
    assert gcp(np.array([[0.0, 1.0], [0.5, 0.5]])) == 0.5


def test_li_et_al_salary_example():
    # Li et al. ICDE 2007: Q = {3k .. 11k}; P1 = {3k, 4k, 5k} -> 0.375, P2 = {6k, 8k, 11k} -> 0.167
    q = np.full(9, 1 / 9)
    p1 = np.array([1, 1, 1, 0, 0, 0, 0, 0, 0]) / 3
    p2 = np.array([0, 0, 0, 1, 0, 1, 0, 0, 1]) / 3
    assert ordered_emd(p1, q) == pytest.approx(0.375)
    assert ordered_emd(p2, q) == pytest.approx(1 / 6)


def test_hierarchical_unbalanced_and_inner_value():
    # Any{A{a1, a2}, b}, H = 2: d(a1, a2) = 1/2, d(a1, b) = 1. P = a1, Q = (a2 + b) / 2: 3/4.
    tree = dgh("Any\n    A\n        a1\n        a2\n    b\n")
    assert hierarchical_emd(np.array([1.0, 0, 0]), np.array([0, .5, .5]), tree,
                            ["a1", "a2", "b"]) == pytest.approx([3 / 4])
    # a value that is an inner node: d(A, a1) = (2 - depth(A)) / 2 = 1/2
    assert hierarchical_emd(np.array([1.0, 0]), np.array([0, 1.0]), tree,
                            ["A", "a1"]) == pytest.approx([1 / 2])


def test_t_closeness_of_a_table():
    counts = np.array([[1, 1, 0], [0, 1, 1]])  # Q = (1/4, 1/2, 1/4)
    assert t_closeness(counts, "equal") == pytest.approx(1 / 4)
    assert t_closeness(counts, "ordered") == pytest.approx(1 / 4)  # prefix 1/4, 1/4 over 2
    with pytest.raises(ValueError, match="unknown ground distance"):
        t_closeness(counts, "manhattan")


def test_income_ranges_are_ordered():
    assert sensitive_domain(list(reversed(INCOME))) == (INCOME, "ranges")
    assert sensitive_domain([">50K", "<=50K"]) == (["<=50K", ">50K"], "ranges")
    assert range_key("(12.5K, 25K]") == (12500, 25000)
    assert range_key("above 87.5k") == (87500, math.inf)
    assert range_key("10-20") == (10, 20) and range_key("[-5-3]") == (-5, 3)
    assert range_key("Flu") is None


def test_domain_orders():
    assert sensitive_domain(["10", "9", "100"]) == (["9", "10", "100"], "numeric")
    assert sensitive_domain(["Flu", "Cold"]) == (["Cold", "Flu"], None)
    tree = dgh("Any\n    Z\n    A\n")
    assert sensitive_domain(["A", "Z"], tree) == (["Z", "A"], "hierarchy")


def test_adult_income_is_ordered(repo):
    from kanon.table import read_table
    table = read_table(str(repo / "adult-hw1.csv"))
    col = table.header.index("income")
    assert sensitive_domain([r[col] for r in table.rows]) == (INCOME, "ranges")


# ---- the command line ----

def test_cli_text(capsys):
    assert check.main(ARGS + ["--sensitive-dgh", str(JOBS / "Disease.txt")]) == 0
    out = capsys.readouterr().out
    for line in ["k (smallest class):            2",
                 "distinct l:                    2",
                 "entropy l:                     1 (exp of the smallest class entropy: 1.889882)",
                 "t-closeness, ordered distance: 0.430556",
                 "t-closeness, hierarchical distance:",
                 "MD (cost_MD):                  13",
                 "LM (cost_LM):                  3.333333",
                 "discernibility (sum |E|^2):    22",
                 "homogeneity attack:            0 records in 0 classes",
                 "row order matches the raw file: yes, kept on purpose"]:
        assert line in out, line


def test_cli_text_unordered_says_not_applicable(capsys):
    assert check.main(ARGS) == 0
    assert "t-closeness, ordered distance: not applicable" in capsys.readouterr().out


def test_cli_json_and_sensitive_hierarchy_in_folder(capsys, tmp_path):
    folder = tmp_path / "DGHs"
    shutil.copytree(JOBS / "DGHs", folder)
    shutil.copy(JOBS / "Disease.txt", folder / "Disease.txt")
    args = [str(JOBS / "anon.csv"), "--raw", str(JOBS / "raw.csv"), "--dghs", str(folder)]
    assert check.main(args + ["--json", "--sensitive", "Disease", "--c", "3", "--k", "1"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["quasi_identifiers"] == ["Job", "Sex"]
    assert rep["t_closeness"]["hierarchical"] == pytest.approx(1 / 2)
    assert rep["recursive"]["largest_l"] == 2  # c = 3: A 2 < 3 * 1
    assert rep["utility"]["C_avg"] == pytest.approx(8 / 3)  # k = 1
    # without --sensitive every column has a hierarchy: no sensitive attribute
    assert check.main(args) == 1
    assert "name the sensitive attribute with --sensitive" in capsys.readouterr().err


def test_module_runs_as_a_command():
    done = subprocess.run([sys.executable, "-m", "reference.check", *ARGS, "--json"],
                          cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["k"] == 2


# ---- bad input: one line naming the file, row and column ----

def write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("anon, message", [
    ("Job,Sex,Disease\nProfessional,Male,Flu\nWriter,Male,Cold\n",
     "data row 2, column 'Job': 'Writer' is not 'Lawyer' or one of its ancestors"),
    ("Job,Sex,Disease\nProfessional,Male,Flu\nLawyer,Male,Flu\n",
     "data row 2, column 'Disease': non-QI value 'Flu' differs from the raw value 'Cold'"),
    ("Job,Sex,Disease\nProfessional,Male,Flu\n", "1 data rows, the raw file"),
    ("Job,Disease,Sex\nProfessional,Flu,Male\nLawyer,Cold,Male\n", "differs from the raw"),
    ("Job,Sex,Disease\n[1-2],Male,Flu\nLawyer,Male,Cold\n",
     "data row 1, column 'Job': '[1-2]' is an interval, but column 'Job' is not numeric"),
])
def test_bad_anonymized_table(tmp_path, capsys, anon, message):
    raw = write(tmp_path / "raw.csv", "Job,Sex,Disease\nEngineer,Male,Flu\nLawyer,Male,Cold\n")
    bad = write(tmp_path / "anon.csv", anon)
    assert check.main([bad, "--raw", raw, "--dghs", str(JOBS / "DGHs")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and message in err


def test_bad_inputs_name_the_culprit(tmp_path, capsys):
    raw = write(tmp_path / "raw.csv", "Job,Sex,Disease\nEngineer,Male,Flu\nPilot,Male,Cold\n")
    assert check.main([raw, "--raw", raw, "--dghs", str(JOBS / "DGHs")]) == 1
    assert "data row 2, column 'Job': value 'Pilot' is not a label of" in capsys.readouterr().err
    good = str(JOBS / "raw.csv")
    assert check.main([good, "--raw", good, "--dghs", str(JOBS / "DGHs"),
                       "--sensitive", "Salary"]) == 1
    assert "no column 'Salary' (--sensitive)" in capsys.readouterr().err
    assert check.main([good, "--raw", good, "--dghs", str(tmp_path / "none")]) == 1
    assert "DGH folder not found" in capsys.readouterr().err
    assert check.main([str(tmp_path / "x.csv"), "--raw", good, "--dghs",
                       str(JOBS / "DGHs")]) == 1
    assert "dataset file not found" in capsys.readouterr().err
    tree = write(tmp_path / "d.txt", "Any\n\tFlu\n")
    assert check.main([good, "--raw", good, "--dghs", str(JOBS / "DGHs"),
                       "--sensitive-dgh", tree]) == 1
    assert "data row 2, column 'Disease': sensitive value 'Cold' is not a label of" in \
        capsys.readouterr().err
    assert check.main([good, "--raw", good, "--dghs", str(JOBS / "DGHs"), "--c", "0"]) == 2
    assert "--c must be a positive number" in capsys.readouterr().err
    assert check.main([good, "--dghs", str(JOBS / "DGHs")]) == 2  # --raw is required


def test_no_data_rows_is_an_error(tmp_path, capsys):
    empty = write(tmp_path / "e.csv", "Job,Sex,Disease\n")
    assert check.main([empty, "--raw", empty, "--dghs", str(JOBS / "DGHs")]) == 1
    assert "has no data rows" in capsys.readouterr().err


# ---- oracle cross-check: the reference's own outputs reach what they were asked for ----

@pytest.mark.parametrize("algorithm, call, k, l", [
    ("random", lambda r, d, o: __import__("reference").random_anonymizer(r, d, 2, 42, o), 2, 1),
    ("clustering", lambda r, d, o: __import__("reference").clustering_anonymizer(r, d, 2, o),
     2, 1),
    ("bottomup", lambda r, d, o: __import__("reference").bottomup_anonymizer(r, d, 2, 2, o),
     2, 2),
    ("mondrian", lambda r, d, o: __import__("reference").mondrian(r, d, 2, o), 2, 1),
])
def test_reference_outputs_reach_k_and_l(tmp_path, algorithm, call, k, l):
    from reference import cost_LM, cost_MD
    raw, dghs = str(JOBS / "raw.csv"), str(JOBS / "DGHs")
    out = str(tmp_path / "out.csv")
    call(raw, dghs, out)
    rep = check.build_report(load_release(raw, out, dghs))
    assert rep["k"] >= k and rep["distinct_l"] >= l
    assert rep["utility"]["MD"] == cost_MD(raw, out, dghs)
    assert rep["utility"]["LM"] == pytest.approx(cost_LM(raw, out, dghs))
    assert rep["entropy_l"] <= rep["distinct_l"]
    assert all(0 <= t <= 1 for t in rep["t_closeness"].values())


def test_handout_states_the_worked_figures(repo):
    """The section is in the handout of a course that grades a privacy measure."""
    from grader.publishing.materials import render_handout, view
    from grader.rubric import load
    text = render_handout(view(load(repo / "grader" / "rubric-all.toml")))
    section = text[text.index("## Beyond k-anonymity"):]
    for figure in ["t = 31/72", "1.8899", "floor(2 / 1) + 1 = 3", "15/32", "= 9 + 4 + 9 = 22",
                   "(8 / 3) / 2 = 4/3", "3/16", "ECs / n` = 3/8"]:
        assert figure in section, figure


# ---- the measures as functions of files (fixed signatures) ----

def test_file_functions_on_the_jobs_release():
    from kanon.privacy import (distinct_l_of, entropy_l_of, k_anonymity_of,
                                   recursive_l_of, t_closeness_of)
    files = (str(JOBS / "raw.csv"), str(JOBS / "anon.csv"), str(JOBS / "DGHs"))
    tree = str(JOBS / "Disease.txt")
    assert k_anonymity_of(*files) == 2 and distinct_l_of(*files) == 2
    assert entropy_l_of(*files) == 1
    assert recursive_l_of(*files, 2) == 1 and recursive_l_of(*files, 3) == 2
    assert t_closeness_of(*files, "equal") == pytest.approx(1 / 2)
    assert t_closeness_of(*files, "ordered", tree) == pytest.approx(31 / 72)
    assert t_closeness_of(*files, "hierarchical", tree) == pytest.approx(1 / 2)
    with pytest.raises(ValueError, match="have no order"):
        t_closeness_of(*files, "ordered")
    with pytest.raises(ValueError, match="needs the sensitive attribute's hierarchy"):
        t_closeness_of(*files, "hierarchical")
    with pytest.raises(ValueError, match="distance must be one of"):
        t_closeness_of(*files, "Ordered")
    with pytest.raises(ValueError, match="c must be a positive number"):
        recursive_l_of(*files, True)
    with pytest.raises(FileNotFoundError):
        entropy_l_of(files[0], str(JOBS / "missing.csv"), files[2])
