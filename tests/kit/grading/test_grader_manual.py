"""Parts graded by the course staff (rubric kind = "manual"): the rubric's syntax and errors,
the grader's check of the report (found, a PDF, its pages), and what a graded class shows:
grades.csv's manual column and notes, feedback, summary.md and Gradescope's results.json."""
from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import pytest

from grader import rubric
from grader.errors import UserError
from grader.grading import manual_check
from kcheck.text import Message
from manual_class import DOCX, RUBRIC, grade_manual_class, pdf, write_rubric

REPO = Path(__file__).resolve().parents[3]
CASES = (REPO / "grader" / "cases").as_posix()


# ------------------------------------------------------------------------------ the rubric


def test_a_manual_part_is_listed_apart_and_counts_in_the_maximum(tmp_path: Path) -> None:
    r = rubric.load(write_rubric(tmp_path))
    assert [p.key for p in r.parts] == ["cost_MD", "report"]
    assert [p.key for p in r.auto_parts] == ["cost_MD"]
    (report,) = r.manual_parts
    assert (report.kind, report.manual, report.points, report.files, report.max_pages,
            report.function, report.cases) == ("manual", True, 10.0, ("*.pdf",), 1, "", [])
    assert (r.max_points, r.auto_points) == (15.0, 5.0)
    assert [c.id for c in r.cases()] == ["cost_MD/unbalanced_hierarchies_intervals"]


def test_a_manual_part_in_one_sentence_for_the_handout(tmp_path: Path) -> None:
    (report,) = rubric.load(write_rubric(tmp_path)).manual_parts
    assert manual_check.describe(report) == ("report (10 points, graded by the course staff): "
                                             "one file matching *.pdf, a PDF of at most 1 page")


@pytest.mark.parametrize("path", ["grader/rubric-optional.toml", "examples/rubric.toml"])
def test_the_templates_and_the_example_class_have_only_autograded_parts(path: str) -> None:
    r = rubric.load(REPO / path)
    assert r.auto_parts == r.parts and r.manual_parts == []
    assert r.auto_points == r.max_points


@pytest.mark.parametrize("path, points, pages", [("grader/rubric.toml", 10, 4),
                                                 ("grader/rubric-2025.toml", 10, 1),
                                                 ("grader/rubric-all.toml", 12, 2)])
def test_the_example_courses_grade_the_report_by_hand(path: str, points: int,
                                                      pages: int) -> None:
    r = rubric.load(REPO / path)
    assert [(p.key, p.points, p.files, p.max_pages) for p in r.manual_parts] == [
        ("report", points, ("*.pdf",), pages)]
    assert r.max_points == r.auto_points + points


@pytest.mark.parametrize("change, key, message", [
    (("max_pages = 1", "max_pages = 0"), "part[2].max_pages", "must be at least 1, got 0"),
    (("max_pages = 1", 'max_pages = "one"'), "part[2].max_pages", "expected an integer"),
    (('kind = "manual"', 'kind = "staff"'), "part[2].kind",
     'expected "auto" or "manual", got \'staff\''),
    (("max_pages = 1", 'function = "cost_MD"'), "part[2].function",
     "unknown key for a manual part (a manual part is not run)"),
    (('files = ["*.pdf"]', 'files = "*.pdf"'), "part[2].files", "expected a list of globs"),
    (('files = ["*.pdf"]', 'files = ["../*.pdf"]'), "part[2].files", "without '..'"),
    (('files = ["*.pdf"]\n', ''), "part[2].max_pages", "needs files"),
    (('name = "report"', 'name = "total"'), "part[2].name", "is a column of grades.csv"),
    (('name = "report"', 'name = "my report"'), "part[2].name", "e.g. 'my_report'"),
    (('name = "report"', 'name = "cost_MD"'), "part", "two parts are named 'cost_MD'"),
    (("points = 10", "points = -1"), "part[2].points", "must be at least 0"),
])
def test_manual_part_errors_name_the_file_and_key(tmp_path: Path, change, key,
                                                  message) -> None:
    path = tmp_path / "rubric.toml"
    text = RUBRIC.format(cases=CASES)
    assert change[0] in text
    path.write_text(text.replace(*change, 1), encoding="utf-8")
    with pytest.raises(UserError) as e:
        rubric.load(path)
    assert str(e.value).startswith(f"{path}: {key}: "), str(e.value)
    assert message in str(e.value)


