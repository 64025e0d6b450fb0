"""End to end: grade examples/submissions with one command against the golden grades.

Each misbehaving example gets its own status and the batch finishes. The golden file is
examples/expected-grades.csv; after changing the examples or the reference, rebuild them
(`python examples/make_examples.py`), regenerate the cases (`python -m grader regen`) and
refresh the golden file as docs/reference.md explains.
"""
from __future__ import annotations

import contextlib
import csv
import io
import json
from pathlib import Path

import pytest

from grader import rubric
from grader.cli import main
from grader.commands.grade import grade_class
from grader.grading.batch import BatchSettings
from grader.sandbox import bwrap_available, landlock_available

pytestmark = pytest.mark.slow  # the demo class graded in every sandbox mode

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = REPO / "examples"
STATUS = {"alice": "ok", "bob": "not-attempted", "carol": "ok",
          "dave": "ok", "erin": "ok", "frank": "missing",
          "grace": "timeout", "heidi": "memory", "ivan": "output-capped", "judy": "forbidden",
          "mallory": "unsafe-archive", "olivia": "ok", "oscar": "crash"}

CONFINED = ("alice", "carol", "erin", "grace", "heidi", "ivan", "judy", "oscar")
"""The students whose code meets what a sandbox mode changes: a plain pass, an import that
waits (the wall-clock backstop) or exits, CPU time, memory and output limits, the grader's
files (judy), a signal; the others' statuses come from intake or the module's run."""


def read(path: Path) -> list[dict]:
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("graded")
    # --sandbox none and --run-as none: judy's hunt for the expected outputs must reach the
    # grader's folder to be caught, which bubblewrap (when installed) or running her as
    # `nobody` (when the tests run as root) would prevent earlier. The command's own entry
    # point, in this process (the students run in children all the same); `python -m grader
    # grade` as a process is test_grader_runner.py's interrupted run.
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = main(["grade", str(EXAMPLES / "submissions"), "--out", str(out), "--course",
                       str(EXAMPLES / "course"), "--jobs", "2", "--sandbox", "none",
                       "--run-as", "none"])
    assert status == 0, err.getvalue()
    assert "graded 13, reused 0" in err.getvalue()
    return out


def test_grades_match_the_golden_file(graded: Path) -> None:
    assert read(graded / "grades.csv") == read(EXAMPLES / "expected-grades.csv")
    assert "\nSandbox: none.\n" in (graded / "summary.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("mode", [
    pytest.param("bwrap", marks=pytest.mark.skipif(
        not bwrap_available(), reason="bubblewrap (bwrap) is missing or cannot create namespaces")),
    pytest.param("landlock", marks=pytest.mark.skipif(
        not landlock_available(), reason="this kernel offers no Landlock"))])
def test_every_sandbox_mode_gives_the_golden_grades(tmp_path: Path, mode: str) -> None:
    """The same statuses and points confined by bubblewrap or Landlock as with neither (the
    module's fixture grades the whole class so); judy's hunt is still named `forbidden` by the
    audit hook. Each mode grades the students whose code meets the confinement (CONFINED),
    at a 1 s CPU-time limit: grace's two clustering loops still run into it (half the CPU),
    every other call takes well under 0.1 s, so no status or point changes."""
    r = rubric.load(EXAMPLES / "rubric.toml", {"run_as": "none", "time_limit": 1.0})
    result = grade_class(BatchSettings(EXAMPLES / "submissions", tmp_path / "out", r, jobs=2,
                                       sandbox=mode, only=CONFINED, progress=False))
    assert result.sandbox == mode and result.graded == len(CONFINED)
    assert read(tmp_path / "out" / "grades.csv") == [
        g for g in read(EXAMPLES / "expected-grades.csv") if g["student"] in CONFINED]
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["sandbox"] == [mode]


def test_each_misbehaviour_has_its_own_status(graded: Path) -> None:
    assert {g["student"]: g["status"] for g in read(graded / "grades.csv")} == STATUS


def test_every_student_gets_feedback_and_gradescope_results(graded: Path) -> None:
    for name in STATUS:
        feedback = (graded / "feedback" / f"{name}.md").read_text(encoding="utf-8")
        assert feedback.startswith(f"# Feedback for {name}\n")
        results = json.loads((graded / "results" / name / "results.json").read_text())
        assert len(results["tests"]) == 14
        assert abs(results["score"] - sum(t["score"] for t in results["tests"])) < 1e-9
    summary = json.loads((graded / "summary.json").read_text())
    assert summary["stats"]["students"] == 13 and sum(summary["status_counts"].values()) == 13


