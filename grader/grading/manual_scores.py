"""The manual parts in a student's record: the grader's check of each (manual_check), then
the staff's score once `python -m grader merge` ran.

A record of a rubric with manual parts carries
  manual[<part>]   {file, pages, problem, check, score (None until merged), comment}
  auto_score       the autograded points (what Gradescope's autograder scores)
  score            auto_score plus the merged manual scores (a part not merged counts 0)
and a remark (grades.csv's notes) for each manual part whose file is missing, not a PDF or
too long. OUT/manual-scores.json keeps the last merge, so regrading the class keeps it.
"""
from __future__ import annotations

import json
from pathlib import Path

from kanon.files import atomic_write_text, dump_json
from kcheck.text import Message

from ..rubric import Rubric
from .manual_check import not_checked
from .record import StudentRecord
from .record_parts import ManualCheck

SAVED = "manual-scores.json"  # under OUT: {"scores": {student: {part: points}}, "comments": ...}
GRADER_FAILED = Message("the grader failed on this submission")  # why a part was unchecked


def with_manual(record: StudentRecord, rubric: Rubric,
                checks: dict[str, dict]) -> StudentRecord:
    """Add the manual parts' checks (no score yet) and the remarks they call for."""
    record.auto_score = record.score
    record.manual = {}
    for part in rubric.manual_parts:
        check = checks.get(part.key) or not_checked(GRADER_FAILED)
        entry = ManualCheck.from_json({**check, "score": None})
        record.manual[part.key] = entry
        if entry.problem and entry.problem != "not-checked":
            said = entry.check if entry.problem == "missing" \
                else f"{part.key}: {entry.check}"  # "no report: no file matching *.pdf"
            record.remark(said)
    record.manual_comment = ""
    return record


def set_scores(record: StudentRecord, rubric: Rubric, scores: dict[str, float | None],
               comment: str | None) -> None:
    """Give the record the staff's `scores` (part -> points, None: none) and comment (None:
    keep), and recompute its score."""
    if record.manual is None:  # a record written without its checks (a grader error)
        with_manual(record, rubric, {})
    for part, score in scores.items():
        record.set_manual_score(part, score)
    if comment is not None:
        record.manual_comment = comment
    merged = [record.manual_score(part) for part in record.manual or {}]
    record.set_score(round(record.autograded + sum(m for m in merged if m is not None), 4))


def load_saved(out: Path) -> dict:
    """The last merge's scores and comments in OUT ({} when none)."""
    try:
        return json.loads((out / SAVED).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def save(out: Path, saved: dict) -> None:
    atomic_write_text(out / SAVED, dump_json(saved))


def apply_saved(record: StudentRecord, rubric: Rubric, saved: dict) -> StudentRecord:
    """Give a freshly graded record the merged scores kept in OUT (a regrade keeps them)."""
    if not rubric.manual_parts or not saved:
        return record
    parts = {p.key for p in rubric.manual_parts}
    scores = {k: v for k, v in saved.get("scores", {}).get(record.student, {}).items()
              if k in parts}
    set_scores(record, rubric, scores, saved.get("comments", {}).get(record.student, ""))
    return record


def pending_note(out: Path) -> str | None:
    """For `export`: a sentence when some manual part of the graded folder `out` has no
    merged score for some student (read from its summary.json), else None."""
    try:
        summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    students = summary.get("stats", {}).get("students", 0)
    waiting = [f"{part} ({students - d['merged']} of {students})"
               for part, d in summary.get("manual", {}).items() if d["merged"] < students]
    if not waiting:
        return None
    return (f"manual parts without a staff score: {', '.join(waiting)}; those totals count "
            f"only the autograded points (python -m grader merge {out} --manual scores.csv)")
