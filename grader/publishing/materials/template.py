"""The section sources' small template language (line-based, so Markdown and Python alike).

    {{name}}                  replaced by the value of `name` (an unknown name is an error)
    <!-- if a b !c -->        the lines up to the matching `<!-- else -->` / `<!-- end -->`
    # <!-- if a -->           are kept when ANY token holds; `!c` holds when c does not.
                              Blocks nest; a line holding only a marker is dropped. The
                              `# ` form is the same marker inside Python sources.
    {{?a b: text}}            `text` (no braces in it) when any token holds, else nothing

A token is a course feature (grader.publishing.materials.course.CourseView.features), e.g.
`mondrian`, `clustering_anonymizer:lm-only`, `manual:report`. Errors name the source and line.
"""
from __future__ import annotations

import re
from collections.abc import Mapping

from ...errors import UserError

_MARKER = re.compile(r"^\s*(?:#\s*)?<!--\s*(if\s+(?P<expr>[^>]*?)|else|end)\s*-->\s*$")
_FIELD = re.compile(r"\{\{([A-Za-z0-9_.:-]+)\}\}")
_INLINE = re.compile(r"\{\{\?([^:{}]+):([^{}]*)\}\}")


def _holds(expr: str, features: frozenset[str]) -> bool:
    tokens = expr.replace(",", " ").split()
    if not tokens:
        raise ValueError("an `if` needs at least one feature")
    return any((t[1:] not in features) if t.startswith("!") else (t in features)
               for t in tokens)


def render(text: str, features: frozenset[str], values: Mapping[str, str], source: str) -> str:
    """`text` with its blocks decided by `features` and its fields filled from `values`."""
    out: list[str] = []
    stack: list[tuple[bool, bool, int]] = []  # (this branch kept, parent kept, line of `if`)
    keep = True
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        marker = _MARKER.match(line)
        where = f"{source}, line {number}"
        if marker:
            word = marker.group(1).split()[0]
            if word == "if":
                try:
                    holds = _holds(marker.group("expr"), features)
                except ValueError as e:
                    raise UserError(f"{where}: {e}") from None
                stack.append((holds, keep, number))
                keep = keep and holds
            elif not stack:
                raise UserError(f"{where}: `{word}` without an `if`")
            elif word == "else":
                holds, parent, start = stack[-1]
                stack[-1] = (not holds, parent, start)
                keep = parent and not holds
            else:
                keep = stack.pop()[1]
            continue
        if keep:
            line = _INLINE.sub(lambda m: m.group(2) if _holds(m.group(1), features) else "",
                               line)
            out.append(_FIELD.sub(lambda m: _value(m.group(1), values, where), line))
    if stack:
        raise UserError(f"{source}, line {stack[-1][2]}: `if` without an `end`")
    return "".join(out)


def _value(name: str, values: Mapping[str, str], where: str) -> str:
    if name not in values:
        raise UserError(f"{where}: unknown field {{{{{name}}}}}")
    return values[name]


def features_used(text: str) -> set[str]:
    """Every feature token a source's `if` markers test (for the kit's own checks)."""
    found: set[str] = set()
    for line in text.splitlines():
        marker = _MARKER.match(line)
        if marker and marker.group("expr"):
            found |= {t.lstrip("!") for t in marker.group("expr").replace(",", " ").split()}
    return found
