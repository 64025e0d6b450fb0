"""The Top-Down Greedy lab's staff reference (courses/tdg-lab/reference/tdg.py) against its
CONTRACT.md: hand-computed partitions, cells and NCPs on 8-row tables with tiny ';'
hierarchies; on random small tables, for several seeds, the exact partitions of a plain
implementation in fractions (tdg_checker.py) and every property a right answer has; cost_NCP
against an independent NCP; the errors; and the spread of right answers across seeds."""
from __future__ import annotations

import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from tdg_checker import COURSE, Problem, check_output, load_reference, naive_partitions, \
    read_csv, write_csv

tdg = load_reference()

HEADER = ["age", "work_class", "final_weight", "education_num", "marital_status", "occupation",
          "race", "sex", "native_country", "class"]
RELEASED = [c for c in HEADER if c != "final_weight"]
DGHS = {
    "work_class": "Private;*\nSelf-emp-inc;Self-employ;*\nSelf-emp-not-inc;Self-employ;*\n"
                  "Federal-gov;fed;gov;*\nState-gov;gov;*\nLocal-gov;gov;*\n",
    "marital_status": "Married-civ-spouse;Married;*\nDivorced;leave;*\nSeparated;leave;*\n"
                      "Never-married;NM;*\n",
    "occupation": "Sales;*\nTech-support;*\nCraft-repair;*\n",
    "race": "White;*\nBlack;*\n",
    "sex": "Male;*\nFemale;*\n",
    "native_country": "United-States;*\nMexico;*\nCanada;*\n",
}


def _dghs(folder: Path, texts: dict[str, str] = DGHS) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for column, text in texts.items():
        (folder / f"{column}.txt").write_text(text, encoding="utf-8")
    return folder


def _row(age, work_class, sex, *, education_num=10, marital="Married-civ-spouse",
         occupation="Sales", race="White", country="United-States", income="<=50K",
         weight=100000):
    return [str(age), work_class, str(weight), str(education_num), marital, occupation, race,
            sex, country, income]


# Table A: two clear clusters. age spans 20..60 (40); work_class has 6 leaves (gov: 3/6,
# Self-employ: 2/6); sex 2 leaves; every other QI is constant (NCP 0: education_num's span is 0).
TABLE_A = [_row(20, "Private", "Male"), _row(22, "Private", "Male", income=">50K"),
           _row(24, "Private", "Female"), _row(26, "Private", "Male"),
           _row(54, "State-gov", "Female"), _row(56, "Local-gov", "Female", income=">50K"),
           _row(58, "State-gov", "Female"), _row(60, "Local-gov", "Female")]
# Table B: one outlier (row 7), so the split leaves a group of 1 < k = 3 to balance.
TABLE_B = [_row(30, "Private", "Male"), _row(31, "Private", "Male"), _row(32, "Private", "Male"),
           _row(33, "Private", "Male"), _row(34, "Private", "Male"),
           _row(35, "Private", "Female"), _row(36, "Self-emp-inc", "Male"),
           _row(70, "State-gov", "Female")]


@pytest.fixture
def case(tmp_path):
    def make(rows, header=HEADER, texts=DGHS):
        raw = tmp_path / "raw.csv"
        write_csv(raw, header, rows)
        return raw, _dghs(tmp_path / "DGHs", texts)
    return make


def _released(rows, cells):
    """The expected output rows: each raw row with (age, work_class, sex) replaced."""
    out = []
    for row, (age, work_class, sex) in zip(rows, cells):
        row = dict(zip(HEADER, row), age=age, work_class=work_class, sex=sex)
        out.append([row[c] for c in RELEASED])
    return out


# ------------------------------------------------------------------ by hand

