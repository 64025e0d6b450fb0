"""The USTC lab's class (tests/kit/ustc_class: 16 realistic submissions, labelled) graded end to
end by courses/ustc's rules: every right answer, whatever its choices, earns the part's points;
every labelled bug loses points in its part, and its feedback names the broken rule. The class
is graded against the course's smaller twin (tests/kit/ustc_class/small_course.py: the same
rubric and hidden cases, a 4,000-row public dataset), on which every label holds as on the
course's 30,162 rows, at a fraction of the CPU. The class is graded without the search for
counterexamples (`counterexample_calls = 0` in a copy of the twin's rubric): the search never
changes a grade or a case's message, which is all this file reads, and
tests/kit/grading/test_rules_counterexamples.py tests it on a rules-judged course."""
from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from child_python import compiled_env
from shared_bundles import ustc_twin

REPO = Path(__file__).resolve().parents[3]
CLASS = REPO / "tests" / "kit" / "ustc_class"
LABELS = tomllib.loads((CLASS / "labels.toml").read_text(encoding="utf-8"))
PARTS = {"samarati": "samarati", "mondrian": "mondrian",
         "mondrian_categorical": "mondrian-categorical"}
POINTS = {"samarati": 25, "mondrian": 25, "mondrian-categorical": 5}

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("ustc")
    course = without_counterexamples(ustc_twin(tmp_path_factory), root / "course")
    for student in LABELS:  # the grader's id is the name up to the first "_"
        shutil.copytree(CLASS / student, root / "subs" / ident(student),
                        ignore=shutil.ignore_patterns("__pycache__"))
    done = subprocess.run(
        [sys.executable, "-m", "grader", "grade", str(root / "subs"), "--course",
         str(course), "--out", str(root / "out"), "--jobs", "2",
         "--run-as", "none"], cwd=REPO, env=compiled_env(dict(os.environ)),
        capture_output=True, text=True, timeout=1500)
    assert done.returncode == 0, done.stderr[-3000:]
    return root / "out"


def without_counterexamples(twin: Path, into: Path) -> Path:
    """A copy of the shared twin (made once per run, never changed) in `into` whose rubric
    searches no counterexample."""
    shutil.copytree(twin, into)
    rubric = into / "rubric.toml"
    text = rubric.read_text(encoding="utf-8")
    assert text.count("\n[settings]\n") == 1, rubric
    off = "\n[settings]\ncounterexample_calls = 0\n"
    rubric.write_text(text.replace("\n[settings]\n", off), encoding="utf-8")
    return into


def ident(student: str) -> str:
    return student.replace("_", "-")


def grades(out: Path) -> dict[str, dict[str, str]]:
    with open(out / "grades.csv", encoding="utf-8", newline="") as f:
        return {row["student"]: row for row in csv.DictReader(f)}


def part_messages(out: Path, student: str, part: str) -> str:
    record = json.loads((out / "results" / student / "record.json").read_text(
        encoding="utf-8"))
    return "\n".join(c["message"] + " " + c["status"] for c in record["cases"]
                     if c["part"] == part)


@pytest.mark.parametrize("student", sorted(LABELS))
def test_each_part_earns_what_its_label_says(graded, student):
    row = grades(graded)[ident(student)]
    for key, part in PARTS.items():
        label = LABELS[student][key]
        points = float(row[part])
        if label == "right":
            assert points == POINTS[part], f"{student} {part}: a right answer earned {points}"
            continue
        assert points < POINTS[part], f"{student} {part} ({label}) earned every point"
        messages = part_messages(graded, ident(student), part)
        if label == "error":
            assert "error" in messages, messages
        else:
            named = [rule for rule in label] if isinstance(label, list) else [label]
            assert any(f'rule "{rule}"' in messages for rule in named), (
                f"{student} {part}: none of {named} named in:\n{messages}")


def test_the_right_answers_differ_yet_all_earn_full_marks(graded):
    right = [s for s in LABELS if LABELS[s]["samarati"] == LABELS[s]["mondrian"] == "right"]
    assert len(right) >= 4
    table = grades(graded)
    assert {table[ident(s)]["samarati"] for s in right} == {"25"}
    assert {table[ident(s)]["mondrian"] for s in right} == {"25"}
