"""Typed results of grading: one `CaseResult` per case, one `SubmissionResult` per student,
and their one serializer to the JSON record (results/<id>/record.json, the same keys as
every earlier version of the grader writes).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from kcheck.text import Message

from ..rubric import Case, Rubric
from .case_names import name_ref
from .manual_scores import with_manual
from .notes import Note, message_of, notes_ref
from .record import CaseRecord, StudentRecord
from .record_parts import Counterexample, ImportInfo
from .statuses import Status, import_status, submission_status

__all__ = ["CaseResult", "SubmissionResult", "case_result"]


CaseResult = CaseRecord  # one case's outcome: grading makes it, the record holds it


def case_result(rubric: Rubric, case: Case, status: Status, message: str | Message, *,
                output: str = "", fraction: float = 0.0, seconds: float | None = None,
                time_limit: float | None = None, cpu_seconds: float | None = None,
                ref: dict | None = None) -> CaseResult:
    """A case's result earning `fraction` of its points; a Message `message` is kept as data
    (`ref`) beside its English, and so is the case's name (grader.grading.case_names)."""
    message = message_of(message) or message  # a Note: its message
    if isinstance(message, Message):
        message, ref = message.english(), message.to_json()
    points = rubric.part_of(case).case_points(case)
    return CaseResult(case.id, case.part, case.function, case.name, case.hidden,
                      case.visibility, Status(status), message, round(points, 6),
                      round(points * fraction, 6), output, seconds, cpu_seconds, time_limit,
                      message_ref=ref, name_ref=name_ref(case.name))


@dataclass
class SubmissionResult:
    """Everything grading one submission found; `to_json` totals it into the record."""

    student: str
    source: str
    notes: list[str]  # a Note keeps its message as data (the record's notes_ref)
    solution: str | None = None
    import_info: dict | None = None  # status, mode, output, problem, retried, dropped, ...
    cases: list[CaseResult] = field(default_factory=list)
    timing: dict[str, float] = field(default_factory=dict)
    forbidden_paths: list[str] = field(default_factory=list)  # for the staff, never shown
    capped: bool = False  # printed more than the grader keeps, somewhere
    capped_calls: bool = False  # ... during a call (the note is given once)
    manual: dict[str, dict] | None = None  # manual part -> grader.grading.manual_check's check
    counterexamples: dict[str, dict] = field(default_factory=dict)  # part -> shrink's entry

    def fill(self, rubric: Rubric, status: Status, message: str | Message) -> None:
        """Every case gets the same status and no points."""
        self.cases = [case_result(rubric, c, status, message) for c in rubric.cases()]

    def forbid(self, paths: list[str], where: str | Message) -> None:
        """The code tried to open the grader's files: record them, tell the student."""
        new = [p for p in sorted(set(paths)) if p not in self.forbidden_paths]
        self.forbidden_paths.extend(new)
        self.notes.append(Note(Message(
            "Your code tried to open the grader's own files {where}. The access was refused "
            "and recorded in your grade record.", where=where)))

    def to_json(self, rubric: Rubric) -> dict:
        """The record: points per part, score, status (the problem that cost the most points,
        grader.grading.statuses.submission_status) and remarks (problems that are not the
        status: an import graded one statement at a time)."""
        parts = {p.key: 0.0 for p in rubric.auto_parts}
        lost: dict[str, float] = {}
        for case in self.cases:
            parts[case.part] += case.points
            lost[case.status] = lost.get(case.status, 0.0) + case.max_points - case.points
        score = round(sum(parts.values()), 4)
        maximum = round(rubric.max_points, 4)  # the manual parts' points included
        remarks: list[str] = []
        info = None if self.import_info is None else ImportInfo.from_json(self.import_info)
        if info is not None and info.problem and info.mode == "retry":
            # graded through the retry: the cases' own statuses tell what cost points
            remarks.append(f"{import_status(info.status)}, graded one top-level statement "
                           f"at a time")
        flags = {Status.FORBIDDEN} if self.forbidden_paths else set()
        if self.capped:
            flags.add(Status.OUTPUT_CAPPED)
        status = submission_status(lost, flags)
        record = StudentRecord(
            student=self.student, source=self.source, notes=[str(n) for n in self.notes],
            solution=self.solution, import_info=info, cases=list(self.cases),
            timing=dict(self.timing), parts={k: round(v, 4) for k, v in parts.items()},
            score=score, max=maximum, remarks=remarks, status=str(status),
            forbidden_paths=list(self.forbidden_paths) or None,
            counterexamples={k: Counterexample.from_json(v)
                             for k, v in self.counterexamples.items()} or None,
            notes_ref=notes_ref(self.notes))
        if rubric.manual_parts:  # graded by the staff later (`merge`): no points yet
            with_manual(record, rubric, self.manual or {})
        return record.to_json()
