"""The command line: `python -m grader <command>` (or the `kanon-grader` script).

    course new DIR --from default|fall2025|all|RUBRIC --term NAME   a course folder (rubric,
                                   term, secret, hidden cases): keep it private
    grade SUBMISSIONS --course DIR --out OUT [--jobs N] [--sandbox auto|bwrap|landlock|none]
          [--run-as USER|auto|none] ...
    export OUT --format canvas|moodle|gradescope [--roster FILE] [--out FILE]
          [--feedback ZIP] [--course DIR]
    merge OUT --manual scores.csv --course DIR   the staff's scores of the manual parts
    regen --course DIR [--term NAME]   draw the course's hidden cases (a new term: fresh ones)
                                   and compute their expected outputs with the reference
    check --course DIR [--against ZIP|OUT]   exit 1 when the cases are stale, or a built
                                   zip or graded folder belongs to another course term
    solution --course DIR --out solution.py   a known-good solution (staff only)
    similarity SUBMISSIONS --out pairs.csv [--threshold T] [--archive DIR ...]
          [--engine auto|copydetect|tokens]   (also writes pairs.html beside the CSV)
    bundle --course DIR --out student.zip   the student bundle (no reference, grader or
                                   hidden cases)
    gradescope --course DIR --out autograder.zip  a Gradescope autograder (no secret)

--rubric FILE still names one of the kit's own example rubrics (public demos).

Mistakes in the inputs are reported as one-line messages (exit status 2), never tracebacks,
and leave nothing behind (no empty --out folder, no half-written file).
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from . import __version__
from .courses import command as course_commands
from .courses import option as course_option
from .courses import upkeep
from .errors import UserError
from .gradebook import export_command, merge_command
from .grading.batch import SANDBOXES
from .grading.executors import cluster_option
from .prog import prog_name
from .publishing import command_line as publishing_commands
from .publishing import languages
from .similarity import command as similarity_command


def first_paragraph(doc: str | None) -> str:
    """A module docstring's first paragraph as one line (a sub-command's description)."""
    return " ".join((doc or "").strip().split("\n\n")[0].split())


class OneLineParser(argparse.ArgumentParser):
    """argparse, with a usage mistake reported in one line (exit status 2)."""

    def error(self, message: str):  # noqa: D102 - argparse's hook
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _parser(prog: str) -> argparse.ArgumentParser:
    parser = OneLineParser(prog=prog, description="The k-anonymity kit's grader: grade a class "
                           "in a sandbox, export the grades for an LMS, build the student "
                           "bundle and the Gradescope autograder.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}",
                        help="print the grader's version and exit")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    g = commands.add_parser("grade", help="grade a folder or zip of submissions",
                            description="Grade every submission in SUBMISSIONS into --out: "
                            "grades.csv, feedback/<id>.md, results/<id>/results.json, "
                            "summary.md. Rerunning resumes and reuses unchanged results.")
    g.add_argument("submissions", type=Path, metavar="SUBMISSIONS",
                   help="folder of zips/folders/files, or one 'download all' zip")
    g.add_argument("--out", type=Path, required=True, metavar="DIR",
                   help="folder for grades and feedback (created; reused on a rerun)")
    course_option.add(g)
    g.add_argument("--jobs", type=int, default=None, metavar="N",
                   help=f"submissions graded in parallel (default: {os.cpu_count()})")
    g.add_argument("--time-limit", type=float, default=None, metavar="S",
                   help="seconds per call for every case (overrides the rubric)")
    g.add_argument("--import-time-limit", type=float, default=None, metavar="S",
                   help="seconds to import a student's file (overrides the rubric)")
    g.add_argument("--id-pattern", default=None, metavar="REGEX",
                   help="regular expression with a group (?P<id>...) for the student id")
    g.add_argument("--sandbox", choices=SANDBOXES, default="auto",
                   help="bwrap: bubblewrap (no network, read-only system); landlock: the child "
                        "confines itself (files, TCP, signals; for containers); auto: bwrap, "
                        "else landlock, else none; none: resource limits only")
    g.add_argument("--run-as", default=None, metavar="USER",
                   help="when the grader runs as root, run student code as USER (default: "
                        "the rubric's run_as, normally auto = nobody; none: as root)")
    g.add_argument("--scratch", type=Path, default=None, metavar="DIR",
                   help="where children's scratch folders go (default: the system temp folder)")
    g.add_argument("--only", nargs="+", metavar="ID", help="grade only these student ids")
    g.add_argument("--quiet", action="store_true", help="no progress output")
    cluster_option.add_arguments(g)
    g.set_defaults(func=_grade)

    export_command.add_parser(commands)

    r = commands.add_parser("regen", help="draw a course's hidden cases, recompute expected "
                            "outputs", description="Draw a course's hidden datasets for its "
                            "term (--course DIR; --term for a new one) and rerun the reference "
                            "on every case, writing its expected outputs and manifest into the "
                            "course folder; without --course, the kit's own demo cases.")
    r.add_argument("--rubric", type=Path, action="append", default=None, metavar="TOML",
                   help="rubric(s) whose cases to produce (default: the built-in rubric, "
                        "grader/rubric-2025.toml, grader/rubric-optional.toml, "
                        "grader/rubric-all.toml and examples/rubric.toml)")
    r.add_argument("--course", type=Path, default=None, metavar="DIR", help=course_option.HELP)
    r.add_argument("--keep-datasets", action="store_true",
                   help="keep the datasets (and their term), only recompute expected outputs")
    r.add_argument("--term", default=None, metavar="NAME",
                   help="with --course: draw fresh hidden datasets and arguments for this "
                        "term, e.g. 'Fall 2026', seeded from the course's secret, and record "
                        "it in course.toml (default: the course's recorded term)")
    r.set_defaults(func=upkeep.regen)

    c = commands.add_parser("check", help="fail when a course's cases are stale, or a zip or "
                            "graded folder belongs to another term",
                            description="Exit 0 when the course's cases belong to its term and "
                            "every expected output is fresh (and, with --against, the zip or "
                            "graded folder carries the course's fingerprint); 1, listing what "
                            "differs, otherwise.")
    c.add_argument("--rubric", type=Path, action="append", default=None, metavar="TOML",
                   help="rubric(s) to check (default: the built-in rubric, grader/rubric-2025.toml, "
                        "grader/rubric-optional.toml, grader/rubric-all.toml and "
                        "examples/rubric.toml)")
    c.add_argument("--course", type=Path, default=None, metavar="DIR", help=course_option.HELP)
    c.add_argument("--against", type=Path, default=None, metavar="ZIP|OUT",
                   help="with --course: also check that this autograder.zip, student.zip or "
                        "graded folder belongs to the course's current term (its fingerprint)")
    c.set_defaults(func=upkeep.check)

    s = commands.add_parser("similarity", help="similar pairs of solution files",
                            description="List pairs of submissions whose code is alike, "
                            "within the class and against past years' archives, with a side-by-"
                            "side HTML report (a pointer for a human, not a verdict).")
    s.add_argument("submissions", type=Path, metavar="SUBMISSIONS",
                   help="folder of zips/folders/files, or one 'download all' zip")
    s.add_argument("--out", type=Path, required=True, metavar="CSV",
                   help="CSV of pairs at or above the threshold; the HTML side-by-side report "
                        "goes beside it (same name, .html)")
    s.add_argument("--threshold", type=float, default=None, metavar="T",
                   help="lowest score listed (default: copydetect 0.5, token matcher 0.8)")
    s.add_argument("--archive", type=Path, nargs="+", action="extend", default=[],
                   metavar="DIR", help="past years' submissions to compare the class with")
    s.add_argument("--engine", choices=("auto", "copydetect", "tokens"), default="auto",
                   help="auto (default): copydetect when installed, else the token matcher")
    course_option.add(s)
    s.add_argument("--id-pattern", default=None, metavar="REGEX",
                   help="regular expression with a group (?P<id>...) for the student id")
    s.set_defaults(func=similarity_command.run)

    course_commands.add_parsers(commands)
    merge_command.add_parser(commands)
    publishing_commands.add_parsers(commands)  # bundle, materials, gradescope
    languages.add_parser(commands)
    return parser


def _grade(args: argparse.Namespace) -> int:
    """`grade`: grader.commands.grade's run, imported only when a class is graded (the
    parser's modules import no numpy, so `--help`, `--version` and the light commands start
    fast)."""
    from .commands import grade
    return grade.run(args)


def main(argv: list[str] | None = None) -> int:
    """Parse, then run the command's `func`: the one place where a UserError or a refused
    path becomes a one-line message and exit status 2."""
    args = _parser(prog_name()).parse_args(argv)
    try:
        return args.func(args)
    except UserError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except OSError as e:  # a path the system refused (permissions, a full disk, ...)
        where = f": {e.filename}" if e.filename else ""
        print(f"error: {e.strerror or e}{where}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
