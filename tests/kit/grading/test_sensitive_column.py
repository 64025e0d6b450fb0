"""One rule for a dataset's sensitive column (issue 39, item 3): the single non-QI column,
else a ValueError naming the file and the non-QI columns found; the reference's Problem and
the grader's CaseData agree on every table, the missing column included; the privacy
checker's Release (reference/check.py) takes the same rule, its message saying how to name
one."""
from __future__ import annotations

from pathlib import Path

import pytest

from grader.grading.compare import load_case_data
from grader.grading.privacy_summary import summarize
from kanon.privacy import load_release
from kanon.problem import Problem, load_problem

JOB = "Any\n\tProfessional\n\t\tEngineer\n\t\tLawyer\n\tArtist\n\t\tDancer\n"
SEX = "Any\n\tMale\n\tFemale\n"
DISEASE = "Any\n\tFlu\n\tCold\n"


def _case(folder: Path, header: str, rows: list[str], hierarchies: dict[str, str]) -> Path:
    (folder / "DGHs").mkdir(parents=True)
    for name, text in hierarchies.items():
        (folder / "DGHs" / f"{name}.txt").write_text(text, encoding="utf-8")
    (folder / "adult-hw1.csv").write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    return folder


def _both(folder: Path) -> list[object]:
    """What Problem and CaseData say of the folder's sensitive column (the index or the
    error's message)."""
    said = []
    for load in (lambda: load_problem(str(folder / "adult-hw1.csv"), str(folder / "DGHs")),
                 lambda: load_case_data(folder)):
        try:
            said.append(load().sensitive_column())
        except ValueError as e:
            said.append(str(e))
    return said


def test_the_single_non_qi_column_is_the_sensitive_one(tmp_path: Path) -> None:
    folder = _case(tmp_path / "c", "Job,Disease,Sex", ["Engineer,Flu,Male", "Dancer,Cold,Female"],
                   {"Job": JOB, "Sex": SEX})
    assert _both(folder) == [1, 1]


@pytest.mark.parametrize("header, rows, hierarchies, found", [
    ("Job,Sex,Disease", ["Engineer,Male,Flu", "Dancer,Female,Cold"],
     {"Job": JOB, "Sex": SEX, "Disease": DISEASE}, "found 0: none"),
    ("Job,Sex,Disease,Zip", ["Engineer,Male,Flu,1000", "Dancer,Female,Cold,2000"],
     {"Job": JOB, "Sex": SEX}, "found 2: Disease, Zip"),
])
def test_no_single_sensitive_column_raises_alike_naming_file_and_columns(
        tmp_path: Path, header: str, rows: list[str], hierarchies: dict[str, str],
        found: str) -> None:
    folder = _case(tmp_path / "c", header, rows, hierarchies)
    problem, case_data = _both(folder)
    assert problem == case_data == (f"{folder / 'adult-hw1.csv'}: l-diversity needs exactly "
                                    f"one non-QI (sensitive) column, {found}")
    # the privacy summary, which is optional, then leaves l out (it never raises)
    output = (folder / "adult-hw1.csv").read_bytes()
    assert summarize(output, folder, distinct_l=True) == "k reached: 1 (2 classes of 1 rows)"


def test_the_privacy_checker_takes_the_same_rule(tmp_path: Path) -> None:
    folder = _case(tmp_path / "c", "Job,Sex,Disease,Zip",
                   ["Engineer,Male,Flu,1000", "Dancer,Female,Cold,2000"], {"Job": JOB, "Sex": SEX})
    raw = str(folder / "adult-hw1.csv")
    with pytest.raises(ValueError) as caught:
        load_release(raw, raw, str(folder / "DGHs"))
    assert str(caught.value) == (f"{raw}: found 2 non-QI columns (Disease, Zip); name the "
                                 f"sensitive attribute with --sensitive COLUMN")
    release = load_release(raw, raw, str(folder / "DGHs"), sensitive="Disease")
    assert isinstance(release.problem, Problem) and release.raw is release.problem.table
    assert (release.qi_names, release.sensitive_name) == (["Job", "Sex"], "Disease")
