"""`python -m grader export DIR --format canvas|moodle|gradescope [--roster CSV] [--out CSV]
[--feedback ZIP] [--course DIR]`: the grades CSV the LMS imports (grader.gradebook.lms) and,
for Moodle and Canvas, the students' feedback pages in the zip the LMS takes back
(grader.gradebook.feedback_export).

Everything is computed before anything is written; each file is written atomically. What
could not be matched is listed on stderr; an export that would name no student is refused
with one `error:` line saying which roster to download.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import UserError, check_writable_file
from . import lms


def add_parser(subparsers: "argparse._SubParsersAction") -> argparse.ArgumentParser:
    """Register `export` on the grader's sub-command parser."""
    e = subparsers.add_parser("export", help="write the CSV Canvas, Moodle or Gradescope imports"
                              " and the feedback zip Moodle or Canvas takes back",
                              description="Write the grades CSV a learning management "
                              "system imports (--out) and, for Moodle and Canvas, every "
                              "student's feedback as an HTML page in the zip it takes back "
                              "(--feedback), from a graded folder.")
    e.add_argument("graded", type=Path, metavar="DIR", help="a folder written by `grade --out`")
    e.add_argument("--format", required=True, choices=lms.FORMATS,
                   help="the learning management system's layout")
    e.add_argument("--roster", type=Path, default=None, metavar="CSV",
                   help="the LMS's own export to join on (Canvas: the gradebook export; "
                        "Moodle: the grading worksheet; Gradescope: the roster)")
    e.add_argument("--assignment", default=None, metavar="NAME",
                   help="Canvas: the grade column's header, e.g. 'HW1 (1234)' to update "
                        "assignment 1234 (default: the --roster's assignment column; without "
                        "a roster 'k-anonymity homework', which Canvas imports as a new "
                        "assignment)")
    e.add_argument("--out", type=Path, default=None, metavar="CSV",
                   help="the grades CSV to write")
    e.add_argument("--feedback", type=Path, default=None, metavar="ZIP",
                   help="Moodle, Canvas: every student's feedback as a self-contained HTML page "
                        "in the zip the LMS takes back (Moodle: Upload multiple feedback files "
                        "in a zip; Canvas: Re-upload submissions)")
    e.add_argument("--course", type=Path, default=None, metavar="DIR",
                   help="refuse unless DIR was graded with this course's current term")
    e.set_defaults(func=run)
    return e


def _check(args: argparse.Namespace) -> None:
    if not args.graded.is_dir():
        raise UserError(f"{args.graded} is not a folder written by `grade --out`")
    if args.out is None and args.feedback is None:
        raise UserError("give --out FILE.csv (the grades), --feedback FILE.zip (the feedback "
                        "pages), or both")
    grades = (args.graded / "grades.csv").resolve()
    for option, path in (("--out", args.out), ("--feedback", args.feedback)):
        if path is not None:
            check_writable_file(path, option)
            if path.resolve() == grades:
                raise UserError(f"{option} would overwrite the folder's grades.csv; choose "
                                f"another file")
    if args.feedback is not None and args.feedback.suffix.lower() != ".zip":
        raise UserError(f"--feedback {args.feedback}: the LMS takes back a .zip file; give a "
                        f"name ending in .zip")
    if args.out is not None and args.feedback is not None and \
            args.out.resolve() == args.feedback.resolve():
        raise UserError("--out and --feedback name the same file; give two names")
    if args.course is not None:
        from ..courses.upkeep import require_same_term
        require_same_term(args.course, args.graded)


def _warn(label: str, names: list[str]) -> None:
    if names:
        print(f"warning: {len(names)} {label}:", file=sys.stderr)
        for name in names:
            print(f"  {name}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    """The command: compute the CSV and the zip, then write them and say what they hold."""
    # imported here, not above: the parser stays cheap to import (`python -m grader --help`)
    from kanon.files import atomic_write_bytes, atomic_write_text
    from ..grading.manual_scores import pending_note
    from . import feedback_export
    _check(args)
    result = zipped = None
    if args.out is not None:
        result = lms.export(args.graded, args.format, args.roster, args.assignment)
    if args.feedback is not None:
        zipped = feedback_export.build(args.graded, args.format, args.roster)
    if result is not None:
        atomic_write_text(args.out, result.text)
        _warn("roster students with no submission", result.missing)
        _warn("submissions with no roster entry (not in the file)" if args.roster else
              "submissions the file cannot name", result.unmatched)
    if zipped is not None:
        atomic_write_bytes(args.feedback, feedback_export.zip_bytes(zipped.entries))
        _warn("submissions without a feedback page in the zip", zipped.left_out)
    note = pending_note(args.graded)
    if note:
        print(f"warning: {note}", file=sys.stderr)
    if result is not None:
        print(f"wrote {args.out}: {result.rows} student(s) in {args.format}'s import layout, "
              f"matched on {result.keyed}", file=sys.stderr)
    if zipped is not None:
        print(f"wrote {args.feedback}: {len(zipped.entries)} student(s)' feedback pages; "
              f"upload it in {feedback_export.UPLOAD[args.format]}", file=sys.stderr)
    return 0
