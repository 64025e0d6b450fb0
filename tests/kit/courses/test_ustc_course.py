"""The USTC lab's demo course (courses/ustc): its own rubric, data, schema and cases, graded
end to end by its rules with the known-good solution, and its expected outputs reproducible."""
from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from child_python import compiled_env

from grader import cli
from grader.courses.folder import load_course
from kanon.hierarchy import read_dgh_folder
from kanon.schema import Schema

REPO = Path(__file__).resolve().parents[3]
USTC = REPO / "courses" / "ustc"
LAB = Schema(sensitive="occupation", other_columns="drop", suppression="delete",
             hierarchy_format="child-parent")


def grader(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader", *args], cwd=cwd,
                          env=compiled_env(dict(os.environ)),  # compiled modules: reused
                          capture_output=True, text=True, timeout=600)


def test_the_course_keeps_everything_in_its_own_folder():
    course = load_course(USTC)
    rubric = course.rubric
    assert course.public_demo and course.language == "zh-CN"
    assert rubric.cases_dir == USTC / "cases" and rubric.schema == LAB
    assert [(p.key, p.points, p.optional) for p in rubric.parts] == [
        ("samarati", 25, False), ("mondrian", 25, False), ("code-clarity", 10, False),
        ("report", 20, False), ("samarati-utility", 15, True),
        ("mondrian-categorical", 5, True)]
    assert (rubric.max_points, rubric.optional_points) == (100, 20)
    assert {p.key: p.qis for p in rubric.auto_parts} == {
        "samarati": ("age", "sex", "race", "marital_status"),
        "mondrian": ("age", "education_num"),
        "mondrian-categorical": ("age", "education_num", "sex")}
    assert all(p.judge == "rules" for p in rubric.auto_parts)
    for case in rubric.cases():  # every case's data is the course's own, none the kit's
        assert (USTC / "cases" / case.data / "adult-hw1.csv").is_file(), case.id


