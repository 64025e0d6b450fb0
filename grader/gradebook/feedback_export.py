"""`export --feedback FILE.zip`: every student's feedback as a self-contained HTML page, in the
zip layout the course's LMS takes back, matched on the identity grades.csv keeps.

  moodle  "Upload multiple feedback files in a zip" (the assignment's View all submissions >
          Grading action; needs "Feedback files" among its Feedback types): one folder per
          student named as in Moodle's "Download all submissions",
          `<Full name>_<participant number>_assignsubmission_file_/feedback.html` (or the
          download's own plugin, e.g. `assignsubmission_onlinetext`). Moodle splits each path
          part on `_` and takes the second field as the participant number
          (mod/assign/feedback/file/importziplib.php), so `_` in a name becomes a space.
  canvas  "Re-upload submissions" (the assignment page, beside "Download submissions"): flat
          files named as in Canvas's download,
          `<lastfirst>_<user id>_<attachment id>_feedback.html`. Canvas takes the first two
          all-digit fields of the name as the user id and the id of a file that user
          submitted (app/models/assignment.rb, infer_comment_context_from_filename) and
          attaches the page to a comment on that submission; a submission whose name carries
          no attachment id (not from Canvas's download) cannot be sent this way.

The page is feedback/<id>.md rendered by grader.gradebook.markdown_html, followed by the
files of its counterexamples (feedback/<id>/counterexamples/), so it needs nothing beside it.
The zip has sorted entries and fixed timestamps: the same graded folder gives the same bytes.
"""
from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..catalogs import translator
from ..errors import UserError
from ..language import LANGUAGES
from .. import zipfiles
from . import lms
from ..grading.intake import CANVAS_NAME
from .markdown_html import page, to_html

PAGE = "feedback.html"
MOODLE_PLUGIN = re.compile(r"_(assignsubmission_[a-z]+)_")  # the plugin of the download's name
UPLOAD = {"moodle": "the assignment's View all submissions > Grading action > Upload multiple "
                    "feedback files in a zip (turn on \"Feedback files\" in its Feedback types)",
          "canvas": "the assignment's page > Re-upload submissions (each page arrives as a "
                    "comment \"See attached file\" on the student's submitted file)"}


@dataclass
class FeedbackZip:
    """The zip's entries (name -> bytes, one page per student) and the students left out."""

    entries: dict[str, bytes] = field(default_factory=dict)
    students: dict[str, str] = field(default_factory=dict)  # entry name -> student id
    left_out: list[str] = field(default_factory=list)


def student_page(graded: Path, student: str) -> str:
    """The self-contained HTML page of one student's feedback and counterexample files."""
    source = graded / "feedback" / f"{student}.md"
    try:
        markdown = source.read_text(encoding="utf-8")
    except OSError:
        raise UserError(f"{source} not found: grade the class again (`python -m grader grade "
                        f"... --out {graded}`)") from None
    body = to_html(markdown)
    folder = graded / "feedback" / student
    files = sorted(p for p in folder.rglob("*") if p.is_file()) if folder.is_dir() else []
    language = graded_language(graded)
    _ = translator(language)
    if files:
        body += ("<h2>" + _("The counterexamples' files") + "</h2>\n<p>" + _(
            "What the feedback calls <code>counterexamples/&lt;part&gt;/</code>: save each "
            "file under its name to rerun your function on it.") + "</p>\n")
        for path in files:
            name = path.relative_to(folder).as_posix()
            text = path.read_text(encoding="utf-8", errors="replace")
            body += f"<h3><code>{html.escape(name)}</code></h3>\n<pre>{html.escape(text)}</pre>\n"
    return page(_("Feedback for {student}").format(student=student), body, language)


