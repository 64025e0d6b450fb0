"""`grade --cluster ADDRESS`: the option's wiring (Dask itself is imported only when it is
given, by grader.grading.executors.cluster)."""
from __future__ import annotations

import argparse

from ...errors import UserError


def add_arguments(grade: argparse.ArgumentParser) -> None:
    """Add --cluster to the `grade` command's parser."""
    grade.add_argument("--cluster", default=None, metavar="ADDRESS",
                       help="grade on the workers of this Dask scheduler, e.g. "
                            "tcp://10.0.0.5:8786, one submission per task (needs the "
                            "`cluster` extra: pip install -e \".[cluster]\")")


def check(args: argparse.Namespace) -> None:
    """UserError for options that do not go with --cluster."""
    if args.cluster is None:
        return
    if "://" not in args.cluster:
        raise UserError(f"--cluster {args.cluster}: expected a scheduler address such as "
                        f"tcp://127.0.0.1:8786")
    if args.jobs is not None:
        raise UserError("--jobs and --cluster exclude each other: on a cluster each worker's "
                        "threads decide how many submissions run at once")
