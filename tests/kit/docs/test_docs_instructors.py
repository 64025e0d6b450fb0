"""docs/instructors.md's "Set up your course", run literally in a fresh copy of the kit:
its seven commands in order (course new, check, materials, bundle, gradescope, solution, check
--against) for one course, then the same for a second course side by side (its folder and
origin changed: the examples' small rubric); points edited as an instructor would, then
regen; a new term for one course leaves the other's fingerprint unchanged, the stale
autograder is refused by check --against and a rebuilt one matches; both courses grade their
solution output with full marks; then the merge command on a graded class, and the merge's
refusals.

Every command line runs at least once as a program in the clone (the first course's seven
commands, the second's `course new`, regen --term, grade and merge); the same commands run
again, on the same folders, run in process (`here`): the clone is checked untouched after
each command ran there as a program."""
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

from grader import cli
from staff_submission import staff_submission
from test_docs_quickstart import _copy_checkout

REPO = Path(__file__).resolve().parents[3]
COPIED = ["adult-hw1.csv", "DGHs", "kanon", "kcheck", "reference", "grader", "tests",
          "pyproject.toml", "skeleton.py", "HANDOUT.md", "README.md", "docs"]


def section_commands(guide: str) -> list[list[str]]:
    """The shell commands of the instructors' section's bash blocks, in order."""
    section = guide[guide.index("<!-- instructors:start -->"):
                    guide.index("<!-- instructors:end -->")]
    blocks = re.findall(r"```bash\n(.*?)```", section, re.S)
    return [shlex.split(line) for block in blocks for line in block.splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def run(command: list[str], cwd: Path) -> subprocess.CompletedProcess:
    if command[0] == "python":
        command = [sys.executable, *command[1:]]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "KANON_"))}
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=600)


def here(command: list[str], cwd: Path, capsys: pytest.CaptureFixture) -> tuple[int, str]:
    """`command` (python -m grader ...) run in process from `cwd`: its exit code and stderr."""
    assert command[:3] == ["python", "-m", "grader"], command
    capsys.readouterr()
    before = os.getcwd()
    os.chdir(cwd)
    try:
        code = cli.main(command[3:])
    finally:
        os.chdir(before)
    return code, capsys.readouterr().err


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    checkout = tmp_path_factory.mktemp("clone") / "kanon-kit"
    checkout.mkdir()
    _copy_checkout(REPO, checkout, COPIED)
    (checkout / "examples").mkdir()  # `course new --from examples` reads its rubric only
    shutil.copyfile(REPO / "examples" / "rubric.toml", checkout / "examples" / "rubric.toml")
    return checkout


def _course_commands(commands: list[list[str]], folder: str, origin: str) -> list[list[str]]:
    """The setup commands for another course: its folder (and zips) and origin instead."""
    swap = {"../fall2026": folder, "../fall2026/solution.py": f"{folder}/solution.py",
            "fall2025": origin, "../fall2026-student.zip": f"{folder}-student.zip",
            "../fall2026-autograder.zip": f"{folder}-autograder.zip",
            "../fall2026-preview": f"{folder}-preview"}
    return [[swap.get(word, word) for word in command] for command in commands]


def _tree(folder: Path) -> dict[Path, bytes]:
    """Every file under `folder` (caches left out)."""
    return {p: p.read_bytes() for p in folder.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and ".pytest_cache" not in p.parts}


def _fingerprint(check: str) -> str:
    """The fingerprint `check --course` printed (its stderr `check`)."""
    return re.search(r"fingerprint ([0-9a-f]{16})", check).group(1)


def _grade_solution(kit: Path, folder: str, tmp: Path, capsys: pytest.CaptureFixture) -> dict:
    """Grade the course's solution.py as a one-student class (in process: `grade` runs as a
    program in the merge test); its record."""
    (tmp / "class" / "staff").mkdir(parents=True)
    shutil.copyfile(kit / folder / "solution.py", tmp / "class" / "staff" / "skeleton.py")
    code, err = here(["python", "-m", "grader", "grade", str(tmp / "class"), "--course", folder,
                      "--out", str(tmp / "out"), "--sandbox", "none", "--run-as", "none"],
                     kit, capsys)
    assert code == 0, err[-2000:]
    return json.loads((tmp / "out" / "results" / "staff" / "record.json").read_text())


