"""Each example course's homework, end to end (issues 19 and 24): the public demo course
folders courses/default (grader/rubric.toml), courses/fall2025 (grader/rubric-2025.toml) and
courses/all (grader/rubric-all.toml). For each: the students' bundle, unpacked into an empty
folder, whose self-check passes the course's known-good solution (`python -m grader solution
--course DIR`) and fails the untouched skeleton with "not implemented yet" on every graded
part and nothing else; a handout and skeleton that name no function the course does not grade
and whose points sum to the rubric's total; and the Gradescope autograder built from the same
course, which gives that solution full marks."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from child_python import compiled_env
from forked_pytest import PytestServer
from shared_bundles import (course_autograder, course_bundle, skeleton_self_check,
                            unpacked_bundle)

from grader import cli, contract
from grader.publishing.materials import view
from grader.publishing.materials.course import CLI_NAMES
from grader.rubric import load

REPO = Path(__file__).resolve().parents[3]
COURSES = {"default": "courses/default", "fall-2025": "courses/fall2025",
           "all-parts": "courses/all"}
RUBRICS = {"default": "grader/rubric.toml", "fall-2025": "grader/rubric-2025.toml",
           "all-parts": "grader/rubric-all.toml"}
NOT_IMPLEMENTED = "is not implemented yet (it raises NotImplementedError)"
FAST = ["-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-p", "no:benchmark"]


@pytest.fixture(scope="module", params=list(COURSES))
def course(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The course's bundle, unpacked into an empty folder, and a staff submission. The
    course folder only names its kit rubric, so its bundle has the bytes of the rubric's, which
    the run builds once for every file that reads it (tests/kit/shared_bundles.py): checked
    here, then the rubric's is unpacked."""
    from grader.publishing import bundle
    name = request.param
    base = tmp_path_factory.mktemp(name)
    course_dir = REPO / COURSES[name]
    shared = course_bundle(tmp_path_factory, REPO / RUBRICS[name])
    own = bundle.collect(REPO, bundle.DEFAULT_FOLDER, course_dir)  # `bundle --course DIR`'s
    assert bundle.zip_bytes(own) == shared.read_bytes(), name
    unpacked_bundle(tmp_path_factory, REPO / RUBRICS[name], base / "unpacked")
    (base / "staff").mkdir()
    # in process (test_course_folders.py runs `python -m grader solution --course` itself)
    assert cli.main(["solution", "--course", str(course_dir), "--out",
                     str(base / "staff" / "skeleton.py")]) == 0
    return {"name": name, "rubric": load(REPO / RUBRICS[name]),
            "folder": base / "unpacked" / "kanon-hw1", "staff": base / "staff", "base": base,
            "course": course_dir}


def student_env() -> dict[str, str]:
    """A student's environment (no pytest or kit settings), compiled modules reused."""
    return compiled_env({k: v for k, v in os.environ.items()
                         if not k.startswith(("PYTEST", "KANON"))})


@pytest.fixture(scope="module")
def warm() -> Iterator[PytestServer]:
    """A warm pytest whose forks run the self-checks as `python -m pytest` does in the bundle
    (tests/kit/forked_pytest.py: only the start-up is shared; students' literal commands run
    in publishing/test_bundle_selfcheck.py and the docs' tests)."""
    server = PytestServer(REPO, student_env())
    yield server
    server.close()


def self_check(warm: PytestServer, folder: Path, *args: str
               ) -> tuple[subprocess.CompletedProcess, dict]:
    """`python -m pytest` in the unpacked bundle (forked from `warm`): (the run, its stdout
    and stderr together in stdout; test id -> (outcome, message)), from JUnit XML (the
    self-check prints no per-test list)."""
    xml = folder.parent / f"report-{len(list(folder.parent.glob('report-*')))}.xml"
    done = warm.run([*FAST, "-q", f"--junitxml={xml}", *args], folder, student_env(),
                    xml.with_suffix(".out"))
    return done, outcomes_of(xml)


def outcomes_of(xml: Path) -> dict[str, tuple[str, str]]:
    """Test id -> (outcome, message) of a self-check's JUnit XML report."""
    outcomes = {}
    for case in ET.parse(xml).iter("testcase"):
        name = f"{case.get('classname', '').rsplit('.', 1)[-1]}::{case.get('name')}"
        outcome, message = "passed", ""
        for child in case:
            if child.tag in ("failure", "error", "skipped"):
                outcome, message = child.tag, child.get("message", "")
        outcomes[name] = (outcome, message.removeprefix("Failed: "))
    return outcomes


def markers_of(course: dict) -> set[str]:
    return {f.marker for f in view(course["rubric"]).functions}


@pytest.mark.slow
def test_self_check_passes_the_staff_solution(course: dict, warm: PytestServer) -> None:
    done, outcomes = self_check(warm, course["folder"],
                                f"--solution={course['staff'] / 'skeleton.py'}")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert outcomes and {o for o, _ in outcomes.values()} == {"passed"}, done.stdout[-3000:]
    for marker in markers_of(course):  # every graded part has public tests
        assert any(f"_{marker}" in t or f"[{marker}" in t for t in outcomes), marker
    assert f"{len(outcomes)} public tests passed, 0 failed" in done.stdout


