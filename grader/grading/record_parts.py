"""The nested parts of a graded record, typed (grader/grading/record.py holds them): how the
submission was imported (`ImportInfo`), the grader's check and the staff's score of a manual
part (`ManualCheck`) and a part's counterexample (`Counterexample`).

Each is read from its JSON with `from_json` and gives it back with `to_json`, key for key:
a key it lacks is None here and stays out of its JSON (`absent`), a key this type does not
know rides along in `extra`. Grading makes them as dicts (the import session, manual_check,
shrink/hook.py); readers use the attributes, never the keys by string.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any, TypeVar

from kcheck.text import Message

__all__ = ["Counterexample", "ImportInfo", "JsonPart", "ManualCheck"]

_T = TypeVar("_T", bound="JsonPart")
_OWN = ("extra", "absent")


@dataclass(frozen=True, kw_only=True)
class JsonPart:
    """A JSON object as a frozen dataclass: its fields are the object's keys."""

    extra: dict[str, Any] = field(default_factory=dict)  # keys this type does not know
    absent: tuple[str, ...] = field(default=(), compare=False, repr=False)  # not in its JSON

    @classmethod
    def keys(cls) -> tuple[str, ...]:
        """The JSON keys this type knows (its fields)."""
        return tuple(f.name for f in fields(cls) if f.name not in _OWN)

    @classmethod
    def from_json(cls: type[_T], data: dict) -> _T:
        """The part of its JSON object."""
        keys = cls.keys()
        return cls(**{k: data[k] for k in keys if k in data},
                   extra={k: v for k, v in data.items() if k not in keys},
                   absent=tuple(k for k in keys if k not in data))

    def to_json(self) -> dict:
        """The JSON object it was read from (the same keys and values)."""
        return {**{k: getattr(self, k) for k in self.keys() if k not in self.absent},
                **self.extra}

    def with_(self: _T, **changes: Any) -> _T:
        """A copy with `changes`; a key that was absent is written from now on."""
        return replace(self, **changes, absent=tuple(k for k in self.absent
                                                     if k not in changes))


@dataclass(frozen=True, kw_only=True)
class ImportInfo(JsonPart):
    """How the submission's file was imported (grader/grading/session_keeper.py)."""

    status: str | None = None  # "ok", "error", "timeout", ...
    mode: str | None = None  # "full", or "retry": one top-level statement at a time
    output: str | None = None  # what the import printed
    problem: str | None = None  # why the full import failed
    retried: bool | None = None
    dropped: list[dict] | None = None  # the statements the retry left out, with reasons
    retry_problem: str | None = None  # why the retry failed too
    sandbox_layers: Any = None  # what the child's confinement applied (Landlock)


@dataclass(frozen=True, kw_only=True)
class ManualCheck(JsonPart):
    """A manual part's file as the grader checked it (grader/grading/manual_check.py) and the
    staff's merged score."""

    file: str | None = None
    pages: int | None = None
    problem: str | None = None  # "missing", "not-checked", ... (None: no problem)
    check: str | None = None  # the check's line for the student, in English
    check_ref: dict | None = None  # that line as data (a kcheck.text Message's JSON; None in
    # a record of an older grader, which the resume cache regrades)
    score: float | None = None  # None until merged


@dataclass(frozen=True, kw_only=True)
class Counterexample(JsonPart):
    """A part's counterexample (grader/grading/shrink/hook.py's entry): the search's cost and
    outcome, and when found the small input, the reference's output and the student's."""

    calls: int | None = None
    cpu_seconds: float | None = None
    case: str | None = None  # the part's first failing case: its name
    case_id: str | None = None
    hidden: bool | None = None
    status: str | None = None
    found: bool | None = None
    stopped: str | None = None  # why the search stopped (not found)
    source: str | None = None  # the public file the rows are from
    rows: list[int] | None = None
    header: list[str] | None = None
    qis: list[str] | None = None
    raw: list[list[str]] | None = None
    ints: dict[str, int] | None = None  # the call's integer arguments
    dghs: dict[str, str] | None = None  # QI -> its hierarchy's text
    expected: Any = None  # the reference's output
    yours: Any = None  # the student's output (None: the call failed)
    problem: str | None = None  # how the student's call failed (English)
    problem_ref: dict | None = None  # the same as data: a kcheck.text Message's JSON (None:
    # a record without it, rendered in English as it is)
    anonymized_source: str | None = None
    anonymized: list[list[str]] | None = None
    judge: str | None = None  # "rules" for a rule-judged part
    hierarchy_format: str | None = None
    broken: list[list[str]] | None = None  # [rule, message] of each rule broken
    broken_said: list[dict] | None = None  # each broken rule's message as data (kcheck.text)

    def problem_message(self) -> Message | None:
        """How the student's call failed, as data (None: no data, or no failure)."""
        return Message.from_json(self.problem_ref) if self.problem_ref else None
