"""The course commands: `course new` (a course folder) and `solution` (its known-good
solution module)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import UserError
from ..language import DEFAULT, LANGUAGES, describe
from . import option
from .origins import ORIGINS


def add_parsers(commands: "argparse._SubParsersAction") -> None:
    """Register `course` (with `course new`) and `solution`."""
    c = commands.add_parser("course", help="make a course folder (rubric, secret, hidden cases)",
                            description="A course folder holds one course's rubric and term "
                            "(course.toml), its secret and its hidden cases; keep it in the "
                            "course's private repository.")
    sub = c.add_subparsers(dest="course_command", required=True, metavar="ACTION",
                           help="new: make a course folder")
    n = sub.add_parser("new", help="make a new course folder for a term",
                       description="Make DIR (new or empty): course.toml from --from, a fresh "
                       "256-bit secret, README.md, and the term's hidden cases and expected "
                       "outputs in DIR/cases.")
    n.add_argument("folder", type=Path, metavar="DIR", help="the course folder to make")
    n.add_argument("--from", dest="origin", required=True, metavar="COURSE",
                   help=f"what to start from: an example course ({', '.join(ORIGINS)}), a "
                        f"rubric file, or another course folder (its rubric; for a course "
                        f"that owns its data, also its public data, hierarchies and data "
                        f"model; never its secret or hidden data)")
    n.add_argument("--term", required=True, metavar="NAME",
                   help="the term's name, e.g. 'Fall 2026' (at most 64 characters)")
    n.add_argument("--language", metavar="LANG",
                   help=f"what students read is in this language: {', '.join(LANGUAGES)} "
                        f"(default: the --from course's, else {DEFAULT})")
    n.set_defaults(func=_new)

    s = commands.add_parser("solution", help="write a known-good solution for a course",
                            description="Write one self-contained module with exactly the "
                            "course's graded functions and variants, standing on the kit's "
                            "reference (standard library and numpy only): it passes the "
                            "course's self-check and earns the autograded total. Staff only.")
    option.add(s)
    s.add_argument("--out", type=Path, required=True, metavar="FILE",
                   help="the .py file to write, e.g. solution.py")
    s.set_defaults(func=_solution)


def _new(args: argparse.Namespace) -> int:
    from .create import new_course  # here, not above: the parsers stay cheap to import
    folder = new_course(args.folder, args.origin, args.term, args.language)
    from ..grading.fingerprint import fingerprint
    from .folder import load_course
    from ..grading.term_view import apply_term
    course = load_course(folder)
    found = fingerprint(apply_term(course.rubric))
    print(f"made {folder}: term {course.term!r}, language {describe(course.language)}, "
          f"{len(course.rubric.cases())} cases, "
          f"fingerprint {found['fingerprint']}; keep the folder private (its secret draws the "
          f"hidden cases). Next: {course.command('materials', '--out preview')}",
          file=sys.stderr)
    return 0


def _solution(args: argparse.Namespace) -> int:
    from kanon.files import atomic_write_text
    from .solution import graded, solution_source
    if args.out.is_dir():
        raise UserError(f"--out {args.out} is a folder; give a file name such as solution.py")
    if not args.out.parent.is_dir():
        raise UserError(f"--out {args.out}: the folder {args.out.parent} does not exist")
    rubric, course = option.read(args)
    title = (f"course {course.folder.name}" + (f", term {course.term}" if course.term else "")
             if course else f"the rubric {rubric.path.name}")
    atomic_write_text(args.out, solution_source(rubric, title))
    print(f"wrote {args.out}: {', '.join(f for f, _ in graded(rubric))} "
          f"(the staff's answer key: never hand it out)", file=sys.stderr)
    return 0
