"""One dataset type (issue 39, item 3): the grader's case data is kanon's Problem, read by the
same rule as the anonymizers' (QIs in column order, QI values encoded as hierarchy nodes,
a raw value that is no label refused naming file, data row and column), with its cell rule
per QI; a case's QIs may be fewer than its hierarchies."""
from __future__ import annotations

from pathlib import Path

import pytest

from grader.grading.compare import CaseData, load_case_data
from kanon.problem import Problem, load_problem

JOB = "Any\n\tProfessional\n\t\tEngineer\n\t\tLawyer\n\tArtist\n\t\tDancer\n"
SEX = "Any\n\tMale\n\tFemale\n"


def _case(folder: Path, rows: list[str]) -> Path:
    (folder / "DGHs").mkdir(parents=True)
    (folder / "DGHs" / "Job.txt").write_text(JOB, encoding="utf-8")
    (folder / "DGHs" / "Sex.txt").write_text(SEX, encoding="utf-8")
    (folder / "adult-hw1.csv").write_text("\n".join(["Job,Disease,Sex", *rows]) + "\n",
                                          encoding="utf-8")
    return folder


def test_case_data_is_the_problem_the_anonymizers_read(tmp_path: Path) -> None:
    folder = _case(tmp_path / "c", ["Engineer,Flu,Male", "Dancer,Cold,Female"])
    data = load_case_data(folder)
    assert CaseData is Problem and isinstance(data, Problem)
    problem = load_problem(str(folder / "adult-hw1.csv"), str(folder / "DGHs"))
    assert (data.qi_columns, data.qi_names, data.table.rows) == (
        problem.qi_columns, problem.qi_names, problem.table.rows) == (
        [0, 2], ["Job", "Sex"], [["Engineer", "Flu", "Male"], ["Dancer", "Cold", "Female"]])
    assert data.codes.tolist() == problem.codes.tolist()
    job, sex = data.dghs
    assert data.codes.tolist() == [[job.index["Engineer"], sex.index["Male"]],
                                   [job.index["Dancer"], sex.index["Female"]]]
    assert [c.name for c in data.columns] == ["Job", "Sex"]
    assert data.columns[0].check("Engineer", "Professional") is None
    assert data.columns[0].check("Engineer", "Artist") is not None


def test_a_case_keeps_only_its_qis(tmp_path: Path) -> None:
    folder = _case(tmp_path / "c", ["Engineer,Flu,Male", "Dancer,Cold,Female"])
    data = load_case_data(folder, ("Job",))
    assert (data.qi_names, data.codes.shape, len(data.columns)) == (["Job"], (2, 1), 1)
    assert data.released_columns() == [0, 1, 2]


def test_a_raw_value_that_is_no_label_names_file_row_and_column(tmp_path: Path) -> None:
    folder = _case(tmp_path / "c", ["Engineer,Flu,Male", "Pilot,Cold,Female"])
    with pytest.raises(ValueError) as caught:
        load_case_data(folder)
    assert str(caught.value) == (f"{folder / 'adult-hw1.csv'}: data row 2, column 'Job': value "
                                 f"'Pilot' is not a label of {folder / 'DGHs' / 'Job.txt'}")
