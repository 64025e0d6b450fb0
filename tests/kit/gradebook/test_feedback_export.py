"""`export --feedback ZIP`: the example class, downloaded from Moodle and from Canvas (entry
names built from examples/rosters/), graded, and its feedback zipped in the layout each system
takes back; every page lands under its own student's identity, as the LMS parses it. Also: the
example rosters join the whole example class, and an export that would name nobody is refused.

The LMS-named classes are five of the example class, whose totals all differ (alice 100, bob
65, frank 55, heidi 80, mallory 0): a page filed under another student's name shows in its
score. The others add grading time and nothing to naming (carol and grace misbehave: sleeping
at import, an endless loop)."""
from __future__ import annotations

import csv
import html
import re
import shutil
import zipfile
from pathlib import Path

import pytest

from grader import cli
from grader import rubric as rubric_mod
from grader.gradebook import feedback_export
from grader.commands.grade import grade_class
from grader.grading.batch import BatchSettings
from grader.zipfiles import ZIP_DATE

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = REPO / "examples"
ROSTERS = EXAMPLES / "rosters"
NAMED = {"alice", "bob", "frank", "heidi", "mallory"}  # each with a total of their own
CANVAS_ID_PATTERN = r"^(?P<id>[^_]+)_(?:late_)?\d+_\d+_"


def roster(name: str) -> list[dict[str, str]]:
    with open(ROSTERS / name, encoding="utf-8", newline="") as f:
        return [r for r in csv.DictReader(f) if not r[next(iter(r))].strip().startswith(
            "Points Possible")]


def expected_totals() -> dict[str, str]:
    with open(EXAMPLES / "expected-grades.csv", encoding="utf-8", newline="") as f:
        return {r["student"]: r["total"] for r in csv.DictReader(f)}


def example(student: str) -> Path:
    """The example class's submission of `student` (a zip, or bob's folder)."""
    zipped = EXAMPLES / "submissions" / f"{student}.zip"
    return zipped if zipped.is_file() else EXAMPLES / "submissions" / student


def moodle_download(folder: Path) -> dict[str, str]:
    """Moodle's "Download all submissions": a folder per participant holding what they
    uploaded. Returns participant number -> example student."""
    who = {}
    for row in roster("moodle.csv"):
        student = row["Email address"].split("@")[0]
        if student not in NAMED:
            continue
        number = row["Identifier"].removeprefix("Participant ")
        target = folder / f"{row['Full name']}_{number}_assignsubmission_file_"
        source = example(student)
        if source.is_dir():
            shutil.copytree(source, target)
        else:
            target.mkdir(parents=True)
            shutil.copyfile(source, target / source.name)
        who[number] = student
    return who


def canvas_download(folder: Path) -> dict[str, tuple[str, str]]:
    """Canvas's "Download submissions": flat files `lastfirst_userid_attachmentid_name` (a
    folder is uploaded to Canvas zipped, as bob.zip). Returns user id -> (example student,
    the attachment id of their file)."""
    folder.mkdir(parents=True)
    who = {}
    for n, row in enumerate(roster("canvas.csv")):
        student = row["SIS Login ID"]
        if student not in NAMED:
            continue
        last, first = row["Student"].split(", ")
        attachment = str(70001 + n)
        target = folder / f"{(last + first).lower()}_{row['ID']}_{attachment}_{student}.zip"
        source = example(student)
        if source.is_dir():
            shutil.make_archive(str(target.with_suffix("")), "zip", source)
        else:
            shutil.copyfile(source, target)
        who[row["ID"]] = (student, attachment)
    return who


def grade(submissions: Path, out: Path, pattern: str | None = None) -> Path:
    rubric = rubric_mod.load(EXAMPLES / "rubric.toml",
                             {"run_as": "none", "student_id_pattern": pattern})
    grade_class(BatchSettings(submissions, out, rubric, jobs=2, sandbox="none", progress=False))
    return out