def test_a_rubric_of_manual_parts_only_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "rubric.toml"
    path.write_text('[[part]]\nkind = "manual"\nname = "report"\npoints = 10\n',
                    encoding="utf-8")
    with pytest.raises(UserError, match=r"rubric.toml: part: the rubric needs at least one "
                                        r"autograded part"):
        rubric.load(path)


# ------------------------------------------------------------------------------ the check


def report_part(**changes) -> rubric.Part:
    fields = {"files": ("*.pdf",), "max_pages": 1, **changes}
    return rubric.Part("report", "", 10.0, 0.0, kind="manual", **fields)


def checked(part: rubric.Part, base: Path) -> dict:
    """The check of `part` in `base` without its data (`check_ref`), once that data is seen
    to read as the check's English line."""
    found = manual_check.check_part(part, base)
    assert Message.from_json(found.pop("check_ref")).english() == found["check"]
    return found


def test_the_check_finds_counts_and_refuses(tmp_path: Path) -> None:
    (tmp_path / "Report.PDF").write_bytes(pdf(1))
    assert checked(report_part(), tmp_path) == {
        "file": "Report.PDF", "pages": 1, "problem": None,
        "check": "Report.PDF found, 1 page; graded by course staff"}
    (tmp_path / "Report.PDF").write_bytes(pdf(2))
    assert checked(report_part(max_pages=2), tmp_path)["check"] == \
        "Report.PDF found, 2 pages; graded by course staff"
    assert checked(report_part(), tmp_path)["check"] == \
        "Report.PDF has 2 pages, more than the 1 allowed"
    (tmp_path / "Report.PDF").write_bytes(b"%PDF-1.7\nthis is no PDF at all\n%%EOF\n")
    assert checked(report_part(), tmp_path)["check"] == \
        "Report.PDF is not a readable PDF (pypdf cannot open it)"
    (tmp_path / "Report.PDF").write_bytes(DOCX)
    assert checked(report_part(), tmp_path)["problem"] == "not-pdf"
    (tmp_path / "Report.PDF").unlink()
    assert checked(report_part(), tmp_path) == {
        "file": None, "pages": None, "problem": "missing",
        "check": "no report: no file matching *.pdf"}


def test_globs_are_relative_to_the_submission_folder(tmp_path: Path) -> None:
    deep = tmp_path / "docs" / "final"
    deep.mkdir(parents=True)
    (deep / "report.pdf").write_bytes(pdf(1))
    assert checked(report_part(), tmp_path)["problem"] == "missing"
    found = checked(report_part(files=("**/*.pdf",)), tmp_path)
    assert found["file"] == "docs/final/report.pdf"
    (tmp_path / "b.pdf").write_bytes(pdf(1))
    (tmp_path / "a.pdf").write_bytes(pdf(1))
    assert checked(report_part(files=("**/*.pdf",)), tmp_path)["check"] == (
        "a.pdf found, 1 page; graded by course staff (3 files match **/*.pdf: a.pdf, b.pdf, "
        "docs/final/report.pdf; the first, a.pdf, was taken)")
    assert manual_check.submission_folder(tmp_path) == tmp_path
    assert manual_check.submission_folder(tmp_path / "docs") == deep  # a lone top folder


def test_without_pypdf_the_pages_are_not_counted(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "report.pdf").write_bytes(pdf(3))
    monkeypatch.setitem(sys.modules, "pypdf", None)  # `import pypdf` raises ImportError
    assert checked(report_part(), tmp_path) == {
        "file": "report.pdf", "pages": None, "problem": None,
        "check": 'report.pdf found; page count not checked: pypdf is not installed (pip '
                 'install -e ".[pdf]"); graded by course staff'}
    (tmp_path / "report.pdf").write_bytes(DOCX)  # the magic bytes are still checked
    assert checked(report_part(), tmp_path)["problem"] == "not-pdf"


# ------------------------------------------------------------------------------ a class


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out, _ = grade_manual_class(tmp_path_factory.mktemp("manual"))
    return out


def read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


