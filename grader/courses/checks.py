"""Whether a course is ready to grade and publish: its cases belong to its term, every case's
dataset is there, every expected output is fresh. Each problem names the file and the one
command that fixes it."""
from __future__ import annotations

from ..errors import UserError
from ..grading.expected import data_folder, load_manifest
from ..grading.freshness import stale
from .folder import Course


def problems(course: Course) -> list[str]:
    """Why `course` cannot be graded as it is (empty when it can)."""
    fix = course.command("regen")
    manifest_path = course.cases_dir / "manifest.json"
    recorded = load_manifest(course.cases_dir).get("term", {}).get("name")
    if not manifest_path.is_file():
        return [f"{manifest_path}: missing (no cases drawn yet); run {fix}"]
    if recorded != course.term:
        return [f"{manifest_path}: its hidden cases are of term {recorded!r}, but "
                f"{course.file.name} says term {course.term!r}; run {fix}"]
    found = unknown_data(course)
    for case in course.rubric.cases():
        folder = data_folder(course.cases_dir, case.data)
        if not found and not folder.is_dir():
            found.append(f"{folder}: missing (case {case.id}); run {fix}")
    if found:
        return found
    return with_fix(stale([course.rubric]), fix)


_KIT_FIXES = ("run `python -m grader regen` (with this rubric) to produce it",
              "(run `python -m grader regen`, with this course or rubric)",
              "run `python -m grader regen`")


def with_fix(found: list[str], fix: str) -> list[str]:
    """Problems of a course folder's cases, each naming `fix` (`regen --course DIR`), never
    the kit's own `python -m grader regen`."""
    out = []
    for problem in found:
        for kit in _KIT_FIXES:
            if kit in problem:
                problem = problem.replace(kit, f"run {fix}")
                break
        else:
            problem = f"{problem}; run {fix}"
        out.append(problem)
    return out


def unknown_data(course: Course) -> list[str]:
    """The cases whose dataset neither the kit has (public/...) nor regen draws (hidden/...)."""
    from ..authoring.casegen import HIDDEN
    from ..authoring.model_draw import declared
    kit = {f"hidden/{name}" for name in HIDDEN}
    model = declared(course.rubric)
    own = {d.data for d in model.hidden} if model else set()
    found = []
    for case in course.rubric.cases():
        public = data_folder(course.cases_dir, case.data)
        if case.data not in kit | own and not (case.data.startswith("public/")
                                               and public.is_dir()):
            drawn = (f"its data model draws {', '.join(sorted(own))} ([[data.hidden]]); "
                     if own else "")
            found.append(f"{course.file}: case {case.id}: its dataset {case.data!r} is not in "
                         f"this kit nor drawn by the course ({drawn}the kit draws "
                         f"{', '.join(sorted(kit))}; public/adult is the kit's); fix the "
                         f"case's data, or declare it in a [[data.hidden]] table drawn from "
                         f"the course's data model")
    return found


def require_ready(course: Course) -> None:
    """UserError with the first problem (and how many more) unless `course` is ready."""
    found = problems(course)
    if found:
        more = f" (and {len(found) - 1} more: {course.command('check')})" if len(found) > 1 \
            else ""
        raise UserError(f"course {course.folder} is not ready to grade: {found[0]}{more}")


def demo_warning(course: Course | None, rubric_path) -> str | None:
    """The one warning for grading with public cases (a public demo course, or one of the
    kit's own example rubrics): anyone can read its hidden cases."""
    if course is not None and not course.public_demo:
        return None
    from ..paths import KIT_ROOT
    where = course.folder if course else rubric_path
    shown = where.relative_to(KIT_ROOT) if where.is_relative_to(KIT_ROOT) else where
    what = f"the public demo course {shown}" if course else f"the kit's example rubric {shown}"
    own = (f"make a private copy with `python -m grader course new DIR --from "
           f"{origin_name(course.folder)} --term NAME` (its hidden datasets drawn anew from its "
           f"data model with the new course's secret)"
           if course is not None and not course.rubric.schema.is_default else
           f"make a course of your own with `python -m grader course new DIR --from default "
           f"--term NAME`")
    return (f"grading with {what}: its hidden cases are in the public kit, so students can "
            f"read them; for a real class {own}")


def origin_name(folder) -> str:
    """What `course new --from` takes for the course folder `folder`: the example course's
    name (ustc) when it is one, else its path."""
    from pathlib import Path
    from .origins import ORIGINS
    folder = Path(folder).resolve()
    for name, path in ORIGINS.items():
        if path.resolve() == folder:
            return name
    shown = str(folder)
    return f'"{shown}"' if " " in shown else shown
