"""The README's "Instructors: set up your course", run literally in a fresh copy of the kit:
its six commands in order (copy a rubric; choose parts and points, done here as an instructor
would edit the copy; regen with a term; check; materials; bundle; gradescope), then its merge
command on a graded class, and the merge's refusals."""
from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from staff_submission import staff_submission
from test_readme_quickstart import _copy_checkout

REPO = Path(__file__).resolve().parents[2]
COPIED = ["adult-hw1.csv", "DGHs", "kanon", "reference", "grader", "tests", "pyproject.toml",
          "skeleton.py", "HANDOUT.md", "README.md"]


def section_commands(readme: str) -> list[list[str]]:
    """The shell commands of the instructors' section's bash blocks, in order."""
    section = readme[readme.index("<!-- instructors:start -->"):
                     readme.index("<!-- instructors:end -->")]
    blocks = re.findall(r"```bash\n(.*?)```", section, re.S)
    return [shlex.split(line) for block in blocks for line in block.splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def run(command: list[str], cwd: Path) -> subprocess.CompletedProcess:
    if command[0] == "python":
        command = [sys.executable, *command[1:]]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "KANON_"))}
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=600)


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    checkout = tmp_path_factory.mktemp("clone") / "kanon-kit"
    checkout.mkdir()
    _copy_checkout(REPO, checkout, COPIED)
    return checkout


def test_the_instructors_commands_set_up_a_course(kit: Path) -> None:
    commands = section_commands((kit / "README.md").read_text(encoding="utf-8"))
    setup, merge = commands[:6], commands[6:]
    assert [c[:4] for c in setup] == [
        ["cp", "grader/rubric-2025.toml", "grader/rubric-fall2026.toml"],
        ["python", "-m", "grader", "regen"], ["python", "-m", "grader", "check"],
        ["python", "-m", "grader", "materials"], ["python", "-m", "grader", "bundle"],
        ["python", "-m", "grader", "gradescope"]]
    assert merge and merge[0][:4] == ["python", "-m", "grader", "merge"]
    done = run(setup[0], kit)
    assert done.returncode == 0, done.stderr
    rubric = kit / "grader" / "rubric-fall2026.toml"  # 2. choose parts and points
    text = rubric.read_text(encoding="utf-8")
    text = text.replace('function = "topdown_anonymizer"\npoints = 30',
                        'function = "topdown_anonymizer"\npoints = 25')
    text = text.replace('function = "random_anonymizer"\npoints = 20',
                        'function = "random_anonymizer"\npoints = 25')
    rubric.write_text(text, encoding="utf-8")
    outputs = {}
    for command in setup[1:]:
        done = run(command, kit)
        assert done.returncode == 0, (command, done.stdout[-2000:], done.stderr[-2000:])
        outputs[command[3]] = done.stdout + done.stderr
    assert "term Fall 2026" in outputs["regen"]
    manifest = json.loads((kit / "grader" / "cases" / "manifest.json").read_text())
    assert manifest["term"]["name"] == "Fall 2026"
    handout = (kit / "preview" / "HANDOUT.md").read_text(encoding="utf-8")
    assert "## topdown_anonymizer (25 points)" in handout
    assert "## random_anonymizer (25 points)" in handout
    assert "| **Total** | **100** |" in handout and "bottomup_anonymizer" not in handout
    with zipfile.ZipFile(kit / "student.zip") as archive:
        assert archive.read("kanon-hw1/HANDOUT.md").decode() == handout
        assert archive.read("kanon-hw1/skeleton.py") == (kit / "preview" / "skeleton.py"
                                                         ).read_bytes()
    with zipfile.ZipFile(kit / "autograder.zip") as archive:
        assert "grader/cases/manifest.json" in archive.namelist()
        shipped = json.loads(archive.read("grader/cases/manifest.json"))
    assert shipped["term"]["name"] == "Fall 2026"


def test_the_merge_command_fills_in_the_report(kit: Path, tmp_path: Path) -> None:
    """After grading with the course's rubric: the README's merge command, literally."""
    rubric = kit / "grader" / "rubric-fall2026.toml"
    if not rubric.is_file():  # this test alone: the copy of step 1
        shutil.copyfile(kit / "grader" / "rubric-2025.toml", rubric)
    submissions = tmp_path / "submissions"
    staff_submission(submissions / "ada", "from staffcopy import *  # noqa\n")
    (submissions / "ada" / "report.pdf").write_bytes(b"%PDF-1.4 not really\n")
    staff_submission(submissions / "ben", "from staffcopy import cost_MD  # noqa\n")
    small = rubric.read_text(encoding="utf-8")
    small = small[:small.index('[[part]]\nfunction = "cost_LM"')] + small[
        small.index('[[part]]\nkind = "manual"'):]  # cost_MD and the report: fast
    rubric.write_text(small, encoding="utf-8")
    graded = run(["python", "-m", "grader", "grade", str(submissions), "--rubric", str(rubric),
                  "--out", "grades", "--sandbox", "none"], kit)
    assert graded.returncode == 0, graded.stderr[-2000:]
    grades = (kit / "grades" / "grades.csv").read_text(encoding="utf-8")
    assert "no report: no file matching *.pdf" in grades  # ben handed in no report
    (kit / "scores.csv").write_text("student,report,comment\nada,7,clear plots\nben,0,\n",
                                    encoding="utf-8")
    merge = section_commands((kit / "README.md").read_text(encoding="utf-8"))[6]
    done = run(merge, kit)
    assert done.returncode == 0, done.stderr
    rows = {line.split(",")[0]: line for line in
            (kit / "grades" / "grades.csv").read_text(encoding="utf-8").splitlines()}
    assert ",7," in rows["ada"] and rows["ada"] != rows["ben"]
    before = {p: p.read_bytes() for p in (kit / "grades").rglob("*") if p.is_file()}
    (kit / "scores.csv").write_text("student,report\nada,11\nzed,3\n", encoding="utf-8")
    refused = run(merge, kit)
    assert refused.returncode == 2
    lines = refused.stderr.strip().splitlines()
    assert lines == ["error: scores.csv: row 2, column report: '11' is more than the part's "
                     "10 points",
                     "error: scores.csv: row 3, column student: 'zed' is not a student of the "
                     "graded folder's grades.csv",
                     "error: merge refused: 2 problem(s) in scores.csv; nothing was changed"]
    assert {p: p.read_bytes() for p in (kit / "grades").rglob("*") if p.is_file()} == before
