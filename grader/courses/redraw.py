"""`python -m grader regen --course DIR [--term NAME]`: (re)draw a course's hidden cases for
its term (or a new term, then recorded in course.toml) and recompute its expected outputs,
into DIR/cases only. A course that owns its public data (cases/public/, e.g. a private copy of
courses/ustc) keeps it; its hidden datasets declared in [[data.hidden]] are drawn again from
its data model (grader/authoring/model_draw.py). The new cases are built in a temporary folder beside the old ones and
swapped in at the end, so a failed regen leaves the course as it was.
"""
from __future__ import annotations

import json
import re
import shutil
import tempfile
from pathlib import Path

from kanon.files import atomic_write_text

from ..errors import UserError
from ..paths import KIT_ROOT
from .folder import CASES, Course, with_cases

PUBLIC = "public"  # a course's own public datasets (cases/public/), kept by every redraw

_TERM_LINE = re.compile(r"^(\s*term\s*=\s*).*$")
_TABLE = re.compile(r"^\s*\[")


def set_term(text: str, name: str) -> str:
    """course.toml's text with the [course] table's term set to `name`."""
    lines, in_course, done = text.splitlines(keepends=True), False, False
    for i, line in enumerate(lines):
        if _TABLE.match(line):
            in_course = line.strip().startswith("[course]")
            if in_course:
                at = i
            continue
        if in_course and not done and _TERM_LINE.match(line):
            lines[i] = _TERM_LINE.sub(lambda m: m.group(1) + json.dumps(
                name, ensure_ascii=False), line.rstrip("\n")) + "\n"
            done = True
    if not done:
        lines.insert(at + 1, f"term = {json.dumps(name, ensure_ascii=False)}\n")
    return "".join(lines)


def keep_public(cases: Path, work: Path) -> None:
    """Copy what a course owns of `cases` that no term changes into `work`: its public
    datasets (cases/public/) and its rule-judged parts' counterexample pool (drawn from
    them only; regen rebuilds a part's pool when it is stale)."""
    from ..grading.shrink.pool import POOL_DIR
    from ..grading.shrink.rules_search import RULES_DIR
    if (cases / PUBLIC).is_dir():
        shutil.copytree(cases / PUBLIC, work / PUBLIC)
        if (cases / POOL_DIR / RULES_DIR).is_dir():
            shutil.copytree(cases / POOL_DIR / RULES_DIR, work / POOL_DIR / RULES_DIR)


def redraw(course: Course, term: str | None, keep_datasets: bool = False) -> dict:
    """Regenerate `course`'s cases for `term` (None: its recorded term); returns the new
    manifest. A public demo is regenerated as the kit's own cases (no term)."""
    from ..authoring.regen import TERM_KEEPS, regenerate
    from ..authoring.terms import check_name
    if course.public_demo:
        raise UserError(f"{course.file}: a public demo course's cases are the kit's own; "
                        f"regenerate them with `python -m grader regen`, or make a course of "
                        f"your own with `python -m grader course new DIR --from default "
                        f"--term NAME`")
    name = check_name(term) if term is not None else course.term
    from .checks import unknown_data
    unknown = unknown_data(course)
    if unknown:
        raise UserError(unknown[0])
    if keep_datasets and name != course.term:
        raise UserError(TERM_KEEPS)
    cases = course.folder / CASES
    work = Path(tempfile.mkdtemp(prefix=".cases-new-", dir=course.folder))
    try:
        if keep_datasets:
            shutil.rmtree(work)
            shutil.copytree(cases, work)
        else:
            keep_public(cases, work)
        manifest = regenerate([with_cases(course.rubric, work)], KIT_ROOT,
                              datasets=not keep_datasets,
                              term=None if keep_datasets else name, secret=course.key,
                              public=False)
        if name != course.term:
            text = course.file.read_text(encoding="utf-8")
            atomic_write_text(course.file, set_term(text, name))
        old = course.folder / ".cases-old"
        if cases.exists():
            shutil.rmtree(old, ignore_errors=True)
            cases.rename(old)
        work.rename(cases)
        shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return manifest
