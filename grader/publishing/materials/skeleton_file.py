"""skeleton.py of a course, assembled from the sources in `skeleton/` by its rubric: the
helpers (head), one stub per graded function in rubric order (a variant's rules in its
docstring), and the command line of the course's anonymizers."""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

from .course import CLI_NAMES, SIXTH, CourseView
from .handout import SOURCES as HANDOUT_SOURCES, fields
from .own_skeleton import OWN_DISPATCH, own_cli, own_stub, sixth_usage
from ...language import DEFAULT
from .template import render
from .words import tr
from .translations import section_text

SOURCES = Path(__file__).resolve().parent / "skeleton"
_CJK = "\u3000-\u303f\u3400-\u9fff\uff01-\uff65"
_CJK_SPACE = re.compile(f"([{_CJK}]) (?=[{_CJK}])")  # "默认 1） 或": no space inside Chinese


def _or_list(names: list[str], word: str = "or", sep: str = ", ") -> str:
    if len(names) < 2:
        return "".join(names)
    return f"{sep.join(names[:-1])} {word} {names[-1]}"


def _python_string(text: str, indent: int) -> str:
    """`text` as adjacent Python string literals wrapped to 99 columns at `indent`."""
    parts = textwrap.wrap(text, 99 - indent - 3, drop_whitespace=False,
                          break_on_hyphens=False)
    return ("\n" + " " * indent).join(repr(p).replace("'", '"') for p in parts)


def cli_fields(course: CourseView) -> dict[str, str]:
    """The command line's fields: choices, help texts and the ALGORITHMS table."""
    anonymizers = [f.name for f in course.anonymizers]
    cli = [CLI_NAMES[n] for n in anonymizers]
    _ = tr(course.language)
    with_extra = [n for n in anonymizers if n in SIXTH]
    without = [CLI_NAMES[n] for n in anonymizers if n not in SIXTH]
    comma = _(", ")
    meaning = {"random_anonymizer": _("the seed"),
               "bottomup_anonymizer": _("distinct l-diversity"),
               "samarati": _("most suppressed rows")}
    sixth = _("The sixth argument is {choices}").format(choices=_or_list(
        [_("{param} ({algorithm}: {meaning}, default {default})").format(
            param=SIXTH[n][0], algorithm=CLI_NAMES[n], meaning=meaning[n], default=SIXTH[n][1])
         for n in with_extra], _("or"), comma)) if with_extra else ""
    none = ((_("{algorithms} takes none.") if len(without) == 1 else
             _("{algorithms} take none.")).format(algorithms=_or_list(without, _("and"), comma))
            if without else "")
    epilog = (_("{sixth}; {none}").format(sixth=sixth, none=none) if sixth and none
              else _("{sixth}.").format(sixth=sixth) if sixth else none or ".")
    entries = [f'"{CLI_NAMES[n]}": ("{n}", {SIXTH[n][1] if n in SIXTH else None})'
               for n in anonymizers]
    lines = ["ALGORITHMS = {"]
    for i, entry in enumerate(entries):
        piece = entry + ("}" if i == len(entries) - 1 else ",")
        if len(lines[-1]) + len(piece) + 1 > 99 and lines[-1].strip() != "ALGORITHMS = {":
            lines.append(" " * 14)
        sep = "" if lines[-1].endswith(("{", " " * 14)) else " "
        lines[-1] += sep + piece
    table = "\n".join(lines) if entries else "ALGORITHMS = {}"
    own = course.own_functions
    if own:
        text = _("The functions of your course ({names}) take their arguments in the order of "
                 "their signature: python skeleton.py NAME --help.").format(
            names=_or_list([f.name for f in own], _("and"), comma))
        epilog = _("{first} {second}").format(first=epilog, second=text) if anonymizers else text
    usage = [f"    python skeleton.py <algorithm> <DGH-folder> <raw.csv> <out.csv> <k>"
             f"{sixth_usage(course)}"] if anonymizers or not own else []
    usage += ["    python skeleton.py " + f.name + " " + " ".join(
        f"<{p.name}>" for p in f.contract.params) for f in own]
    doc = _(
        "where <algorithm> is one of {algorithms}. Check yourself with `pytest` (see "
        "HANDOUT.md, \"Checking your work\").").format(algorithms=_or_list(cli, _("or"), _(", ")))
    if own and anonymizers:
        doc = _("where <algorithm> is one of {algorithms}; your course's own functions take "
                "their arguments in their signature's order. Check yourself with `pytest` "
                "(see HANDOUT.md, \"Checking your work\").").format(
            algorithms=_or_list(cli, _("or"), _(", ")))
    elif own:
        doc = _("Each line runs one of your course's own functions, its arguments in its "
                "signature's order. Check yourself with `pytest` (see HANDOUT.md, \"Checking "
                "your work\").")
    epilog = _CJK_SPACE.sub(r"\1", epilog)
    return {"cli_epilog": _python_string(epilog, 15),
            "cli_algorithms_plain": _or_list(cli),
            "cli_algorithms_help": _python_string(_or_list(cli, _("or"), comma), 24) or '""',
            "cli_algorithms_doc": textwrap.fill(doc, 96, break_on_hyphens=False),
            "cli_usage": "\n".join(usage),
            "cli_own_dispatch": OWN_DISPATCH if own else "",
            "cli_extra_metavar": " | ".join(SIXTH[n][0] for n in with_extra) or "none",
            "cli_extra_help": _("; ").join(
                _("{algorithm}: {param}").format(algorithm=CLI_NAMES[n], param=SIXTH[n][0])
                for n in with_extra) or _("no graded anonymizer takes one"),
            "cli_algorithms_dict": table + (own_cli(course) if own else ""),
            "cli_dgh_folders": _(", ").join(f.path for f in course.part_folders)}


def render_skeleton(course: CourseView, sources: Path = SOURCES) -> str:
    """The whole skeleton.py of `course` (its sections in the course's language)."""
    handout = sources.parent / "handout"
    values = {**fields(course, handout if handout.is_dir() else HANDOUT_SOURCES),
              **cli_fields(course)}
    features = course.features
    where = f"skeleton/{course.language}/" if course.language != DEFAULT else "skeleton/"

    def section(name: str) -> str:
        text = section_text(sources / name, course.language)
        return render(text, features, values, f"{where}{name}").rstrip("\n")
    parts = [section("head.py.txt")]
    parts += [own_stub(course, f.name) if f.own else section(f"{f.name}.py.txt")
              for f in course.functions]
    parts.append(section("cli.py.txt"))
    return re.sub(r"\n{4,}", "\n\n\n", "\n\n\n".join(parts)) + "\n"
