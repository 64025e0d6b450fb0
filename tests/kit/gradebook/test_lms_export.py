"""grades.csv keeps the learning management system's own ids from the intake, and `export`
writes the layouts Canvas, Moodle and Gradescope import, joined on their rosters."""
from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from grader.gradebook import export as export_mod
from grader.gradebook import lms
from grader.grading.intake import lms_identity
from grader.rubric import load

REPO = Path(__file__).resolve().parents[3]


def record(student: str, source: str, score: float, status: str = "ok") -> dict:
    return {"student": student, "source": source, "score": score, "max": 100.0,
            "parts": {}, "status": status, "cases": [], "notes": []}


# two Moodle namesakes, a Canvas late submission, and a plain zip
RECORDS = [record("Jane_Smith", "Jane Smith_12345_assignsubmission_file_", 90),
           record("Jane_Smith~2", "Jane Smith_67890_assignsubmission_file_", 40),
           record("smithjane", "smithjane_late_4321_99_skeleton.py", 75),
           record("alice", "alice.zip", 100)]


def rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def graded_folder(tmp_path: Path, records: list[dict]) -> Path:
    folder = tmp_path / "graded"
    folder.mkdir()
    rubric = load(REPO / "examples" / "rubric.toml")
    (folder / "grades.csv").write_text(export_mod.grades_csv(records, rubric), encoding="utf-8")
    return folder


@pytest.mark.parametrize("name, expected", [
    ("Jane Smith_12345_assignsubmission_file_", ("moodle", "12345", "Jane Smith")),
    ("Jane Smith_12345_assignsubmission_file_skeleton.py", ("moodle", "12345", "Jane Smith")),
    ("smithjane_12345_67890_file.zip", ("canvas", "12345", "smithjane")),
    ("smithjane_late_12345_67890_skeleton.py", ("canvas", "12345", "smithjane")),
    ("alice.zip", None), ("bob", None), ("s_1234.zip", None),
])
def test_lms_identity_from_the_entry_name(name: str, expected) -> None:
    found = lms_identity(name)
    assert (found and (found.system, found.user_id, found.name)) == expected


def test_grades_csv_keeps_the_lms_ids_so_namesakes_do_not_collide() -> None:
    rubric = load(REPO / "examples" / "rubric.toml")
    grades = {r["student"]: r for r in csv.DictReader(io.StringIO(
        export_mod.grades_csv(RECORDS, rubric)))}
    assert (grades["Jane_Smith"]["lms_id"], grades["Jane_Smith~2"]["lms_id"]) == ("12345", "67890")
    assert grades["Jane_Smith"]["lms"] == "moodle" and grades["Jane_Smith"]["lms_name"] == "Jane Smith"
    assert grades["smithjane"]["lms"] == "canvas" and grades["smithjane"]["lms_id"] == "4321"
    assert grades["alice"]["lms"] == "" and grades["alice"]["source"] == "alice.zip"


def test_moodle_worksheet_without_roster(tmp_path: Path) -> None:
    out = lms.export(graded_folder(tmp_path, RECORDS), "moodle")
    table = rows(out.text)
    assert table[0][:5] == ["Identifier", "Full name", "Email address", "Grade", "Maximum grade"]
    assert "Last modified (grade)" in table[0]
    assert [r[0] for r in table[1:]] == ["Participant 12345", "Participant 67890"]
    assert [r[3] for r in table[1:]] == ["90", "40"]
    assert len(out.unmatched) == 2  # the Canvas and the plain submission have no participant


