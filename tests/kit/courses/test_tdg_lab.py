"""courses/tdg-lab, the Top-Down Greedy lab hosted as a course folder with functions of its
own, grades its labelled class (tests/kit/tdg_class, written independently from the contract)
as labelled: every right variant (a random first record under several seeds or none, one
farthest-pair round instead of three, the first record fixed, numpy) earns every autograded
point; each single-bug mutant loses the points of the function it breaks, with the rule named;
the untouched skeleton gets 0, "not implemented".

The class is graded on the course's hidden cases and its k = 0 case (small datasets; the
30,162-row public cases are graded the same way, by hand in the closing note and in bench/),
through a copy of the course's rubric that keeps only those cases: the same expected
entries (the case keys do not change), the course's own reference beside it."""
from __future__ import annotations

import csv
import json
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
COURSE = REPO / "courses" / "tdg-lab"
CLASS = REPO / "tests" / "kit" / "tdg_class"
LABELS = tomllib.loads((CLASS / "labels.toml").read_text(encoding="utf-8"))
AUTO = {"topdown_greedy": 50.0, "cost_NCP": 20.0}
RULE_OF = {"k-anonymous": "quality.k", "valid": "quality.cover", "good": "quality.utility",
           "value": "number.off"}


def _small_rubric(folder: Path) -> Path:
    """The course's rubric with only its small cases (hidden ones and k = 0), its cases
    read from the course folder, its reference copied beside it."""
    text = (COURSE / "rubric.toml").read_text(encoding="utf-8")
    head, *blocks = re.split(r"(?=^\[\[part\]\]$)", text, flags=re.M)
    kept = []
    for block in blocks:
        part, *cases = re.split(r"(?=^\[\[part\.case\]\]$)", block, flags=re.M)
        cases = [c for c in cases if 'data = "public/adult"' not in c or "expect =" in c]
        kept.append(part + "".join(cases))
    head = head.replace('cases_dir = "cases"', f'cases_dir = "{(COURSE / "cases").as_posix()}"')
    folder.mkdir(parents=True)
    shutil.copytree(COURSE / "reference", folder / "reference")
    language = '[course]\nlanguage = "zh-CN"  # course.toml\'s, for this rubric alone\n\n'
    (folder / "rubric.toml").write_text(language + head + "".join(kept), encoding="utf-8")
    return folder / "rubric.toml"


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("tdg")
    rubric = _small_rubric(root / "course")
    for name in LABELS:
        shutil.copytree(CLASS / name, root / "subs" / name.replace("_", "-"),
                        ignore=shutil.ignore_patterns("__pycache__"))
    done = subprocess.run([sys.executable, "-m", "grader", "grade", str(root / "subs"),
                           "--out", str(root / "out"), "--rubric", str(rubric)],
                          cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return root / "out"


def _grades(out: Path) -> dict[str, dict]:
    with open(out / "grades.csv", encoding="utf-8", newline="") as f:
        return {row["student"].replace("-", "_"): row for row in csv.DictReader(f)}


def _cases(out: Path, student: str) -> list[dict]:
    record = json.loads((out / "results" / student.replace("_", "-") / "record.json")
                        .read_text(encoding="utf-8"))
    return record["cases"]


@pytest.mark.slow
def test_the_class_is_graded_as_labelled(graded: Path) -> None:
    grades = _grades(graded)
    assert set(grades) == set(LABELS)
    for name, label in LABELS.items():
        row = grades[name]
        for function, points in AUTO.items():
            verdict = label[function]
            got = float(row[function])
            if verdict == "right":
                assert got == points, (name, function, row)
            elif verdict == "not-implemented":
                assert got == 0 and row["status"] == "not-attempted", (name, row)
            else:  # the function it breaks: every data case lost, the rule named
                assert got < points, (name, function, row)
                broken = [c for c in _cases(graded, name)
                          if c["function"] == function and c["status"] == "wrong"]
                assert broken and all(c["message_ref"]["rule"] == RULE_OF[verdict]
                                      for c in broken), (name, broken)


@pytest.mark.slow
def test_a_hidden_case_of_a_mutant_names_the_rule_and_row_only(graded: Path) -> None:
    hidden = [c for c in _cases(graded, "class_below_k")
              if c["hidden"] and c["status"] == "wrong"]
    assert hidden
    for case in hidden:
        assert re.fullmatch(r"data row \d+: the rule “every equivalence class has at least k "
                            r"records” is broken\.", case["message"]), case["message"]
    feedback = (graded / "feedback" / "class-below-k.md").read_text(encoding="utf-8")
    assert "规则" in feedback  # the course is in Chinese: its messages are rendered so
