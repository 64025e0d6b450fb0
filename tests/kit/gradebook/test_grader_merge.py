"""`python -m grader merge OUT --manual scores.csv`: the staff's scores of the manual parts
fill grades.csv, the records, feedback and summary, the export carries them, a wrong
scores.csv is refused line by line with nothing changed, and the Gradescope autograder built
from a rubric with a manual part scores the autograded parts only."""
from __future__ import annotations

import csv
import json
import shutil
import zipfile
from pathlib import Path

import pytest

from grader import cli
from grader import rubric as rubric_mod
from grader.commands.grade import grade_class
from grader.grading.batch import BatchSettings
from manual_class import grade_manual_class

REPO = Path(__file__).resolve().parents[3]
SCORES = 'student,report,comment\nalice,8.5,"Clear tables; label the axes"\nbob,4,\ndave,0,' \
         'Word file\nerin,10,\n'


@pytest.fixture(scope="module")
def graded_once(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return grade_manual_class(tmp_path_factory.mktemp("merge"))


@pytest.fixture()
def graded(graded_once: tuple[Path, Path], tmp_path: Path) -> tuple[Path, Path]:
    """A fresh copy of the graded class (each test may change it) and its rubric."""
    out = tmp_path / "graded"
    shutil.copytree(graded_once[0], out)
    return out, graded_once[1]


def merge(graded: tuple[Path, Path], text: str, capsys) -> tuple[int, str]:
    out, rubric = graded
    scores = out.parent / "scores.csv"
    scores.write_text(text, encoding="utf-8")
    code = cli.main(["merge", str(out), "--manual", str(scores), "--rubric", str(rubric)])
    return code, capsys.readouterr().err


def grades(out: Path) -> list[tuple[str, ...]]:
    with open(out / "grades.csv", encoding="utf-8", newline="") as f:
        return [(r["student"], r["report"], r["total"], r["percent"]) for r in
                csv.DictReader(f)]


def snapshot(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file()}


@pytest.mark.slow
def test_merge_fills_the_manual_column_totals_feedback_and_summary(graded, capsys) -> None:
    out, _ = graded
    code, err = merge(graded, SCORES, capsys)
    assert code == 0, err
    assert err == (f"merged 4 score(s) of report; 1 student(s) still without one (carol); "
                   f"see {out / 'grades.csv'}\n")
    assert grades(out) == [("alice", "8.5", "13.5", "90"), ("bob", "4", "9", "60"),
                           ("carol", "", "5", "33.33"), ("dave", "0", "5", "33.33"),
                           ("erin", "10", "15", "100")]
    alice = (out / "feedback" / "alice.md").read_text(encoding="utf-8")
    assert "**Score: 13.5 / 15** (90%). Status: `ok`.\n" in alice
    assert "## report: 8.5 / 10 (graded by course staff)\n\n- report.pdf found, 1 page; " \
           "graded by course staff\n- Comment: Clear tables; label the axes\n" in alice
    assert "not yet included" in (out / "feedback" / "carol.md").read_text(encoding="utf-8")
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert "Manual parts not yet merged for 1 of 5 submissions (report)" in summary
    assert "merged for 4 of 5" in summary and "| report | 5.62 | 10 | 1 |" in summary
    record = json.loads((out / "results" / "alice" / "record.json").read_text())
    assert (record["score"], record["auto_score"], record["manual"]["report"]["score"],
            record["manual_comment"]) == (13.5, 5.0, 8.5, "Clear tables; label the axes")
    results = json.loads((out / "results" / "alice" / "results.json").read_text())
    assert results["score"] == 5.0  # Gradescope's record: the autograded parts only
    assert "report" in (out / "summary.html").read_text(encoding="utf-8")


def test_the_template_lists_every_student_and_merges_back(graded, capsys) -> None:
    out, _ = graded
    template = out / "manual-template.csv"
    assert template.read_text(encoding="utf-8") == (
        "student,report,comment\nalice,,\nbob,,\ncarol,,\ndave,,\nerin,,\n")
    assert merge(graded, SCORES, capsys)[0] == 0
    filled = template.read_text(encoding="utf-8")
    assert filled == ('student,report,comment\nalice,8.5,Clear tables; label the axes\n'
                      'bob,4,\ncarol,,\ndave,0,Word file\nerin,10,\n')
    before = snapshot(out)
    assert merge(graded, filled, capsys)[0] == 0
    assert snapshot(out) == before


def test_export_carries_the_merged_totals(graded, capsys) -> None:
    out, _ = graded
    assert merge(graded, SCORES, capsys)[0] == 0
    target = out.parent / "gradescope.csv"
    assert cli.main(["export", str(out), "--format", "gradescope", "--out", str(target)]) == 0
    err = capsys.readouterr().err
    assert "warning: manual parts without a staff score: report (1 of 5)" in err
    assert target.read_text(encoding="utf-8").splitlines()[1:] == [
        "alice,alice,,13.5,15,ok", "bob,bob,,9,15,ok", "carol,carol,,5,15,ok",
        "dave,dave,,5,15,ok", "erin,erin,,15,15,ok"]
    full = SCORES + "carol,7,\n"
    code, err = merge(graded, full, capsys)
    assert code == 0 and err.startswith("merged 5 score(s) of report; every student has a "
                                        "score of report; see ")
    assert cli.main(["export", str(out), "--format", "gradescope", "--out", str(target)]) == 0
    assert "manual parts without" not in capsys.readouterr().err
    assert "carol,carol,,12,15,ok" in target.read_text(encoding="utf-8")


def test_merging_again_replaces_the_scores_and_is_idempotent(graded, capsys) -> None:
    out, _ = graded
    assert merge(graded, SCORES, capsys)[0] == 0
    first = snapshot(out)
    assert merge(graded, SCORES, capsys)[0] == 0
    assert snapshot(out) == first  # the same scores: the same bytes
    code, err = merge(graded, "student,report\nbob,6\n", capsys)
    assert code == 0
    assert err.startswith("merged 1 score(s) of report; removed 3 earlier score(s) of report "
                          "(alice, dave, erin: not in this file); 4 student(s) still without "
                          "one (alice, carol, dave, erin); see ")
    assert grades(out) == [("alice", "", "5", "33.33"), ("bob", "6", "11", "73.33"),
                           ("carol", "", "5", "33.33"), ("dave", "", "5", "33.33"),
                           ("erin", "", "5", "33.33")]
    # no comment column: the comments stay
    assert "- Comment:" not in (out / "feedback" / "bob.md").read_text(encoding="utf-8")
    assert json.loads((out / "results" / "dave" / "record.json").read_text())[
        "manual_comment"] == "Word file"


def test_a_regrade_keeps_the_merged_scores(graded, graded_once, capsys) -> None:
    out, rubric = graded
    assert merge(graded, SCORES, capsys)[0] == 0
    (out / "results" / "alice" / "record.json").unlink()  # alice is graded again
    done = grade_class(BatchSettings(graded_once[0].parent / "submissions", out,
                                     rubric_mod.load(rubric, {"run_as": "none"}), jobs=1, sandbox="none",
                                     progress=False))
    assert (done.graded, done.cached) == (1, 4)
    assert grades(out)[0] == ("alice", "8.5", "13.5", "90")
    assert "- Comment: Clear tables" in (out / "feedback" / "alice.md").read_text("utf-8")


@pytest.mark.parametrize("text, lines", [
    ("student,report\nzed,5\n",
     ["{csv}: row 2, column student: 'zed' is not a student of the graded folder's grades.csv"]),
    ("student,reprot\nalice,5\n",
     ["{csv}: row 1, column 2: 'reprot' is not a manual part of rubric.toml (its manual "
      "parts: report)"]),
    ("student,report\nalice,5\nbob,12\n",
     ["{csv}: row 3, column report: '12' is more than the part's 10 points"]),
    ("student,report\nalice,eight\nbob,-1\ncarol,nan\n",
     ["{csv}: row 2, column report: 'eight' is not a number",
      "{csv}: row 3, column report: '-1' is negative",
      "{csv}: row 4, column report: 'nan' is not a number"]),
    ("student,cost_MD,report\nalice,5,5\nalice,5,6\n",
     ["{csv}: row 1, column 2: 'cost_MD' is an autograded part; scores.csv gives only the "
      "manual parts (report)",
      "{csv}: row 3, column student: 'alice' is also on row 2"]),
    ("name,report\nalice,5\n",
     ["{csv}: row 1: no 'student' column (the header names the columns: student, report, "
      "comment)",
      "{csv}: row 1, column 1: 'name' is not a manual part of rubric.toml (its manual parts: "
      "report)"]),
])
def test_a_wrong_scores_csv_is_refused_line_by_line_and_changes_nothing(
        graded, capsys, text: str, lines: list[str]) -> None:
    out, _ = graded
    before = snapshot(out)
    code, err = merge(graded, text, capsys)
    csv_path = out.parent / "scores.csv"
    expected = [line.format(csv=csv_path) for line in lines]
    assert code == 2
    assert err.splitlines() == [f"error: {line}" for line in expected] + [
        f"error: merge refused: {len(lines)} problem(s) in {csv_path}; nothing was changed"]
    assert snapshot(out) == before


def test_merge_needs_the_rubric_the_class_was_graded_with(graded, capsys) -> None:
    out, _ = graded
    before = snapshot(out)
    scores = out.parent / "scores.csv"
    scores.write_text(SCORES, encoding="utf-8")
    assert cli.main(["merge", str(out), "--manual", str(scores)]) == 2  # the default rubric
    err = capsys.readouterr().err
    assert err.startswith(f"error: {out / 'grades.csv'}: its columns (student, lms, lms_id, "
                          f"lms_name, source, cost_MD, report, total, ") and \
        f"are not those of the rubric {rubric_mod.DEFAULT_RUBRIC} (" in err
    assert len(err.strip().splitlines()) == 1
    examples = REPO / "examples" / "rubric.toml"  # no manual part at all
    assert cli.main(["merge", str(out), "--manual", str(scores), "--rubric", str(examples)]) == 2
    assert capsys.readouterr().err == (
        f"error: {examples} has no manual part (kind = \"manual\"): nothing "
        f"to merge; give the --rubric the class was graded with\n")
    assert snapshot(out) == before


@pytest.mark.slow
def test_the_gradescope_zip_scores_the_autograded_parts_only(graded_once, tmp_path: Path,
                                                             monkeypatch) -> None:
    from grader.publishing import autograde
    from grader.publishing import gradescope
    rubric = graded_once[1]
    target = tmp_path / "autograder.zip"
    gradescope.build(REPO, target, rubric)
    root = tmp_path / "autograder"
    with zipfile.ZipFile(target) as archive:
        archive.extractall(root / "source")
    assert (root / "source" / "requirements.txt").read_text() == "numpy>=1.24\npypdf>=4\n"
    assert 'kind = "manual"' in (root / "source" / "grader" / "rubric.toml").read_text()
    shutil.copytree(graded_once[0].parent / "work" / "bob", root / "submission")  # 3 pages
    monkeypatch.setenv(autograde.SANDBOX_ENV, "none")
    monkeypatch.setenv(autograde.RUN_AS_ENV, "none")
    results = autograde.grade_submission(root)
    assert results["score"] == 5.0
    assert [(t["name"], t["max_score"]) for t in results["tests"]] == [
        ("cost_MD: hidden case: unbalanced hierarchies, intervals", 5.0),
        ("report: graded by course staff on Gradescope", 0.0)]
    assert sum(t["max_score"] for t in results["tests"]) == \
        rubric_mod.load(rubric).auto_points
    assert results["tests"][1]["output"] == "report.pdf has 3 pages, more than the 1 allowed"


def test_a_merge_of_two_parts_says_what_each_got_and_left() -> None:
    from grader.gradebook.merge import Merged
    done = Merged(["report", "slides"], {"report": ["ann", "bob"], "slides": []},
                  {"report": [], "slides": ["cat"]},
                  {"report": ["cat"], "slides": ["ann", "bob", "cat"]})
    assert done.describe() == (
        "merged 2 score(s) of report, 0 score(s) of slides; removed 1 earlier score(s) of "
        "slides (cat: not in this file); still without a score: report 1 student(s) (cat), "
        "slides 3 student(s) (ann, bob, cat)")