@pytest.mark.slow
def test_the_instructors_commands_set_up_two_courses(kit: Path, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture) -> None:
    commands = section_commands((kit / "docs" / "instructors.md").read_text(encoding="utf-8"))
    setup, merge = commands[:7], commands[7:]
    assert [c[:4] for c in setup] == [["python", "-m", "grader", w] for w in (
        "course", "check", "materials", "bundle", "gradescope", "solution", "check")]
    assert setup[0][4:] == ["new", "../fall2026", "--from", "fall2025", "--term", "Fall 2026"]
    assert merge and merge[0][:4] == ["python", "-m", "grader", "merge"]
    kit_before = _tree(kit)
    outputs = {}
    for command in setup:
        done = run(command, kit)
        assert done.returncode == 0, (command, done.stdout[-2000:], done.stderr[-2000:])
        outputs[command[3]] = done.stdout + done.stderr
    course = (kit / ".." / "fall2026").resolve()
    assert sorted(p.name for p in course.iterdir()) == [
        "README.md", "cases", "course.toml", "secret", "solution.py"]
    assert "belongs to it" in outputs["check"]
    built = kit.parent
    handout = (built / "fall2026-preview" / "HANDOUT.md").read_text(encoding="utf-8")
    assert "## topdown_anonymizer (30 points)" in handout and "bottomup_anonymizer" not in handout
    assert _tree(kit) == kit_before  # nothing written inside the clone
    assert "autograder timeout: at least 1," in outputs["gradescope"]  # about 1,600 s
    with zipfile.ZipFile(built / "fall2026-student.zip") as archive:
        assert archive.read("kanon-hw1/HANDOUT.md").decode() == handout
    # 2. choose parts and points, then regen, as the guide says
    toml = course / "course.toml"
    text = toml.read_text(encoding="utf-8")
    text = text.replace('function = "topdown_anonymizer"\npoints = 30',
                        'function = "topdown_anonymizer"\npoints = 25')
    text = text.replace('function = "random_anonymizer"\npoints = 20',
                        'function = "random_anonymizer"\npoints = 25')
    toml.write_text(text, encoding="utf-8")
    regen = ["python", "-m", "grader", "regen", "--course", "../fall2026"]
    assert here(regen, kit, capsys)[0] == 0  # (a program below, with --term)
    assert here(setup[2], kit, capsys)[0] == 0  # materials again
    handout = (built / "fall2026-preview" / "HANDOUT.md").read_text(encoding="utf-8")
    assert "## topdown_anonymizer (25 points)" in handout and "| **Total** | **100** |" in handout
    code, err = here(setup[6], kit, capsys)  # the autograder built before the edit is refused
    assert code == 1 and "rubric:" in err, err
    for command in (setup[4], setup[6]):  # the autograder rebuilt: it matches again
        assert here(command, kit, capsys)[0] == 0, command
    # A second course side by side, from the examples' rubric.
    second = _course_commands(setup, "../examples2026", "examples")
    done = run(second[0], kit)  # course new, a program; the rest in process
    assert done.returncode == 0, done.stderr[-2000:]
    checked = [here(command, kit, capsys) for command in second[1:]]
    assert [code for code, _ in checked] == [0] * 6, checked
    other = _fingerprint(checked[0][1])  # what its `check --course` printed
    # A new term for the first course: the other course's fingerprint stays.
    new_term = ["python", "-m", "grader", "regen", "--course", "../fall2026", "--term",
                "Spring 2027"]
    assert run(new_term, kit).returncode == 0
    code, err = here(second[1], kit, capsys)
    assert code == 0 and _fingerprint(err) == other, err
    code, err = here(setup[6], kit, capsys)
    assert code == 1 and "term: 'Fall 2026' there, 'Spring 2027' in the course" in err, err
    for command in (setup[4], setup[6]):
        assert here(command, kit, capsys)[0] == 0, command
    assert _tree(kit) == kit_before  # the clone untouched
    for folder, points in (("../fall2026", (90, 100)), ("../examples2026", (100, 100))):
        record = _grade_solution(kit, folder, tmp_path / folder.strip("./"), capsys)
        assert (record["score"], record["max"]) == points, [  # full marks but the report
            (c["id"], c["status"]) for c in record["cases"] if c["status"] != "ok"]


