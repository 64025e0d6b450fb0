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
failing zh-CN submissions and fails on any English sentence left). A field in VERBATIM holds a
student's own text, data or code (an exception's message, a cell, a file name): it is kept
byte for byte, except where the grader itself wrote it whole (GRADER_WRITTEN: the sandbox's
refusal of a package, the hint naming a left-out import).

A record that keeps its sentence as data (a kcheck.text Message: a case's `message_ref` with an
`id`, its `privacy_ref`) is rendered from that data instead (grader/gradebook/case_text.py
`in_language`), the notes from their data only (`notes_ref`, grader/gradebook/notes_text.py);
this layer is left for the sentences still written as English only, and
tests/kit/repo/test_no_pattern_translation.py counts what it still needs.

`translate(text, _)`: the text in `_`'s language (`_` returns its argument: `text` itself).
`case_name(name, _)`: a case's name, translated comma-separated phrase by phrase.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from kcheck.text import fill

from ..grading.student_templates import NAME_PHRASES, TEMPLATES

__all__ = ["GRADER_WRITTEN", "LISTS", "TEMPLATES", "NAME_PHRASES", "VERBATIM", "translate",
           "case_name"]

_FIELD = re.compile(r"\{(\w+)\}")


@lru_cache(maxsize=None)
def _patterns(templates: tuple[str, ...], ordered: bool = False
              ) -> tuple[tuple[re.Pattern, str], ...]:
    """Each template as a regular expression matching a whole sentence, and the template:
    anchored ones (starting with words) and those with the most literal text first, or in
    the given order when `ordered`."""
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
    if not ordered:
        found.sort(key=lambda entry: entry[0], reverse=True)
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


_MORE = re.compile(r"(?P<names>.+) and (?P<n>\d+) more", re.DOTALL)
_NUMBERS = re.compile(r"\d+(?:, \d+)+(?:, \.\.\.)?")
VERBATIM = frozenset({"message", "shown", "value", "cell", "raw", "got", "expected", "header",
                      "code", "label", "name", "column", "columns", "file", "files", "globs",
                      "notebook", "chosen", "better", "source", "student", "base"})
"""The fields that hold a student's own text, data or code: never translated."""
GRADER_WRITTEN = ("{message} (line {n}, `{code}`, was left out: {reason})",
                  "{name} is not available: this course allows {rule}")
"""The templates a VERBATIM field is still translated by: sentences the grader writes into a
student's exception message (the NameError's hint, the sandbox's refusal of an import), tried
in this order."""


def _line(line: str, _: Callable[[str], str], depth: int) -> str:
    if depth > 8 or not line.strip():
        return line
    for pattern, template in _patterns(TEMPLATES):
        match = pattern.fullmatch(line)
        if match is not None:
            fields = {key: _field(key, value, _, depth + 1)
                      for key, value in match.groupdict().items()}
            return fill(_(template), fields)
    return line


def _field(key: str, value: str, _: Callable[[str], str], depth: int) -> str:
    if _NUMBERS.fullmatch(value):  # row numbers: "3, 8, 9, ..."
        return value.replace(", ", _(", "))
    if key == "files":
        return _file_list(value, _)
    if key in VERBATIM:
        return _grader_written(value, _, depth)
    if key in LISTS:
        return _("; ").join(_line(item, _, depth) for item in LISTS[key].split(value))
    return _line(value, _, depth)


def _file_list(value: str, _: Callable[[str], str]) -> str:
    """A list of the student's file names that the grader joined ("a.csv, b.csv and 3 more"):
    each name as it is, the grader's separator and tail in the course's language."""
    match = _MORE.fullmatch(value)
    names, more = (match["names"], match["n"]) if match else (value, None)
    text = _(", ").join(names.split(", "))
    return text + _(" and {n} more").format(n=more) if more else text


def _grader_written(value: str, _: Callable[[str], str], depth: int) -> str:
    """A student's text as it is, unless the whole of it is one of GRADER_WRITTEN."""
    if depth > 8:
        return value
    for pattern, template in _patterns(GRADER_WRITTEN, ordered=True):
        match = pattern.fullmatch(value)
        if match is not None:
            return fill(_(template), {key: _field(key, text, _, depth + 1)
                                       for key, text in match.groupdict().items()})
    return value


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