@pytest.mark.parametrize("first", [0, 7, 2])
def test_table_a_by_hand(case, tmp_path, first) -> None:
    """first 0: dist(0, .) = .05, 1.1, .15, 2.85, 2.9, 2.95, 3.0 -> v = 7; from 7 the farthest
    is 0 (3.0), then 7 again: the pair (0, 7). Each record is nearer one end: {0..3}, {4..7},
    both of k..2k-1 records, final. Middles: ([20-26], Private, *) NCP 6/40 + 1 = 1.15 and
    ([54-60], gov, Female) NCP 6/40 + 3/6 = .65; the table 4 x 1.15 + 4 x .65 = 7.2. Starting
    from 7 or 2 gives the same pair's groups."""
    raw, dghs = case(TABLE_A)
    out = tmp_path / "out.csv"
    tdg.topdown_greedy(str(raw), str(dghs), 3, str(out), first=first)
    header, rows = read_csv(out)
    assert header == RELEASED
    assert rows == _released(TABLE_A, [("[20-26]", "Private", "*")] * 4
                             + [("[54-60]", "gov", "Female")] * 4)
    assert tdg.greedy_partitions(str(raw), str(dghs), 3, first=first) == [[0, 1, 2, 3],
                                                                       [4, 5, 6, 7]]
    assert tdg.cost_NCP(str(raw), str(out), str(dghs)) == pytest.approx(7.2, abs=1e-12)


def test_table_b_balances_by_moving_the_nearest(case, tmp_path) -> None:
    """first 0: v = 7 (3.0), then from 7 the farthest is 0 (3.0), the pair (0, 7); every other
    record is nearer 0, so v's group {7} has 1 < k = 3 records. (1) moves the 2 records of
    {0..6} nearest to row 7: 5 (35/40 + 1 = 1.875) and 6 (34/40 + 1 + 1 = 2.85): {5, 6, 7}
    with middle ([35-70], *, *), 3 x 2.875, and {0..4} ([30-34], Private, Male), 5 x .1:
    9.125 in all. (2) one partition: 8 x (1 + 1 + 1) = 24. (1) is taken; both groups are
    then final (fewer than 2k)."""
    raw, dghs = case(TABLE_B)
    out = tmp_path / "out.csv"
    tdg.topdown_greedy(str(raw), str(dghs), 3, str(out), first=0)
    assert read_csv(out)[1] == _released(TABLE_B, [("[30-34]", "Private", "Male")] * 5
                                         + [("[35-70]", "*", "*")] * 3)
    assert tdg.greedy_partitions(str(raw), str(dghs), 3, first=0) == [[0, 1, 2, 3, 4],
                                                                   [5, 6, 7]]
    assert tdg.cost_NCP(str(raw), str(out), str(dghs)) == pytest.approx(9.125, abs=1e-12)


def test_one_round_and_a_single_partition(case, tmp_path) -> None:
    """k = 5 > 8 / 2: the whole table is one final partition, its middle ([20-60], *, *)."""
    raw, dghs = case(TABLE_A)
    out = tmp_path / "out.csv"
    tdg.topdown_greedy(str(raw), str(dghs), 5, str(out), seed=1, rounds=1)
    assert read_csv(out)[1] == _released(TABLE_A, [("[20-60]", "*", "*")] * 8)
    assert tdg.cost_NCP(str(raw), str(out), str(dghs)) == pytest.approx(24.0)
    tdg.topdown_greedy(str(raw), str(dghs), 1, str(out), seed=1)  # k = 1: every record alone
    assert read_csv(out)[1] == [[r[HEADER.index(c)] for c in RELEASED] for r in TABLE_A]


def test_cost_ncp_by_hand(case, tmp_path) -> None:
    """Cells chosen freely (any covering cell is costed): 1.25 + 1 + .025 + 3 + .55 + 1.5
    + 1 + 1.025 = 9.35. education_num's span is 0, so its range costs 0; race's root costs
    2/2; the file has only the QIs, class last, in another column order."""
    raw, dghs = case(TABLE_A)
    cells = [("[20-30]", "*", "Male", "10", "White"), ("22", "Private", "*", "10", "White"),
             ("[24-25]", "Private", "Female", "10", "White"), ("[20-60]", "*", "*", "10", "White"),
             ("[54-56]", "gov", "Female", "10", "White"), ("56", "gov", "*", "10", "White"),
             ("58", "State-gov", "Female", "10", "*"),
             ("[59-60]", "*", "Female", "[9-11]", "White")]
    header = ["sex", "age", "work_class", "education_num", "marital_status", "occupation",
              "race", "native_country", "class"]
    rows = [[sex, age, wc, edu, "Married-civ-spouse", "Sales", race, "United-States", "<=50K"]
            for age, wc, sex, edu, race in cells]
    write_csv(tmp_path / "anon.csv", header, rows)
    assert tdg.cost_NCP(str(raw), str(tmp_path / "anon.csv"), str(dghs)) == \
        pytest.approx(9.35, abs=1e-12)
    problem = Problem(raw, dghs)
    assert problem.table_ncp(rows, header) == Fraction(935, 100)


