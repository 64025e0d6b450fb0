"""One batch's settings, carried whole from the command line to the runner, the host setup
and the executors; and the seam through which finished records leave grading.

`BatchSettings` is frozen: what is graded (submissions, rubric with its term and overrides
applied, the course folder it came from), where the results go (out, scratch), how (jobs
threads or a Dask scheduler, the sandbox choice; run_as is the rubric's setting) and what is
shown (progress, only some students). `Reports` is what the batch hands each record and the
finished class to: grading writes only records; the gradebook (grader.gradebook.Gradebook)
writes the feedback, grades.csv and the class files through it.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Protocol

if TYPE_CHECKING:  # the command line imports SANDBOXES without the rubric's numpy
    from ..rubric import Rubric

SANDBOXES = ("auto", "bwrap", "landlock", "none")


@dataclass(frozen=True)
class BatchSettings:
    """What one `grade` run grades, where and how."""

    submissions: Path
    out: Path
    rubric: Rubric
    jobs: int | None = None  # threads on this host (None: one per core)
    sandbox: str = "auto"  # one of SANDBOXES
    cluster: str | None = None  # a Dask scheduler's address: grade on its workers instead
    scratch: Path | None = None  # where the children's scratch folders go (None: the temp dir)
    only: tuple[str, ...] = ()  # grade only these students (empty: all)
    progress: bool = True  # the progress line on stderr
    course: Path | None = None  # the course folder the rubric came from, None: a rubric file


class Reports(Protocol):
    """Where finished records go besides results/<id>/record.json (which the runner writes)."""

    def student(self, out: Path, record: dict, rubric: Rubric) -> None:
        """One student's graded record, as soon as it is known (also on a resumed run)."""

    def batch(self, out: Path, records: list[dict], rubric: Rubric) -> None:
        """Every record of the class, in submission order, once all are graded."""


@dataclass(frozen=True)
class Listeners:
    """What the command line hears during a batch: `start` once the submissions are found,
    `warning` for each warning as soon as it is known (before grading starts)."""

    start: Callable[[], None] | None = None
    warning: Callable[[str], None] | None = None


__all__ = ["BatchSettings", "Listeners", "Reports", "SANDBOXES"]
