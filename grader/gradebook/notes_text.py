"""A record's notes in the course's language: each rendered from its data (the record's
`notes_ref`, grader/grading/notes.py); a note without data (a record written by an older
grader, which a rerun grades again) is its English text as it is."""
from __future__ import annotations

from collections.abc import Callable

from kcheck.text import render

from ..grading.notes import notes_said
from ..grading.record import StudentRecord

__all__ = ["notes_text"]


def notes_text(record: StudentRecord, _: Callable[[str], str] = str) -> list[str]:
    """The record's notes through the gettext function `_` (English by default)."""
    return [text if said is None else render(said, _)
            for text, said in notes_said(record.notes, record.notes_ref)]
