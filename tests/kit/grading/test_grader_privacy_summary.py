"""The privacy summary of an anonymizer's output in the grader's feedback (issue 12, item 5):
hand-computed lines on small tables, None on unreadable outputs, no hidden value ever shown,
and grading with the summary gives exactly the scores it gives without."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from staff_submission import staff_submission

from grader.grading import privacy_summary

from grader import rubric
from grader.gradebook.export import feedback_md, gradescope_json
from grader.commands.grade import grade_class
from grader.grading.batch import BatchSettings

REPO = Path(__file__).resolve().parents[3]
CASES = REPO / "grader" / "cases"

JOB = "Any\n\tProfessional\n\t\tEngineer\n\t\tLawyer\n\tArtist\n\t\tDancer\n\t\tWriter\n"
SEX = "Any\n\tMale\n\tFemale\n"
RAW = ("Job,Sex,Disease\n"
       "Engineer,Male,Flu\nLawyer,Male,Cold\nWriter,Male,Flu\nEngineer,Female,Cancer\n"
       "Lawyer,Male,Flu\nDancer,Female,HIV\nWriter,Female,Cancer\nDancer,Female,HIV\n")
# the handout's "Beyond k-anonymity" table: ECs A (rows 1, 2, 5), B (3, 6), C (4, 7, 8)
HANDOUT = ("Job,Sex,Disease\n"
           "Professional,Male,Flu\nProfessional,Male,Cold\nArtist,Any,Flu\nAny,Female,Cancer\n"
           "Professional,Male,Flu\nArtist,Any,HIV\nAny,Female,Cancer\nAny,Female,HIV\n")


@pytest.fixture()
def case(tmp_path: Path) -> Path:
    folder = tmp_path / "case"
    (folder / "DGHs").mkdir(parents=True)
    (folder / "DGHs" / "Job.txt").write_text(JOB, encoding="utf-8")
    (folder / "DGHs" / "Sex.txt").write_text(SEX, encoding="utf-8")
    (folder / "adult-hw1.csv").write_text(RAW, encoding="utf-8")
    return folder


ROOTS = "Job,Sex,Disease\n" + "".join(
    f"Any,Any,{r.split(',')[2]}\n" for r in RAW.splitlines()[1:])

TABLE = [
    ("the handout's table", HANDOUT, "k reached: 2 (3 classes of 2 to 3 rows); distinct l: 2"),
    ("the raw table itself", RAW, "k reached: 1 (6 classes of 1 to 2 rows); distinct l: 1"),
    ("every QI at the root", ROOTS, "k reached: 8 (1 class of 8 rows); distinct l: 4"),
    ("CRLF line ends and a BOM", "\ufeff" + HANDOUT.replace("\n", "\r\n"),
     "k reached: 2 (3 classes of 2 to 3 rows); distinct l: 2"),
]


@pytest.mark.parametrize("text, expected", [pytest.param(t, e, id=i) for i, t, e in TABLE])
def test_summary_of_small_tables(case: Path, text: str, expected: str) -> None:
    assert privacy_summary.summarize(text.encode("utf-8"), case) == expected


UNREADABLE = [
    ("empty file", b""),
    ("header only", b"Job,Sex,Disease\n"),
    ("another header", HANDOUT.replace("Disease", "Illness").encode()),
    ("a short row", b"Job,Sex,Disease\nAny,Any\n"),
    ("not UTF-8", b"Job,Sex,Disease\n\xff\xfe,Any,Flu\n"),
    ("binary", bytes(range(256))),
]


@pytest.mark.parametrize("data", [pytest.param(d, id=i) for i, d in UNREADABLE])
def test_unreadable_outputs_have_no_summary(case: Path, data: bytes) -> None:
    assert privacy_summary.summarize(data, case) is None


def test_a_missing_case_folder_has_no_summary(tmp_path: Path) -> None:
    assert privacy_summary.summarize(HANDOUT.encode(), tmp_path / "nowhere") is None


def test_no_sensitive_column_no_l(case: Path) -> None:
    (case / "DGHs" / "Disease.txt").write_text(
        "Any\n\tFlu\n\tCold\n\tCancer\n\tHIV\n", encoding="utf-8")
    assert privacy_summary.summarize(HANDOUT.encode(), case) == \
        "k reached: 1 (6 classes of 1 to 2 rows)"
    (case / "DGHs" / "Disease.txt").unlink()
    # a table with two non-QI columns has no single sensitive column either
    assert privacy_summary.summary_of([["a", "x", "y"], ["a", "z", "y"]], [0], None) == \
        "k reached: 2 (1 class of 2 rows)"


@pytest.mark.parametrize("name", ["unbalanced", "quoted", "single-qi", "many-qi", "ties"])
def test_hidden_cases_show_no_value(name: str) -> None:
    folder = CASES / "hidden" / name
    line = privacy_summary.summarize((folder / "adult-hw1.csv").read_bytes(), folder)
    # counts only: nothing of the data can appear in a line of this shape
    for line in (line, privacy_summary.summarize(
            (folder / "anonymized" / "levels.csv").read_bytes(), folder, suppression=True)):
        assert re.fullmatch(r"k reached: \d+ \(\d+ class(es)? of \d+( to \d+)? rows\)"
                            r"(, \d+ rows? suppressed)?(; distinct l: \d+)?", line or ""), line


# rows 3 and 6 suppressed (both QIs at the root); the rest as in the handout's table
SUPPRESSED = HANDOUT.replace("Artist,Any,", "Any,Any,")
SUPPRESSION = [
    ("Samarati's output", SUPPRESSED, True,
     "k reached: 3 (2 classes of 3 rows), 2 rows suppressed; distinct l: 2"),
    ("another anonymizer's: an EC like any other", SUPPRESSED, False,
     "k reached: 2 (3 classes of 2 to 3 rows); distinct l: 2"),
    ("no row suppressed", HANDOUT, True,
     "k reached: 2 (3 classes of 2 to 3 rows); distinct l: 2"),
    ("every row suppressed: one EC", ROOTS, True, "k reached: 8 (1 class of 8 rows); distinct l: 4"),
    ("one row suppressed", SUPPRESSED.replace("Any,Any,HIV", "Artist,Any,HIV"), True,
     "k reached: 1 (3 classes of 1 to 3 rows), 1 row suppressed; distinct l: 1"),
]


@pytest.mark.parametrize("text, suppression, expected",
                         [pytest.param(t, s, e, id=i) for i, t, s, e in SUPPRESSION])
def test_suppressed_rows_are_counted_apart_for_samarati(case: Path, text: str,
                                                        suppression: bool, expected: str) -> None:
    assert privacy_summary.summarize(text.encode(), case, suppression=suppression) == expected


RUBRIC = f"""
[settings]
import_time_limit = 5.0
time_limit = 5.0
time_per_1000_rows = 0.0
cases_dir = "{CASES.as_posix()}"

