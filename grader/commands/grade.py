"""`python -m grader grade`: check the arguments and the course, grade the batch with
grader.grading and write its gradebook with grader.gradebook, then tell the TA what was done
and what is next. `grade_class` is the same batch from Python, without the messages."""
from __future__ import annotations

import argparse
import shutil
import sys
from dataclasses import replace
from pathlib import Path

from ..courses import option as course_option
from ..courses.checks import demo_warning, require_ready
from ..errors import UserError
from ..gradebook.export import TEMPLATE
from ..gradebook.writer import Gradebook
from ..grading.batch import BatchSettings, Listeners
from ..grading.executors import cluster_option
from ..grading.fingerprint import fingerprint
from ..grading.runner import BatchResult, run_batch
from ..grading.term_view import apply_term
from ..paths import KIT_CASES
from ..prog import prog_name


def grade_class(batch: BatchSettings, listeners: Listeners = Listeners()) -> BatchResult:
    """Grade `batch` and write its gradebook (feedback, grades.csv, summary, dashboard)."""
    return run_batch(batch, Gradebook(), listeners)


def run(args: argparse.Namespace) -> int:
    """The `grade` command: 0 when graded, 130 when interrupted (finished ones are kept)."""
    _check(args)
    overrides = {"time_limit": args.time_limit, "import_time_limit": args.import_time_limit,
                 "student_id_pattern": args.id_pattern, "run_as": args.run_as}
    rubric, course = course_option.read(args, overrides)
    rubric = apply_term(rubric)  # once: the checks, the batch and the gradebook reuse it
    if course is not None:
        course = replace(course, rubric=rubric)
        if not course.public_demo:
            require_ready(course)
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
            what = f"course {batch.course}" if batch.course else f"rubric {rubric.path}"
            term = f"term {rubric.term} (hidden cases drawn for this term)" if rubric.term \
                else "the kit's default cases"
            print(f"{what}: {term}; fingerprint {found['fingerprint']}", file=sys.stderr,
                  flush=True)
        public = demo_warning(course, rubric.path) if (
            course.public_demo if course else _kit_cases(rubric)) else None
        if public:
            warn(public)

    batch = BatchSettings(args.submissions, args.out, rubric, jobs=args.jobs,
                          sandbox=args.sandbox, cluster=args.cluster, scratch=args.scratch,
                          only=tuple(args.only or ()), progress=not args.quiet,
                          course=course.folder if course else None)
    try:
        result = grade_class(batch, Listeners(start=start, warning=warn))
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
        _report(args, result, warned)
    if rubric.manual_parts and not args.quiet:
        print(f"graded by the course staff: {', '.join(p.key for p in rubric.manual_parts)}; "
              f"fill in {args.out / TEMPLATE} and run {prog_name()} merge {args.out} --manual "
              f"FILE" + (f" --course {args.course}" if args.course else
                         f" --rubric {args.rubric}" if args.rubric else ""), file=sys.stderr)
    return 0


def _check(args: argparse.Namespace) -> None:
    """UserError for arguments that cannot work, before anything is read or written."""
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


def _report(args: argparse.Namespace, result: BatchResult, warned: list[str]) -> None:
    who = result.run_as or "the grader's user"
    print(f"graded {result.graded}, reused {result.cached} in {result.seconds:.1f} s "
          f"(sandbox: {result.sandbox}, student code runs as {who}"
          + (f"; {len(warned)} warning(s) above" if warned else "") + "); see "
          f"{args.out / 'grades.csv'}, {args.out / 'summary.md'} and "
          f"{args.out / 'feedback'}/; for the LMS: {prog_name()} export {args.out} "
          f"--format canvas|moodle|gradescope --out FILE [--feedback FILE.zip]",
          file=sys.stderr)


def _kit_cases(rubric) -> bool:
    """Whether `rubric` reads its cases from the kit's own (public) cases folder."""
    return rubric.cases_dir == KIT_CASES.resolve()


def _remove_if_unused(folder: Path) -> None:
    """Remove a folder this run created when it holds no file outside `.work`."""
    files = [p for p in folder.rglob("*") if p.is_file()
             and ".work" not in p.relative_to(folder).parts]
    if not files:
        shutil.rmtree(folder, ignore_errors=True)


__all__ = ["grade_class", "run"]