def test_hierarchy_files_are_read_leniently(case, tmp_path) -> None:
    """Blank lines and spaces around labels do not change anything; nor does a line's order."""
    messy = {**DGHS, "work_class": "\n  Local-gov ; gov ;*\nPrivate;*\n\n"
             "Self-emp-not-inc;Self-employ;*\nState-gov;gov;*\nFederal-gov ;fed; gov;* \n"
             "Self-emp-inc;Self-employ;*\n"}
    raw, dghs = case(TABLE_A, texts=messy)
    tdg.topdown_greedy(str(raw), str(dghs), 3, str(tmp_path / "out.csv"), first=0)
    assert read_csv(tmp_path / "out.csv")[1] == _released(
        TABLE_A, [("[20-26]", "Private", "*")] * 4 + [("[54-60]", "gov", "Female")] * 4)


# ------------------------------------------------------------------ properties

def _random_rows(seed: int, n: int) -> list[list[str]]:
    rng = random.Random(seed)
    leaves = {c: [t.split(";")[0] for t in text.splitlines()] for c, text in DGHS.items()}
    lo = rng.randint(17, 40)
    return [_row(rng.randint(lo, lo + rng.choice((3, 10, 30))), rng.choice(leaves["work_class"]),
                 rng.choice(leaves["sex"]), education_num=rng.randint(9, 9 + rng.randint(0, 4)),
                 marital=rng.choice(leaves["marital_status"]),
                 occupation=rng.choice(leaves["occupation"]), race=rng.choice(leaves["race"]),
                 country=rng.choice(leaves["native_country"]),
                 income=rng.choice(("<=50K", ">50K")), weight=rng.randint(1, 10 ** 6))
            for _ in range(n)]


@pytest.mark.parametrize("table", range(6))
def test_random_tables_are_the_contracts_partitions(case, tmp_path, table) -> None:
    rng = random.Random(100 + table)
    n, k = rng.randint(12, 40), rng.choice((2, 3, 4, 5))
    rows = _random_rows(table, n)
    raw, dghs = case(rows)
    problem = Problem(raw, dghs)
    for seed in range(4):
        rounds = (3, 3, 1, 2)[seed]
        parts = tdg.greedy_partitions(str(raw), str(dghs), k, seed=seed, rounds=rounds)
        assert parts == naive_partitions(problem, k, seed=seed, rounds=rounds), (n, k, seed)
        assert sorted(r for p in parts for r in p) == list(range(n))
        assert all(k <= len(p) < 2 * k for p in parts)  # balancing never needs to merge
        out = tmp_path / f"out-{seed}.csv"
        tdg.topdown_greedy(str(raw), str(dghs), k, str(out), seed=seed, rounds=rounds)
        ncp = check_output(problem, out, k)
        assert ncp == sum((len(p) * problem.ncp(p) for p in parts), Fraction(0))
        assert tdg.cost_NCP(str(raw), str(out), str(dghs)) == pytest.approx(float(ncp),
                                                                            abs=1e-9)
        for p in parts:
            _, released = read_csv(out)
            cells = [released[r][:-1] for r in p]
            assert cells == [list(problem.middle(p).values())] * len(p)
    assert tdg.greedy_partitions(str(raw), str(dghs), 1, seed=0) == \
        naive_partitions(problem, 1, seed=0) == [[r] for r in range(n)]


def test_the_same_seed_gives_the_same_output(case, tmp_path) -> None:
    raw, dghs = case(_random_rows(7, 30))
    for name in ("a", "b"):
        tdg.topdown_greedy(str(raw), str(dghs), 3, str(tmp_path / name), seed=11)
    assert (tmp_path / "a").read_bytes() == (tmp_path / "b").read_bytes()
    tdg.topdown_greedy(str(raw), str(dghs), 3, str(tmp_path / "c"))  # seed None: any start
    check_output(Problem(raw, dghs), tmp_path / "c", 3)


