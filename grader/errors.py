"""The grader's one exception type for mistakes a TA can fix (bad rubric, missing folder, ...).

The command line prints these as one-line messages, never as tracebacks.
"""
from pathlib import Path


class UserError(Exception):
    """A problem with the grader's inputs or settings; the message says what and where."""


def check_not_folder(path: Path, option: str = "--out") -> None:
    """UserError if `path`, where a file is to be written, is a folder."""
    if path.is_dir():
        raise UserError(f"{option} {path} is a folder; give a file name")


def check_writable_file(path: Path, option: str = "--out") -> None:
    """UserError unless `path` can be a file: not a folder, its folder exists."""
    check_not_folder(path, option)
    if not path.parent.is_dir():
        raise UserError(f"{option} {path}: the folder {path.parent} does not exist")
