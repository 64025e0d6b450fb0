"""`python -m grader export`: the CSV a learning management system imports, from a graded folder.

Reads DIR/grades.csv (written by `grade`) and writes one of:

  canvas      Canvas's gradebook import layout (Grades > Import): `Student, ID, SIS User ID,
              SIS Login ID, Section, <assignment>`, then a `Points Possible` row. Canvas finds
              the student by ID (its user id, the number in its download's file names) or the
              SIS ids; a header `Name (1234)` with the assignment's id updates that assignment,
              any other name creates a new one: with a roster the header is the roster's
              own assignment column unless --assignment names another.
  moodle      Moodle's assignment grading worksheet (Grading action > Upload grading
              worksheet): `Identifier, Full name, Email address, Grade, Maximum grade,
              Last modified (grade)`. Moodle finds the student by Identifier, `Participant N`
              with N the number in its download's folder names, and needs the Grade and Last
              modified (grade) columns.
  gradescope  The identity columns of Gradescope's roster and grade export: `Name, SID, Email,
              Total Score, Max Points, Status`.

With --roster (the LMS's own export: Canvas's gradebook CSV, Moodle's grading worksheet, a
Gradescope roster) every row takes the roster's identity and the export lists, on stderr,
roster students with no submission and submissions with no roster entry; without it, rows
carry what the submissions' names gave (a submission with no LMS id cannot be imported and
is listed; Gradescope's rows are keyed by SID = the student id). An export that would name
no student is refused, saying which roster to download.
"""
from __future__ import annotations

import csv
import datetime as dt
import io
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import UserError

FORMATS = ("canvas", "moodle", "gradescope")
DEFAULT_ASSIGNMENT = "k-anonymity homework"
MOODLE_PARTICIPANT = "Participant "


@dataclass
class Grade:
    """One row of grades.csv."""

    student: str
    lms: str
    lms_id: str
    lms_name: str
    source: str
    total: str
    max: str
    status: str


# Where each system's roster comes from (named when an export needs one).
ROSTER_HOWTO = {
    "canvas": "Canvas: Grades > Export > Export Entire Gradebook (CSV)",
    "moodle": "Moodle: the assignment's View all submissions > Grading action > Download "
              "grading worksheet (turn on \"Offline grading worksheet\" in its Feedback types)",
    "gradescope": "Gradescope: the course's Roster > Download Roster",
}
# What the written file's rows are keyed on, without a roster.
KEYED = {"canvas": "ID, Canvas's user id from the download's file names",
         "moodle": "Identifier, Participant N from Moodle's folder names",
         "gradescope": "SID, the grader's student id (grades.csv's student column); Gradescope "
                       "matches a row on SID or Email"}


@dataclass
class Export:
    """The CSV text and what did not match."""

    text: str
    rows: int
    missing: list[str] = field(default_factory=list)  # roster students with no submission
    unmatched: list[str] = field(default_factory=list)  # submissions the CSV cannot name
    keyed: str = "the roster's identity columns"  # what the LMS matches the rows on