@pytest.fixture(scope="module")
def moodle_class(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    root = tmp_path_factory.mktemp("moodle")
    who = moodle_download(root / "download")
    return grade(root / "download", root / "graded"), who


@pytest.fixture(scope="module")
def canvas_class(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    root = tmp_path_factory.mktemp("canvas")
    who = canvas_download(root / "download")
    return grade(root / "download", root / "graded", CANVAS_ID_PATTERN), who


def pages(path: Path) -> dict[str, str]:
    with zipfile.ZipFile(path) as archive:
        return {i.filename: archive.read(i).decode("utf-8") for i in archive.infolist()}


def student_of(page: str) -> str:
    found = re.findall(r"<h1>Feedback for ([^<]+)</h1>", page)
    assert len(found) == 1
    return found[0]


def assert_self_contained(page: str) -> None:
    assert page.startswith("<!DOCTYPE html>") and "<style>" in page
    for outside in ("http:", "https:", "<script", "<link", "src=", "<img", "url("):
        assert outside not in page


@pytest.mark.slow
def test_moodle_feedback_zip_puts_each_page_in_its_participants_folder(
        moodle_class, tmp_path: Path, capsys) -> None:
    graded, who = moodle_class
    target = tmp_path / "feedback.zip"
    assert cli.main(["export", str(graded), "--format", "moodle", "--feedback", str(target)]) == 0
    err = capsys.readouterr().err
    assert "warning" not in err and f"wrote {target}: {len(who)} student(s)' feedback pages; " \
        "upload it in the assignment's View all submissions > Grading action > Upload " \
        "multiple feedback files in a zip" in err
    totals, seen = expected_totals(), set()
    for name, page in pages(target).items():
        # as Moodle's importer reads it: the path part split on `_`, the second field
        folder, file_name = name.split("/")
        fields = folder.split("_", 4)
        assert fields[2:] == ["assignsubmission", "file", ""] and file_name == "feedback.html"
        number = fields[1]
        student = who[number]
        seen.add(number)
        assert_self_contained(page)
        assert f"Submission: <code>{fields[0]}_{number}_assignsubmission_file_</code>" in page
        assert f"<strong>Score: {totals[student]} / 100</strong>" in page
        assert student_of(page).startswith(fields[0].replace(" ", "_"))
    assert seen == set(who)  # every participant has a page, each their own


@pytest.mark.slow
def test_canvas_feedback_zip_names_each_page_after_its_users_file(
        canvas_class, tmp_path: Path, capsys) -> None:
    graded, who = canvas_class
    target = tmp_path / "reupload.zip"
    assert cli.main(["export", str(graded), "--format", "canvas", "--feedback", str(target),
                     "--roster", str(ROSTERS / "canvas.csv"), "--out",
                     str(tmp_path / "canvas.csv")]) == 0
    err = capsys.readouterr().err
    assert "submissions with no roster entry" not in err and "without a feedback page" not in err
    totals, seen = expected_totals(), set()
    for name, page in pages(target).items():
        assert "/" not in name and name.endswith("_feedback.html")
        # as Canvas's re-upload reads it: the first two all-digit fields of the name
        user_id, attachment = [f for f in name.split("_") if f.isdigit()][:2]
        student, first_file = who[user_id]
        assert attachment == first_file  # a file this very user submitted
        seen.add(user_id)
        assert_self_contained(page)
        assert f"_{user_id}_{attachment}_" in page.split("Submission: ")[1].split("</p>")[0]
        assert f"<strong>Score: {totals[student]} / 100</strong>" in page
    assert seen == set(who)
    with open(tmp_path / "canvas.csv", encoding="utf-8", newline="") as f:
        rows = {r["ID"]: r["HW1: k-anonymity (4242)"] for r in csv.DictReader(f)}
    assert {i: rows[i] for i in who} == {i: totals[s] for i, (s, _) in who.items()}


@pytest.mark.slow
def test_a_page_carries_the_counterexamples_tables_and_files(moodle_class) -> None:
    graded, _ = moodle_class
    bob = next(p.stem for p in (graded / "feedback").glob("*.md") if p.stem.startswith("Bob"))
    page = feedback_export.student_page(graded, bob)
    assert "<h3>Counterexample for cost_LM</h3>" in page
    assert "<tr><th>data row</th><th>Job</th><th>Disease</th></tr>" in page
    for name in ("counterexamples/cost_LM/raw.csv", "counterexamples/cost_LM/DGHs/Job.txt",
                 "counterexamples/cost_LM/expected.txt"):
        text = (graded / "feedback" / bob / name).read_text(encoding="utf-8")
        assert f"<h3><code>{name}</code></h3>\n<pre>{html.escape(text)}</pre>" in page


@pytest.mark.slow
def test_the_zip_is_the_same_bytes_every_time(moodle_class) -> None:
    graded, _ = moodle_class
    first = feedback_export.zip_bytes(feedback_export.build(graded, "moodle").entries)
    assert feedback_export.zip_bytes(feedback_export.build(graded, "moodle").entries) == first
    with zipfile.ZipFile(__import__("io").BytesIO(first)) as archive:
        names = archive.namelist()
        assert names == sorted(names)
        assert {i.date_time for i in archive.infolist()} == {ZIP_DATE}


@pytest.mark.slow
def test_feedback_zip_refusals_leave_nothing(moodle_class, tmp_path: Path, capsys) -> None:
    graded, _ = moodle_class
    cases = [(["--format", "canvas", "--feedback", "f.zip"], "no feedback page can be "
              "addressed to canvas: 5 submissions, e.g. "),
             (["--format", "gradescope", "--feedback", "f.zip"], "--feedback is for --format "
              "moodle or canvas"),
             (["--format", "moodle", "--feedback", "f.html"], "give a name ending in .zip"),
             (["--format", "moodle"], "give --out FILE.csv (the grades), --feedback FILE.zip")]
    for args, message in cases:
        args = [str(tmp_path / a) if a.startswith("f.") else a for a in args]
        assert cli.main(["export", str(graded), *args]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and message in err and len(err.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("fmt, key", [("canvas", "SIS Login ID"), ("moodle", "Email address"),
                                      ("gradescope", "Email")])
def test_the_example_rosters_join_the_whole_example_class(tmp_path: Path, capsys, fmt: str,
                                                          key: str) -> None:
    graded = tmp_path / "graded"
    graded.mkdir()
    shutil.copyfile(EXAMPLES / "expected-grades.csv", graded / "grades.csv")
    out = tmp_path / f"{fmt}.csv"
    assert cli.main(["export", str(graded), "--format", fmt, "--roster",
                     str(ROSTERS / f"{fmt}.csv"), "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "warning" not in err and f"wrote {out}: 13 student(s)" in err
    column = {"canvas": "HW1: k-anonymity (4242)",  # the roster's own assignment, updated
              "moodle": "Grade", "gradescope": "Total Score"}
    with open(out, encoding="utf-8", newline="") as f:
        written = [r for r in csv.DictReader(f) if r.get("Student") != "Points Possible"]
    people = {r[key].split("@")[0]: r for r in roster(f"{fmt}.csv")}
    identity = {"canvas": "ID", "moodle": "Identifier", "gradescope": "Email"}[fmt]
    by_identity = {r[identity]: r[column[fmt]] for r in written}
    assert by_identity == {people[s][identity]: total for s, total in expected_totals().items()}


@pytest.mark.parametrize("fmt, where", [
    ("canvas", "Canvas: Grades > Export > Export Entire Gradebook (CSV)"),
    ("moodle", "Moodle: the assignment's View all submissions > Grading action > Download "
               "grading worksheet")])
def test_export_without_a_roster_that_would_name_nobody_is_refused(tmp_path: Path, capsys,
                                                                   fmt: str, where: str) -> None:
    graded = tmp_path / "graded"
    graded.mkdir()
    shutil.copyfile(EXAMPLES / "expected-grades.csv", graded / "grades.csv")
    out = tmp_path / "out.csv"
    assert cli.main(["export", str(graded), "--format", fmt, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and err.startswith(f"error: a {fmt.title()} import "
                                                         f"needs a roster: none of the 13 ")
    assert where in err and "--roster FILE" in err and not out.exists()


def test_gradescope_without_a_roster_says_which_column_keys_it(tmp_path: Path, capsys) -> None:
    graded = tmp_path / "graded"
    graded.mkdir()
    shutil.copyfile(EXAMPLES / "expected-grades.csv", graded / "grades.csv")
    out = tmp_path / "gs.csv"
    assert cli.main(["export", str(graded), "--format", "gradescope", "--out", str(out)]) == 0
    assert "13 student(s) in gradescope's import layout, matched on SID, the grader's student " \
        "id (grades.csv's student column)" in capsys.readouterr().err
    with open(out, encoding="utf-8", newline="") as f:
        assert [r["SID"] for r in csv.DictReader(f)] == sorted(expected_totals())


def test_moodle_folder_names_keep_the_plugin_and_never_an_underscore_in_the_name() -> None:
    from grader.gradebook.lms import Grade
    grades = [Grade("Ann", "moodle", "7", "Ann_Lee", "Ann_Lee_7_assignsubmission_onlinetext_",
                    "1", "1", "ok"),
              Grade("Bo", "moodle", "8", "Bo Li", "Bo Li_8_assignsubmission_file_x.py", "1",
                    "1", "ok"),
              Grade("cy", "", "", "", "cy.zip", "1", "1", "ok")]
    named, left = feedback_export._moodle_targets(grades, None)
    assert [name for _, name in named] == [
        "Ann Lee_7_assignsubmission_onlinetext_/feedback.html",
        "Bo Li_8_assignsubmission_file_/feedback.html"]
    assert [n.split("/")[0].split("_", 4)[1] for _, n in named] == ["7", "8"]
    assert left == ["cy (cy.zip): no Moodle participant number in its name"]
