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
import shutil
import sys
from pathlib import Path

from . import __version__
from .courses import option as course_option
from .courses import upkeep
from .prog import prog_name
from .errors import UserError, check_writable_file
from .grading import cluster_option
from .paths import KIT_ROOT


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
    g.add_argument("--sandbox", choices=("auto", "bwrap", "landlock", "none"), default="auto",
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

    from .grading import export_command
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
    s.set_defaults(func=_similarity)

    from .courses import command as course_commands
    from .grading import merge
    from .publishing import bundle, gradescope
    course_commands.add_parsers(commands)
    from .publishing.materials import command as materials
    merge.add_parser(commands)
    bundle.add_parser(commands)
    materials.add_parser(commands)
    gradescope.add_parser(commands)
    return parser


def _grade(args: argparse.Namespace) -> int:
    from .grading.runner import run_batch
    if args.jobs is not None and args.jobs < 1:
        raise UserError("--jobs must be at least 1")
    cluster_option.check(args)
    if args.out.exists() and not args.out.is_dir():
        raise UserError(f"--out {args.out} is a file; give a folder (new, or one a previous "
                        f"run wrote)")
    if not args.submissions.exists():
        raise UserError(f"submissions not found: {args.submissions}")
    if args.scratch is not None and not args.scratch.is_dir():
        raise UserError(f"--scratch {args.scratch} is not a folder")
    overrides = {"time_limit": args.time_limit, "import_time_limit": args.import_time_limit,
                 "student_id_pattern": args.id_pattern, "run_as": args.run_as}
    rubric, course = course_option.read(args, overrides)
    from .courses.checks import demo_warning, require_ready
    from .courses.fingerprint import fingerprint
    from .grading.term_view import apply_term
    if course is not None and not course.public_demo:
        require_ready(course)
    rubric = apply_term(rubric)
    found = fingerprint(rubric)
    created = not args.out.exists()
    warned: list[str] = []

    def warn(message: str) -> None:
        if message in warned:
            return
        warned.append(message)
        print(f"warning: {message}", file=sys.stderr, flush=True)

    def start() -> None:  # the first line, once the submissions are found
        if not args.quiet:
            what = f"course {course.folder}" if course else f"rubric {rubric.path}"
            term = f"term {rubric.term} (hidden cases drawn for this term)" if rubric.term \
                else "the kit's default cases"
            print(f"{what}: {term}; fingerprint {found['fingerprint']}", file=sys.stderr,
                  flush=True)
        public = demo_warning(course, rubric.path) if (
            course.public_demo if course else _kit_cases(rubric)) else None
        if public:
            warn(public)

    try:
        result = run_batch(args.submissions, args.out, rubric, jobs=args.jobs,
                           sandbox=args.sandbox, scratch=args.scratch,
                           progress=not args.quiet, limit_to=args.only, on_warning=warn,
                           cluster=args.cluster, on_start=start)
    except UserError:
        if created:
            _remove_if_unused(args.out)
        raise
    for warning in [w for w in result.warnings or [] if w not in warned]:
        warn(warning)  # one known only after grading; each warning is printed once
    if result.interrupted:
        print(f"interrupted after {len(result.records)} of the submissions; rerun the same "
              f"command to resume (finished ones are kept)", file=sys.stderr)
        return 130
    if not args.quiet:
        who = result.run_as or "the grader's user"
        print(f"graded {result.graded}, reused {result.cached} in {result.seconds:.1f} s "
              f"(sandbox: {result.sandbox}, student code runs as {who}"
              + (f"; {len(warned)} warning(s) above" if warned else "") + "); see "
              f"{args.out / 'grades.csv'}, {args.out / 'summary.md'} and "
              f"{args.out / 'feedback'}/; for the LMS: {prog_name()} export {args.out} "
              f"--format canvas|moodle|gradescope --out FILE [--feedback FILE.zip]",
              file=sys.stderr)
    if rubric.manual_parts and not args.quiet:
        from .grading.export import TEMPLATE
        print(f"graded by the course staff: {', '.join(p.key for p in rubric.manual_parts)}; "
              f"fill in {args.out / TEMPLATE} and run {prog_name()} merge {args.out} --manual "
              f"FILE" + (f" --course {args.course}" if args.course else
                         f" --rubric {args.rubric}" if args.rubric else ""), file=sys.stderr)
    return 0


def _kit_cases(rubric) -> bool:
    """Whether `rubric` reads its cases from the kit's own (public) cases folder."""
    from .paths import KIT_CASES
    return rubric.cases_dir == KIT_CASES.resolve()


def _remove_if_unused(folder: Path) -> None:
    """Remove a folder this run created when it holds no file outside `.work`."""
    files = [p for p in folder.rglob("*") if p.is_file()
             and ".work" not in p.relative_to(folder).parts]
    if not files:
        shutil.rmtree(folder, ignore_errors=True)


def _similarity(args: argparse.Namespace) -> int:
    from . import rubric as rubric_mod
    from .grading.similarity import run_similarity
    from .grading.similarity import INSTALL_HINT, copydetect_available
    if args.threshold is not None and not 0 <= args.threshold <= 1:
        raise UserError("--threshold must be between 0 and 1")
    check_writable_file(args.out)
    rubric, _ = course_option.read(args, {"student_id_pattern": args.id_pattern})
    if args.engine == "auto" and not copydetect_available():
        print(INSTALL_HINT, file=sys.stderr)
    done = run_similarity(args.submissions, args.out, rubric, args.threshold, args.archive,
                          args.engine)
    if args.out.name == "pairs.csv" and (args.out.parent / "summary.json").is_file():
        from .grading.dashboard import write_dashboard  # a graded folder: its dashboard lists the pairs
        print(f"updated {write_dashboard(args.out.parent)}", file=sys.stderr)
    print(f"{len(done.pairs)} pair(s) at or above {done.threshold:g} ({done.engine}, "
          f"{done.compared} submissions" + (f", {done.archived} archived" if done.archived
                                            else "") + f"); see {args.out} and {done.html}. "
          "A pointer for a human, not a verdict.", file=sys.stderr)
    return 0


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
