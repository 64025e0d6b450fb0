"""A course grading with its own data: the real course's adult-hw1.csv and DGHs/ (from
../shared/course-data, copied to a temporary cases folder, never into the repository), a
rubric of the TA's own, expected outputs produced by `regen --keep-datasets`."""
from __future__ import annotations

import csv
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]

RUBRIC = """\
[settings]
time_limit = 30
cases_dir = "cases"

[[part]]
function = "random_anonymizer"
points = 10

[[part.case]]
name = "course data, k=5, s=3"
data = "course"
k = 5
s = 3

[[part]]
function = "mondrian"
points = 20

[[part.case]]
name = "course data, k=10"
data = "course"
k = 10

[[part]]
function = "samarati"
points = 20

[[part.case]]
name = "course data, k=8, max_sup=40"
data = "course"
k = 8
max_sup = 40
"""


@pytest.mark.slow
def test_grading_against_a_courses_own_data(course_data: Path, tmp_path: Path) -> None:
    cases = tmp_path / "cases" / "course"
    cases.mkdir(parents=True)
    shutil.copyfile(course_data / "adult-hw1.csv", cases / "adult-hw1.csv")
    shutil.copytree(course_data / "DGHs", cases / "DGHs")
    rubric = tmp_path / "course.toml"
    rubric.write_text(RUBRIC, encoding="utf-8")
    run = [sys.executable, "-m", "grader"]
    grade = run + ["grade", str(REPO / "examples" / "submissions"), "--out", str(tmp_path / "out"),
                   "--rubric", str(rubric), "--only", "alice", "bob", "--sandbox", "none"]
    refused = subprocess.run(grade, cwd=REPO, capture_output=True, text=True)
    assert refused.returncode == 2 and "run `python -m grader regen`" in refused.stderr
    regen = subprocess.run(run + ["regen", "--rubric", str(rubric), "--keep-datasets"],
                           cwd=REPO, capture_output=True, text=True)
    assert regen.returncode == 0, regen.stderr
    assert (tmp_path / "cases" / "manifest.json").is_file()
    assert subprocess.run(run + ["check", "--rubric", str(rubric)], cwd=REPO).returncode == 0
    done = subprocess.run(grade, cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    with open(tmp_path / "out" / "grades.csv", encoding="utf-8", newline="") as f:
        grades = {row["student"]: row for row in csv.DictReader(f)}
    assert grades["alice"]["total"] == "50" and grades["alice"]["status"] == "ok"
    assert grades["bob"]["random_anonymizer"] == "10" and grades["bob"]["mondrian"] == "0"
    assert grades["bob"]["samarati"] in ("10", "20")  # bottom-up output: partial or identical
    feedback = (tmp_path / "out" / "feedback" / "bob.md").read_text(encoding="utf-8")
    assert "course data, k=10" in feedback
