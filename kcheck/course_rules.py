"""The rules a course sets for student code, one statement for the grader and the self-check:
how much CPU time a call gets and which packages the code may import.

- `cpu_limit(base, per_1000, rows)`: a call's CPU-time limit, `base` seconds plus `per_1000`
  per 1,000 data rows of its dataset, rounded to 0.1 s (the rubric's `time_limit` and
  `time_per_1000_rows`).
- `rule(allowed)` / `unavailable(name, allowed)`: the sentence a student reads when their code
  imports a package the course does not allow (the module's name is the student's text).
- `imports(source, filename)`: every absolute import of a Python file (top-level package and
  line), the static view the self-check uses to warn before a call.

Standard library only: this module ships to students.
"""
from __future__ import annotations

import ast

from .text import Joined, Message, Verbatim

__all__ = ["cpu_limit", "rule", "unavailable", "imports"]


def cpu_limit(base: float, per_1000: float, rows: int) -> float:
    """`base` seconds plus `per_1000` seconds per 1,000 of `rows`, rounded to 0.1 s."""
    return round(base + per_1000 * rows / 1000, 1)


def rule(allowed: list[str]) -> Message:
    """"only numpy and the standard library": what a course lets its student code import."""
    names = sorted(allowed)
    return (Message("only the standard library") if not names else
            Message("only {names} and the standard library", names=Joined(names)))


def unavailable(name: str, allowed: list[str]) -> Message:
    """What a student reads when their code imports `name`, which the course does not allow."""
    return Message("{name} is not available: this course allows {rule}", name=Verbatim(name),
                   rule=rule(allowed))


def imports(source: str, filename: str) -> list[tuple[str, int]]:
    """(top-level package, line) of every absolute import in `source` (inside functions too);
    [] when it does not parse (the import itself reports that)."""
    try:
        tree = ast.parse(source, filename=filename)
    except (SyntaxError, ValueError):
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(a.name.partition(".")[0], node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.module.partition(".")[0], node.lineno))
    return found