def test_right_answers_differ_across_seeds(tmp_path) -> None:
    """k = 10 on 2,000 rows of the public data: the random first record changes the output
    (and its NCP) for some of five seeds, which is why the course judges by rules and a band."""
    public = COURSE / "cases" / "public" / "adult"
    header, rows = read_csv(public / "adult-hw1.csv")
    sample = sorted(random.Random(2006).sample(range(len(rows)), 2000))
    raw = tmp_path / "sample.csv"
    write_csv(raw, header, [rows[r] for r in sample])
    outputs, ncps = set(), set()
    problem = Problem(raw, public / "DGHs")
    for seed in range(5):
        out = tmp_path / f"out-{seed}.csv"
        tdg.topdown_greedy(str(raw), str(public / "DGHs"), 10, str(out), seed=seed)
        outputs.add(out.read_bytes())
        ncp = tdg.cost_NCP(str(raw), str(out), str(public / "DGHs"))
        assert ncp == pytest.approx(float(check_output(problem, out, 10)), abs=1e-6)
        ncps.add(round(ncp, 6))
    assert len(outputs) >= 2 and len(ncps) >= 2, ncps


# ------------------------------------------------------------------ errors and writing

@pytest.mark.parametrize("k, says", [(0, "k must be at least 1, not 0"),
                                     (-3, "k must be at least 1, not -3"),
                                     (9, "k = 9 is more than the 8 records of")])
def test_a_bad_k_is_refused(case, tmp_path, k, says) -> None:
    raw, dghs = case(TABLE_A)
    with pytest.raises(ValueError, match=says):
        tdg.topdown_greedy(str(raw), str(dghs), k, str(tmp_path / "out.csv"))
    assert not (tmp_path / "out.csv").exists()
    with pytest.raises(TypeError):
        tdg.topdown_greedy(str(raw), str(dghs), 2.0, str(tmp_path / "out.csv"))
    with pytest.raises(ValueError, match="rounds must be at least 1"):
        tdg.topdown_greedy(str(raw), str(dghs), 2, str(tmp_path / "out.csv"), rounds=0)


def test_the_output_is_written_atomically(case, tmp_path) -> None:
    raw, dghs = case(TABLE_A)
    out = tmp_path / "out.csv"
    out.write_text("old\n")
    with pytest.raises(ValueError):
        tdg.topdown_greedy(str(raw), str(dghs), 99, str(out))
    assert out.read_text() == "old\n"
    tdg.topdown_greedy(str(raw), str(dghs), 2, str(out), seed=0)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["DGHs", "out.csv", "raw.csv"]
    with pytest.raises(ValueError, match="is the raw dataset file"):
        tdg.topdown_greedy(str(raw), str(dghs), 2, str(raw), seed=0)
    assert read_csv(raw)[1] == TABLE_A


def _anonymized(tmp_path, rows) -> Path:
    header = RELEASED
    write_csv(tmp_path / "anon.csv", header, rows)
    return tmp_path / "anon.csv"


