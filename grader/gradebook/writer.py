"""The gradebook's side of a batch: what grader.grading.runner hands each finished record and,
at the end, the whole class to (the `Reports` seam of grader.grading.batch)."""
from __future__ import annotations

from pathlib import Path

from ..rubric import Rubric
from . import export


class Gradebook:
    """Writes a student's feedback and results.json as soon as the record is known, and the
    class files (grades.csv, summary, dashboard, timings, manual template) once all are."""

    def student(self, out: Path, record: dict, rubric: Rubric) -> None:
        export.write_student(out, record, rubric)

    def batch(self, out: Path, records: list[dict], rubric: Rubric) -> None:
        export.write_batch(out, records, rubric)


__all__ = ["Gradebook"]
