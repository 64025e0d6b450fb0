"""A bundle's public tests made the course's own by data alone: the public tests' Python files
ship as they are (byte-identical to the kit's), and of every file a course's students get, no
name, case or data file of a part the course does not grade.

  - tests/public/data/functions.json is written for the graded functions (their markers,
    signatures and checks, grader.authoring.public_data) and tests/public/data/cases.json
    cut to their cases: the generic public tests read both;
  - a data file named after another part (an anonymized input the cost tests borrow from
    its expected outputs, e.g. `mondrian-adult-k8.csv.gz`) ships as `anonymized-...`, and
    cases.json names it so;
  - tests/public/data/index.json (which course needs which file: the kit's own table, read
    by `bundle`, never by the tests) is not shipped.
"""
from __future__ import annotations

import json
from pathlib import PurePosixPath

from ..authoring.public_data import (CASES_FILE, FUNCTIONS_FILE, MARKERS, cases_json,
                                     course_cases, functions_json)
from ..contract import GRADABLE
from ..errors import UserError
from ..paths import PUBLIC_TESTS
from ..zipfiles import Entry

PUBLIC = PurePosixPath(PUBLIC_TESTS).as_posix() + "/"
INDEX = PUBLIC + "data/index.json"
EXPECTED = PUBLIC + "data/expected/"
NEUTRAL = "anonymized"  # what a borrowed output's name starts with instead of another part's


def marker(function: str) -> str:
    """The name a function's public tests and expected outputs go by (random, bottomup...)."""
    return MARKERS.get(function, function)


def renames(names: list[str], graded: frozenset[str]) -> dict[str, str]:
    """Shipped expected-output names -> their neutral names, for files named after a part the
    course does not grade; UserError when two would get the same name."""
    others = [marker(f) for f in GRADABLE if f not in graded]
    found: dict[str, str] = {}
    for name in names:
        if not name.startswith(EXPECTED) or "/" in name[len(EXPECTED):]:
            continue
        base = name[len(EXPECTED):]
        owner = next((m for m in sorted(others, key=len, reverse=True)
                      if base.startswith(f"{m}-")), None)
        if owner is not None:
            found[name] = EXPECTED + NEUTRAL + base[len(owner):]
    clash = set(names) & set(found.values()) | {n for n in found.values()
                                                 if list(found.values()).count(n) > 1}
    if clash:
        raise UserError(f"cannot bundle: {sorted(clash)[0]} would name two files; rename one "
                        f"of the public tests' data files")
    return found


def _course_data(entry: Entry, kit: frozenset[str], by_rules: frozenset[str],
                 renamed: dict[str, str]) -> bytes:
    """The course's own functions.json or cases.json (any other entry as it is)."""
    if entry.name == FUNCTIONS_FILE.as_posix():
        return functions_json(kit, by_rules).encode("utf-8")
    if entry.name != CASES_FILE.as_posix():
        return entry.data
    text = cases_json(course_cases(json.loads(entry.data), kit - by_rules))
    for old, new in renamed.items():
        text = text.replace(f'"{PurePosixPath(old).name}"', f'"{PurePosixPath(new).name}"')
    return text.encode("utf-8")


def course_entries(entries: list[Entry], graded: frozenset[str],
                   kit: frozenset[str] | None = None,
                   by_rules: frozenset[str] = frozenset()) -> list[Entry]:
    """The bundle's entries (paths relative to the bundle folder) made the course's own:
    `graded` its functions, `kit` those of them the kit's contracts define (default: all;
    a course's own functions have a self-check of their own), `by_rules` those its rules
    self-check judges (in the table, without generic tests or cases)."""
    entries = [e for e in entries if e.name != INDEX]
    renamed = renames([e.name for e in entries], graded)
    kit = graded if kit is None else kit
    return [Entry(renamed.get(e.name, e.name), _course_data(e, kit, by_rules, renamed),
                  e.executable) for e in entries]


__all__ = ["NEUTRAL", "course_entries", "marker", "renames"]