def test_cost_ncp_errors_name_file_row_and_column(case, tmp_path) -> None:
    raw, dghs = case(TABLE_A)
    good = _released(TABLE_A, [("[20-26]", "Private", "*")] * 4
                     + [("[54-60]", "gov", "Female")] * 4)
    anon = _anonymized(tmp_path, good[:7])
    with pytest.raises(ValueError, match=r"anon.csv has 7 records, .*raw.csv 8"):
        tdg.cost_NCP(str(raw), str(anon), str(dghs))
    bad = [list(r) for r in good]
    bad[5][0] = "[54-55]"  # row 6's age is 56
    with pytest.raises(ValueError, match=r"anon.csv: data row 6, column age: '\[54-55\]' does "
                                         r"not cover the raw value '56'"):
        tdg.cost_NCP(str(raw), str(_anonymized(tmp_path, bad)), str(dghs))
    bad = [list(r) for r in good]
    bad[2][1] = "gov"  # row 3 is Private
    with pytest.raises(ValueError, match=r"data row 3, column work_class: 'gov' does not cover "
                                         r"the raw value 'Private'"):
        tdg.cost_NCP(str(raw), str(_anonymized(tmp_path, bad)), str(dghs))
    for cell, says in (("Martian", "is not a node of"), ("[9-5]", "is not an integer or a range")):
        bad = [list(r) for r in good]
        bad[1][1 if cell == "Martian" else 0] = cell
        with pytest.raises(ValueError, match=rf"data row 2, column \w+: .* {says}"):
            tdg.cost_NCP(str(raw), str(_anonymized(tmp_path, bad)), str(dghs))
    missing = [[c for i, c in enumerate(r) if i != 1] for r in good]
    write_csv(tmp_path / "anon.csv", [c for c in RELEASED if c != "work_class"], missing)
    with pytest.raises(ValueError, match="no column 'work_class'"):
        tdg.cost_NCP(str(raw), str(tmp_path / "anon.csv"), str(dghs))


@pytest.mark.parametrize("texts, rows, says", [
    ({**DGHS, "sex": "Male;*\nFemale;top\n"}, None, "ends in 'top', not in the root '\\*'"),
    ({**DGHS, "sex": "Male;a;*\nFemale;*\nMale;b;*\n"}, None, "'Male' has the parent 'b' here"),
    ({**DGHS, "sex": "Male;*\nFemale;Male;*\n"}, None, "'Male' is a leaf .* and the parent"),
    ({**DGHS, "sex": "Male;*\nWoman;*\n"}, None, "data row 3, column sex: 'Female' is no leaf"),
    (DGHS, [_row("x", "Private", "Male")], "data row 1, column age: 'x' is not an integer"),
])
def test_bad_inputs_are_refused(case, tmp_path, texts, rows, says) -> None:
    raw, dghs = case(rows or TABLE_A, texts=texts)
    with pytest.raises(ValueError, match=says):
        tdg.topdown_greedy(str(raw), str(dghs), 1, str(tmp_path / "out.csv"))


def test_a_missing_column_is_named(case, tmp_path) -> None:
    header = [c for c in HEADER if c != "race"]
    raw, dghs = case([[c for c, h in zip(r, HEADER) if h != "race"] for r in TABLE_A], header)
    with pytest.raises(ValueError, match="no column 'race'"):
        tdg.topdown_greedy(str(raw), str(dghs), 2, str(tmp_path / "out.csv"))


@pytest.mark.parametrize("name, k", [("sample-500", 10), ("sample-200", 5), ("ages-30-45", 3)])
def test_the_hidden_cases_get_right_answers(tmp_path, name, k) -> None:
    folder = COURSE / "cases" / "hidden" / name
    raw, dghs = folder / "adult-hw1.csv", folder / "DGHs"
    problem = Problem(raw, dghs)
    for seed in (0, 1):
        out = tmp_path / f"out-{seed}.csv"
        tdg.topdown_greedy(str(raw), str(dghs), k, str(out), seed=seed)
        ncp = check_output(problem, out, k)
        assert tdg.cost_NCP(str(raw), str(out), str(dghs)) == pytest.approx(float(ncp),
                                                                            abs=1e-6)


def test_the_command_line(tmp_path) -> None:
    folder = COURSE / "cases" / "hidden" / "sample-200"
    script = COURSE / "reference" / "tdg.py"
    done = subprocess.run([sys.executable, str(script), str(folder / "adult-hw1.csv"),
                           str(folder / "DGHs"), "5", "out.csv", "--seed", "3"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.startswith("NCP "), done.stderr
    cost = subprocess.run([sys.executable, str(script), "--cost", str(folder / "adult-hw1.csv"),
                           "out.csv", str(folder / "DGHs")],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert cost.returncode == 0 and cost.stdout == done.stdout.split(",")[0] + "\n"
    bad = subprocess.run([sys.executable, str(script), str(folder / "adult-hw1.csv"),
                          str(folder / "DGHs"), "201", "out.csv"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "k = 201 is more than the 200 records" in bad.stderr
