"""A bundle's public tests made the course's own: of every file a course's students get, no
name, case or data file of a part the course does not grade.

  - the public tests' Python files (tests/public/*.py) are cut to the graded functions
    (grader.publishing.source_filter): the cases, signatures and example arguments of
    other parts, the checks only their tests made;
  - a data file named after another part (an anonymized input the cost tests borrow from
    its expected outputs, e.g. `mondrian-adult-k8.csv.gz`) ships as `anonymized-...`, and
    the tests name it so;
  - tests/public/data/index.json (which course needs which file: the kit's own table, read
    by `bundle`, never by the tests) is not shipped.
"""
from __future__ import annotations

from pathlib import Path, PurePosixPath

from ..contract import GRADABLE
from ..errors import UserError
from ..paths import PUBLIC_TESTS
from ..zipfiles import Entry
from .materials.course import SELF_CHECK_MARKERS
from .source_filter import filter_sources

PUBLIC = PurePosixPath(PUBLIC_TESTS).as_posix() + "/"
INDEX = PUBLIC + "data/index.json"
EXPECTED = PUBLIC + "data/expected/"
NEUTRAL = "anonymized"  # what a borrowed output's name starts with instead of another part's


def marker(function: str) -> str:
    """The name a function's public tests and expected outputs go by (random, bottomup...)."""
    return SELF_CHECK_MARKERS.get(function, function)


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


def _is_test_source(name: str) -> bool:
    path = PurePosixPath(name)
    return name.startswith(PUBLIC) and path.suffix == ".py" and path.parent.as_posix() + "/" \
        == PUBLIC


def course_entries(entries: list[Entry], root: Path, graded: frozenset[str]) -> list[Entry]:
    """The bundle's entries (paths relative to the bundle folder) made the course's own."""
    entries = [e for e in entries if e.name != INDEX]
    renamed = renames([e.name for e in entries], graded)
    sources = {e.name: e.data.decode("utf-8") for e in entries if _is_test_source(e.name)}
    for old, new in renamed.items():
        old_base, new_base = PurePosixPath(old).name, PurePosixPath(new).name
        sources = {n: text.replace(old_base, new_base) for n, text in sources.items()}
    kit = [p.read_text(encoding="utf-8") for p in sorted((root / PUBLIC_TESTS).glob("*.py"))]
    cut = filter_sources(sources, graded, frozenset(GRADABLE), kit)
    return [Entry(renamed.get(e.name, e.name),
                  cut[e.name].encode("utf-8") if e.name in cut else e.data, e.executable)
            for e in entries]


__all__ = ["NEUTRAL", "course_entries", "marker", "renames"]
