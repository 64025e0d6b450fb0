"""HANDOUT.md's parts for a course's own functions (rubric [[function]]): each one's section
comes from the course folder, handout/<function>.md, in the course's language (its fields
filled as the kit's sections' are, plus {{signature}} and {{points}}); their command lines
are a section source of the kit's (command-line-own.md). Nothing here is used by a course
without functions of its own."""
from __future__ import annotations

from pathlib import Path

from ...errors import UserError
from . import words
from .course import CourseView

__all__ = ["OWN", "COMMANDS", "own_section", "course_override", "signature", "own_usage", "own_examples",
           "own_fields"]

OWN = "<own>"
"""The source of a course's own function's section: handout/<function>.md in the course
folder, written in the course's language (own_section)."""
COMMANDS = "command-line-own"
"""The command lines of a course's own functions: under "Command line" when the course grades
a kit anonymizer too, else that section itself."""
EXAMPLE_ARGS = {"raw": "adult-hw1.csv", "dghs": "DGHs", "anonymized": "anonymized.csv",
                "output": "out.csv"}


def own_section(course: CourseView, name: str) -> Path:
    """Where the course's own function `name` has its handout section (UserError naming the
    path when it is missing)."""
    path = course.course_dir / "handout" / f"{name}.md"
    if not path.is_file():
        raise UserError(f"{path}: missing: the handout section of the course's own function "
                        f"{name} (rubric [[function]]), written in the course's language "
                        f"({course.language}); its fields are those of the kit's sections, "
                        f"e.g. {{{{meta}}}} and {{{{signature}}}}")
    return path


def course_override(course: CourseView, source: str, subject: str | None
                    ) -> tuple[Path, str] | None:
    """A kit section the course words its own way: handout/<section>.md in the course folder
    (in the course's language, the kit's fields filled as in the kit's section; an empty
    file leaves the section out), for a course with functions of its own, whose data and
    judges the kit's general sections may not describe (the Top-Down Greedy lab: its intro,
    its files, no MD/LM). None: the kit's section."""
    if not course.own_functions or subject in course.names:
        return None  # (a staff part's section, e.g. report.md, may be worded too)
    path = course.course_dir / "handout" / f"{source}.md"
    return (path, path.read_text(encoding="utf-8")) if path.is_file() else None


def signature(course: CourseView, name: str) -> str:
    """A function's signature as the handout shows it: 'f(a: str, k: int, out: str)'."""
    contract = course.function(name).contract
    kinds = {"int": "int", "choice": "str"}
    return f"{name}(" + ", ".join(f"{p.name}: {kinds.get(p.kind, 'str')}"
                                  for p in contract.params) + ")"


def own_usage(course: CourseView) -> list[str]:
    """`python skeleton.py NAME <param> ...` of each of the course's own functions."""
    return [f"python skeleton.py {f.name} " + " ".join(f"<{p.name}>" for p in f.contract.params)
            for f in course.own_functions]


def own_examples(course: CourseView) -> list[str]:
    """One command line per own function, with example arguments."""
    lines = []
    for f in course.own_functions:
        args = [EXAMPLE_ARGS.get(p.kind) or (p.choices[0] if p.choices else
                                              str(max(p.minimum or 0, 4)))
                for p in f.contract.params]
        lines.append(f"python skeleton.py {f.name} {' '.join(args)}")
    return lines


def own_fields(course: CourseView, _: words.Translate) -> dict[str, str]:
    """`own_usage`, `own_examples` (command lines), `own_list`, `own_heading` (the "Command
    line" heading when no kit anonymizer has it) and `own_checking` (where their public cases
    are: "Checking your work")."""
    title = words.titles(str)["command-line"]
    return {"own_usage": "\n".join(own_usage(course)),
            "own_examples": "\n".join(own_examples(course)),
            "own_list": words.listing(_, [f.name for f in course.own_functions], _("and")),
            "own_checking": "" if not course.own_functions else " " + _(
                "The public cases of your course's own functions ({names}) are in "
                "`tests/public/data/course/` (`cases.json`, and the data folders they read); "
                "their results are judged by `kcheck/`, the checker the grader uses, and a "
                "failure names the first rule broken.").format(
                names=words.listing(_, [f.name for f in course.own_functions], _("and"))),
            "own_heading": "" if course.anonymizers or not course.own_functions else
            f"## {words.titles(_)['command-line']}{words.anchor_tag(course.language, title)}"}
