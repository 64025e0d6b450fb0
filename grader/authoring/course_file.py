"""tests/public/course.json: the rubric's rules that the students' self-check applies too
(allowed packages, CPU-time limits per function), so the two never disagree. Written by
`python -m grader regen` and into every student bundle; a kit test keeps the committed copy
fresh."""
from __future__ import annotations

import json
from pathlib import Path

from ..rubric import Rubric
from .public_data import write_functions_file

COURSE_FILE = Path("tests") / "public" / "course.json"


def course_settings(rubric: Rubric) -> dict:
    """The allowed packages, the import limit, per graded function the CPU-time rule of its
    first case (time_limit seconds plus time_per_1000_rows per 1,000 rows), and the rule
    variants of its parts (`variants`, only when a part has one). The self-check runs an
    optional part's public tests when the function is in `time` (or the solution has it)."""
    times: dict[str, dict[str, float]] = {}
    for case in rubric.cases():
        times.setdefault(case.function, {"time_limit": case.time_limit,
                                         "time_per_1000_rows": case.time_per_1000_rows})
    settings = {"allowed_packages": rubric.settings.allowed_packages,
                "import_time_limit": rubric.settings.import_time_limit,
                "time": times}
    variants = {c.function: c.variant for c in rubric.cases() if c.variant}
    if variants:  # only then, so a rubric without variants writes the file it always did
        settings["variants"] = variants
    if rubric.language != "en":  # the self-check's language (tests/public/messages.py)
        settings["language"] = rubric.language
    return settings


def course_json(rubric: Rubric) -> str:
    return json.dumps(course_settings(rubric), indent=2, sort_keys=True) + "\n"


def write_course_file(rubric: Rubric, kit_root: Path) -> Path:
    """Write the committed copy (tests/public/course.json) from `rubric`, and the public
    tests' table of functions (tests/public/data/functions.json) from the contracts."""
    path = kit_root / COURSE_FILE
    path.write_text(course_json(rubric), encoding="utf-8")
    write_functions_file(kit_root)
    return path
