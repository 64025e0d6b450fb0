"""`python -m grader materials --course COURSE --out DIR`: write a course's HANDOUT.md and
skeleton.py into DIR, to read them before bundling (`--out .` with the default course
refreshes the kit's own top-level copies, which a kit test keeps equal to what `bundle`
writes)."""
from __future__ import annotations

import argparse
from pathlib import Path

from kanon.files import atomic_write_bytes

from ...errors import UserError
from ...paths import KIT_ROOT
from ...courses.folder import resolve
from . import course_materials


def add_parser(subparsers: "argparse._SubParsersAction") -> argparse.ArgumentParser:
    """Register `materials` on the grader's sub-command parser."""
    parser = subparsers.add_parser(
        "materials", help="write a course's HANDOUT.md and skeleton.py (to read them)",
        description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--course", type=Path, default=None, metavar="DIR",
                        help="the course folder, or a rubric file (default: grader/rubric.toml)")
    parser.add_argument("--out", type=Path, required=True, metavar="DIR",
                        help="the folder to write HANDOUT.md and skeleton.py into (made "
                             "when missing)")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
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
