"""The command line: `python -m grader <command>` (or the `kanon-grader` script).

    grade SUBMISSIONS --out DIR [--jobs N] [--rubric FILE] [--sandbox auto|bwrap|none]
          [--run-as USER|auto|none] ...
    regen [--rubric FILE ...]      regenerate datasets and expected outputs with the reference
    check [--rubric FILE ...]      exit 1 when the stored expected outputs are stale
    similarity SUBMISSIONS --out pairs.csv [--threshold T] [--archive DIR ...]
          [--engine auto|copydetect|tokens]   (also writes pairs.html beside the CSV)
    bundle --out student.zip       the student bundle (no reference, grader or hidden cases)
    gradescope --out autograder.zip  a Gradescope autograder running the same grader

Mistakes in the inputs are reported as one-line messages (exit status 2), never tracebacks.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from .errors import UserError

KIT_ROOT = Path(__file__).resolve().parent.parent


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m grader", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)

    g = commands.add_parser("grade", help="grade a folder or zip of submissions")
    g.add_argument("submissions", type=Path, help="folder of zips/folders, or one download zip")
    g.add_argument("--out", type=Path, required=True, help="folder for grades and feedback")
    g.add_argument("--rubric", type=Path, default=None, help="rubric TOML (default: built-in)")
    g.add_argument("--jobs", type=int, default=None,
                   help=f"submissions graded in parallel (default: {os.cpu_count()})")
    g.add_argument("--time-limit", type=float, default=None,
                   help="seconds per call for every case (overrides the rubric)")
    g.add_argument("--import-time-limit", type=float, default=None,
                   help="seconds to import a student's file (overrides the rubric)")
    g.add_argument("--id-pattern", default=None,
                   help="regular expression with a group (?P<id>...) for the student id")
    g.add_argument("--sandbox", choices=("auto", "bwrap", "none"), default="auto",
                   help="bwrap: bubblewrap (no network, read-only system); auto: bwrap when "
                        "installed; none: resource limits only")
    g.add_argument("--run-as", default=None, metavar="USER",
                   help="when the grader runs as root, run student code as USER (default: "
                        "the rubric's run_as, normally auto = nobody; none: as root)")
    g.add_argument("--scratch", type=Path, default=None,
                   help="where children's scratch folders go (default: the system temp folder)")
    g.add_argument("--only", nargs="+", metavar="ID", help="grade only these student ids")
    g.add_argument("--quiet", action="store_true", help="no progress output")

    r = commands.add_parser("regen", help="regenerate case datasets and expected outputs")
    r.add_argument("--rubric", type=Path, action="append", default=None,
                   help="rubric(s) whose cases to produce (default: the built-in rubric and "
                        "examples/rubric.toml)")
    r.add_argument("--keep-datasets", action="store_true",
                   help="keep the datasets, only recompute expected outputs")

    c = commands.add_parser("check", help="fail when expected outputs are stale")
    c.add_argument("--rubric", type=Path, action="append", default=None)

    s = commands.add_parser("similarity", help="similar pairs of solution files")
    s.add_argument("submissions", type=Path)
    s.add_argument("--out", type=Path, required=True,
                   help="CSV of pairs at or above the threshold; the HTML side-by-side report "
                        "goes beside it (same name, .html)")
    s.add_argument("--threshold", type=float, default=None,
                   help="lowest score listed (default: copydetect 0.5, token matcher 0.8)")
    s.add_argument("--archive", type=Path, nargs="+", action="extend", default=[],
                   metavar="DIR", help="past years' submissions to compare the class with")
    s.add_argument("--engine", choices=("auto", "copydetect", "tokens"), default="auto",
                   help="auto (default): copydetect when installed, else the token matcher")
    s.add_argument("--rubric", type=Path, default=None, help="for the student id pattern")
    s.add_argument("--id-pattern", default=None)

    from . import bundle, gradescope
    bundle.add_parser(commands)
    gradescope.add_parser(commands)
    return parser


def _grade(args: argparse.Namespace) -> int:
    from . import rubric as rubric_mod
    from .runner import run_batch
    if args.jobs is not None and args.jobs < 1:
        raise UserError("--jobs must be at least 1")
    overrides = {"time_limit": args.time_limit, "import_time_limit": args.import_time_limit,
                 "student_id_pattern": args.id_pattern, "run_as": args.run_as}
    rubric = rubric_mod.load(args.rubric, overrides)
    result = run_batch(args.submissions, args.out, rubric, jobs=args.jobs, sandbox=args.sandbox,
                       scratch=args.scratch, progress=not args.quiet, limit_to=args.only)
    for warning in result.warnings or []:
        print(f"warning: {warning}", file=sys.stderr)
    if result.interrupted:
        print(f"interrupted after {len(result.records)} of the submissions; rerun the same "
              f"command to resume (finished ones are kept)", file=sys.stderr)
        return 130
    if not args.quiet:
        who = result.run_as or "the grader's user"
        print(f"graded {result.graded}, reused {result.cached} in {result.seconds:.1f} s "
              f"(sandbox: {result.sandbox}, student code runs as {who}); see "
              f"{args.out / 'grades.csv'}, {args.out / 'summary.md'} and {args.out / 'feedback'}/", file=sys.stderr)
    return 0


def _rubrics(paths: list[Path] | None):
    """The given rubrics; by default the built-in one and, in a checkout, the examples'."""
    from . import rubric as rubric_mod
    if not paths:
        paths = [rubric_mod.DEFAULT_RUBRIC]
        examples = KIT_ROOT / "examples" / "rubric.toml"
        if examples.is_file():
            paths.append(examples)
    return [rubric_mod.load(p) for p in paths]


