"""Grading one submission: unpack it, choose the solution file, check it statically, run every
case in the sandbox (grader.grading.case_runner), and total the results into the record
(grader.grading.results). The statuses are listed in grader.grading.statuses.

Time policy: each call has a CPU-time limit that grows with its dataset (Case.cpu_limit) and
a generous wall-clock backstop; a function's cases run from the smallest dataset up; after a
timeout its later cases run under the timed-out case's limit, and after a second one they are
not run (grader.grading.time_policy).
"""
from __future__ import annotations

import shutil
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from kcheck.text import Message, Verbatim

from ..rubric import Rubric
from .case_runner import CaseRunner, case_rows
from .expected import Expected
from .intake import ArchiveProblem, Caps, Submission, unpack
from .manual_check import check_parts
from .notes import Note
from .results import SubmissionResult
from ..sandbox import Limits, RunAs
from .session_keeper import SessionKeeper
from .solution import choose
from .statuses import Status


@dataclass
class Context:
    """Everything grading needs besides the submission; shared by all workers."""

    rubric: Rubric
    expected: dict[str, Expected]  # case id -> expected output
    limits: Limits
    caps: Caps
    scratch_base: Path
    bwrap_hidden: list[Path] | None = None
    cancel: threading.Event | None = None
    deny: list[Path] | None = None  # folders the child's Python code may not open
    run_as: RunAs | None = None  # the unprivileged user children run as (grader is root)
    landlock: bool = False  # children confine themselves with Landlock (--sandbox landlock)


class _Scrub:
    """Replaces the scratch directory's path in child-reported text (determinism)."""

    def __init__(self, scratch: Path):
        self.pairs = [(str(scratch / "sub") + "/", ""), (str(scratch), "<sandbox>")]

    def __call__(self, text: str) -> str:
        for old, new in self.pairs:
            text = text.replace(old, new)
        return text


def grade(sub: Submission, ctx: Context) -> dict:
    """Grade one submission; the record lists every case with its status and points."""
    result = SubmissionResult(sub.student, sub.source, list(sub.notes))
    scratch = Path(tempfile.mkdtemp(prefix=f"kanon-{sub.student[:20]}-", dir=ctx.scratch_base))
    try:
        _grade_into(result, sub, ctx, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return result.to_json(ctx.rubric)


def _grade_into(result: SubmissionResult, sub: Submission, ctx: Context, scratch: Path) -> None:
    rubric = ctx.rubric
    try:
        root = unpack(sub, scratch / "unpacked", rubric.id_pattern, ctx.caps)
        result.manual = check_parts(rubric, root)  # the files the staff grade, as handed in
        solution = choose(root, rubric.own_signatures)
    except ArchiveProblem as e:
        if result.manual is None:
            result.manual = check_parts(rubric, None,
                                        Message("the submission could not be unpacked"))
        result.notes = list(sub.notes) + [Note(Message("Your submission was not graded: {why}.",
                                                       why=e.said))]
        result.fill(rubric, Status(e.status),
                    Message("the submission could not be unpacked safely"))
        return
    result.notes = list(sub.notes) + solution.notes  # unpack may have added notes
    if solution.file is None:
        result.fill(rubric, Status.NO_SOLUTION, Message("no solution file found"))
        return
    result.solution = solution.file.relative_to(root).as_posix()
    static = solution.static
    if static.syntax_error:
        kind, _, why = static.syntax_error.partition(": ")  # the parser's error, its words
        error = Message("{note}: {message}", note=Verbatim(kind), message=Verbatim(why)) \
            if why else Verbatim(static.syntax_error)
        result.notes.append(Note(Message("{file} cannot be parsed: {error}.",
                                         file=Verbatim(result.solution), error=error)))
        result.fill(rubric, Status.SYNTAX_ERROR, Message(
            "syntax error: {error}", error=Message("{note}: {message}", note=Verbatim(kind),
                                                   message=Verbatim(why)))
            if why and "\n" not in static.syntax_error else
            f"syntax error: {static.syntax_error}")
        return
    for check in static.functions.values():
        result.notes.extend(check.notes)
    sub_dir = scratch / "sub"
    for rel in solution.sources:
        target = sub_dir / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(root / rel, target)
    shutil.rmtree(root)  # data files the student sent are never visible to the child
    max_call = max(c.cpu_limit(case_rows(rubric, c)) for c in rubric.cases())
    keeper = SessionKeeper(ctx, scratch, solution, root, result, max_call=max_call,
                           scrub=_Scrub(scratch))
    runner = CaseRunner(ctx, scratch, result, keeper)
    try:
        runner.run_all(static.functions)
    finally:
        keeper.close()
