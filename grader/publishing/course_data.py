"""The dataset a bundle gives students at its top level: the kit's adult-hw1.csv and DGHs/, or,
for a course that keeps its own public data (courses/ustc: `cases/public/adult` in its own
cases folder), that course's file and hierarchy files, in the course's hierarchy format."""
from __future__ import annotations

from ..contract import DGH_DIR, RAW_FILE
from ..paths import KIT_CASES
from ..rubric import Rubric
from ..zipfiles import Entry

__all__ = ["own_public_data", "with_course_data"]

PUBLIC_ADULT = "public/adult"


def own_public_data(rubric: Rubric):
    """The course's own public dataset folder, or None when its public data is the kit's."""
    folder = rubric.cases_dir / PUBLIC_ADULT
    if rubric.cases_dir == KIT_CASES.resolve() or not (folder / RAW_FILE).is_file():
        return None
    return folder


def with_course_data(entries: list[Entry], rubric: Rubric) -> list[Entry]:
    """`entries` with the top-level dataset replaced by the course's own, when it has one."""
    folder = own_public_data(rubric)
    if folder is None:
        return entries
    kept = [e for e in entries if e.name != RAW_FILE and not e.name.startswith(f"{DGH_DIR}/")]
    kept.append(Entry(RAW_FILE, (folder / RAW_FILE).read_bytes()))
    kept += [Entry(f"{DGH_DIR}/{p.name}", p.read_bytes())
             for p in sorted((folder / DGH_DIR).glob("*.txt"))]
    return kept
