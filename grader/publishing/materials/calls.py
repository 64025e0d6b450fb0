"""The handout's fields about calling the graded functions: the `pytest -k` lines of
"Checking your work", the command-line examples and the bad-input rule on integer arguments
(a course's own functions' integers from their contracts)."""
from __future__ import annotations

import textwrap

from ...contract import CHOICE_PARAMS, int_params
from . import words
from .course import CLI_NAMES, SIXTH, CourseView

__all__ = ["pytest_k_lines", "cli_examples", "dgh_folder_list", "int_rule"]


def pytest_k_lines(course: CourseView, _: words.Translate = str) -> str:
    """`pytest -k <marker>  # one function: ...` with the comment wrapped under itself."""
    first = next((f.marker for f in course.functions if f.marker == "clustering"),
                 course.functions[0].marker if course.functions else "cost_MD")
    command = f"pytest -k {first}".ljust(40)
    width, sep = 95 - len(command) - 2, _(", ")
    markers = [f.marker for f in course.functions]
    if " " in sep:
        wrapped = textwrap.wrap(_("one function: ") + sep.join(markers), width,
                                break_on_hyphens=False)
    else:  # a list without spaces (Chinese "、"): wrapped between its items
        wrapped = [_("one function: ")]
        for i, marker in enumerate(markers):
            piece = marker + (sep if i < len(markers) - 1 else "")
            if len(wrapped[-1]) + len(piece) > width and wrapped[-1] != _("one function: "):
                wrapped.append("")
            wrapped[-1] += piece
    return "\n".join((command if i == 0 else " " * 40) + ("# " if i == 0 else "#   ") + w
                     for i, w in enumerate(wrapped))


CLI_EXAMPLES = {"clustering_anonymizer": "4", "mondrian": "8", "topdown_anonymizer": "4",
                "bottomup_anonymizer": "16 2", "samarati": "10 50", "random_anonymizer": "4 7"}


def cli_examples(course: CourseView) -> str:
    """Up to two command lines: one anonymizer without a sixth argument, one with; with
    per-part hierarchy folders, one line per anonymizer's part, with its folder."""
    if course.part_folders:
        return "\n".join(_cli_line(f.function, f.path) for f in course.part_folders
                          if f.function in CLI_EXAMPLES)
    names = course.names
    plain = [n for n in CLI_EXAMPLES if n in names and n not in SIXTH][:1]
    extra = [n for n in ("bottomup_anonymizer", "samarati", "random_anonymizer")
             if n in names][:1]
    return "\n".join(_cli_line(n, course.dgh_folder(n)) for n in plain + extra)


def _cli_line(function: str, dghs: str) -> str:
    return (f"python skeleton.py {CLI_NAMES[function]} {dghs} adult-hw1.csv anonymized.csv "
            f"{CLI_EXAMPLES[function]}")


def dgh_folder_list(course: CourseView, _: words.Translate = str) -> str:
    """`DGHs/samarati/`, `DGHs/mondrian/`, ...: each part's hierarchy folder."""
    return _(", ").join(f"`{f.path}/`" for f in course.part_folders)


def int_rule(course: CourseView, _: words.Translate = str) -> str:
    """The bad-input rule on the course's integer parameters ('k, s and ... must be ...')."""
    names = list(dict.fromkeys(
        p for f in course.functions
        for p in ([q.name for q in f.contract.params if q.kind == "int"] if f.own
                  else int_params(f.name)) if p not in CHOICE_PARAMS))
    if not names:
        return _("Every argument is a file or folder path (`str`).")
    listed = names[0] if len(names) == 1 else f"{_(', ').join(names[:-1])} {_('and')} {names[-1]}"
    return (_("{names} must be an integer: Python `int` or numpy integers, but **not `bool`**. "
              "Otherwise `ValueError`.") if len(names) == 1 else
            _("{names} must be integers: Python `int` or numpy integers, but **not `bool`**. "
              "Otherwise `ValueError`.")).format(names=listed)
