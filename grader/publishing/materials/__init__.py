"""Student materials assembled from section sources by a course's rubric: HANDOUT.md
(handout.py, sources in handout/), skeleton.py (skeleton_file.py, sources in skeleton/), and
which public tests and data a course ships (tests/public/data/index.json). course.py is the
course as the materials see it, template.py the `<!-- if -->` blocks, reflow.py the line
filling, translations.py the sections in a course's language (handout/LANG/, skeleton/LANG/),
words.py the words the materials generate (headings, points, tables) in that language,
calls.py the fields about calling the functions, own_handout.py and own_skeleton.py a
course's own functions (rubric [[function]]: their sections from the course folder's
handout/, their stubs and command line); the `materials` command is in
grader.publishing.command_line. No rule is written twice: a section says each rule once, and
`<!-- if ... -->` blocks (template.py) keep only the course's own.

    python -m grader materials --course RUBRIC --out DIR   # HANDOUT.md + skeleton.py
"""
from __future__ import annotations

import json
from pathlib import Path

from ...errors import UserError
from ...paths import PUBLIC_TESTS
from ...rubric import Rubric
from .course import CourseView, view
from .handout import render_handout
from .skeleton_file import render_skeleton

__all__ = ["CourseView", "course_materials", "public_users", "render_handout",
           "render_skeleton", "sources_of", "view", "wanted"]

PACKAGE = Path(__file__).resolve().parent
INDEX = "data/index.json"  # under tests/public: every public file -> the features needing it
EVERY_COURSE = "*"


def sources_of(root: Path) -> Path:
    """The section sources of the kit checkout `root` (its own, when it has them)."""
    own = root / "grader" / "publishing" / "materials"
    return own if (own / "handout").is_dir() and (own / "skeleton").is_dir() else PACKAGE


def course_materials(rubric: Rubric, root: Path) -> dict[str, bytes]:
    """skeleton.py and HANDOUT.md of the course graded by `rubric`."""
    course = view(rubric)
    sources = sources_of(root)
    try:
        return {"HANDOUT.md": render_handout(course, sources / "handout").encode("utf-8"),
                "skeleton.py": render_skeleton(course, sources / "skeleton").encode("utf-8")}
    except FileNotFoundError as e:
        raise UserError(f"cannot bundle: a section source is missing: {e.filename}") from None


def public_users(root: Path) -> dict[str, list[str]]:
    """tests/public/data/index.json of `root` (empty when there is none: everything ships)."""
    path = root / PUBLIC_TESTS / INDEX
    if not path.is_file():
        return {}
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except ValueError as e:
        raise UserError(f"{path}: not valid JSON ({e}); rerun tests/public/make_expected.py")


def wanted(path: Path, root: Path, users: dict[str, list[str]],
           features: frozenset[str]) -> bool:
    """Whether a course with `features` (CourseView.features) needs the file `path` of
    `root`: anything outside the public tests; a public test or data file when one of its
    users is graded (a file the index does not name ships, so a course's own extra tests are
    kept)."""
    try:
        rel = path.relative_to(root / PUBLIC_TESTS).as_posix()
    except ValueError:
        return True
    keys = [rel] + [p.as_posix() for p in Path(rel).parents if p.as_posix() != "."]
    who = next((users[k] for k in keys if k in users), None)
    if who is None:
        return True
    return any(w == EVERY_COURSE or w in features for w in who)
