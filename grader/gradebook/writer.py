"""The gradebook's side of a batch: what grader.grading.runner hands each finished record and,
at the end, the whole class to (the `Reports` seam of grader.grading.batch). The JSON records
become typed here (grader.grading.record.StudentRecord): the gradebook reads no key by string."""
from __future__ import annotations

from pathlib import Path

from ..grading.record import as_record, as_records
from ..rubric import Rubric
from . import export


class Gradebook:
    """Writes a student's feedback and results.json as soon as the record is known, and the
    class files (grades.csv, summary, dashboard, timings, manual template) once all are."""

    def student(self, out: Path, record: dict, rubric: Rubric) -> None:
        export.write_student(out, as_record(record), rubric)

    def batch(self, out: Path, records: list[dict], rubric: Rubric) -> None:
        export.write_batch(out, as_records(records), rubric)


__all__ = ["Gradebook"]