def feedback(graded: Path, name: str) -> str:
    return (graded / "feedback" / f"{name}.md").read_text(encoding="utf-8")


def test_feedback_says_what_went_wrong(graded: Path) -> None:
    assert "was it renamed?" in feedback(graded, "frank")
    assert "it takes 4 arguments, the contract passes 5" in feedback(graded, "frank")
    grace = feedback(graded, "grace")
    assert "ran out of time: it used its whole CPU-time limit of 2 s for this case" in grace
    # her second clustering case still ran after the first timeout (under the same 2 s)
    assert grace.count("ran out of time: it used its whole CPU-time limit of 2 s") == 2
    assert "not run" not in grace
    assert "s of its 2 s CPU-time limit" in grace  # each case's time and limit
    assert "ran out of memory (limit 2048 MB)" in feedback(graded, "heidi")
    carol = feedback(graded, "carol")
    assert "wall-clock backstop of 11 s (it waited rather than computed)" in carol
    assert "(`for k in (2, 4, 8):`: it ran for more than 4.5 s (waiting))" in carol
    dave = feedback(graded, "dave")
    assert "imported again one top-level statement at a time and graded that way" in dave
    assert "called sys.exit / exit" in feedback(graded, "erin")
    assert "the archive holds a path with '..'" in feedback(graded, "mallory")
    assert "code cells of Homework 1.ipynb" in feedback(graded, "olivia")
    assert "killed by SIGSEGV" in feedback(graded, "oscar")
    assert "Your functions print a lot" in feedback(graded, "ivan")
    assert "more than the grader keeps while it was imported" in feedback(graded, "ivan")
    assert "tried to open the grader's own files" in feedback(graded, "judy")
    bob = feedback(graded, "bob")
    assert "valid and k-anonymous, but not the reference output" in bob
    assert "raised NotImplementedError" in bob or "only raises NotImplementedError" in bob


def test_hidden_data_never_appears_in_feedback(graded: Path) -> None:
    cases = REPO / "grader" / "cases" / "hidden"
    secrets = {"Brussels", "Antwerp", "Zürich", "Seoul, KR", "Omnivore", "naïve café"}
    hidden_text = "".join(p.read_text(encoding="utf-8") for p in cases.glob("*/adult-hw1.csv"))
    assert all(s in hidden_text for s in secrets)  # so their absence below means something
    for name in STATUS:
        text = feedback(graded, name) + (graded / "results" / name / "results.json").read_text(
            encoding="utf-8")
        leaked = [s for s in secrets if s in text]
        assert leaked == [], (name, leaked)


def test_an_import_problem_that_costs_no_points_is_a_note_not_a_status(graded: Path) -> None:
    grades = {g["student"]: g for g in read(graded / "grades.csv")}
    for name, problem in (("carol", "import-timeout"), ("dave", "import-error"),
                          ("erin", "import-exit")):
        assert grades[name]["status"] == "ok" and grades[name]["percent"] == "100"
        assert grades[name]["notes"] == f"{problem}, graded one top-level statement at a time"


def test_feedback_shows_no_server_path_and_promises_nothing(graded: Path) -> None:
    for name in STATUS:
        for path in (graded / "feedback" / f"{name}.md", graded / "results" / name / "results.json"):
            text = path.read_text(encoding="utf-8")
            assert str(REPO) not in text and "manifest.json" not in text, (name, path)
            assert "notified" not in text, (name, path)
    judy = (graded / "feedback" / "judy.md").read_text(encoding="utf-8")
    assert "The access was refused and recorded in your grade record." in judy
    record = json.loads((graded / "results" / "judy" / "record.json").read_text())
    assert any("manifest.json" in p or p.startswith("/proc/<grader>/")
               for p in record["forbidden_paths"])  # kept for the staff


def test_gradescope_results_declare_markdown(graded: Path) -> None:
    results = json.loads((graded / "results" / "dave" / "results.json").read_text())
    assert results["output_format"] == "md" and "`" in results["output"]
