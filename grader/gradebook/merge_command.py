"""`python -m grader merge OUT --manual scores.csv`: put the course staff's scores of the
manual parts (rubric `kind = "manual"`) into a graded folder.

The command's parser and run; grader.gradebook.merge does the merge (imported when the
command runs, so that the parser stays cheap to import).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import UserError


def add_parser(subparsers: "argparse._SubParsersAction") -> argparse.ArgumentParser:
    """Register `merge` on the grader's sub-command parser."""
    m = subparsers.add_parser("merge", help="merge the staff's scores of the manual parts",
                              description=" ".join(__doc__.split("\n\n")[0].split()))
    m.add_argument("graded", type=Path, metavar="OUT", help="a folder written by `grade --out`")
    m.add_argument("--manual", type=Path, required=True, metavar="CSV",
                   help="scores.csv: student, one column per manual part, optional comment")
    m.add_argument("--course", type=Path, default=None, metavar="DIR",
                   help="the course folder the class was graded with")
    m.add_argument("--rubric", type=Path, default=None, metavar="TOML",
                   help="or one of the kit's example rubrics (default: grader/rubric.toml)")
    m.set_defaults(func=run)
    return m


def run(args: argparse.Namespace) -> int:
    """The command: merge, then say what was merged and who still has no score."""
    from ..courses.option import read
    from .merge import merge
    if not args.graded.is_dir():
        raise UserError(f"{args.graded} is not a folder written by `grade --out`")
    rubric, _ = read(args)
    done = merge(args.graded, args.manual, rubric)
    print(f"{done.describe()}; see {args.graded / 'grades.csv'}", file=sys.stderr)
    return 0


__all__ = ["add_parser", "run"]
