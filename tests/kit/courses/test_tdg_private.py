"""`course new --from tdg-lab` makes a private course of the Top-Down Greedy lab: the course's
own parts come along (their reference, reference/tdg.py; their handout sections), its hidden
datasets are drawn from its data model with the new course's secret, and its known-good
solution (`grader solution`: the course's reference served with the contract's signature)
earns every autograded point while the untouched skeleton earns none.

To stay quick, the origin is tdg-lab trimmed to its small cases (the hidden ones and k = 0):
the full folder regenerates the 30,162-row public cases' bands (10 seeded reference runs
each, about a minute), which the closing note measures by hand."""
from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from child_python import compiled_env

from grader import cli
from test_tdg_lab import COURSE, _small_rubric

REPO = Path(__file__).resolve().parents[3]
TERM = "Spring 2027"
QUIET = ["--sandbox", "none", "--run-as", "none"]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader", *args], cwd=REPO,
                          env=compiled_env(dict(os.environ)),  # compiled modules: reused
                          capture_output=True, text=True, timeout=900)


def _origin(folder: Path) -> Path:
    """tdg-lab with its small cases only: its course.toml, data model, public data."""
    rubric = _small_rubric(folder)
    text = rubric.read_text(encoding="utf-8").split("\n", 3)[3]  # no [course] of the copy
    rubric.write_text(text.replace(f'cases_dir = "{(COURSE / "cases").as_posix()}"',
                                   'cases_dir = "cases"'), encoding="utf-8")
    for name in ("course.toml", "data-model.json"):
        shutil.copyfile(COURSE / name, folder / name)
    shutil.copytree(COURSE / "cases" / "public", folder / "cases" / "public")
    if (COURSE / "handout").is_dir():
        shutil.copytree(COURSE / "handout", folder / "handout")
    return folder


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("tdg-private")
    origin = _origin(base / "origin")
    done = run("course", "new", str(base / "a"), "--from", str(origin), "--term", TERM)
    assert done.returncode == 0, done.stderr
    # the second in process (the command line is the same, tested just above)
    assert cli.main(["course", "new", str(base / "b"), "--from", str(origin), "--term",
                     TERM]) == 0
    return {"a": base / "a", "b": base / "b", "base": base}


def _rows(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()[1:]


def test_the_private_course_carries_its_own_parts(made) -> None:
    course = made["a"]
    assert (course / "reference" / "tdg.py").read_bytes() == \
        (COURSE / "reference" / "tdg.py").read_bytes()
    text = (course / "course.toml").read_text(encoding="utf-8")
    assert f'term = "{TERM}"' in text and "public_demo" not in text
    assert "[[function]]" in text and 'language = "zh-CN"' in text


def test_hidden_data_comes_from_the_secret(made) -> None:
    for name in ("sample-500", "sample-200", "ages-30-45"):
        mine = _rows(made["a"] / "cases" / "hidden" / name / "adult-hw1.csv")
        other = _rows(made["b"] / "cases" / "hidden" / name / "adult-hw1.csv")
        demo = _rows(COURSE / "cases" / "hidden" / name / "adult-hw1.csv")
        assert len(mine) == len(demo) and mine != other and mine != demo, name


def test_check_shows_the_term(made) -> None:
    done = run("check", "--course", str(made["a"]))
    assert done.returncode == 0, done.stderr
    assert TERM in done.stdout + done.stderr and "public demo" not in done.stderr


@pytest.mark.slow
def test_the_known_good_solution_earns_every_point_and_the_skeleton_none(made) -> None:
    base, course = made["base"] / "graded", str(made["a"])
    (base / "class" / "zhang").mkdir(parents=True)
    (base / "class" / "liu").mkdir(parents=True)
    assert cli.main(["solution", "--course", course, "--out",  # in process (a program
                     str(base / "class" / "zhang" / "lab.py")]) == 0  # in test_ustc_course.py)
    shutil.copyfile(REPO / "tests" / "kit" / "tdg_class" / "not_implemented" / "skeleton.py",
                    base / "class" / "liu" / "skeleton.py")
    done = run("grade", str(base / "class"), "--course", course, "--out", str(base / "out"),
               *QUIET)
    assert done.returncode == 0, done.stderr
    assert "public demo" not in done.stderr
    with open(base / "out" / "grades.csv", encoding="utf-8", newline="") as f:
        grades = {row["student"]: row for row in csv.DictReader(f)}
    assert (grades["zhang"]["topdown_greedy"], grades["zhang"]["cost_NCP"]) == ("50", "20")
    assert (grades["liu"]["total"], grades["liu"]["status"]) == ("0", "not-attempted")