def test_moodle_worksheet_joined_on_its_roster(tmp_path: Path) -> None:
    roster = tmp_path / "worksheet.csv"
    roster.write_text("\ufeffIdentifier,Full name,Email address,Status,Grade\n"
                      "Participant 12345,Jane Smith,jane1@uni.edu,Submitted,\n"
                      "Participant 67890,Jane Smith,jane2@uni.edu,Submitted,\n"
                      "Participant 55555,Max Absent,max@uni.edu,No submission,\n"
                      "Participant 77777,Al Ice,alice@uni.edu,Submitted,\n", encoding="utf-8")
    out = lms.export(graded_folder(tmp_path, RECORDS), "moodle", roster)
    table = rows(out.text)
    by_id = {r[0]: r for r in table[1:]}
    assert by_id["Participant 12345"][2:4] == ["jane1@uni.edu", "90"]
    assert by_id["Participant 67890"][2:4] == ["jane2@uni.edu", "40"]
    assert by_id["Participant 77777"][3] == "100"  # alice joined on her email's name
    assert out.missing == ["Max Absent (Participant 55555)"]
    assert out.unmatched == ["smithjane (smithjane_late_4321_99_skeleton.py)"]


def test_canvas_gradebook_layout_joined_on_its_export(tmp_path: Path) -> None:
    roster = tmp_path / "canvas.csv"
    roster.write_text("Student,ID,SIS User ID,SIS Login ID,Section,Quiz 1 (11)\n"
                      "    Points Possible,,,,,10\n"
                      "\"Smith, Jane\",4321,S-1,jsmith,Sec A,9\n"
                      "\"Doe, John\",999,S-2,jdoe,Sec B,7\n", encoding="utf-8")
    out = lms.export(graded_folder(tmp_path, RECORDS), "canvas", roster, "HW1 (2024)")
    table = rows(out.text)
    assert table[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "HW1 (2024)"]
    assert table[1] == ["Points Possible", "", "", "", "", "100"]
    assert table[2:] == [["Smith, Jane", "4321", "S-1", "jsmith", "Sec A", "75"]]
    assert out.missing == ["Doe, John (ID 999)"]
    assert len(out.unmatched) == 3


def test_canvas_updates_the_rosters_own_assignment(tmp_path: Path) -> None:
    """Without --assignment the grade column is the roster's assignment column (`Name (id)`),
    which Canvas updates; "Current Score" and the like are no assignments."""
    graded = graded_folder(tmp_path, RECORDS)
    roster = tmp_path / "canvas.csv"
    header = "Student,ID,SIS User ID,SIS Login ID,Section,{},Current Score,Final Score\n"
    body = "    Points Possible,,,,,100,(read only),(read only)\n\"Smith, Jane\",4321,S-1,js,A,,,\n"
    roster.write_text(header.format("HW1: k-anonymity (4242)") + body, encoding="utf-8")
    assert rows(lms.export(graded, "canvas", roster).text)[0][-1] == "HW1: k-anonymity (4242)"
    assert rows(lms.export(graded, "canvas", roster, "HW2 (7)").text)[0][-1] == "HW2 (7)"
    roster.write_text(header.format("Quiz (11),HW1 (4242)") + body, encoding="utf-8")
    with pytest.raises(lms.UserError, match=r"2 assignment columns \('Quiz \(11\)', 'HW1 "
                                            r"\(4242\)'\); name the one to update with "
                                            r"--assignment"):
        lms.export(graded, "canvas", roster)
    roster.write_text(header.replace(",{}", "") + body.replace(",100", "").replace(",,,\n",
                                                                                 ",,\n"),
                      encoding="utf-8")
    with pytest.raises(lms.UserError, match="no assignment column"):
        lms.export(graded, "canvas", roster)


def test_canvas_without_roster_uses_the_user_id_from_the_file_names(tmp_path: Path) -> None:
    table = rows(lms.export(graded_folder(tmp_path, RECORDS), "canvas").text)
    assert table[0][-1] == "k-anonymity homework"  # no roster: a new assignment
    assert table[2:] == [["smithjane", "4321", "", "", "", "75"]]