@pytest.mark.slow
def test_grades_csv_has_an_empty_manual_column_and_notes(graded: Path) -> None:
    rows = read_csv(graded / "grades.csv")
    assert list(rows[0])[5:] == ["cost_MD", "report", "total", "max", "percent", "status",
                                 "notes"]
    assert [(r["student"], r["cost_MD"], r["report"], r["total"], r["max"], r["notes"])
            for r in rows] == [
        ("alice", "5", "", "5", "15", ""),
        ("bob", "5", "", "5", "15", "report: report.pdf has 3 pages, more than the 1 allowed"),
        ("carol", "5", "", "5", "15", "no report: no file matching *.pdf"),
        ("dave", "5", "", "5", "15", "report: Report.PDF is not a PDF (a zip archive, e.g. a "
                                     "Word .docx file renamed)"),
        ("erin", "5", "", "5", "15", "")]


def test_feedback_says_what_was_found_and_that_staff_grade_it(graded: Path) -> None:
    alice = (graded / "feedback" / "alice.md").read_text(encoding="utf-8")
    assert "**Score: 5 / 15** (33.33%). Status: `ok`. Graded by the course staff, not yet " \
           "included: report (10 points); the score counts the autograded parts only so " \
           "far.\n" in alice
    assert "| report | not yet graded | 10 |\n" in alice
    assert "## report: not yet graded / 10 (graded by course staff)\n\n- report.pdf found, " \
           "1 page; graded by course staff\n" in alice
    erin = (graded / "feedback" / "erin.md").read_text(encoding="utf-8")  # zipped her folder
    assert "- a-draft.pdf found, 1 page; graded by course staff (2 files match *.pdf: " \
           "a-draft.pdf, report.pdf; the first, a-draft.pdf, was taken)\n" in erin
    carol = (graded / "feedback" / "carol.md").read_text(encoding="utf-8")
    assert "- no report: no file matching *.pdf\n" in carol


def test_summary_says_the_manual_parts_are_not_merged(graded: Path) -> None:
    md = (graded / "summary.md").read_text(encoding="utf-8")
    assert "Manual parts not yet merged for 5 of 5 submissions (report): their totals count " \
           "only the autograded points" in md
    assert "- report: 10 points, graded by course staff; merged for 0 of 5; file problems: " \
           "missing 1, not-pdf 1, too-long 1.\n" in md
    assert "| report | not merged | 10 | 0 |\n" in md
    data = json.loads((graded / "summary.json").read_text(encoding="utf-8"))
    assert data["manual"] == {"report": {"max": 10.0, "merged": 0, "problems": {
        "missing": 1, "not-pdf": 1, "too-long": 1}}}


def test_gradescope_results_score_only_the_autograded_parts(graded: Path) -> None:
    results = json.loads((graded / "results" / "bob" / "results.json").read_text())
    assert results["score"] == 5.0
    assert sum(t["max_score"] for t in results["tests"]) == 5.0
    assert results["tests"][-1] == {
        "name": "report: graded by course staff on Gradescope", "number": "2.1", "score": 0.0,
        "max_score": 0.0, "status": "failed", "visibility": "visible",
        "output": "report.pdf has 3 pages, more than the 1 allowed"}
    record = json.loads((graded / "results" / "bob" / "record.json").read_text())
    assert (record["score"], record["auto_score"], record["max"]) == (5.0, 5.0, 15.0)
    assert record["manual"]["report"].pop("check_ref") == {
        "id": "{file} has {pages} pages, more than the {allowed} allowed",
        "params": {"file": {"verbatim": "report.pdf"}, "pages": 3, "allowed": 1}}
    assert record["manual"]["report"] == {
        "file": "report.pdf", "pages": 3, "problem": "too-long", "score": None,
        "check": "report.pdf has 3 pages, more than the 1 allowed"}


def test_a_submission_that_cannot_be_unpacked_is_not_checked(tmp_path: Path) -> None:
    r = rubric.load(write_rubric(tmp_path))
    reason = Message("the submission could not be unpacked")
    assert manual_check.check_parts(r, None, reason) == {
        "report": {"file": None, "pages": None, "problem": "not-checked",
                   "check": "not checked: the submission could not be unpacked",
                   "check_ref": {"id": "not checked: {reason}", "params": {
                       "reason": {"id": "the submission could not be unpacked",
                                  "params": {}}}}}}