def graded_language(graded: Path) -> str:
    """The language of the course a graded folder was graded with (its summary.json's course
    fingerprint records it when it is not English)."""
    try:
        summary = json.loads((graded / "summary.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return "en"
    found = (summary.get("course") or {}).get("language", "en")
    return found if found in LANGUAGES else "en"


def _moodle_targets(grades: list[lms.Grade], roster_path: Path | None
                    ) -> tuple[list[tuple[lms.Grade, str]], list[str]]:
    """(grade, folder name) of each student Moodle can match, and those it cannot."""
    if roster_path is None:
        named = [(g, g.lms_id, g.lms_name) for g in grades if g.lms == "moodle"]
        left = [f"{lms.label(g)}: no Moodle participant number in its name" for g in grades
                if g.lms != "moodle"]
    else:
        roster = lms.read_roster(roster_path)
        lms.require_moodle(roster, roster_path)
        pairs, _, unmatched = lms.join(grades, roster, lms.moodle_matches)
        named = [(g, row["Identifier"].removeprefix(lms.MOODLE_PARTICIPANT).strip(),
                  row["Full name"]) for row, g in pairs]
        left = [f"{lms.label(g)}: no row of the roster" for g in unmatched]
    folders = []
    for g, participant, name in named:
        clean = " ".join(name.replace("_", " ").replace("/", " ").split()) or "Participant"
        plugin = MOODLE_PLUGIN.search(g.source) if g.lms == "moodle" else None
        folders.append((g, f"{clean}_{participant}_"
                           f"{plugin[1] if plugin else 'assignsubmission_file'}_/{PAGE}"))
    return folders, left


def _canvas_targets(grades: list[lms.Grade]) -> tuple[list[tuple[lms.Grade, str]], list[str]]:
    """(grade, file name) of each submission from Canvas's download, and the others."""
    named, left = [], []
    for g in grades:
        found = CANVAS_NAME.match(g.source.split(", ")[0])
        if found:
            named.append((g, f"{found['name'].lower()}_{found['id']}_{found['attachment']}_"
                             f"{PAGE}"))
        else:
            left.append(f"{lms.label(g)}: not named by Canvas's download (no user and "
                        f"attachment id), so Canvas could not attach a page to it")
    return named, left


def build(graded: Path, fmt: str, roster_path: Path | None = None) -> FeedbackZip:
    """The feedback zip of `fmt` (moodle or canvas) for the graded folder; UserError when it
    would hold no student."""
    if fmt not in UPLOAD:
        raise UserError(f"--feedback is for --format moodle or canvas; Gradescope shows the "
                        f"feedback of its autograder (results.json), see `python -m grader "
                        f"gradescope --help`")
    grades = lms.read_grades(graded)
    if fmt == "moodle":
        targets, left = _moodle_targets(grades, roster_path)
    else:
        targets, left = _canvas_targets(grades)
    done = FeedbackZip(left_out=left)
    for grade, name in sorted(targets, key=lambda t: t[1]):
        if name in done.entries:
            done.left_out.append(f"{lms.label(grade)}: the same {fmt} identity as "
                                 f"{done.students[name]}, whose page it would replace")
            continue
        done.entries[name] = student_page(graded, grade.student).encode("utf-8")
        done.students[name] = grade.student
    if not done.entries:
        way_out = ("grade the class from Canvas's Download submissions, whose file names "
                   "carry the ids Canvas needs" if fmt == "canvas" else
                   f"give --roster with the grading worksheet ({lms.ROSTER_HOWTO[fmt]})")
        raise UserError(f"no feedback page can be addressed to {fmt}: "
                        + (left[0] if len(left) == 1 else f"{len(left)} submissions, e.g. "
                           f"{left[0]}" if left else "grades.csv lists no student")
                        + f"; {way_out}")
    return done


def zip_bytes(entries: dict[str, bytes]) -> bytes:
    """A zip of `entries`, sorted, with fixed timestamps and modes (same entries, same bytes)."""
    return zipfiles.zip_bytes([zipfiles.Entry(name, data) for name, data in entries.items()])
