"""The grader's sentences about a submission, in the course's language.

The record keeps English (the staff's grades.csv, dashboard and results stay English, and an
English course's feedback is byte for byte what it was): a case's message, a note, a manual
part's check line, a privacy summary, a counterexample's problem and a case's name are built
in English where the grading happens (grader/grading/, kanon/rules). This module renders them
for a course in another language (grader/gradebook/export.py, counterexample.py): each
sentence is matched against TEMPLATES, the English patterns those modules write (their
`{field}`s match any text), and rewritten through the catalog's `_` with the matched fields,
themselves translated when one is a sentence of its own (a rule's detail inside "it breaks
rule ..."). A sentence no template matches is left as it is (tests/kit/languages grades
failing zh-CN submissions and fails on any English sentence left).

`translate(text, _)`: the text in `_`'s language (`_` returns its argument: `text` itself).
`case_name(name, _)`: a case's name, translated comma-separated phrase by phrase.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from ..grading.student_templates import NAME_PHRASES, TEMPLATES

__all__ = ["LISTS", "TEMPLATES", "NAME_PHRASES", "translate", "case_name"]

_FIELD = re.compile(r"\{(\w+)\}")


@lru_cache(maxsize=None)
def _patterns(templates: tuple[str, ...]) -> tuple[tuple[re.Pattern, str], ...]:
    """Each template as a regular expression matching a whole sentence, and the template."""
    found = []
    for template in templates:
        pieces, at = [], 0
        for match in _FIELD.finditer(template):
            pieces.append(re.escape(template[at:match.start()]))
            pieces.append(f"(?P<{match[1]}>.+?)")
            at = match.end()
        pieces.append(re.escape(template[at:]))
        literal = (not template.startswith("{"), len(_FIELD.sub("", template)))
        found.append((literal, re.compile("".join(pieces), re.DOTALL), template))
    found.sort(key=lambda entry: entry[0], reverse=True)  # anchored, most literal text first
    return tuple((pattern, template) for _, pattern, template in found)


def translate(text: str, _: Callable[[str], str], depth: int = 0) -> str:
    """`text` in the language of `_` (each line apart): the first template matching a line
    gives the translated line, its fields translated in turn; an unmatched line is kept."""
    if _("PASS") == "PASS" or not text:  # English: the record's own text
        return text
    return "\n".join(_line(line, _, depth) for line in text.split("\n"))


LISTS = {"rules": re.compile(r'; (?=rule ")'),
         "left_out": re.compile(r"; (?=lines? \d|and \d)"),
         "reasons": re.compile(r"; (?=[^;]*?: (?:the |a row))")}
"""The fields that are lists joined by "; " (broken rules, left-out statements, why no cut
fits), and where one item ends: an item may hold "; " itself (a rule's reasons)."""


def _line(line: str, _: Callable[[str], str], depth: int) -> str:
    if depth > 8 or not line.strip():
        return line
    for pattern, template in _patterns(TEMPLATES):
        match = pattern.fullmatch(line)
        if match is not None:
            fields = {key: _field(key, value, _, depth + 1)
                      for key, value in match.groupdict().items()}
            return _(template).format(**fields)
    return line


def _field(key: str, value: str, _: Callable[[str], str], depth: int) -> str:
    if key in LISTS:
        return _("; ").join(_line(item, _, depth) for item in LISTS[key].split(value))
    return _line(value, _, depth)


def case_name(name: str, _: Callable[[str], str]) -> str:
    """A case's name with each comma-separated phrase the kit writes translated."""
    if _("PASS") == "PASS":
        return name
    parts = []
    for part in name.split(", "):
        for pattern, template in _patterns(NAME_PHRASES):
            match = pattern.fullmatch(part)
            if match is not None:
                part = _(template).format(**match.groupdict())
                break
        parts.append(part)
    return _(", ").join(parts)
