"""The publishing commands' parsers and runs: `bundle`, `gradescope` and `materials`. Cheap to
import (no numpy, no kanon: `python -m grader --help` reads them); each run imports its
builder (bundle.py, gradescope.py, materials/) only when it runs.

    python -m grader bundle --out student.zip        the zip handed to students
    python -m grader gradescope --out autograder.zip  a Gradescope autograder built from the
                                                      kit's own grader
    python -m grader materials --course COURSE --out DIR   a course's HANDOUT.md and
                                                      skeleton.py, to read before bundling
"""
from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import UserError, check_not_folder
from ..paths import BUNDLE_FOLDER

BUNDLE = "`python -m grader bundle --out student.zip`: the zip handed to students."
GRADESCOPE = ("`python -m grader gradescope --out autograder.zip`: a Gradescope autograder "
              "built from the kit's own grader, and the code that runs inside it for every "
              "submission.")
MATERIALS = ("`python -m grader materials --course COURSE --out DIR`: write a course's "
             "HANDOUT.md and skeleton.py into DIR, to read them before bundling (`--out .` "
             "with the default course refreshes the kit's own top-level copies, which a kit "
             "test keeps equal to what `bundle` writes).")


def add_parsers(subparsers: "argparse._SubParsersAction") -> None:
    """Register `bundle`, `materials` and `gradescope` (in that order) on the grader's
    sub-command parser."""
    b = subparsers.add_parser(
        "bundle", help="build the zip handed to students (skeleton, data, handout, public tests)",
        description=BUNDLE)
    b.add_argument("--out", required=True, metavar="ZIP", help="the zip to write")
    b.add_argument("--root", default=None, metavar="DIR",
                   help="the kit checkout to bundle from (default: this one)")
    b.add_argument("--folder", default=BUNDLE_FOLDER, metavar="NAME",
                   help=f"the folder the zip unpacks into (default: {BUNDLE_FOLDER}; "
                        "'' puts the files at the zip's root)")
    b.add_argument("--rubric", action="append", type=Path, default=None, metavar="TOML",
                   help="check against this rubric's hidden cases too (repeatable; "
                        "default: grader/rubric.toml)")
    b.add_argument("--course", type=Path, default=None, metavar="DIR",
                   help="the course folder (or a rubric file) the class is graded with: "
                        "skeleton.py, HANDOUT.md and the students' tests/public/course.json "
                        "come from it (default: grader/rubric.toml); its hidden cases are "
                        "checked for leaks and its secret never shipped")
    b.set_defaults(func=run_bundle)

    m = subparsers.add_parser(
        "materials", help="write a course's HANDOUT.md and skeleton.py (to read them)",
        description=MATERIALS)
    m.add_argument("--course", type=Path, default=None, metavar="DIR",
                   help="the course folder, or a rubric file (default: grader/rubric.toml)")
    m.add_argument("--out", type=Path, required=True, metavar="DIR",
                   help="the folder to write HANDOUT.md and skeleton.py into (made "
                        "when missing)")
    m.set_defaults(func=run_materials)

    g = subparsers.add_parser(
        "gradescope", help="build a Gradescope autograder zip from this grader and rubric",
        description=GRADESCOPE)
    g.add_argument("--out", required=True, type=Path, metavar="ZIP",
                   help="the autograder zip to write (upload it to Gradescope)")
    g.add_argument("--course", type=Path, default=None, metavar="DIR",
                   help="the course folder to grade with (its rubric, term and cases; "
                        "never its secret)")
    g.add_argument("--rubric", type=Path, default=None, metavar="TOML",
                   help="one of the kit's example rubrics instead (default: "
                        "grader/rubric.toml)")
    g.add_argument("--root", default=None, metavar="DIR",
                   help="the kit checkout to build from (default: this one)")
    g.set_defaults(func=run_gradescope)


def print_listing(entries: list, out: Path) -> None:
    """Every file of a written zip with its size, then the zip's own size."""
    for entry in entries:
        print(f"{len(entry.data):>10}  {entry.name}")
    print(f"wrote {out} ({out.stat().st_size} bytes, {len(entries)} files)")


def run_bundle(args: argparse.Namespace) -> int:
    """Build the bundle; print its files and sizes (a UserError goes to the command line)."""
    from .bundle import build, kit_root
    out = Path(args.out)
    check_not_folder(out)  # before the build, not after it
    entries = build(kit_root(args.root), out, args.folder, args.rubric, args.course)
    print_listing(entries, out)
    return 0


def run_gradescope(args: argparse.Namespace) -> int:
    """Build the autograder zip; print its files and sizes (a UserError goes to the command
    line)."""
    from ..courses.folder import resolve
    from ..grading.term_view import apply_term
    from .bundle import kit_root
    from .gradescope import budget_line, build
    if args.course is not None and args.rubric is not None:
        raise UserError("give --course or --rubric, not both")
    check_not_folder(Path(args.out))  # before the build, not after it
    entries = build(kit_root(args.root), args.out, args.course or args.rubric)
    print_listing(entries, args.out)
    root = kit_root(args.root)
    rubric, _ = resolve(args.course or args.rubric or root / "grader" / "rubric.toml")
    print(budget_line(apply_term(rubric)))
    return 0


def run_materials(args: argparse.Namespace) -> int:
    """Write the course's HANDOUT.md and skeleton.py into --out (made when missing)."""
    from kanon.files import atomic_write_bytes
    from ..courses.folder import resolve
    from ..paths import KIT_ROOT
    from .materials import course_materials
    if args.out.exists() and not args.out.is_dir():
        raise UserError(f"--out {args.out}: not a folder")
    if not args.out.parent.is_dir():
        raise UserError(f"--out {args.out}: the folder {args.out.parent} does not exist")
    args.out.mkdir(exist_ok=True)
    files = course_materials(resolve(args.course)[0], KIT_ROOT)
    for name, data in files.items():
        atomic_write_bytes(args.out / name, data, mode=0o644)
        print(f"wrote {args.out / name} ({len(data)} bytes)")
    return 0


__all__ = ["add_parsers", "print_listing", "run_bundle", "run_gradescope", "run_materials"]
