"""`python -m grader course new DIR --from default|fall2025|all|examples|RUBRIC --term NAME
[--language en|zh-CN]`: a new course folder (grader/courses/folder.py), with its own secret and this term's hidden
cases, written whole or not at all (built in a temporary folder beside DIR, then renamed).
"""
from __future__ import annotations

import json
import re
import shutil
import tempfile
from pathlib import Path

from kanon.files import atomic_write_text

from ..errors import UserError
from ..language import DEFAULT, check_language
from ..paths import GRADER_DIR, KIT_ROOT
from ..rubric import load as load_rubric
from .folder import CASES, COURSE_FILE, FORMAT, README_FILE, is_course_folder, read_course_table
from .secret import new_key, write_key

# --from NAME: the kit's example courses.
ORIGINS = {"default": GRADER_DIR / "rubric.toml", "fall2025": GRADER_DIR / "rubric-2025.toml",
           "all": GRADER_DIR / "rubric-all.toml", "examples": KIT_ROOT / "examples" / "rubric.toml"}
_TABLE = re.compile(r"^\s*\[\[?\s*([A-Za-z_.]+)\s*\]\]?\s*(#.*)?$")
_CASES_DIR = re.compile(r"^\s*cases_dir\s*=.*$")


def origin_rubric(origin: str) -> Path:
    """The rubric file --from names: an example course's name, a rubric file or a course
    folder (its rubric, never its secret)."""
    if origin in ORIGINS:
        return ORIGINS[origin]
    path = Path(origin)
    if is_course_folder(path):
        table = read_course_table(path / COURSE_FILE)
        return path / table["rubric"] if "rubric" in table else path / COURSE_FILE
    if path.is_file():
        return path
    raise UserError(f"--from {origin}: neither an example course ({', '.join(ORIGINS)}) nor a "
                    f"rubric file nor a course folder")


def rubric_body(text: str) -> str:
    """A rubric's text for a course.toml: from its first table on, without a [course] table
    (a course copied from another) and without cases_dir (a course's cases are its own)."""
    out: list[str] = []
    started = in_course = False
    for line in text.splitlines():
        table = _TABLE.match(line)
        if table:
            started = True
            in_course = table.group(1) == "course"
        if not started or in_course or _CASES_DIR.match(line):
            continue
        out.append(line)
    return "\n".join(out).strip("\n") + "\n"


def course_toml(term: str, origin: str, body: str, language: str = DEFAULT) -> str:
    """course.toml: the [course] table, then the rubric. The language line is written only
    for a language other than English (the default)."""
    from ..authoring.terms import check_name
    name = json.dumps(check_name(term), ensure_ascii=False)  # a valid TOML basic string
    spoken = f"language = {json.dumps(language)}\n" if language != DEFAULT else ""
    return (f"# This course's homework: the [course] table (its term), then the rubric "
            f"(settings and parts).\n# After editing the parts or settings, run `python -m "
            f"grader regen --course .` in this folder.\n[course]\nformat = {FORMAT}\n"
            f"term = {name}\nfrom = {json.dumps(origin)}\n{spoken}\n{body}")


def readme(term: str) -> str:
    return f"""# A course folder of the k-anonymity kit (term: {term})

**Keep this folder private** (a private repository, never the kit's public one): it holds
the key that draws this course's hidden cases, and those cases with their expected outputs.

| file | what it is |
|---|---|
| `course.toml` | the course's rubric (parts, points, cases, time limits) and, in `[course]`, the term |
| `secret` | a random 256-bit key, made once; every hidden case of every term is drawn from it. Never share it, never replace it: without it a term's hidden cases cannot be drawn again |
| `cases/` | this term's hidden datasets, expected outputs and `manifest.json` (public datasets are the kit's) |
| `README.md` | this file |

Every command takes the folder: `python -m grader grade SUBMISSIONS --course DIR --out grades`,
`check --course DIR`, `regen --course DIR [--term NAME]`, `materials`, `bundle`,
`gradescope`, `solution`, `merge`, `similarity`, `export`. `check --course DIR --against
autograder.zip` says whether a built zip or a graded folder belongs to this course's term.
"""


def new_course(folder: Path, origin: str, term: str, language: str | None = None) -> Path:
    """Write the course folder `folder` (missing or empty) from `origin` for `term` in
    `language` (None: the origin course's, else English); returns it. On any error nothing
    is left behind."""
    from .redraw import redraw
    from .folder import load_course
    folder = Path(folder)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise UserError(f"{folder}: {'not empty' if folder.is_dir() else 'a file'}; `course "
                        f"new` writes a new folder (give a new or empty folder's path)")
    if not folder.parent.is_dir():
        raise UserError(f"{folder}: the folder {folder.parent} does not exist")
    if language is not None:
        check_language(language, "--language")
    source = origin_rubric(origin)
    copied = load_rubric(source)  # a bad rubric is refused before anything is written
    if not copied.schema.is_default:
        raise UserError(f"--from {origin}: that course owns its data's shape ([data]); a "
                        f"private copy needs hidden data drawn from the course's own data "
                        f"model, which `course new` cannot do yet. Grade with the demo "
                        f"itself, or copy its folder and write your own hidden cases "
                        f"(docs/instructors.md, \"A course's own data and rules\")")
    if source.name == COURSE_FILE:
        read_course_table(source)
    text = course_toml(term, origin if origin in ORIGINS else source.name,
                       rubric_body(source.read_text(encoding="utf-8")),
                       language or copied.language)
    work = Path(tempfile.mkdtemp(prefix=f".{folder.name}.new-", dir=folder.parent))
    try:
        atomic_write_text(work / COURSE_FILE, text)
        atomic_write_text(work / README_FILE, readme(term))
        write_key(work, new_key())
        (work / CASES).mkdir()
        redraw(load_course(work), None)
        if folder.exists():
            folder.rmdir()
        work.rename(folder)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return folder
