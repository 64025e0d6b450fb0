"""The executor protocol, and grading on this host with threads (the default).

`ThreadExecutor` grades `--jobs` submissions at a time on this host; the package's docstring
says what every executor promises (grader.grading.executors.cluster's `DaskExecutor` is the
other one).
"""
from __future__ import annotations

import os
import threading
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import TYPE_CHECKING, Callable, Iterator, Protocol

if TYPE_CHECKING:  # the command line imports cluster_option without the rubric's numpy
    from ...rubric import Rubric
    from ..intake import Submission

GradeOne = Callable[["Submission", str], "dict | None"]


class Executor(Protocol):
    """Grades submissions somewhere; `cancel` stops the running ones, `close` frees all."""

    def results(self, todo: list[tuple[Submission, str]]) -> Iterator[tuple[Submission, dict]]:
        """(submission, record) for each submission of `todo` as it finishes."""

    def cancel(self) -> None:
        """Stop grading (Ctrl-C): running submissions are abandoned, none is recorded."""

    def close(self) -> None:
        """Free the executor's threads or connections (after `results` or `cancel`)."""


class ThreadExecutor:
    """`jobs` threads on this host (default: one per core), each grading one submission."""

    def __init__(self, jobs: int | None, grade_one: GradeOne, cancel: threading.Event):
        self.pool = ThreadPoolExecutor(max_workers=max(1, jobs or os.cpu_count() or 1))
        self.grade_one, self.cancel_event = grade_one, cancel

    def results(self, todo: list[tuple[Submission, str]]) -> Iterator[tuple[Submission, dict]]:
        pending: dict[Future, Submission] = {
            self.pool.submit(self.grade_one, sub, key): sub for sub, key in todo}
        while pending:  # a short wait, so that Ctrl-C reaches the main thread
            done, _ = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
            for future in done:
                sub = pending.pop(future)
                record = future.result()
                if record is not None:
                    yield sub, record

    def cancel(self) -> None:
        self.cancel_event.set()

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


def grader_error(sub: Submission, rubric: Rubric, reason: str) -> dict:
    """The record of a submission the grader could not grade (never cached: a rerun tries
    again); `reason` is said to the student and the TA."""
    return {"student": sub.student, "source": sub.source, "status": "grader-error",
            "notes": [f"The grader failed on this submission ({reason}); a TA will look at it."],
            "cases": [], "parts": {}, "score": 0.0, "max": rubric.max_points,
            "solution": None, "import": None, "timing": {}, "key": None}
