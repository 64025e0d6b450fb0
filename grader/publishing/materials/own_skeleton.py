"""skeleton.py's parts for a course's own functions (rubric [[function]]): a stub per function
with the exact signature of its contract and a docstring pointing to its handout section (in
the course's language), and the command line that runs one of them (`python skeleton.py NAME
ARGUMENT ...`, the arguments in the contract's order). Nothing here is used by a course
without functions of its own, whose skeleton.py stays as it was."""
from __future__ import annotations

import textwrap
from pathlib import Path

from .course import CourseView, SIXTH
from .handout import heading
from .translations import section_text
from .words import tr

__all__ = ["OWN_DISPATCH", "own_cli", "own_stub", "sixth_usage"]

OWN_DISPATCH = """
    if not ALGORITHMS or (argv and argv[0] in COURSE_FUNCTIONS):
        return _run_course_function(argv)"""
"""The first lines of the command line's _run in a course with functions of its own (the
skeleton source's {{cli_own_dispatch}}: empty for every other course)."""

RUNNER = Path(__file__).resolve().parent / "skeleton" / "_own_runner.py.txt"
"""The function that runs one of the course's own functions (a skeleton source, translated as
the others are: skeleton/LANG/_own_runner.py.txt; `@DOC@` is its docstring)."""


def sixth_usage(course: CourseView) -> str:
    """' [l | max_sup]': the kit command line's optional sixth argument."""
    sixth = [SIXTH[f.name][0] for f in course.anonymizers if f.name in SIXTH]
    return f" [{' | '.join(sixth)}]" if sixth else ""


def _table(course: CourseView) -> str:
    """COURSE_FUNCTIONS = {name: ((param, kind), ...)}, one function per line (wrapped)."""
    lines = ["COURSE_FUNCTIONS = {"]
    for f in course.own_functions:
        pieces = [f'("{p.name}", "{p.kind}")' for p in f.contract.params]
        start = f'    "{f.name}": ('
        line = start
        for i, piece in enumerate(pieces):
            end = ("," if len(pieces) == 1 else "") + ")," if i == len(pieces) - 1 else ", "
            if len(line) + len(piece) + len(end.rstrip()) > 99 and line.strip() != start.strip():
                lines.append(line.rstrip())
                line = " " * len(start)
            line += piece + end
        lines.append(line.rstrip())
    lines.append("}")
    return "\n".join(lines)


def own_cli(course: CourseView) -> str:
    """What follows the ALGORITHMS table in a course with functions of its own: the table of
    their parameters and the function that runs one of them."""
    _ = tr(course.language)
    doc = textwrap.fill(_("Run one of your course's own functions from the command line: "
                          "`python skeleton.py NAME ARGUMENT ...`, the arguments in its "
                          "signature's order; the exit status as for the algorithms."),
                        88, subsequent_indent="    ", break_on_hyphens=False)
    comment = "# " + _("your course's own function -> its parameters (name, kind), in order")
    runner = section_text(RUNNER, course.language).rstrip("\n")
    return f"\n\n{comment}\n{_table(course)}\n\n\n" + runner.replace("@DOC@", doc)


def own_stub(course: CourseView, name: str) -> str:
    """A course's own function's stub: its exact signature (the contract's parameters, no
    annotations), a docstring naming its handout section (in the course's language), and
    NotImplementedError."""
    _ = tr(course.language)
    f = course.function(name)
    head = f"def {name}("
    params = textwrap.wrap(", ".join(f.contract.names) + "):", 99 - len(head),
                           break_on_hyphens=False)
    signature = head + ("\n" + " " * len(head)).join(params)
    title = heading(course, name, _)
    doc = textwrap.fill(_("Your course's own function: its rules are in HANDOUT.md, section "
                          "\"{heading}\".").format(heading=title.replace(" ", "\0")),
                        88, subsequent_indent="    ", break_on_hyphens=False,
                        break_long_words=False).replace("\0", " ")
    return f'{signature}\n    """{doc}"""\n    raise NotImplementedError("{name}")'