def _regen(args: argparse.Namespace) -> int:
    from . import rubric as rubric_mod
    from .course_file import write_course_file
    from .expected import regenerate
    rubrics = _rubrics(args.rubric)
    manifest = regenerate(rubrics, KIT_ROOT, datasets=not args.keep_datasets)
    if rubrics[0].path == rubric_mod.DEFAULT_RUBRIC.resolve():  # the students' copy of its rules
        write_course_file(rubrics[0], KIT_ROOT)
    print(f"{len(manifest['entries'])} expected outputs, {len(manifest['files'])} dataset "
          f"files", file=sys.stderr)
    return 0


def _check(args: argparse.Namespace) -> int:
    from .expected import stale
    problems = stale(_rubrics(args.rubric))
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


def _similarity(args: argparse.Namespace) -> int:
    from . import rubric as rubric_mod
    from .similarity import run_similarity
    from .similarity import INSTALL_HINT, copydetect_available
    rubric = rubric_mod.load(args.rubric, {"student_id_pattern": args.id_pattern})
    if args.engine == "auto" and not copydetect_available():
        print(INSTALL_HINT, file=sys.stderr)
    done = run_similarity(args.submissions, args.out, rubric, args.threshold, args.archive,
                          args.engine)
    if args.out.name == "pairs.csv" and (args.out.parent / "summary.json").is_file():
        from .dashboard import write_dashboard  # a graded folder: its dashboard lists the pairs
        print(f"updated {write_dashboard(args.out.parent)}", file=sys.stderr)
    print(f"{len(done.pairs)} pair(s) at or above {done.threshold:g} ({done.engine}, "
          f"{done.compared} submissions" + (f", {done.archived} archived" if done.archived
                                            else "") + f"); see {args.out} and {done.html}. "
          "A pointer for a human, not a verdict.", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    from . import bundle, gradescope
    handler = {"grade": _grade, "regen": _regen, "check": _check,
               "similarity": _similarity, "bundle": bundle.run,
               "gradescope": gradescope.run}[args.command]
    try:
        return handler(args)
    except UserError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