def _small_rubric(full: Path) -> str:
    """The rubric `full` with cost_MD's hidden cases and the report part only."""
    text = full.read_text(encoding="utf-8")
    head = text[:text.index('[[part]]\nfunction = "cost_LM"')]
    report = text[text.index('[[part]]\nkind = "manual"'):]
    first, *cases = head.split("[[part.case]]")
    return first + "".join(f"[[part.case]]{case}" for case in cases
                           if "hidden = true" in case) + report


@pytest.mark.slow
def test_the_merge_command_fills_in_the_report(kit: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture) -> None:
    """After grading with the course's rubric: the guide's merge command, literally.

    The course is made by `course new` from the Fall 2025 rubric cut to what merging needs:
    cost_MD on its small hidden cases (a graded part beside the report) and the report (10
    points, graded by staff); its adult-size public cases would only make grading slow."""
    small = _small_rubric(kit / "grader" / "rubric-2025.toml")
    (kit.parent / "merge-rubric.toml").write_text(small, encoding="utf-8")
    folder = kit.parent / "merge-course"
    code, err = here(["python", "-m", "grader", "course", "new", str(folder), "--from",
                      str(kit.parent / "merge-rubric.toml"), "--term", "Merge"], kit, capsys)
    assert code == 0, err  # in process: `course new` runs as a program in the test above
    assert "3 cases" in err, err  # cost_MD's hidden cases only
    submissions = tmp_path / "submissions"
    staff_submission(submissions / "ada", "from staffcopy import *  # noqa\n")
    (submissions / "ada" / "report.pdf").write_bytes(b"%PDF-1.4 not really\n")
    staff_submission(submissions / "ben", "from staffcopy import cost_MD  # noqa\n")
    out = kit.parent  # where the guide's commands write, beside the clone
    graded = run(["python", "-m", "grader", "grade", str(submissions), "--course", str(folder),
                  "--out", "../fall2026-grades", "--sandbox", "none"], kit)
    assert graded.returncode == 0, graded.stderr[-2000:]
    grades = (out / "fall2026-grades" / "grades.csv").read_text(encoding="utf-8")
    assert "no report: no file matching *.pdf" in grades  # ben handed in no report
    (out / "fall2026-scores.csv").write_text("student,report,comment\nada,7,clear plots\n"
                                             "ben,0,\n",
                                    encoding="utf-8")
    merge = section_commands((kit / "docs" / "instructors.md").read_text(encoding="utf-8"))[7]
    merge = [str(folder) if word == "../fall2026" else word for word in merge]
    done = run(merge, kit)
    assert done.returncode == 0, done.stderr
    rows = {line.split(",")[0]: line for line in
            (out / "fall2026-grades" / "grades.csv").read_text(encoding="utf-8").splitlines()}
    assert ",7," in rows["ada"] and rows["ada"] != rows["ben"]
    before = _tree(out / "fall2026-grades")
    (out / "fall2026-scores.csv").write_text("student,report\nada,11\nzed,3\n", encoding="utf-8")
    code, err = here(merge, kit, capsys)  # in process: the program ran above
    assert code == 2
    lines = err.strip().splitlines()
    scores = "../fall2026-scores.csv"
    assert lines == [f"error: {scores}: row 2, column report: '11' is more than the part's "
                     f"10 points",
                     f"error: {scores}: row 3, column student: 'zed' is not a student of the "
                     f"graded folder's grades.csv",
                     f"error: merge refused: 2 problem(s) in {scores}; nothing was changed"]
    assert _tree(out / "fall2026-grades") == before
