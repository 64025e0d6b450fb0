"""A course brings parts of its own: the toy course (toy_course.py, written into a temporary
folder: no kit file knows its functions) declares `chunk_anonymizer` (judged by quality: its
reference starts at a random record) and `count_classes` (judged as a number), regen runs
its reference from its folder, and the grader grades a known-good, a buggy and an untouched
student through the sandbox."""
from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from child_python import compiled_env

from grader import rubric as rubric_module
from grader.errors import UserError

from toy_course import RUBRIC, make_toy_course, toy_student

REPO = Path(__file__).resolve().parents[3]
GRADER = [sys.executable, "-m", "grader"]


def _run(args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(GRADER + args, cwd=REPO, capture_output=True, text=True,
                          env=compiled_env(dict(os.environ)))  # compiled modules: reused


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> Path:
    """The toy course regenerated and its three students graded: the output folder."""
    root = tmp_path_factory.mktemp("toy")
    rubric = make_toy_course(root / "course")
    for kind in ("good", "buggy", "untouched"):
        toy_student(root / "subs" / kind, kind)
    regen = _run(["regen", "--rubric", str(rubric), "--keep-datasets"])
    assert regen.returncode == 0, regen.stderr
    done = _run(["grade", str(root / "subs"), "--out", str(root / "out"),
                 "--rubric", str(rubric)])
    assert done.returncode == 0, done.stderr
    return root


def _grades(root: Path) -> dict[str, dict]:
    with open(root / "out" / "grades.csv", encoding="utf-8", newline="") as f:
        return {row["student"]: row for row in csv.DictReader(f)}


def _cases(root: Path, student: str) -> dict[str, dict]:
    record = json.loads((root / "out" / "results" / student / "record.json")
                        .read_text(encoding="utf-8"))
    return {c["id"]: c for c in record["cases"]}


def test_the_reference_of_the_course_sets_the_band_and_the_value(graded: Path) -> None:
    manifest = json.loads((graded / "course" / "cases" / "manifest.json").read_text())
    kinds = sorted(e["kind"] for e in manifest["entries"].values())
    assert kinds == ["band", "band", "error", "value"]
    band = next(json.loads((graded / "course" / "cases" / e["file"]).read_text())
                for e in manifest["entries"].values() if e["kind"] == "band")
    assert len(band["costs"]) == 5 and band["slack"] == 0.1
    assert band["band_max"] == pytest.approx(max(band["costs"]) * 1.1)
    # the anonymized input of count_classes: the reference's chunks of 3, made by regen
    made = graded / "course" / "cases" / "public" / "toy" / "anonymized-chunk_anonymizer-k3.csv"
    assert made.read_text().splitlines()[0] == "age,sex,zip,disease"


def test_a_known_good_student_earns_every_point(graded: Path) -> None:
    row = _grades(graded)["good"]
    assert (row["chunk_anonymizer"], row["count_classes"], row["total"]) == ("6", "4", "10")


def test_a_buggy_student_loses_the_points_of_the_rule_it_breaks(graded: Path) -> None:
    row = _grades(graded)["buggy"]
    assert (row["chunk_anonymizer"], row["count_classes"]) == ("4", "0")
    cases = _cases(graded, "buggy")
    small = cases["chunk_anonymizer/toy_k_5"]
    assert small["status"] == "wrong" and small["message_ref"]["rule"] == "quality.k"
    assert small["message"].startswith("data row 6:") and "less than k = 5" in small["message"]
    count = cases["count_classes/toy_chunks_of_3"]
    assert count["message_ref"]["rule"] == "number.off"
    assert count["message"] == "the result is 9; the expected value is 8 (tolerance 8e-06)."
    assert cases["chunk_anonymizer/toy_k_3"]["status"] == "passed"  # 24 rows: no remainder


def test_an_untouched_skeleton_earns_nothing(graded: Path) -> None:
    row = _grades(graded)["untouched"]
    assert row["total"] == "0" and row["status"] == "not-attempted"
    assert all(c["status"] == "not-attempted" for c in _cases(graded, "untouched").values())


def test_a_hidden_case_shows_the_rule_and_row_but_no_value(tmp_path: Path) -> None:
    folder = tmp_path / "course"
    rubric = make_toy_course(folder)
    text = rubric.read_text().replace('name = "toy, k=5"\ndata = "public/toy"\nk = 5\n',
                                      'name = "toy, k=5"\ndata = "public/toy"\nk = 5\n'
                                      'hidden = true\n')
    rubric.write_text(text)
    toy_student(tmp_path / "subs" / "buggy", "buggy")
    assert _run(["regen", "--rubric", str(rubric), "--keep-datasets"]).returncode == 0
    done = _run(["grade", str(tmp_path / "subs"), "--out", str(tmp_path / "out"),
                 "--rubric", str(rubric)])
    assert done.returncode == 0, done.stderr
    case = _cases(tmp_path, "buggy")["chunk_anonymizer/toy_k_5"]
    assert case["status"] == "wrong" and "row 6" in case["message"]
    assert "4" not in case["message"] and "NCP" not in case["message"], case["message"]
    feedback = (tmp_path / "out" / "feedback" / "buggy.md").read_text(encoding="utf-8")
    assert "less than k" not in feedback and "NCP: " not in feedback.split("toy, k=5")[1]


@pytest.mark.parametrize("change, key", [
    ('reference = "ref/toy.py:chunk_anonymizer"', "function[1].reference"),
    ('returns = "number"\nreference = "ref/toy.py:count_classes"', "function[2].returns"),
    ('judge = "quality"', "part[1].judge"),
])
def test_a_bad_declaration_is_refused_naming_its_key(tmp_path: Path, change: str,
                                                       key: str) -> None:
    rubric = make_toy_course(tmp_path / "course")
    broken = {
        "function[1].reference": RUBRIC.replace(change, 'reference = "../ref/toy.py:f"'),
        "function[2].returns": RUBRIC.replace(change, 'returns = "file"\n'
                                                      'reference = "ref/toy.py:count_classes"'),
        "part[1].judge": RUBRIC.replace(change, 'judge = "rules"'),
    }[key]
    rubric.write_text(broken)
    with pytest.raises(UserError, match="rubric.toml: " + re.escape(key)):
        rubric_module.load(rubric)


def test_a_missing_reference_file_stops_regen_naming_it(tmp_path: Path) -> None:
    """The rubric loads without its reference files (the autograder has none); `regen`, which
    runs them, names the missing file and the function."""
    rubric = make_toy_course(tmp_path / "course")
    rubric.write_text(RUBRIC.replace('reference = "ref/toy.py:chunk_anonymizer"',
                                     'reference = "ref/absent.py:chunk_anonymizer"'))
    assert rubric_module.load(rubric).functions["chunk_anonymizer"].reference.startswith("ref/")
    done = _run(["regen", "--rubric", str(rubric), "--keep-datasets"])
    assert done.returncode != 0
    assert "absent.py not found (the reference of chunk_anonymizer" in done.stderr, done.stderr


def test_the_gradescope_autograder_grades_the_courses_own_parts(graded: Path,
                                                                tmp_path: Path) -> None:
    """The autograder of a course with functions of its own ships kcheck (its judges) and no
    reference file, and grades the known-good student to full marks."""
    import zipfile
    out = tmp_path / "autograder.zip"
    built = _run(["gradescope", "--rubric", str(graded / "course" / "rubric.toml"),
                  "--out", str(out)])
    assert built.returncode == 0, built.stderr
    root = tmp_path / "autograder"
    with zipfile.ZipFile(out) as archive:
        names = archive.namelist()
        archive.extractall(root / "source")
        for info in archive.infolist():
            os.chmod(root / "source" / info.filename, (info.external_attr >> 16) & 0o777)
    assert "kcheck/quality.py" in names and not any("toy.py" in n for n in names)
    submission = root / "submission"
    submission.mkdir()
    for file in (graded / "subs" / "good").iterdir():
        (submission / file.name).write_bytes(file.read_bytes())
    env = dict(os.environ, KANON_AUTOGRADER_ROOT=str(root), KANON_AUTOGRADER_SANDBOX="none",
               KANON_AUTOGRADER_PYTHON=sys.executable, KANON_AUTOGRADER_RUN_AS="none")
    env.pop("PYTHONPATH", None)
    done = subprocess.run([str(root / "source" / "run_autograder")], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300)
    results = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    assert results["score"] == pytest.approx(10), done.stdout + done.stderr
