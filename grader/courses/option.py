"""`--course DIR` on every command: one way to add it and to read what it names."""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import UserError

if TYPE_CHECKING:  # the command line's parsers import `add` without the rubric's numpy
    from ..rubric import Rubric
    from .folder import Course

HELP = ("the course folder (python -m grader course new) whose rubric, term and cases to use; "
        "a rubric file works too")


def add(parser: argparse.ArgumentParser, rubric_option: bool = True) -> None:
    """Add --course DIR (and, for the kit's own example rubrics, --rubric TOML)."""
    parser.add_argument("--course", type=Path, default=None, metavar="DIR", help=HELP)
    if rubric_option:
        parser.add_argument("--rubric", type=Path, default=None, metavar="TOML",
                            help="one of the kit's example rubrics instead of a course (default: "
                                 "grader/rubric.toml)")


def read(args: argparse.Namespace, overrides: dict[str, object] | None = None
         ) -> tuple[Rubric, Course | None]:
    """The rubric and course the command works on (--course, else --rubric, else the kit's
    default rubric)."""
    course_path = getattr(args, "course", None)
    rubric_path = getattr(args, "rubric", None)
    if course_path is not None and rubric_path is not None:
        raise UserError("give --course or --rubric, not both (a course folder holds its rubric)")
    from .folder import resolve
    return resolve(course_path if course_path is not None else rubric_path, overrides)
