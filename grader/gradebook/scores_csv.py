"""Reading the course staff's scores of the manual parts (`merge --manual scores.csv`).

The file is a CSV (UTF-8, a BOM tolerated) whose header names the columns: `student` (the id
grades.csv uses), one column per manual part (named as the part) and optionally `comment`.
An empty score cell means "no score yet". Every problem is found before anything is refused,
each as one line naming the file, the row (the header is row 1), the column and the value.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import UserError
from ..rubric import Rubric
from .lms import csv_rows

ID_COLUMN = "student"
COMMENT = "comment"


@dataclass
class Scores:
    """What scores.csv gives: per student, per part (the file's part columns) a score or
    None; comments per student when the file has a comment column (None otherwise)."""

    parts: list[str]
    scores: dict[str, dict[str, float | None]] = field(default_factory=dict)
    comments: dict[str, str] | None = None


def read_scores(path: Path, rubric: Rubric, students: set[str]) -> Scores:
    """The validated scores of `path` for the graded `students`; UserError listing every
    problem (one line each) when there is any."""
    rows = csv_rows(path, "the scores", dicts=False)
    if not rows:
        raise UserError(f"{path}: empty; the first row names the columns: {ID_COLUMN}, "
                        f"{', '.join(p.key for p in rubric.manual_parts)}, {COMMENT}")
    problems: list[str] = []
    header = [h.strip() for h in rows[0]]
    parts = _check_header(path, header, rubric, problems)
    if ID_COLUMN not in header:
        rows = rows[:1]  # no row can be read without its student
    result = Scores(parts, comments={} if COMMENT in header else None)
    seen: dict[str, int] = {}
    points = {p.key: p.points for p in rubric.manual_parts}
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        where = f"{path}: row {number}"
        if len(row) > len(header):
            problems.append(f"{where}: {len(row)} cells, more than the header's {len(header)}")
            continue
        cells = dict(zip(header, [c.strip() for c in row] + [""] * (len(header) - len(row))))
        sid = cells.get(ID_COLUMN, "")
        if sid not in students:
            problems.append(f"{where}, column {ID_COLUMN}: {sid!r} is not a student of the "
                            f"graded folder's grades.csv")
        elif sid in seen:
            problems.append(f"{where}, column {ID_COLUMN}: {sid!r} is also on row {seen[sid]}")
        seen.setdefault(sid, number)
        mine = result.scores.setdefault(sid, {})
        for part in parts:
            mine[part] = _score(cells[part], points[part], f"{where}, column {part}", problems)
        if result.comments is not None:
            result.comments[sid] = cells[COMMENT]
    refuse(problems, path)
    return result


def refuse(problems: list[str], path: Path) -> None:
    """Raise one UserError whose lines (each printed after `error: `) are the problems."""
    if problems:
        raise UserError("\nerror: ".join(problems + [
            f"merge refused: {len(problems)} problem(s) in {path}; nothing was changed"]))


def _check_header(path: Path, header: list[str], rubric: Rubric, problems: list[str]
                  ) -> list[str]:
    """The header's manual part columns; a problem for each column that is not one."""
    manual = [p.key for p in rubric.manual_parts]
    known = ", ".join(manual) or "none"
    if ID_COLUMN not in header:
        problems.append(f"{path}: row 1: no {ID_COLUMN!r} column (the header names the "
                        f"columns: {ID_COLUMN}, {known}, {COMMENT})")
    parts = []
    for n, name in enumerate(header, start=1):
        where = f"{path}: row 1, column {n}"
        if header.index(name) != n - 1:
            problems.append(f"{where}: {name!r} appears twice in the header")
        elif name in manual:
            parts.append(name)
        elif name in (ID_COLUMN, COMMENT):
            continue
        elif name in {p.key for p in rubric.auto_parts}:
            problems.append(f"{where}: {name!r} is an autograded part; scores.csv gives only "
                            f"the manual parts ({known})")
        else:
            problems.append(f"{where}: {name!r} is not a manual part of {rubric.path.name} "
                            f"(its manual parts: {known})")
    return parts


def _score(cell: str, points: float, where: str, problems: list[str]) -> float | None:
    """The score in `cell` (None when empty), or a problem when it is no valid score."""
    if not cell:
        return None
    try:
        value = float(cell)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        problems.append(f"{where}: {cell!r} is not a number")
    elif value < 0:
        problems.append(f"{where}: {cell!r} is negative")
    elif value > points + 1e-9:
        problems.append(f"{where}: {cell!r} is more than the part's {points:g} points")
    else:
        return value
    return None
