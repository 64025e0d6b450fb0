"""`python -m grader solution --course DIR --out solution.py`: a known-good solution for the
course, one self-contained module with exactly the course's graded functions (and rule
variants), standing on the kit's reference.

The module carries the sources of reference/ and kanon/ (renamed `_staff_reference` and
`_staff_kanon`, so it never shadows an installed kit) and serves them from memory with an
import finder, so it imports only the standard library and numpy: what the grader's sandbox
and the students' self-check allow. Its command line is the reference's. Staff use it to
check a bundle (`pytest --solution=solution.py`) and the autograder (it earns the autograded
total); it is the staff's answer key, never for students.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

from kanon.schema import DEFAULT as DEFAULT_SCHEMA, Schema

from ..contract import SIGNATURES
from ..errors import UserError
from ..imports import absolute_imports
from ..paths import KIT_ROOT
from ..parts.course_reference import reference_file
from ..rubric import Rubric

PREFIX = "_staff_"
PACKAGES = ("kanon", "kcheck", "reference")
LEFT_OUT = ("experiment", "check.py")  # staff tools the graded functions never import
_IMPORT = re.compile(r"^(\s*)(from|import)\s+(kanon|kcheck|reference)(?=[\s.])", re.MULTILINE)

LOADER = '''
import importlib.abc as _abc
import importlib.util as _util
import sys as _sys


class _Sources(_abc.MetaPathFinder, _abc.Loader):
    """Serves the modules above from memory (the standard library only)."""

    def find_spec(self, name, path=None, target=None):
        if name not in _SOURCES:
            return None
        return _util.spec_from_loader(name, self, is_package=_SOURCES[name][0])

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        package, source = _SOURCES[module.__name__]
        if package:
            module.__path__ = []
        exec(compile(source, "<staff solution: " + module.__name__ + ">", "exec"),
             module.__dict__)


if not any(isinstance(f, _Sources) for f in _sys.meta_path):
    _sys.meta_path.insert(0, _Sources())
'''


def graded(rubric: Rubric) -> list[tuple[str, str | None]]:
    """The course's (function, variant) pairs, in rubric order, each function once."""
    seen: dict[str, str | None] = {}
    for part in rubric.auto_parts:
        seen.setdefault(part.function, part.variant)
    return list(seen.items())


def _rename(source: str, where: str) -> str:
    renamed = _IMPORT.sub(lambda m: f"{m.group(1)}{m.group(2)} {PREFIX}{m.group(3)}", source)
    left = [n for n in absolute_imports(ast.parse(renamed)) if n.split(".")[0] in PACKAGES]
    if left:
        raise UserError(f"{where}: an import of {left[0]} the solution builder cannot rename")
    return renamed


def _sources(root: Path) -> dict[str, tuple[bool, str]]:
    """Module name -> (is a package, source), for kanon/, kcheck/ and reference/ (no staff
    tools)."""
    found: dict[str, tuple[bool, str]] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            rel = path.relative_to(root)
            if "__pycache__" in rel.parts or path.name.startswith(LEFT_OUT):
                continue
            parts = list(rel.with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts.pop()
            name = PREFIX + ".".join(parts)
            found[name] = (is_package, _rename(path.read_text(encoding="utf-8"), str(path)))
    return found


def _binding(function: str, variant: str | None, schema: Schema = DEFAULT_SCHEMA) -> str:
    """The lines binding the course's `function` to the embedded reference's (variant)
    function (the grader itself never imports the reference); with a course's schema, a
    function of the handout's signature calling it with that schema."""
    target = (f"_reference.VARIANTS[({function!r}, {variant!r})]" if variant
              else f"_reference.{function}")
    if schema.is_default:
        return f"{function} = {target}"
    params = ", ".join(SIGNATURES[function])
    return (f"\n\ndef {function}({params}):\n"
            f"    return {target}({params}, schema=_SCHEMA)\n")


def _course_bindings(rubric: Rubric, functions: list[str]) -> list[str]:
    """A course's own functions ([[function]]): its reference modules (the Python files of
    each reference's folder, served from memory under their own names) and a function of
    the contract's signature calling each reference."""
    if not functions:
        return []
    sources: dict[str, str] = {}
    for name in functions:
        folder = reference_file(rubric.functions[name], rubric.course_dir).parent
        for path in sorted(folder.glob("*.py")):
            sources.setdefault(path.stem, path.read_text(encoding="utf-8"))
    lines = ["", "_SOURCES.update({"]
    lines += [f"    {stem!r}: (False, {text!r})," for stem, text in sorted(sources.items())]
    lines += ["})"]
    for name in functions:
        contract = rubric.functions[name]
        file, _, attribute = contract.reference.partition(":")
        module = Path(file).stem
        params = ", ".join(contract.names)
        lines += ["", "", f"def {name}({params}):",
                  f"    from {module} import {attribute} as _reference_function",
                  f"    return _reference_function({params})"]
    return lines + [""]


def solution_source(rubric: Rubric, title: str, root: Path = KIT_ROOT) -> str:
    """The solution module's text for `rubric` (deterministic: same kit, same bytes)."""
    functions = graded(rubric)
    names = ", ".join(f + (f" ({v})" if v else "") for f, v in functions)
    sources = _sources(root)
    lines = [f'"""Staff solution of {title}: {names}.', "",
             "Written by `python -m grader solution` from the kit's reference (kanon-kit); "
             "the course's", "answer key, not for students. It imports only the standard "
             "library and numpy.", '"""', "_SOURCES = {"]
    for name in sorted(sources):
        is_package, text = sources[name]
        lines.append(f"    {name!r}: ({is_package}, {text!r}),")
    lines += ["}", LOADER, f"import {PREFIX}reference as _reference  # noqa: E402", ""]
    if not rubric.schema.is_default:  # the course's columns, suppression, hierarchy format
        lines += [f"from {PREFIX}kanon.schema import Schema as _Schema  # noqa: E402",
                  f"_SCHEMA = _Schema(**{rubric.schema.changes()!r})"]
    lines += [_binding(f, v, rubric.schema) for f, v in functions
              if f not in rubric.functions]
    lines += _course_bindings(rubric, [f for f, _ in functions if f in rubric.functions])
    lines += ["", "__all__ = [" + ", ".join(repr(f) for f, _ in functions) + "]", "",
              'if __name__ == "__main__":',
              f"    from {PREFIX}reference.__main__ import main  # the reference's command line",
              "    raise SystemExit(main())", ""]
    return "\n".join(lines)
