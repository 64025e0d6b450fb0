"""The graded record as a type: what leaves grading for the gradebook, the exports and the
dashboard (results/<id>/record.json). `StudentRecord.from_json` reads the JSON record that
grading writes (grader/grading/results.py, then the runner's and merge's additions) and
`to_json` gives it back key for key, so `dump_json` writes the same bytes; readers use the
attributes, never the record's keys by string (tests/kit/repo/test_record_reads.py).

A key written only sometimes is None here when absent (a case's `privacy`, `privacy_ref`,
`message_ref` and `name_ref`, written only when not empty; the notes as data, `notes_ref`,
written when a note has data (grader/grading/notes.py);
`forbidden_paths`, `counterexamples`, the manual parts' `manual`, `auto_score` and
`manual_comment`, the host's `sandbox`); keys of no reader's concern (the runner's cache
`key`, the `course` stamp) ride along in `extra`. The import's information, a manual part's
check and a part's counterexample are typed too (grader/grading/record_parts.py).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from .record_parts import Counterexample, ImportInfo, ManualCheck

__all__ = ["CaseRecord", "StudentRecord", "as_record", "as_records"]

_CASE_KEYS = ("id", "part", "function", "name", "hidden", "visibility", "status", "message",
              "output", "max_points", "points", "seconds", "cpu_seconds", "time_limit")
_CASE_EMPTY = {"id": "", "part": "", "function": "", "name": "", "hidden": False,
               "visibility": "visible", "status": "", "message": "", "output": "",
               "max_points": 0.0, "points": 0.0, "seconds": None, "cpu_seconds": None,
               "time_limit": None}
_CASE_OPTIONAL = ("privacy", "message_ref", "privacy_ref", "name_ref")
_STUDENT_KEYS = ("student", "source", "notes", "solution", "import", "cases", "timing",
                 "parts", "score", "max", "remarks", "status")
_STUDENT_OPTIONAL = ("forbidden_paths", "counterexamples", "manual", "auto_score",
                     "manual_comment", "sandbox", "notes_ref")
_STUDENT_EMPTY = {"student": "", "source": "", "notes": [], "solution": None, "import": None,
                  "cases": [], "timing": {}, "parts": {}, "score": 0.0, "max": 0.0,
                  "remarks": [], "status": ""}


def _known(data: dict, keys: tuple[str, ...], empty: dict) -> tuple[dict, tuple[str, ...]]:
    """The values of `keys` in `data` (an absent one: its empty value) and the absent keys,
    which to_json leaves out again (a hand-made or older record round-trips as it is)."""
    absent = tuple(k for k in keys if k not in data)
    return {k: data[k] if k in data else copy.deepcopy(empty[k]) for k in keys}, absent


@dataclass
class CaseRecord:
    """One case's outcome: what grading makes (grader.grading.results.case_result, as
    CaseResult) and what the record holds."""

    id: str
    part: str
    function: str
    name: str
    hidden: bool
    visibility: str
    status: str  # a grader.grading.statuses.Status where grading made it
    message: str
    max_points: float
    points: float
    output: str = ""  # what the call printed (only when it did not score)
    seconds: float | None = None
    cpu_seconds: float | None = None
    time_limit: float | None = None
    privacy: str | None = None  # k and l the output reached (no points; anonymizers only)
    message_ref: dict | None = None  # the message as data, rendered per language: a kcheck
    # judge's verdict ("rule": grader.grading.judges), or a kcheck.text Message's ("id")
    privacy_ref: dict | None = None  # the privacy summary as data (a kcheck.text Message)
    name_ref: list | None = None  # the name's phrases as data (grader.grading.case_names)
    extra: dict[str, Any] = field(default_factory=dict)  # keys this type does not know
    absent: tuple[str, ...] = field(default=(), compare=False, repr=False)  # not in its JSON

    @classmethod
    def from_json(cls, data: dict) -> CaseRecord:
        """The case of a JSON record."""
        known, absent = _known(data, _CASE_KEYS, _CASE_EMPTY)
        optional = {k: data[k] for k in _CASE_OPTIONAL if k in data}
        extra = {k: v for k, v in data.items() if k not in _CASE_KEYS + _CASE_OPTIONAL}
        return cls(**known, **optional, extra=extra, absent=absent)

    def to_json(self) -> dict:
        """The JSON record it was read from."""
        data = {k: getattr(self, k) for k in _CASE_KEYS if k not in self.absent}
        if "status" in data:
            data["status"] = str(self.status)
        data.update({k: getattr(self, k) for k in _CASE_OPTIONAL if getattr(self, k)})
        return {**data, **self.extra}


@dataclass
class StudentRecord:
    """One student's graded record: the cases, points per part, score, status and notes,
    and (with manual parts) the staff's scores once merged."""

    student: str
    source: str
    notes: list[str]
    solution: str | None
    import_info: ImportInfo | None  # "import": status, mode, output, problem, ...
    cases: list[CaseRecord]
    timing: dict[str, float]
    parts: dict[str, float]  # autograded part -> points
    score: float
    max: float
    remarks: list[str]
    status: str
    forbidden_paths: list[str] | None = None  # for the staff, never shown
    counterexamples: dict[str, Counterexample] | None = None  # part -> shrink's entry
    manual: dict[str, ManualCheck] | None = None  # manual part -> its check and merged score
    auto_score: float | None = None  # with manual parts: the autograded points
    manual_comment: str | None = None  # with manual parts: the staff's one comment
    sandbox: str | None = None  # the sandbox mode it was graded in
    notes_ref: list[dict | None] | None = None  # each note's Message JSON (None: text only)
    extra: dict[str, Any] = field(default_factory=dict)  # keys of no reader's concern
    absent: tuple[str, ...] = field(default=(), compare=False, repr=False)  # not in its JSON

    @classmethod
    def from_json(cls, data: dict) -> StudentRecord:
        """The record of its JSON (a key it lacks reads as empty: no cases, 0 points)."""
        known, absent = _known(data, _STUDENT_KEYS, _STUDENT_EMPTY)
        known["import_info"] = known.pop("import")
        known["cases"] = [CaseRecord.from_json(c) for c in known["cases"]]
        if known["import_info"] is not None:
            known["import_info"] = ImportInfo.from_json(known["import_info"])
        optional = {k: data[k] for k in _STUDENT_OPTIONAL if k in data}
        for key, part in (("counterexamples", Counterexample), ("manual", ManualCheck)):
            if optional.get(key) is not None:
                optional[key] = {name: part.from_json(entry)
                                 for name, entry in optional[key].items()}
        extra = {k: v for k, v in data.items() if k not in _STUDENT_KEYS + _STUDENT_OPTIONAL}
        return cls(**known, **optional, extra=extra, absent=absent)

    def to_json(self) -> dict:
        """The JSON record it was read from (the same keys and values)."""
        data = {k: getattr(self, "import_info" if k == "import" else k) for k in _STUDENT_KEYS
                if k not in self.absent}
        if "cases" in data:
            data["cases"] = [c.to_json() for c in self.cases]
        if data.get("import") is not None:
            data["import"] = self.import_info.to_json()
        data.update({k: getattr(self, k) for k in _STUDENT_OPTIONAL
                     if getattr(self, k) is not None})
        for key in ("counterexamples", "manual"):
            if key in data:
                data[key] = {name: entry.to_json() for name, entry in data[key].items()}
        return {**data, **self.extra}

    def part_points(self, part: str) -> float:
        """An autograded part's points (0 for a part it has none of)."""
        return self.parts.get(part, 0.0)

    def cases_of(self, part: str) -> list[CaseRecord]:
        """The cases of `part`, in the rubric's order."""
        return [c for c in self.cases if c.part == part]

    def counterexample(self, part: str) -> Counterexample | None:
        """`part`'s counterexample entry, None when it has none."""
        return (self.counterexamples or {}).get(part)

    @property
    def percent(self) -> float:
        """The score as a percent of the maximum (0 when the maximum is 0)."""
        return 100.0 * self.score / self.max if self.max else 0.0

    @property
    def autograded(self) -> float:
        """The autograded points (what Gradescope's autograder scores)."""
        return self.score if self.auto_score is None else self.auto_score

    def manual_check(self, part: str) -> ManualCheck:
        """A manual part's check and merged score (all None when the record has none)."""
        return (self.manual or {}).get(part) or ManualCheck()

    def manual_score(self, part: str) -> float | None:
        """The merged score of a manual part, None when not merged."""
        return self.manual_check(part).score

    def set_manual_score(self, part: str, score: float | None) -> None:
        """Merge the staff's `score` of the manual part `part` (None: none); KeyError for a
        part the record has no check of."""
        if self.manual is None:
            raise KeyError(part)
        self.manual[part] = self.manual[part].with_(score=score)

    def remark(self, text: str) -> None:
        """Add a remark (grades.csv's notes); a record written without remarks gets them."""
        self.remarks.append(text)
        self._written("remarks")

    def set_score(self, score: float) -> None:
        """Set the total score (a record written without one gets it)."""
        self.score = score
        self._written("score")

    def _written(self, key: str) -> None:
        """to_json writes `key` from now on (it was set)."""
        self.absent = tuple(k for k in self.absent if k != key)

    @property
    def cache_key(self) -> str | None:
        """The runner's cache key (None, or absent: graded again on a rerun)."""
        return self.extra.get("key")

    def set_cache_key(self, key: str | None) -> None:
        """Keep the runner's cache key (None: graded again on a rerun)."""
        self.extra["key"] = key

    def set_course(self, stamp: str) -> None:
        """Keep the fingerprint of the course term it was graded with."""
        self.extra["course"] = stamp


def as_record(record: dict | StudentRecord) -> StudentRecord:
    """`record` typed (a JSON record is read with StudentRecord.from_json)."""
    return record if isinstance(record, StudentRecord) else StudentRecord.from_json(record)


def as_records(records: list[dict] | list[StudentRecord]) -> list[StudentRecord]:
    return [as_record(r) for r in records]
