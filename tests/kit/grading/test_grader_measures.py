"""The optional measures entropy_l and t_closeness in the grader: graded like the costs
(a number within the tolerance, an expected ValueError), the string parameter `distance`
checked by the rubric and passed through the sandboxed call."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from staff_submission import staff_submission

from grader import rubric
from grader.errors import UserError
from grader.commands.grade import grade_class
from grader.grading.batch import BatchSettings

REPO = Path(__file__).resolve().parents[3]
OPTIONAL = (REPO / "grader" / "rubric-optional.toml").read_text(encoding="utf-8")


def _measure_rubric(tmp_path: Path) -> Path:
    """rubric-optional.toml's entropy_l and t_closeness parts alone, with short limits."""
    parts = OPTIONAL.split("[[part]]")
    kept = [p for p in parts[1:] if re.search(r'function = "(entropy_l|t_closeness)"', p)]
    text = (f'[settings]\nimport_time_limit = 5.0\ntime_limit = 5.0\n'
            f'time_per_1000_rows = 5.0\ncases_dir = "{(REPO / "grader" / "cases").as_posix()}"\n\n'
            + "".join("[[part]]" + p for p in kept))
    path = tmp_path / "rubric.toml"
    path.write_text(text, encoding="utf-8")
    return path


STUDENTS = {
    "full": "from staffcopy import entropy_l, t_closeness\n",
    # two plausible mistakes: the floored l, the L1 distance (no 1/2) for "equal"
    "off": """from staffcopy import entropy_l as _e, t_closeness as _t
import math
def entropy_l(raw_dataset_file, anonymized_dataset_file, DGH_folder):
    return float(math.floor(_e(raw_dataset_file, anonymized_dataset_file, DGH_folder)))
def t_closeness(raw_dataset_file, anonymized_dataset_file, DGH_folder, distance):
    t = _t(raw_dataset_file, anonymized_dataset_file, DGH_folder, distance)
    return 2 * t if distance == "equal" else t
""",
    "none": "def entropy_l(raw_dataset_file, anonymized_dataset_file, DGH_folder):\n"
            "    raise NotImplementedError\n",
}


@pytest.mark.slow
def test_measures_are_graded_like_costs(tmp_path: Path) -> None:
    r = rubric.load(_measure_rubric(tmp_path))
    assert {p.function for p in r.parts} == {"entropy_l", "t_closeness"}
    subs = tmp_path / "subs"
    for name, source in STUDENTS.items():
        staff_submission(subs / name, source)
    result = grade_class(BatchSettings(subs, tmp_path / "out", r, jobs=1, sandbox="none", progress=False))
    records = {rec["student"]: rec for rec in result.records}
    full = records["full"]
    assert all(c["status"] == "passed" for c in full["cases"]), full["cases"]
    assert full["score"] == pytest.approx(20)
    assert not any("privacy" in c for c in full["cases"])  # numbers have no privacy line
    off = {c["name"]: c for c in records["off"]["cases"]}
    assert off["adult-hw1, classes"]["status"] == "wrong"  # 4.83 floored to 4
    assert "that is not the correct" in off["adult-hw1, classes"]["message"]
    assert off["ties, suppressed rows"]["status"] == "wrong"
    assert off["single QI, classes, ordered"]["status"] == "passed"
    assert off["unbalanced, classes, equal"]["status"] == "wrong"
    assert off["adult-hw1, classes, ordered (income is not numeric)"]["status"] == "passed"
    none = {c["function"]: c["status"] for c in records["none"]["cases"]}
    assert none == {"entropy_l": "not-attempted", "t_closeness": "missing"}


@pytest.mark.parametrize("value, problem", [
    ('"hierarchical"', "part[1].case[1].distance: one of equal, ordered"),
    ("1", "part[1].case[1].distance: one of equal, ordered"),
    (None, "part[1].case[1].distance: missing; t_closeness needs distance"),
])
def test_rubric_checks_the_distance(tmp_path: Path, value, problem) -> None:
    line = "" if value is None else f"distance = {value}\n"
    path = tmp_path / "rubric.toml"
    path.write_text('[[part]]\nfunction = "t_closeness"\npoints = 10\n\n[[part.case]]\n'
                    'name = "x"\ndata = "public/adult"\nanonymized = "anonymized/classes.csv"\n'
                    + line, encoding="utf-8")
    with pytest.raises(UserError, match=re.escape(problem)):
        rubric.load(path)


def _public(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    from grader.authoring import course_file
    course = tmp_path / "course.json"
    course.write_text(course_file.course_json(rubric.load(REPO / "grader" /
                                                          "rubric-optional.toml")),
                      encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "KANON_SOLUTION"}
    env["KANON_COURSE_FILE"] = str(course)
    return subprocess.run([sys.executable, "-m", "pytest", str(REPO / "tests" / "public"), "-q",
                           "-p", "no:cacheprovider", "-k", "entropy_l or t_closeness", *args],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=600)


@pytest.mark.slow
def test_a_course_grading_the_measures_runs_their_public_tests(tmp_path: Path) -> None:
    from grader.publishing.materials import course_materials
    skeleton = tmp_path / "skeleton.py"  # the stubs of a course that grades the measures
    skeleton.write_bytes(course_materials(rubric.load(REPO / "grader" / "rubric-all.toml"),
                                          REPO)["skeleton.py"])
    on_skeleton = _public(tmp_path, f"--solution={skeleton}")
    assert "2 public tests passed, 14 failed" in on_skeleton.stdout  # the signatures pass
    assert "skipped" not in on_skeleton.stdout
    on_reference = _public(tmp_path, "--solution=reference")
    assert "16 public tests passed, 0 failed" in on_reference.stdout, on_reference.stdout