def read_grades(graded: Path) -> list[Grade]:
    """The rows of DIR/grades.csv; UserError when it is absent or not the grader's."""
    path = graded / "grades.csv"
    if not path.is_file():
        raise UserError(f"{path} not found: export reads the folder `python -m grader grade "
                        f"... --out {graded}` wrote (rerun it if it was interrupted)")
    with open(path, encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        needed = {"student", "lms", "lms_id", "lms_name", "source", "total", "max", "status"}
        if not needed <= set(reader.fieldnames or []):
            raise UserError(f"{path}: not a grades.csv of this grader version (columns "
                            f"{', '.join(sorted(needed))} expected); grade the class again")
        return [Grade(**{k: row[k] for k in needed}) for row in reader]


def csv_rows(path: Path, what: str, dicts: bool = True) -> list:
    """The rows of a staff's UTF-8 CSV file (a BOM tolerated) as dicts, or lists with the
    header first; UserError when it cannot be read (`what` names it, e.g. "the roster")."""
    try:
        with open(path, encoding="utf-8-sig", newline="") as f:
            return list(csv.DictReader(f) if dicts else csv.reader(f))
    except OSError as e:
        raise UserError(f"cannot read {what} {path}: {e.strerror}") from None
    except (UnicodeDecodeError, csv.Error) as e:
        raise UserError(f"{path}: not a UTF-8 CSV file ({e})") from None


def read_roster(path: Path) -> list[dict[str, str]]:
    """The roster's rows as dicts (UTF-8, a BOM tolerated); Canvas's `Points Possible` and
    muted rows are skipped."""
    rows = csv_rows(path, "the roster")
    return [{(k or "").strip(): (v or "").strip() for k, v in row.items()
             if k is not None} for row in rows  # (cells beyond the header: none of ours)
            if not (row.get("Student") or "").strip().startswith("Points Possible")
            and (row.get("Student") or "").strip() != "Muted"]


def _require(roster: list[dict[str, str]], path: Path, columns: tuple[str, ...],
             kind: str) -> None:
    present = set(roster[0]) if roster else set()
    missing = [c for c in columns if c not in present]
    if not roster or missing:
        raise UserError(f"{path}: a {kind} needs the columns {', '.join(columns)}"
                        + (f" (missing: {', '.join(missing)})" if roster else " and a row"))


def _email_matches(email: str, student: str) -> bool:
    return bool(email) and (email == student or email.split("@")[0] == student)


def _csv(rows: list[list[str]]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return buffer.getvalue()


def join(grades: list[Grade], roster: list[dict[str, str]], matches) -> tuple[
        list[tuple[dict[str, str], Grade]], list[str], list[Grade]]:
    """(roster row, grade) pairs, roster rows with no grade (as labels filled by the caller),
    and grades with no roster row. Each grade joins at most one roster row."""
    pairs, unmatched, used = [], [], set()
    for grade in grades:
        found = [i for i, row in enumerate(roster) if i not in used and matches(row, grade)]
        if found:
            used.add(found[0])
            pairs.append((roster[found[0]], grade))
        else:
            unmatched.append(grade)
    missing = [i for i in range(len(roster)) if i not in used]
    return pairs, missing, unmatched


def label(grade: Grade) -> str:
    """A submission as the export's messages name it: `student (entry name)`."""
    return f"{grade.student} ({grade.source})"


def canvas_matches(row: dict[str, str], g: Grade) -> bool:
    """Whether a Canvas gradebook row is the submission's student: its user id, else the
    student id as SIS Login ID or SIS User ID."""
    if g.lms == "canvas":
        return row.get("ID") == g.lms_id
    return g.student in (row.get("SIS Login ID"), row.get("SIS User ID"))


def moodle_matches(row: dict[str, str], g: Grade) -> bool:
    """Whether a Moodle worksheet row is the submission's student: its participant number,
    else the student id as the email address (or its part before `@`)."""
    if g.lms == "moodle":
        return row.get("Identifier") == MOODLE_PARTICIPANT + g.lms_id
    return _email_matches(row.get("Email address", ""), g.student)


def require_moodle(roster: list[dict[str, str]], path: Path | None) -> None:
    """UserError unless the roster is a Moodle grading worksheet."""
    _require(roster, path, ("Identifier", "Full name"),
             "Moodle roster (the assignment's grading worksheet)")


CANVAS_ASSIGNMENT = re.compile(r"^.+ \((\d+)\)$")  # `HW1: k-anonymity (4242)`: name (id)


def roster_assignment(roster: list[dict[str, str]], path: Path | None) -> str:
    """The assignment column of a Canvas gradebook export (`Name (id)`, the one Canvas
    updates); UserError when it has several (naming them: give --assignment) or none."""
    found = [c for c in (roster[0] if roster else {}) if CANVAS_ASSIGNMENT.match(c)]
    if len(found) == 1:
        return found[0]
    if found:
        raise UserError(f"{path}: the roster has {len(found)} assignment columns ("
                        f"{', '.join(repr(c) for c in found)}); name the one to update with "
                        f"--assignment, e.g. --assignment {found[0]!r}")
    raise UserError(f"{path}: the roster has no assignment column (a header `Name (id)`, as "
                    f"Canvas's gradebook export writes); give --assignment 'Name (id)'")


def canvas(grades: list[Grade], roster: list[dict[str, str]] | None, roster_path: Path | None,
           assignment: str | None) -> Export:
    """Canvas's import: rows keyed by user id (or the roster's), under `assignment` (default:
    the roster's assignment column; without a roster DEFAULT_ASSIGNMENT, a new one)."""
    if roster is not None:
        _require(roster, roster_path, ("Student", "ID", "SIS Login ID", "Section"),
                 "Canvas roster (the gradebook's Export)")
        assignment = assignment or roster_assignment(roster, roster_path)
    header = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section",
              assignment or DEFAULT_ASSIGNMENT]
    points = grades[0].max if grades else ""
    rows = [header, ["Points Possible", "", "", "", "", points]]
    if roster is None:
        unmatched = []
        for g in sorted(grades, key=lambda g: g.student):
            if g.lms == "canvas":
                rows.append([g.lms_name, g.lms_id, "", "", "", g.total])
            else:
                unmatched.append(label(g) + ": no Canvas user id in its name")
        return Export(_csv(rows), len(rows) - 2, unmatched=unmatched)
    pairs, missing, unmatched = join(grades, roster, canvas_matches)
    for row, g in pairs:
        rows.append([row["Student"], row["ID"], row.get("SIS User ID", ""),
                     row["SIS Login ID"], row["Section"], g.total])
    return Export(_csv(rows), len(pairs),
                  [f"{roster[i]['Student']} (ID {roster[i]['ID']})" for i in missing],
                  [label(g) for g in unmatched])


def moodle(grades: list[Grade], roster: list[dict[str, str]] | None, roster_path: Path | None,
           modified: str) -> Export:
    header = ["Identifier", "Full name", "Email address", "Grade", "Maximum grade",
              "Last modified (grade)"]
    rows = [header]
    if roster is None:
        unmatched = []
        for g in sorted(grades, key=lambda g: g.student):
            if g.lms == "moodle":
                rows.append([MOODLE_PARTICIPANT + g.lms_id, g.lms_name, "", g.total, g.max,
                             modified])
            else:
                unmatched.append(label(g) + ": no Moodle participant number in its name")
        return Export(_csv(rows), len(rows) - 1, unmatched=unmatched)
    require_moodle(roster, roster_path)
    pairs, missing, unmatched = join(grades, roster, moodle_matches)
    for row, g in pairs:
        rows.append([row["Identifier"], row["Full name"], row.get("Email address", ""),
                     g.total, g.max, modified])
    return Export(_csv(rows), len(pairs),
                  [f"{roster[i]['Full name']} ({roster[i]['Identifier']})" for i in missing],
                  [label(g) for g in unmatched])


def _roster_name(row: dict[str, str]) -> str:
    return row.get("Name") or " ".join(p for p in (row.get("First Name", ""),
                                                   row.get("Last Name", "")) if p)


def gradescope(grades: list[Grade], roster: list[dict[str, str]] | None,
               roster_path: Path | None) -> Export:
    rows = [["Name", "SID", "Email", "Total Score", "Max Points", "Status"]]
    if roster is None:
        for g in sorted(grades, key=lambda g: g.student):
            rows.append([g.lms_name or g.student, g.student, "", g.total, g.max, g.status])
        return Export(_csv(rows), len(rows) - 1)
    if not roster or "Email" not in roster[0] or not ({"Name", "First Name"} & set(roster[0])):
        raise UserError(f"{roster_path}: a Gradescope roster needs the columns Name (or First "
                        f"Name and Last Name) and Email, and a row")

    def matches(row: dict[str, str], g: Grade) -> bool:
        return (bool(row.get("SID")) and row.get("SID") == g.student) or _email_matches(
            row.get("Email", ""), g.student)

    pairs, missing, unmatched = join(grades, roster, matches)
    for row, g in pairs:
        rows.append([_roster_name(row), row.get("SID", ""), row["Email"], g.total, g.max,
                     g.status])
    return Export(_csv(rows), len(pairs),
                  [f"{_roster_name(roster[i])} ({roster[i]['Email']})" for i in missing],
                  [label(g) for g in unmatched])


def export(graded: Path, fmt: str, roster_path: Path | None = None,
           assignment: str | None = None) -> Export:
    """The CSV of `fmt` for the graded folder `graded`, joined on the roster when given
    (Canvas: under `assignment`, default the roster's assignment column)."""
    if fmt not in FORMATS:
        raise UserError(f"unknown format {fmt!r} (expected {', '.join(FORMATS)})")
    grades = read_grades(graded)
    if not grades:
        raise UserError(f"{graded / 'grades.csv'} lists no student: nothing to export")
    roster = read_roster(roster_path) if roster_path is not None else None
    if fmt == "canvas":
        done = canvas(grades, roster, roster_path, assignment)
    elif fmt == "moodle":
        stamp = dt.datetime.fromtimestamp((graded / "grades.csv").stat().st_mtime,
                                          dt.timezone.utc).replace(microsecond=0)
        done = moodle(grades, roster, roster_path, stamp.isoformat())
    else:
        done = gradescope(grades, roster, roster_path)
    if roster is None:
        done.keyed = KEYED[fmt]
    if not done.rows:
        raise UserError(nothing_matched(graded, fmt, grades, roster_path))
    return done


def nothing_matched(graded: Path, fmt: str, grades: list[Grade], roster_path: Path | None
                    ) -> str:
    """The one line refusing an export that would name no student, with the way out."""
    system = {"canvas": "Canvas", "moodle": "Moodle", "gradescope": "Gradescope"}[fmt]
    if roster_path is not None:
        return (f"none of the {len(grades)} submission(s) of {graded / 'grades.csv'} matches "
                f"a row of the roster {roster_path}; give this course's roster ("
                f"{ROSTER_HOWTO[fmt]})")
    what = {"canvas": "Canvas user id", "moodle": "Moodle participant number"}[fmt]
    return (f"a {system} import needs a roster: none of the {len(grades)} submission(s) of "
            f"{graded / 'grades.csv'} has a {what} in its name (e.g. {grades[0].source!r}); "
            f"download the roster ({ROSTER_HOWTO[fmt]}) and pass it with --roster FILE")
