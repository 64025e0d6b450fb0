"""`python -m grader course new DIR --from default|fall2025|all|examples|ustc|RUBRIC|FOLDER
--term NAME [--language en|zh-CN]`: a new course folder (grader/courses/folder.py), with its
own secret and this term's hidden cases, written whole or not at all (built in a temporary
folder beside DIR, then renamed).

A course that owns its data (courses/ustc: its rubric's cases_dir holds public/ datasets, and
its [data] table names a data model and [[data.hidden]] draws, grader/rubric_model.py) is
copied with its public datasets and hierarchies (DIR/cases/public/) and its model file; its
hidden datasets are drawn anew from the model with the new course's secret
(grader/authoring/model_draw.py), never copied.
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
from ..paths import KIT_CASES
from ..rubric import Rubric, load as load_rubric
from ..rubric_model import DataModel, model_of
from .origins import ORIGINS
from .folder import CASES, COURSE_FILE, FORMAT, README_FILE, is_course_folder, read_course_table
from .secret import new_key, write_key

_TABLE = re.compile(r"^\s*\[\[?\s*([A-Za-z_.]+)\s*\]\]?\s*(#.*)?$")
_CASES_DIR = re.compile(r"^\s*cases_dir\s*=.*$")


def origin_rubric(origin: str) -> Path:
    """The rubric file --from names: an example course's name, a rubric file or a course
    folder (its rubric, never its secret)."""
    path = ORIGINS.get(origin, Path(origin))
    if is_course_folder(path):
        table = read_course_table(path / COURSE_FILE)
        return path / table["rubric"] if "rubric" in table else path / COURSE_FILE
    if path.is_file():
        return path
    raise UserError(f"--from {origin}: neither an example course ({', '.join(ORIGINS)}) nor a "
                    f"rubric file nor a course folder")


def origin_language(origin: str) -> str | None:
    """The language the --from course folder's [course] table sets (a demo's rubric is
    another file), None for a rubric file or when it sets none."""
    path = ORIGINS.get(origin, Path(origin))
    if is_course_folder(path):
        return read_course_table(path / COURSE_FILE).get("language")
    return None


def own_public(rubric: Rubric) -> Path | None:
    """The public datasets the rubric's course owns (its cases_dir/public/, e.g.
    courses/ustc/cases/public), None when it reads the kit's."""
    public = rubric.cases_dir / "public"
    if rubric.cases_dir.resolve() == KIT_CASES.resolve() or not public.is_dir():
        return None
    return public


def _check_data(origin: str, source: Path, rubric: Rubric, model: DataModel | None,
                public: Path | None) -> None:
    """UserError, before anything is written, when a case's dataset is neither a public
    dataset the copy gets nor a hidden one it can draw (the kit's, or the model's)."""
    from ..authoring.casegen import HIDDEN
    from ..authoring.model_draw import load_model
    drawn = {f"hidden/{name}" for name in HIDDEN}
    if model is not None:
        load_model(source, model)  # the model file is there and is a model
        drawn |= {d.data for d in model.hidden}
        for i, d in enumerate(model.hidden, start=1):
            if not ((public.parent if public else KIT_CASES) / d.hierarchies).is_dir():
                raise UserError(f"{source}: data.hidden[{i}].hierarchies: no dataset "
                                f"{d.hierarchies!r} in the course")
    for case in rubric.cases():
        where = (public.parent if public else KIT_CASES) / case.data
        if case.data in drawn or (case.data.startswith("public/") and where.is_dir()):
            continue
        raise UserError(f"--from {origin}: case {case.id} uses the dataset {case.data!r}, "
                        f"which a private copy cannot draw: declare it in a [[data.hidden]] "
                        f"table of {source} (drawn from the course's data model, "
                        f"docs/instructors.md, \"A course's own data and rules\")")


def own_files(rubric: Rubric) -> list[Path]:
    """The staff files of a course's own parts ([[function]]): every file of each
    reference's folder (its helper modules too) and the course's handout/ sections."""
    from ..parts.course_reference import reference_file
    folders = {reference_file(c, rubric.course_dir).parent for c in rubric.functions.values()}
    if rubric.functions and (rubric.course_dir / "handout").is_dir():
        folders.add(rubric.course_dir / "handout")
    return sorted(p for folder in folders for p in folder.rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts)


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


def readme(term: str, model: str | None = None, public: bool = False) -> str:
    where = ("`cases/public/`: the course's own public datasets and hierarchies, which the "
             "students get too" if public else "public datasets are the kit's")
    model_row = (f"| `{model}` | the course's data model: each term's hidden datasets are "
                 f"drawn from it (`[[data.hidden]]` in `course.toml`) |\n" if model else "")
    return f"""# A course folder of the k-anonymity kit (term: {term})

**Keep this folder private** (a private repository, never the kit's public one): it holds
the key that draws this course's hidden cases, and those cases with their expected outputs.

| file | what it is |
|---|---|
| `course.toml` | the course's rubric (parts, points, cases, time limits) and, in `[course]`, the term |
| `secret` | a random 256-bit key, made once; every hidden case of every term is drawn from it. Never share it, never replace it: without it a term's hidden cases cannot be drawn again |
| `cases/` | this term's hidden datasets, expected outputs and `manifest.json` ({where}) |
{model_row}| `README.md` | this file |

Every command takes the folder: `python -m grader grade SUBMISSIONS --course DIR --out grades`,
`check --course DIR`, `regen --course DIR [--term NAME]`, `materials`, `bundle`,
`gradescope`, `solution`, `merge`, `similarity`, `export`. `check --course DIR --against
autograder.zip` says whether a built zip or a graded folder belongs to this course's term.
"""


def new_course(folder: Path, origin: str, term: str, language: str | None = None) -> Path:
    """Write the course folder `folder` (missing or empty) from `origin` for `term` in
    `language` (None: the origin course's, else English); returns it. On any error nothing
    is left behind."""
    from .redraw import keep_public, redraw
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
    if source.name == COURSE_FILE:
        read_course_table(source)
    model = model_of(source)
    public = own_public(copied)
    if not copied.schema.is_default and public is None:
        raise UserError(f"--from {origin}: that course owns its data's shape ([data]) but not "
                        f"its public data ({copied.cases_dir / 'public'} is missing); start "
                        f"from its course folder")
    _check_data(origin, source, copied, model, public)
    text = course_toml(term, origin if origin in ORIGINS else source.name,
                       rubric_body(source.read_text(encoding="utf-8")),
                       language or origin_language(origin) or copied.language)
    work = Path(tempfile.mkdtemp(prefix=f".{folder.name}.new-", dir=folder.parent))
    try:
        atomic_write_text(work / COURSE_FILE, text)
        atomic_write_text(work / README_FILE, readme(term, model.model if model else None,
                                                     public is not None))
        write_key(work, new_key())
        (work / CASES).mkdir()
        if public is not None:  # the course's own public data, hierarchies and their pool
            keep_public(public.parent, work / CASES)
        if model is not None:  # its data model, where the rubric names it
            (work / model.model).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(model.path(source), work / model.model)
        for path in own_files(copied):  # its own parts' references and handout sections
            target = work / path.relative_to(copied.course_dir)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
        redraw(load_course(work), None)
        if folder.exists():
            folder.rmdir()
        work.rename(folder)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return folder