def test_the_data_has_the_labs_shape():
    with open(USTC / "cases/public/adult/adult-hw1.csv", encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["age", "work_class", "final_weight", "education", "education_num",
                       "marital_status", "occupation", "relationship", "race", "sex",
                       "capital_gain", "capital_loss", "hours_per_week", "native_country",
                       "class"]
    assert len(rows) - 1 == 30162
    dghs = read_dgh_folder(str(USTC / "cases/public/adult/DGHs"), fmt="child-parent")
    assert {name: d.height for name, d in dghs.items()} == {
        "age": 4, "sex": 1, "race": 1, "marital_status": 2, "education_num": 1}


def test_check_finds_every_case_fresh():
    done = grader("check", "--course", str(USTC))
    assert done.returncode == 0, done.stderr
    assert "all 13 cases fresh" in done.stdout + done.stderr


def test_its_rubric_alone_cannot_make_a_private_copy(tmp_path, capsys):
    """A private copy needs the course's public data: its folder (or `--from ustc`) gives it,
    the rubric file alone does not (test_private_copy.py makes one)."""
    rubric = tmp_path / "rubric.toml"
    shutil.copyfile(USTC / "rubric.toml", rubric)
    code = cli.main(["course", "new", str(tmp_path / "mine"), "--from", str(rubric),
                     "--term", "Fall 2026"])  # in process (test_private_copy.py makes one)
    err = capsys.readouterr().err
    assert code == 2 and "start from its course folder" in err, err
    assert not (tmp_path / "mine").exists() and sorted(tmp_path.iterdir()) == [rubric]


@pytest.mark.slow
def test_regen_reproduces_the_expected_outputs_byte_for_byte(tmp_path):
    copy = tmp_path / "ustc"
    shutil.copytree(USTC, copy)
    shutil.rmtree(copy / "cases" / "expected")
    done = grader("regen", "--course", str(copy))
    assert done.returncode == 0, done.stderr
    for path in sorted((USTC / "cases" / "expected").iterdir()):
        assert (copy / "cases" / "expected" / path.name).read_bytes() == path.read_bytes()
    assert json.loads((copy / "cases/manifest.json").read_text()) == json.loads(
        (USTC / "cases/manifest.json").read_text())


@pytest.mark.slow
def test_the_known_good_solution_earns_every_autograded_point(tmp_path, tmp_path_factory):
    """`solution --course` serves the lab's known-good solution, graded by its rules with its
    rubric, hidden cases and language against the course's 4,000-row twin (made once per run,
    tests/kit/shared_bundles.py): the 30,162-row expected outputs are the reference's own
    (test_regen_reproduces_the_expected_outputs_byte_for_byte, test_check_finds_every_case_fresh),
    and only the calls would be dearer on them."""
    from shared_bundles import ustc_twin
    twin = ustc_twin(tmp_path_factory)
    solution = tmp_path / "subs" / "wang" / "lab.py"
    solution.parent.mkdir(parents=True)
    done = grader("solution", "--course", str(USTC), "--out", str(solution))
    assert done.returncode == 0, done.stderr
    done = grader("grade", str(tmp_path / "subs"), "--course", str(twin), "--out",
                  str(tmp_path / "out"), "--run-as", "none")
    assert done.returncode == 0, done.stderr
    with open(tmp_path / "out" / "grades.csv", encoding="utf-8", newline="") as f:
        (row,) = list(csv.DictReader(f))
    assert (row["samarati"], row["mondrian"], row["mondrian-categorical"]) == ("25", "25", "5")
    assert (row["total"], row["max"]) == ("55", "100")
    feedback = (tmp_path / "out" / "feedback" / "wang.md").read_text(encoding="utf-8")
    assert feedback.count("PASS") == 0  # a zh-CN course: its words are Chinese


@pytest.mark.slow
def test_the_bundle_holds_only_the_labs_parts_and_data(tmp_path, tmp_path_factory):
    """Every file of the USTC bundle (names, code, comments, data, the self-check's output on
    the skeleton): no word of a part the lab does not grade, no other course or staff tool;
    its data is the course's own."""
    from publishing.test_course_wording import ELSEWHERE, OWNED, SHARED, _hits
    from shared_bundles import skeleton_self_check, unpacked_bundle
    folder = unpacked_bundle(tmp_path_factory, USTC, tmp_path)  # built once per run
    texts = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        name = path.relative_to(folder).as_posix()
        try:
            texts[name] = name + "\n" + path.read_bytes().decode("utf-8")
        except UnicodeDecodeError:
            texts[name] = name
    texts["self-check on skeleton.py"] = skeleton_self_check(tmp_path_factory, USTC).output
    graded = {"samarati", "mondrian"}
    owned = {(name, p): _hits(p, text)[:2] for name, text in texts.items()
             if not name.startswith(SHARED)
             for p, owners in OWNED.items() if not graded & set(owners)}
    assert not {k: v for k, v in owned.items() if v}
    elsewhere = [p for p in ELSEWHERE if p != r"optional part"]  # the lab has optional parts
    other = {(name, p): _hits(p, text)[:2] for name, text in texts.items() for p in elsewhere}
    assert not {k: v for k, v in other.items() if v}
    assert (folder / "adult-hw1.csv").read_bytes() == (
        USTC / "cases/public/adult/adult-hw1.csv").read_bytes()
    parts = {p.name: sorted(h.name for h in p.iterdir()) for p in (folder / "DGHs").iterdir()}
    assert parts == {"samarati": ["age.txt", "marital_status.txt", "race.txt", "sex.txt"],
                     "mondrian": ["age.txt", "education_num.txt"],  # each part's QIs only
                     "mondrian-categorical": ["age.txt", "education_num.txt", "sex.txt"]}
    assert "公开测试：" in texts["self-check on skeleton.py"]  # it ran, in the course's language