@pytest.mark.slow
def test_untouched_skeleton_fails_every_graded_part_with_not_implemented(
        course: dict, tmp_path_factory: pytest.TempPathFactory) -> None:
    """The run's one self-check of this bundle's skeleton (shared_bundles.py: a literal
    `python -m pytest` in a fresh unpacking; test_course_wording.py reads its words)."""
    done = skeleton_self_check(tmp_path_factory, REPO / RUBRICS[course["name"]])
    outcomes = outcomes_of(done.report)
    assert done.returncode == 1, done.output[-3000:]
    failed = {t: m for t, (o, m) in outcomes.items() if o == "failure"}
    assert {o for o, _ in outcomes.values()} <= {"passed", "failure"}  # nothing skipped
    assert all(m.endswith(NOT_IMPLEMENTED) for m in failed.values()), [
        m for m in failed.values() if not m.endswith(NOT_IMPLEMENTED)][:3]
    passed = [t for t, (o, _) in outcomes.items() if o == "passed"]
    assert all("signature" in t for t in passed), passed  # only the signatures hold already
    for function in view(course["rubric"]).names:
        assert any(m.startswith(f"{function} ") or f"{function}(" in m
                   for m in failed.values()), function
    assert "left out" not in done.output  # the bundle holds the course's tests only


def _named(text: str, function: str) -> bool:
    return re.search(rf"(?<![\w.]){re.escape(function)}(?!\w)", text) is not None


def test_handout_and_skeleton_name_only_the_courses_functions(course: dict) -> None:
    graded = set(view(course["rubric"]).names)
    handout = (course["folder"] / "HANDOUT.md").read_text(encoding="utf-8")
    skeleton = (course["folder"] / "skeleton.py").read_text(encoding="utf-8")
    for function in contract.GRADABLE:
        for text, where in ((handout, "HANDOUT.md"), (skeleton, "skeleton.py")):
            assert _named(text, function) == (function in graded), (where, function)
    algorithms = re.search(r"`<algorithm>` is one of (.*?)\.", handout, re.S).group(1)
    assert set(re.findall(r"`(\w+)`", algorithms)) == {
        CLI_NAMES[f] for f in graded if f in CLI_NAMES}
    compile(skeleton, "skeleton.py", "exec")
    assert max(len(line) for line in skeleton.splitlines()) <= 100


def test_handout_points_sum_to_the_rubrics_total(course: dict) -> None:
    rubric = course["rubric"]
    handout = (course["folder"] / "HANDOUT.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (.+?) \| (?:\*\*)?([\d.]+)(?:\*\*)? \|$", handout, re.M)
    total = [float(p) for label, p in rows if "Total" in label]
    parts = [float(p) for label, p in rows if "Total" not in label and "`adult" not in label]
    assert total == [rubric.max_points] and sum(parts) == pytest.approx(rubric.max_points)
    for part in rubric.auto_parts:
        assert re.search(rf"^##+ {part.function} \({part.points:g} points?\)$", handout,
                         re.M), part.function
    for part in rubric.manual_parts:  # the report: its points, its page limit
        section = handout[handout.index(f"## The {part.key} ({part.points:g} points"):]
        assert f"at most {part.max_pages} page" in section.split("\n## ")[0]


@pytest.mark.slow
def test_gradescope_zip_gives_the_staff_solution_full_marks(
        course: dict, tmp_path_factory: pytest.TempPathFactory) -> None:
    import json
    import shutil
    base = course["base"]
    out = course_autograder(tmp_path_factory, course["course"])  # built once by the run
    root = base / "autograder"
    with zipfile.ZipFile(out) as archive:
        archive.extractall(root / "source")
        for info in archive.infolist():
            os.chmod(root / "source" / info.filename, (info.external_attr >> 16) & 0o777)
    shutil.copytree(course["staff"], root / "submission")
    env = dict(os.environ, KANON_AUTOGRADER_ROOT=str(root),
               KANON_AUTOGRADER_PYTHON=sys.executable, KANON_AUTOGRADER_SANDBOX="none")
    env.pop("PYTHONPATH", None)
    done = subprocess.run([str(root / "source" / "run_autograder")], cwd=root, env=env,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    results = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    rubric = course["rubric"]
    assert results["score"] == pytest.approx(rubric.auto_points), [
        t["name"] for t in results["tests"] if t["score"] < t["max_score"]]
    assert all(t["status"] == "passed" for t in results["tests"] if t["max_score"] > 0)
    staff = [t["name"] for t in results["tests"] if t["max_score"] == 0]  # Gradescope grades it
    assert staff == [f"{p.key}: graded by course staff on Gradescope"
                     for p in rubric.manual_parts] and staff


def test_fall_2025_names_top_down_and_the_lm_only_distance() -> None:
    from grader.publishing.materials import course_materials
    files = course_materials(load(REPO / RUBRICS["fall-2025"]), REPO)
    handout, skeleton = (files[n].decode("utf-8") for n in ("HANDOUT.md", "skeleton.py"))
    for text in (handout, skeleton):
        assert "topdown_anonymizer" in text and "bottomup_anonymizer" not in text
    assert "**LM-only distance**" in handout and "MD_dist" not in handout
    assert "LM-only distance: no MD" in " ".join(skeleton.split())
    assert "at most 1 page, a hard limit" in " ".join(handout.split())
