"""The dataset a bundle gives students at its top level: the kit's adult-hw1.csv and DGHs/, or,
for a course that keeps its own public data (courses/ustc: `cases/public/adult` in its own
cases folder), that course's file and hierarchy files, in the course's hierarchy format. A course whose parts
have different QIs gets them as one folder per part (DGHs/<part>/: exactly its QIs' files,
materials.course.PartFolder) instead of the flat DGHs/, so that the handout's commands give
each part's function the very QIs the grader does."""
from __future__ import annotations

from ..contract import DGH_DIR, RAW_FILE
from ..errors import UserError
from ..paths import KIT_CASES
from ..rubric import Rubric
from ..zipfiles import Entry
from .materials.course import PartFolder

__all__ = ["own_public_data", "with_course_data", "with_part_folders"]

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


def with_part_folders(entries: list[Entry], folders: tuple[PartFolder, ...]) -> list[Entry]:
    """`entries` with the flat DGHs/*.txt replaced by one folder per part holding exactly that
    part's QIs' files (`folders`: () leaves the entries as they are)."""
    if not folders:
        return entries
    flat = {e.name: e for e in entries if e.name.startswith(f"{DGH_DIR}/")}
    kept = [e for e in entries if e.name not in flat]
    for folder in folders:
        for qi in folder.qis:
            source = flat.get(f"{DGH_DIR}/{qi}.txt")
            if source is None:
                raise UserError(f"cannot bundle: part {folder.part!r} names the QI {qi!r}, "
                                f"but {DGH_DIR}/ has no {qi}.txt")
            kept.append(Entry(f"{folder.path}/{qi}.txt", source.data))
    return kept
