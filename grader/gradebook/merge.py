"""Merging the course staff's scores of the manual parts (rubric `kind = "manual"`) into a
graded folder (the `merge` command: grader.gradebook.merge_command).

It reads scores.csv (grader.gradebook.scores_csv), refuses with every problem listed and
nothing changed, else fills the manual columns of OUT/grades.csv, the records
(results/<id>/record.json), recomputes the totals and rewrites every student's feedback and
results.json, summary.md/.json and summary.html, each file atomically. The scores of the
parts scores.csv has columns for replace the last merge's (a student it does not list has
none); a comment column replaces the comments. OUT/manual-scores.json keeps the merge, so
`grade` run again on the class keeps the staff's scores.
"""
from __future__ import annotations

import csv
import json
from dataclasses import dataclass
from pathlib import Path

from kanon.files import atomic_write_text, dump_json

from ..errors import UserError
from ..rubric import Rubric
from . import export
from ..grading.manual_scores import load_saved, save, set_scores
from ..grading.record import StudentRecord
from .scores_csv import read_scores


@dataclass
class Merged:
    """What a merge did, per manual part: the scores scores.csv gave (`given`), the earlier
    scores it removed (students it does not list, `cleared`) and the students still without
    a score (`without`, every manual part of the rubric listed)."""

    parts: list[str]
    given: dict[str, list[str]]
    cleared: dict[str, list[str]]
    without: dict[str, list[str]]

    def describe(self) -> str:
        """One sentence: what was merged, what was removed, who is still without a score."""
        merged = ", ".join(f"{len(self.given[p])} score(s) of {p}" for p in self.parts)
        said = [f"merged {merged}" if self.parts else "merged the comments only (no manual "
                "part column)"]
        said += [f"removed {len(names)} earlier score(s) of {p} ({_names(names)}: not in "
                 f"this file)" for p, names in self.cleared.items() if names]
        if len(self.without) == 1:
            (part, names), = self.without.items()
            said.append(f"{len(names)} student(s) still without one ({_names(names)})"
                        if names else f"every student has a score of {part}")
        else:
            said.append("still without a score: " + ", ".join(
                f"{p} {len(n)} student(s)" + (f" ({_names(n)})" if n else "")
                for p, n in self.without.items()))
        return "; ".join(said)


def _names(names: list[str], shown: int = 10) -> str:
    return ", ".join(names[:shown]) + (", ..." if len(names) > shown else "")


def read_records(out: Path, rubric: Rubric) -> list[StudentRecord]:
    """The records of the students of OUT/grades.csv; UserError when the folder was not
    graded with `rubric` or a record is missing."""
    path = out / "grades.csv"
    if not path.is_file():
        raise UserError(f"{path} not found: merge needs a folder `python -m grader grade` wrote")
    with open(path, encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        students = [row["student"] for row in reader if row.get("student")]
        columns = reader.fieldnames or []
    expected = next(csv.reader([export.grades_csv([], rubric)]))
    if columns != expected:
        raise UserError(f"{path}: its columns ({', '.join(columns)}) are not those of the "
                        f"rubric {rubric.path} ({', '.join(expected)}); give the --rubric the "
                        f"class was graded with")
    records = []
    for student in students:
        record_path = out / "results" / student / "record.json"
        try:
            records.append(StudentRecord.from_json(
                json.loads(record_path.read_text(encoding="utf-8"))))
        except (OSError, ValueError, KeyError, TypeError):
            raise UserError(f"{record_path}: missing or unreadable; grade the class again "
                            f"(`python -m grader grade ... --out {out}`)") from None
    return records


def merge(out: Path, scores_path: Path, rubric: Rubric) -> Merged:
    """Merge `scores_path` into the graded folder `out` (see the module docstring)."""
    if not rubric.manual_parts:
        raise UserError(f"{rubric.path} has no manual part (kind = \"manual\"): nothing to "
                        f"merge; give the --rubric the class was graded with")
    records = read_records(out, rubric)
    given = read_scores(scores_path, rubric, {r.student for r in records})
    saved = load_saved(out)
    saved_scores = saved.setdefault("scores", {})
    comments = saved.setdefault("comments", {})
    before = {p: {r.student for r in records if r.manual_score(p) is not None}
              for p in given.parts}
    for record in records:
        sid = record.student
        mine = {p: given.scores.get(sid, {}).get(p) for p in given.parts}
        comment = None if given.comments is None else given.comments.get(sid, "")
        set_scores(record, rubric, mine, comment)  # grading's rule
        kept = {k: v for k, v in saved_scores.get(sid, {}).items() if k not in mine}
        saved_scores[sid] = {**kept, **{k: v for k, v in mine.items() if v is not None}}
        if comment is not None:
            comments[sid] = comment
    saved["scores"] = {k: v for k, v in sorted(saved_scores.items()) if v}
    saved["comments"] = {k: v for k, v in sorted(comments.items()) if v}
    for record in records:
        export.write_student(out, record, rubric)
        atomic_write_text(out / "results" / record.student / "record.json",
                          dump_json(record.to_json()))
    save(out, saved)
    export.write_batch(out, records, rubric)
    now = {p.key: [r.student for r in records if r.manual_score(p.key) is None]
           for p in rubric.manual_parts}
    return Merged(given.parts,
                  {p: sorted(s for s, v in given.scores.items() if v.get(p) is not None)
                   for p in given.parts},
                  {p: sorted(before[p] & set(now[p])) for p in given.parts}, now)
