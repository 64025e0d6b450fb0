"""Build examples/downloads/: the demo class as two learning management systems hand it over.

    python examples/make_downloads.py

Each student of examples/submissions/ (bob's folder zipped as bob.zip) is renamed as the
system's "download all" names it, with the identity of examples/rosters/ (joined on the
student id: Canvas's SIS Login ID, the part of Moodle's email address before `@`):

  canvas.zip  Canvas's "Download Submissions": flat files `<sortable name>_<user id>_<file
              id>_<file name>`, e.g. `andersalice_80101_90001_alice.zip`; carol handed in late
              (`chencarol_late_80103_90003_carol.zip`).
  moodle.zip  Moodle's "Download all submissions" (in folders): one folder per student,
              `<full name>_<participant number>_assignsubmission_file_/`, holding the file.

Graded with the examples' course, every student gets the score of examples/expected-grades.csv
(`docs/tas.md`, "The demo class as a Canvas or Moodle download"). Written deterministically
(fixed dates, sorted entries): rebuilding gives the same bytes. After rebuilding
examples/submissions, rebuild these too.
"""
from __future__ import annotations

import csv
import re
import sys
from pathlib import Path

from make_examples import HERE, write_zip, zip_data

SUBMISSIONS = HERE / "submissions"
ROSTERS = HERE / "rosters"
OUT = HERE / "downloads"
LATE = {"carol"}  # handed in after the deadline: Canvas adds `late_` to the name
FILE_ID = 90000  # Canvas's attachment ids: FILE_ID + the student's place in the class


def _roster(name: str) -> list[dict[str, str]]:
    with open(ROSTERS / name, encoding="utf-8", newline="") as f:
        return [row for row in csv.DictReader(f)
                if not row[next(iter(row))].strip().startswith("Points Possible")]


def handed_in(submissions: Path = SUBMISSIONS) -> dict[str, tuple[str, bytes]]:
    """student id -> (the file the student uploaded, its bytes): each zip as it is, a folder
    zipped under the student's id."""
    found = {}
    for entry in sorted(submissions.iterdir()):
        if entry.suffix == ".zip":
            found[entry.stem] = (entry.name, entry.read_bytes())
        elif entry.is_dir():
            files = {p.relative_to(entry).as_posix(): p.read_bytes()
                     for p in sorted(entry.rglob("*"))
                     if p.is_file() and "__pycache__" not in p.parts}
            found[entry.name] = (f"{entry.name}.zip", zip_data(files))
    return found


def canvas_names(files: dict[str, tuple[str, bytes]]) -> dict[str, bytes]:
    """Canvas's flat names, with the ids of rosters/canvas.csv."""
    rows = {row["SIS Login ID"]: row for row in _roster("canvas.csv")}
    named = {}
    for n, student in enumerate(sorted(files), start=1):
        row = rows[student]
        sortable = re.sub(r"[^a-z0-9]", "", row["Student"].lower())  # "Anders, Alice"
        late = "late_" if student in LATE else ""
        name, data = files[student]
        named[f"{sortable}_{late}{row['ID']}_{FILE_ID + n}_{name}"] = data
    return named


def moodle_names(files: dict[str, tuple[str, bytes]]) -> dict[str, bytes]:
    """Moodle's folders, with the participant numbers of rosters/moodle.csv."""
    rows = {row["Email address"].split("@")[0]: row for row in _roster("moodle.csv")}
    named = {}
    for student in sorted(files):
        row = rows[student]
        number = row["Identifier"].removeprefix("Participant ")
        name, data = files[student]
        named[f"{row['Full name']}_{number}_assignsubmission_file_/{name}"] = data
    return named


def build(out: Path = OUT, submissions: Path = SUBMISSIONS) -> tuple[list[Path], int]:
    """Write canvas.zip and moodle.zip into `out`; (their paths, the number of students)."""
    out.mkdir(parents=True, exist_ok=True)
    files = handed_in(submissions)
    written = []
    for name, named in (("canvas.zip", canvas_names(files)),
                        ("moodle.zip", moodle_names(files))):
        write_zip(out / name, named)
        written.append(out / name)
    return written, len(files)


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    paths, students = build(target)
    print(f"wrote {', '.join(p.name for p in paths)} ({students} students each) to {target}")
