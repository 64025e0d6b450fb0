"""`python -m grader similarity`: check the arguments, compare the class (and past years'
archives), write pairs.csv and pairs.html, and refresh a graded folder's dashboard."""
from __future__ import annotations

import argparse
import sys

from ..courses import option as course_option
from ..errors import UserError, check_writable_file


def run(args: argparse.Namespace) -> int:
    """The `similarity` command: 0 when the pairs are written."""
    from ..gradebook.dashboard import write_dashboard  # here: `python -m grader` stays cheap
    from . import run as similarity
    if args.threshold is not None and not 0 <= args.threshold <= 1:
        raise UserError("--threshold must be between 0 and 1")
    check_writable_file(args.out)
    rubric, _ = course_option.read(args, {"student_id_pattern": args.id_pattern})
    if args.engine == "auto" and not similarity.copydetect_available():
        print(similarity.INSTALL_HINT, file=sys.stderr)
    done = similarity.run_similarity(args.submissions, args.out, rubric, args.threshold,
                                     args.archive, args.engine)
    if args.out.name == "pairs.csv" and (args.out.parent / "summary.json").is_file():
        # a graded folder: its dashboard lists the pairs
        print(f"updated {write_dashboard(args.out.parent)}", file=sys.stderr)
    print(f"{len(done.pairs)} pair(s) at or above {done.threshold:g} ({done.engine}, "
          f"{done.compared} submissions" + (f", {done.archived} archived" if done.archived
                                            else "") + f"); see {args.out} and {done.html}. "
          "A pointer for a human, not a verdict.", file=sys.stderr)
    return 0


__all__ = ["run"]
