"""A grade command applies its course's term once (issue 39, item 3): the manifest's term is
read once, the checks, the batch and the gradebook reuse the rubric it gave; applying it
again changes nothing and reads nothing, and a rubric moved to another cases folder is
applied anew."""
from __future__ import annotations

import csv
from pathlib import Path

import pytest

from grader.cli import main
from grader.courses.folder import with_cases
from grader.grading import term_view
from tiny_class import CASES, answers, student, tiny_rubric


@pytest.fixture()
def reads(monkeypatch) -> list[Path]:
    """The cases folders whose term record was read."""
    seen: list[Path] = []
    real = term_view.term_record

    def counted(rubric):
        seen.append(rubric.cases_dir)
        return real(rubric)
    monkeypatch.setattr(term_view, "term_record", counted)
    return seen


def test_one_grade_command_reads_the_term_once(tmp_path: Path, reads: list[Path]) -> None:
    rubric = tiny_rubric(tmp_path)
    values = answers(rubric)
    student(tmp_path / "subs" / "ann", repr(values["cost_MD"]), repr(values["cost_LM"]))
    assert main(["grade", str(tmp_path / "subs"), "--rubric", str(rubric.path), "--out",
                 str(tmp_path / "out"), "--sandbox", "none", "--run-as", "none",
                 "--jobs", "1", "--quiet"]) == 0
    with open(tmp_path / "out" / "grades.csv", encoding="utf-8", newline="") as f:
        (row,) = list(csv.DictReader(f))
    assert (row["student"], row["total"], row["max"]) == ("ann", "10", "10")
    assert reads == [CASES.resolve()]


def test_applying_twice_reads_once_and_another_folder_anew(tmp_path: Path,
                                                          reads: list[Path]) -> None:
    rubric = tiny_rubric(tmp_path)
    assert not rubric.term_applied
    once = term_view.apply_term(rubric)
    assert once.term_applied and once == rubric  # the default term changes no case
    assert term_view.apply_term(once) is once and len(reads) == 1
    moved = with_cases(once, tmp_path / "elsewhere")
    assert not moved.term_applied
    term_view.apply_term(moved)
    assert reads == [CASES.resolve(), (tmp_path / "elsewhere").resolve()]
