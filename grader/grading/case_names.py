"""A case's name as data: the phrases the course's rubric names it with (comma-separated, as
the term rendered it: grader/grading/term_view.py), each phrase the kit writes ("{n} rows",
"ages {low}-{high}", "{column} as a categorical QI", "no suppression") a kcheck.text Message,
the course's own words ("adult-hw1", "k=4") kept as they are.

The record keeps them beside the English name (a case's `name_ref`), and the gradebook joins
them with the course language's ", " (grader/gradebook/case_text.py `name_text`). A hidden
case's name is the rubric's, its numbers the term's arguments and row count: nothing computed
from its data's values.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from kcheck.text import Message

__all__ = ["name_phrases", "name_ref"]

_PHRASES: tuple[tuple[re.Pattern, Callable[[re.Match], Message]], ...] = (
    (re.compile(r"(\d+) rows"), lambda m: Message("{n} rows", n=m[1])),
    (re.compile(r"ages (\d+)-(\d+)"), lambda m: Message("ages {low}-{high}", low=m[1],
                                                        high=m[2])),
    (re.compile(r"(.+) as a categorical QI"),
     lambda m: Message("{column} as a categorical QI", column=m[1])),
    (re.compile(r"no suppression"), lambda m: Message("no suppression")),
)
"""The kit's phrases: how the rubric writes each, and its message."""


def name_phrases(name: str) -> list[Message | str]:
    """The phrases of a case's `name` ("200 rows, k=5": [Message("{n} rows", n="200"),
    "k=5"]); their English joined by ", " is `name`."""
    return [_phrase(part) for part in name.split(", ")]


def _phrase(text: str) -> Message | str:
    for pattern, message in _PHRASES:
        match = pattern.fullmatch(text)
        if match is not None:
            return message(match)
    return text


def name_ref(name: str) -> list[dict | str]:
    """The record's `name_ref`: each phrase as JSON (a Message's, or the words themselves)."""
    return [p.to_json() if isinstance(p, Message) else p for p in name_phrases(name)]
