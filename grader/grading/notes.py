"""A note for the student as text that keeps its message: `Note(message)` is the message's
English sentence (a `str`, so every reader of the notes as text reads what it read before)
carrying the kcheck.text Message it renders from (`said`). A record keeps each note's data
beside its English (`notes_ref`, grader/grading/record.py) and the gradebook renders it per
language from that data.
"""
from __future__ import annotations

from kcheck.text import Joined, Message, Verbatim

__all__ = ["Note", "message_of", "notes_ref", "notes_said", "file_list"]


class Note(str):
    """A message's English sentence that keeps the message (`said`)."""

    said: Message

    def __new__(cls, message: Message) -> Note:
        note = super().__new__(cls, message.english())
        note.said = message
        return note

    def __reduce__(self):  # pickled (a cluster's task) as its message
        return Note, (self.said,)


def message_of(text: str) -> Message | None:
    """The message a note keeps (None: a note written as text only)."""
    return getattr(text, "said", None)


def notes_ref(notes: list[str]) -> list[dict | None] | None:
    """The notes as data (a Message's JSON, None for a note written as text only); None when
    no note has data."""
    refs = [None if message_of(n) is None else message_of(n).to_json() for n in notes]
    return refs if any(refs) else None


def notes_said(notes: list[str], refs: list[dict | None] | None
               ) -> list[tuple[str, Message | None]]:
    """Each note with its message: the data kept beside it (`notes_ref`) when that reads as
    the note in English, else None (a note without data, e.g. in an older record)."""
    refs = refs or []
    said = [Message.from_json(refs[i]) if i < len(refs) and refs[i] else None
            for i in range(len(notes))]
    return [(text, m if m is not None and m.english() == text else None)
            for text, m in zip(notes, said)]


def _(text: str) -> str:
    """Marks a message for the catalog (grader/catalogs.py extracts `_("...")`)."""
    return text


_("{names} and {n} more")  # file_list's tail, a catalog message


def file_list(names: list[str], shown: int | None = None) -> Joined | Message:
    """The student's file names joined by ", " (each as it is), the first `shown` of them
    and how many more."""
    items = Joined([Verbatim(n) for n in names[:shown]], ", ")
    if shown is None or len(names) <= shown:
        return items
    return Message("{names} and {n} more", names=items, n=len(names) - shown)
