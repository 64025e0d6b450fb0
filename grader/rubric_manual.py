"""A rubric part graded by the course staff (`kind = "manual"`): read and checked."""
from __future__ import annotations

from typing import Callable

from kanon.files import safe_name

from .settings import number

__all__ = ["MANUAL_KEYS", "RESERVED_NAMES", "manual_part"]

MANUAL_KEYS = {"kind", "name", "points", "files", "max_pages", "description", "optional"}
RESERVED_NAMES = {"student", "lms", "lms_id", "lms_name", "source", "total", "max", "percent",
                  "status", "notes", "comment"}  # grades.csv's and scores.csv's own columns


def manual_part(error: Callable, key: str, raw: dict) -> dict:
    """A part graded by the course staff, as the keyword arguments of its Part: name, points,
    and optionally files, max_pages, description and optional. `error(key, message)` makes
    the UserError naming the rubric file."""

    def _number(name: str, value: object, kind: type, minimum: float) -> float | int:
        return number(value, kind, minimum, None, lambda message: error(name, message))

    for k in raw:
        if k not in MANUAL_KEYS:
            why = " (a manual part is not run)" if k in ("function", "case", "variant") else ""
            raise error(f"{key}.{k}", f"unknown key for a manual part{why}; known: "
                        f"{', '.join(sorted(MANUAL_KEYS))}")
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        raise error(f"{key}.name", f"expected a non-empty string, got {name!r}")
    if safe_name(name) != name:
        raise error(f"{key}.name", f"{name!r}: use letters, digits, '.', '-' and '_' "
                    f"only (it names a grades.csv column), e.g. {safe_name(name)!r}")
    if name in RESERVED_NAMES:
        raise error(f"{key}.name", f"{name!r} is a column of grades.csv or scores.csv; "
                    f"choose another name")
    points = _number(f"{key}.points", raw.get("points"), float, 0)
    files = raw.get("files", [])
    if not isinstance(files, list) or not all(isinstance(f, str) and f for f in files):
        raise error(f"{key}.files", f"expected a list of globs such as [\"*.pdf\"], got "
                    f"{files!r}")
    for pattern in files:
        if pattern.startswith("/") or ".." in pattern.split("/"):
            raise error(f"{key}.files", f"{pattern!r}: a glob relative to the "
                        f"submission folder, without '..'")
    max_pages = raw.get("max_pages")
    if max_pages is not None:
        max_pages = int(_number(f"{key}.max_pages", max_pages, int, 1))
        if not files:
            raise error(f"{key}.max_pages", "needs files (the PDF to count the pages "
                        "of), e.g. files = [\"*.pdf\"]")
    description = raw.get("description", "")
    if not isinstance(description, str):
        raise error(f"{key}.description", "expected a string")
    optional = raw.get("optional", False)
    if not isinstance(optional, bool):
        raise error(f"{key}.optional", f"expected true or false, got {optional!r}")
    return dict(key=name, function="", points=points, partial_credit=0.0, kind="manual",
                files=tuple(files), max_pages=max_pages, description=description,
                optional=optional)
