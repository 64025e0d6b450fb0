"""The realistic class: submissions written in the styles real students use (the course
skeleton's module-level command line, version checks that exit, experiments at import,
pandas, another year's parameter order and function names, glob-read hierarchies, helper
modules, typical wrong answers, plain slow Python), each labelled with the grade an
independent reading of the handout gives, graded end to end."""
from __future__ import annotations

import csv
import json
import shutil
import tomllib
from pathlib import Path

import pytest

from grader import rubric as rubric_mod
from grader.commands.grade import grade_class
from grader.grading.batch import BatchSettings

pytestmark = pytest.mark.slow  # every test reads the realistic class graded once (~40 CPU-s)

CLASS = Path(__file__).resolve().parents[1] / "realistic_class"
FUNCTIONS = ("cost_MD", "cost_LM", "random_anonymizer", "clustering_anonymizer",
             "bottomup_anonymizer", "samarati", "mondrian")


def labels() -> dict[str, dict]:
    return tomllib.loads((CLASS / "labels.toml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, rubric_mod.Rubric]:
    tmp = tmp_path_factory.mktemp("realistic")
    subs = tmp / "subs"
    for student in labels():
        shutil.copytree(CLASS / student, subs / student,
                        ignore=shutil.ignore_patterns("__pycache__"))
    r = rubric_mod.load(CLASS / "rubric.toml")
    result = grade_class(BatchSettings(subs, tmp / "out", r, jobs=2, sandbox="none", progress=False))
    assert result.graded == len(labels())
    return tmp / "out", r


def test_the_class_is_realistic() -> None:
    found = labels()
    assert len(found) >= 20
    assert all(set(FUNCTIONS) <= set(label) for label in found.values())
    assert sorted(p.name for p in CLASS.iterdir() if p.is_dir()
                  and p.name != "__pycache__") == sorted(found)


def test_every_student_is_graded_as_labelled(graded) -> None:
    out, r = graded
    share = {"full": 1.0, "partial": r.settings.partial_credit, "zero": 0.0}
    with open(out / "grades.csv", encoding="utf-8", newline="") as f:
        grades = {g["student"]: g for g in csv.DictReader(f)}
    wrong = []
    for student, label in sorted(labels().items()):
        for part in r.parts:
            wanted = part.points * share[label[part.function]]
            got = float(grades[student][part.key])
            if abs(got - wanted) > 1e-6:
                record = json.loads((out / "results" / student / "record.json").read_text())
                statuses = sorted({c["status"] for c in record["cases"]
                                   if c["function"] == part.function})
                wrong.append(f"{student}.{part.function}: {got:g}, labelled "
                             f"{label[part.function]} ({wanted:g}); {statuses}")
    assert wrong == []


def test_feedback_says_what_the_grader_did(graded) -> None:
    out, _ = graded
    for student, label in sorted(labels().items()):
        record = json.loads((out / "results" / student / "record.json").read_text())
        text = " ".join(record["notes"]) + " ".join(c["message"] for c in record["cases"])
        for note in label.get("notes", []):
            if note == "retried":
                assert record["import"]["retried"] and record["import"]["mode"] == "retry", student
                assert "imported again one top-level statement at a time" in text, student
            elif note == "keyword":
                assert "called by keyword" in text, student
            elif note.startswith("package:"):
                assert f"{note.split(':')[1]} is not available: this course allows only numpy " \
                       f"and the standard library" in text, student
            else:
                raise AssertionError(f"{student}: unknown note {note!r} in labels.toml")