[[part]]
function = "cost_MD"
points = 5

[[part.case]]
name = "unbalanced, intervals"
data = "hidden/unbalanced"
anonymized = "anonymized/intervals.csv"
hidden = true

[[part]]
function = "mondrian"
points = 10

[[part.case]]
name = "unbalanced, k=3"
data = "hidden/unbalanced"
k = 3
hidden = true

[[part]]
function = "random_anonymizer"
points = 10

[[part.case]]
name = "unbalanced, k=5"
data = "hidden/unbalanced"
k = 5
s = 1
hidden = true

[[part]]
function = "samarati"
points = 10

[[part.case]]
name = "unbalanced, k=4, max_sup=3"
data = "hidden/unbalanced"
k = 4
max_sup = 3
hidden = true
"""

FULL = "from staffcopy import *\n"
# one lies about k (k - 1: a valid output, not k-anonymous), one writes garbage
OFF = """from staffcopy import *
from staffcopy import mondrian as _m
def mondrian(raw_dataset_file, DGH_folder, k, output_file):
    return _m(raw_dataset_file, DGH_folder, 2, output_file)
def random_anonymizer(raw_dataset_file, DGH_folder, k, s, output_file):
    with open(output_file, "w") as f:
        f.write("nonsense\\n")
"""


def _grade(tmp_path: Path, tag: str) -> dict:
    subs = tmp_path / f"subs-{tag}"
    for name, source in (("full", FULL), ("off", OFF)):
        staff_submission(subs / name, source)
    path = tmp_path / "rubric.toml"
    path.write_text(RUBRIC, encoding="utf-8")
    result = grade_class(BatchSettings(subs, tmp_path / f"out-{tag}", rubric.load(path), jobs=1,
                                       sandbox="none", progress=False))
    return {rec["student"]: rec for rec in result.records}


@pytest.mark.slow
def test_grading_records_and_shows_the_summary_without_changing_scores(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    records = _grade(tmp_path, "with")
    full = {c["function"]: c for c in records["full"]["cases"]}
    off = {c["function"]: c for c in records["off"]["cases"]}
    assert full["mondrian"]["status"] == "passed"
    assert full["mondrian"]["privacy"].startswith("k reached: ")
    assert int(full["mondrian"]["privacy"].split()[2]) >= 3
    assert off["mondrian"]["status"] == "wrong"  # k = 2 reached, 3 asked
    assert off["mondrian"]["privacy"].startswith("k reached: 2 ")
    assert full["samarati"]["status"] == "passed"
    assert re.fullmatch(r"k reached: ([4-9]|\d\d+) .*", full["samarati"]["privacy"])
    assert "privacy" not in full["cost_MD"] and "privacy" not in off["random_anonymizer"]
    r = rubric.load(tmp_path / "rubric.toml")
    text = feedback_md(records["off"], r)
    assert f"Privacy of your output (no points): {off['mondrian']['privacy']}." in text
    assert off["mondrian"]["privacy"] in gradescope_json(records["off"], r)

    monkeypatch.setattr(privacy_summary, "summarize", lambda *args, **kwargs: None)
    monkeypatch.setattr(privacy_summary, "summarize_message", lambda *args, **kwargs: None)
    without = _grade(tmp_path, "without")
    for student, record in records.items():
        assert record["score"] == without[student]["score"]
        assert record["parts"] == without[student]["parts"]
        assert [(c["id"], c["status"], c["points"], c["message"]) for c in record["cases"]] == \
            [(c["id"], c["status"], c["points"], c["message"]) for c in without[student]["cases"]]
        assert not any("privacy" in c for c in without[student]["cases"])
