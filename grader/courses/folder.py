"""A course folder: what one course keeps, outside the kit, in its own private repository.

    DIR/course.toml   the rubric (settings and parts) and a [course] table: the term drawn,
                      the folder's format, what the course was made from and its language
                      (what students read; default "en", grader/language.py)
    DIR/secret        the course's 256-bit key (grader/courses/secret.py); never published
    DIR/README.md     what each file is, and that the folder must stay private
    DIR/cases/        this course's hidden datasets, expected outputs, manifest (and, when
                      the kit's own is stale, its counterexample pool); the public datasets
                      stay in the kit and are read from there, unless the course owns its
                      data (a private copy of courses/ustc: DIR/cases/public/)
    DIR/data-model.json  a course that owns its data: the model its [[data.hidden]]
                      datasets are drawn from (grader/rubric_model.py)

The kit's own example courses are *public demos* (`public_demo = true`): they name one of
the kit's example rubrics (`rubric = "../../grader/rubric.toml"`), have no secret and no
term, and their hidden cases are in the public repository.

`load_course(DIR)` reads and checks all of it; every mistake is one UserError naming the
file and the fix.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, replace
from pathlib import Path

from ..errors import UserError
from ..rubric import Rubric, load as load_rubric
from .secret import SECRET_FILE, read_key

COURSE_FILE = "course.toml"
README_FILE = "README.md"
CASES = "cases"
FORMAT = 1  # the course folder's format; a kit refuses a folder of a higher one
COURSE_KEYS = {"format", "term", "from", "public_demo", "rubric", "language"}


@dataclass(frozen=True)
class Course:
    """One course, as read from its folder."""

    folder: Path
    rubric: Rubric  # as written; the term is applied by grading.term_view
    term: str | None  # None: the kit's default cases (public demos only)
    public_demo: bool
    key: bytes | None  # the secret; None for a public demo
    origin: str = ""

    @property
    def file(self) -> Path:
        return self.folder / COURSE_FILE

    @property
    def cases_dir(self) -> Path:
        return self.rubric.cases_dir

    @property
    def language(self) -> str:
        """What its students read is in this language (course.language; default "en")."""
        return self.rubric.language

    def command(self, name: str, extra: str = "") -> str:
        """A command line naming this course, for messages: `python -m grader NAME --course
        DIR EXTRA`."""
        from ..prog import prog_name
        folder = str(self.folder)
        shown = f'"{folder}"' if " " in folder else folder
        return f"{prog_name()} {name} --course {shown}" + (f" {extra}" if extra else "")


def is_course_folder(path: Path) -> bool:
    """Whether `path` is a course folder (a folder holding course.toml)."""
    return path.is_dir() and (path / COURSE_FILE).is_file()


def read_course_table(path: Path) -> dict:
    """The [course] table of a course.toml, checked; UserError naming the file otherwise."""
    try:
        data = tomllib.loads(path.read_bytes().decode("utf-8"))
    except FileNotFoundError:
        raise UserError(f"{path}: not found; a course folder holds course.toml (make one with "
                        f"`python -m grader course new DIR --from default --term NAME`)"
                        ) from None
    except OSError as e:
        raise UserError(f"{path}: cannot read it ({e.strerror})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise UserError(f"{path}: not valid TOML: {e}") from None
    table = data.get("course")
    if not isinstance(table, dict):
        raise UserError(f"{path}: no [course] table; a course.toml starts with [course] "
                        f"(format, term), then the rubric")
    unknown = sorted(set(table) - COURSE_KEYS)
    if unknown:
        raise UserError(f"{path}: course.{unknown[0]}: unknown key; known: "
                        f"{', '.join(sorted(COURSE_KEYS))}")
    fmt = table.get("format", FORMAT)
    if not isinstance(fmt, int) or isinstance(fmt, bool) or fmt < 1:
        raise UserError(f"{path}: course.format: expected a positive integer, got {fmt!r}")
    if fmt > FORMAT:
        raise UserError(f"{path}: course.format: this course folder was written by a newer "
                        f"kit (format {fmt}; this kit reads format {FORMAT}); upgrade the kit "
                        f"(git pull, then pip install -e .) before using it")
    demo = table.get("public_demo", False)
    if not isinstance(demo, bool):
        raise UserError(f"{path}: course.public_demo: expected true or false, got {demo!r}")
    if "language" in table:
        from ..language import check_language
        check_language(table["language"], f"{path}: course.language")
    if "rubric" in table and not demo:
        raise UserError(f"{path}: course.rubric: only the kit's public demos point at another "
                        f"rubric; a course keeps its rubric in course.toml")
    if "term" in table:
        from ..authoring.terms import check_name
        table = {**table, "term": check_name(table["term"], f"{path}: course.term")}
    elif not demo:
        raise UserError(f"{path}: course.term: missing; set the term's name, e.g. "
                        f"term = \"Fall 2026\", then run `python -m grader regen --course "
                        f"{path.parent}`")
    return table


def load_course(folder: Path, overrides: dict[str, object] | None = None) -> Course:
    """Read the course folder `folder`: its course.toml (rubric and [course] table) and,
    unless it is a public demo, its secret."""
    folder = Path(folder)
    if not folder.is_dir():
        what = "not a folder" if folder.exists() else "no such folder"
        raise UserError(f"--course {folder}: {what}; make a course with `python -m grader "
                        f"course new {folder} --from default --term NAME`")
    folder = folder.resolve()
    path = folder / COURSE_FILE
    table = read_course_table(path)
    demo = table.get("public_demo", False)
    rubric_path = (folder / table["rubric"]).resolve() if "rubric" in table else path
    rubric = load_rubric(rubric_path, overrides)
    if "language" in table:  # a public demo's rubric is another file
        rubric = replace(rubric, language=table["language"])
    if not demo and rubric.cases_dir != (folder / CASES).resolve():
        raise UserError(f"{path}: settings.cases_dir: a course keeps its cases in {CASES}/ "
                        f"beside course.toml; remove the setting")
    key = None if demo else read_key(folder)
    return Course(folder, rubric, table.get("term"), demo, key, str(table.get("from", "")))


def resolve(path: Path | None, overrides: dict[str, object] | None = None
            ) -> tuple[Rubric, Course | None]:
    """What `--course PATH` names: a course folder (its rubric and the course) or, for the
    kit's own example rubrics, a rubric file (no course). None: the kit's default rubric."""
    if path is not None and (Path(path).is_dir() or _missing_folder(Path(path))):
        course = load_course(Path(path), overrides)  # a missing folder: named as one
        return course.rubric, course
    if path is not None and Path(path).name == COURSE_FILE and _has_course_table(Path(path)):
        course = load_course(Path(path).parent, overrides)
        return course.rubric, course
    return load_rubric(path, overrides), None


def _missing_folder(path: Path) -> bool:
    """Whether `path` names nothing and is no TOML file's name: a course folder misspelt."""
    return not path.exists() and path.suffix.lower() != ".toml"


def _has_course_table(path: Path) -> bool:
    """Whether the TOML file `path` has a [course] table (else it is a plain rubric)."""
    try:
        return "course" in tomllib.loads(path.read_bytes().decode("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False  # the rubric loader reports it


def with_cases(rubric: Rubric, cases_dir: Path) -> Rubric:
    """`rubric` reading its cases from `cases_dir` (an absolute folder)."""
    return replace(rubric, settings=replace(rubric.settings, cases_dir=str(cases_dir)),
                   term_applied=False)  # another folder: its own term


__all__ = ["Course", "COURSE_FILE", "README_FILE", "CASES", "FORMAT", "SECRET_FILE",
           "is_course_folder", "load_course", "read_course_table", "resolve", "with_cases"]