def test_gradescope_layout_joined_on_its_roster(tmp_path: Path) -> None:
    roster = tmp_path / "roster.csv"
    roster.write_text("First Name,Last Name,Email,SID\nAl,Ice,alice@uni.edu,A1\n"
                      "Bo,B,bo@uni.edu,B2\n", encoding="utf-8")
    out = lms.export(graded_folder(tmp_path, RECORDS), "gradescope", roster)
    table = rows(out.text)
    assert table[0] == ["Name", "SID", "Email", "Total Score", "Max Points", "Status"]
    assert table[1:] == [["Al Ice", "A1", "alice@uni.edu", "100", "100", "ok"]]
    assert out.missing == ["Bo B (bo@uni.edu)"] and len(out.unmatched) == 3


def test_export_command_writes_the_file_and_lists_the_unmatched(tmp_path: Path) -> None:
    graded = graded_folder(tmp_path, RECORDS)
    roster = tmp_path / "r.csv"
    roster.write_text("Identifier,Full name\nParticipant 12345,Jane Smith\n"
                      "Participant 1,Nobody\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "grader", "export", str(graded), "--format",
                           "moodle", "--roster", str(roster), "--out", str(tmp_path / "m.csv")],
                          cwd=REPO, capture_output=True, text=True, env={
                              **os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stderr
    assert "1 roster students with no submission:\n  Nobody (Participant 1)" in done.stderr
    assert "3 submissions with no roster entry" in done.stderr
    assert rows((tmp_path / "m.csv").read_text())[1][:2] == ["Participant 12345", "Jane Smith"]


def test_a_roster_without_the_needed_columns_is_a_user_error(tmp_path: Path) -> None:
    roster = tmp_path / "r.csv"
    roster.write_text("Name,Grade\nx,1\n", encoding="utf-8")
    with pytest.raises(Exception, match="needs the columns Identifier, Full name"):
        lms.export(graded_folder(tmp_path, RECORDS), "moodle", roster)


@pytest.mark.slow
def test_a_moodle_download_graded_and_exported_end_to_end(tmp_path: Path) -> None:
    """Two namesakes in a Moodle "download all" folder: graded apart, exported apart."""
    import zipfile

    import shutil

    subs = tmp_path / "download"
    with zipfile.ZipFile(REPO / "examples" / "submissions" / "alice.zip") as archive:
        archive.extractall(tmp_path / "alice")  # alice_hw1/: skeleton.py and its helpers
    for participant in ("12345", "67890"):
        shutil.copytree(tmp_path / "alice" / "alice_hw1",
                        subs / f"Jane Smith_{participant}_assignsubmission_file_")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    graded = tmp_path / "graded"
    done = subprocess.run([sys.executable, "-m", "grader", "grade", str(subs), "--out",
                           str(graded), "--rubric", str(REPO / "examples" / "rubric.toml"),
                           "--sandbox", "none", "--run-as", "none", "--quiet"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    grades = list(csv.DictReader(open(graded / "grades.csv", encoding="utf-8")))
    assert [(g["student"], g["lms"], g["lms_id"], g["total"]) for g in grades] == [
        ("Jane_Smith", "moodle", "12345", "100"), ("Jane_Smith~2", "moodle", "67890", "100")]
    done = subprocess.run([sys.executable, "-m", "grader", "export", str(graded), "--format",
                           "moodle", "--out", str(tmp_path / "moodle.csv")],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    table = rows((tmp_path / "moodle.csv").read_text(encoding="utf-8"))
    assert [r[:4] for r in table[1:]] == [["Participant 12345", "Jane Smith", "", "100"],
                                          ["Participant 67890", "Jane Smith", "", "100"]]


def test_a_roster_matching_nobody_is_refused_not_written_empty(tmp_path: Path) -> None:
    roster = tmp_path / "other-course.csv"
    roster.write_text("Identifier,Full name,Email address\nParticipant 1,Some One,so@x.edu\n",
                      encoding="utf-8")
    with pytest.raises(Exception, match=r"none of the 4 submission\(s\) of .*grades.csv "
                                        r"matches a row of the roster .*other-course.csv; give "
                                        r"this course's roster \(Moodle: "):
        lms.export(graded_folder(tmp_path, RECORDS), "moodle", roster)
