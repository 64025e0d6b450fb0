"""Static checks of a solution file, by parsing it (never by importing it).

For each graded function: is it defined at the top level, can it be called with the
contract's positional arguments, and does it do anything beyond `raise NotImplementedError`?
A function that is missing may have been renamed: the closest top-level function (by name, or
with the contract's parameter names) is suggested.
"""
from __future__ import annotations

import ast
import difflib
from dataclasses import dataclass, field

from kcheck.text import Message, Verbatim

from ..contract import FUNCTIONS, OPTIONAL_FUNCTIONS, SIGNATURES
from .notes import Note

Signatures = dict[str, tuple[str, ...]]
"""Graded function -> its parameters' names: the kit's (SIGNATURES) and a course's own
(rubric `[[function]]`, which are always checked: the course grades them)."""


def _(text: str) -> str:
    """Marks a message for the catalog (grader/catalogs.py extracts `_("...")`)."""
    return text


KEYWORD_NOTE = _("`{name}({shown})`: the handout's parameter names in another order (the "
                 "handout's is `{name}({expected})`); called by keyword, so each value reaches "
                 "the parameter of that name.")
POSITION_NOTE = _("`{name}`: parameter names ({shown}) differ from the handout's ({expected}); "
                  "graded by position, as the handout calls it.")


@dataclass
class FunctionCheck:
    """The static verdict on one graded function.

    state: "ok", "indirect" (bound by an import or assignment: checked when imported),
    "missing", "signature" (cannot be called with the contract's arguments) or
    "not-attempted" (the body only raises NotImplementedError or does nothing).
    """

    name: str
    state: str
    message: str = ""  # a Note keeps its message as data (grader/grading/notes.py)
    notes: list[str] = field(default_factory=list)


@dataclass
class StaticReport:
    syntax_error: str = ""
    functions: dict[str, FunctionCheck] = field(default_factory=dict)

    def attempted(self) -> int:
        return sum(c.state in ("ok", "indirect") for c in self.functions.values())


def graded_names(tree: ast.Module, own: Signatures | None = None) -> set[str]:
    """Graded names bound at the top level (def, import, assignment); `own`: a course's own
    functions."""
    known = {**SIGNATURES, **(own or {})}
    return {name for name in _top_level_bindings(tree) if name in known}


def _top_level_bindings(tree: ast.Module) -> dict[str, ast.AST]:
    bound: dict[str, ast.AST] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound[node.name] = node
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                bound[(alias.asname or alias.name).partition(".")[0]] = node
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for n in ast.walk(target):
                    if isinstance(n, ast.Name):
                        bound[n.id] = node
    return bound


def positional_problem(params: list[tuple[str, str, bool]], arity: int) -> str:
    """Why a function with these parameters (name, kind, has_default) — kinds as in
    inspect.Parameter — cannot be called with `arity` positional arguments ("" if it can)."""
    positional = [p for p in params if p[1] in ("POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD")]
    required = [p for p in positional if not p[2]]
    varargs = any(p[1] == "VAR_POSITIONAL" for p in params)
    kw_required = [p[0] for p in params if p[1] == "KEYWORD_ONLY" and not p[2]]
    if len(required) > arity:
        return Note(Message("it requires {n} arguments, the contract passes {arity}",
                            n=len(required), arity=arity))
    if len(positional) < arity and not varargs:
        return Note(Message("it takes {n} arguments, the contract passes {arity}",
                            n=len(positional), arity=arity))
    if kw_required:
        return f"it requires keyword-only argument(s) {', '.join(kw_required)}"
    return ""


def ast_params(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[tuple[str, str, bool]]:
    """A function's parameters as (name, kind, has_default)."""
    a = node.args
    positional = [(p.arg, "POSITIONAL_ONLY") for p in a.posonlyargs] + \
                 [(p.arg, "POSITIONAL_OR_KEYWORD") for p in a.args]
    first_default = len(positional) - len(a.defaults)
    params = [(name, kind, i >= first_default) for i, (name, kind) in enumerate(positional)]
    if a.vararg:
        params.append((a.vararg.arg, "VAR_POSITIONAL", True))
    params += [(p.arg, "KEYWORD_ONLY", d is not None) for p, d in zip(a.kwonlyargs, a.kw_defaults)]
    if a.kwarg:
        params.append((a.kwarg.arg, "VAR_KEYWORD", True))
    return params


def signature_check(name: str, params: list[tuple[str, str, bool]],
                    expected: tuple[str, ...] | None = None) -> tuple[str, str, list[str]]:
    """(state, message, notes) for a graded function with these parameters (`expected`: its
    contract's names, the kit's when None)."""
    expected = expected or SIGNATURES[name]
    problem = positional_problem(params, len(expected))
    shown = ", ".join(p[0] for p in params)
    if problem:
        return ("signature", f"`{name}({shown})` cannot be called as "
                f"`{name}({', '.join(expected)})`: {problem}", [])
    names = [p[0] for p in params if p[1] in ("POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD")]
    notes = []
    if keyword_order(params, name, expected):
        notes.append(Note(Message(KEYWORD_NOTE, name=name, shown=Verbatim(shown),
                                  expected=", ".join(expected))))
    elif names[: len(expected)] != list(expected):
        notes.append(Note(Message(POSITION_NOTE, name=name, shown=Verbatim(shown),
                                  expected=", ".join(expected))))
    return "ok", "", notes


def keyword_order(params: list[tuple[str, str, bool]], name: str,
                  expected: tuple[str, ...] | None = None) -> bool:
    """Whether the function's parameters that the handout passes are exactly the handout's
    names in another order (another year's signature): then it is called by keyword.
    Parameters beyond those must have defaults; none may be positional-only."""
    expected = expected or SIGNATURES[name]
    named = [p for p in params if p[1] == "POSITIONAL_OR_KEYWORD"]
    if any(p[1] == "POSITIONAL_ONLY" for p in params) or len(named) < len(expected):
        return False
    first = [p[0] for p in named[: len(expected)]]
    rest_ok = all(p[2] for p in named[len(expected):])
    return sorted(first) == sorted(expected) and first != list(expected) and rest_ok


def _is_stub(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """The body is only a docstring, `pass`, `...` and/or `raise NotImplementedError`."""
    for stmt in node.body:
        if isinstance(stmt, ast.Pass):
            continue
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue  # docstring or `...`
        if isinstance(stmt, ast.Raise) and stmt.exc is not None:
            exc = stmt.exc.func if isinstance(stmt.exc, ast.Call) else stmt.exc
            if isinstance(exc, ast.Name) and exc.id == "NotImplementedError":
                continue
        return False
    return True


def _rename_hint(name: str, functions: dict[str, ast.FunctionDef], known: Signatures) -> str:
    candidates = [f for f in functions if f not in known]
    normal = {c.lower().replace("_", ""): c for c in candidates}
    key = name.lower().replace("_", "")
    match = normal.get(key)
    if match is None:
        close = difflib.get_close_matches(name, candidates, n=1, cutoff=0.6)
        match = close[0] if close else None
    if match is None:
        for c in candidates:
            params = [p[0] for p in ast_params(functions[c])]
            if params == list(known[name]):
                match = c
                break
    if match is None:
        return ""
    node = functions[match]
    shown = ", ".join(p[0] for p in ast_params(node))
    return f" Found `{match}({shown})` on line {node.lineno}: was it renamed? The grader calls " \
           f"`{name}` by the handout's name."


def missing(name: str) -> FunctionCheck:
    """The verdict on a graded function the file does not define (an optional part's)."""
    return FunctionCheck(name, "missing", Note(Message(
        "`{name}` is not defined at the top level of the file.", name=name)))


def check_source(source: str | bytes, filename: str = "solution.py",
                 own: Signatures | None = None) -> StaticReport:
    """The static report of one solution file; `own`: a course's own functions."""
    known = {**SIGNATURES, **(own or {})}
    try:
        tree = ast.parse(source, filename=filename)
    except (SyntaxError, ValueError) as e:
        where = f" (line {e.lineno})" if getattr(e, "lineno", None) else ""
        return StaticReport(syntax_error=f"{type(e).__name__}: {e.msg if hasattr(e, 'msg') else e}"
                            f"{where}")
    report = StaticReport()
    bindings = _top_level_bindings(tree)
    functions = {n.name: n for n in tree.body
                 if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    optional = tuple(f for f in OPTIONAL_FUNCTIONS if f in bindings)  # only when defined
    for name in FUNCTIONS + optional + tuple(f for f in own or {} if f not in FUNCTIONS
                                             and f not in optional):
        node = bindings.get(name)
        if node is None:
            check = report.functions[name] = missing(name)
            hint = _rename_hint(name, functions, known)  # English only (not in the catalog)
            if hint:
                check.message = str(check.message) + hint
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            state, message, notes = signature_check(name, ast_params(node), known[name])
            if state == "ok" and _is_stub(node):
                state, message = "not-attempted", Note(Message(
                    "`{name}` only raises NotImplementedError.", name=name))
            report.functions[name] = FunctionCheck(name, state, message, notes)
        elif isinstance(node, ast.ClassDef):
            report.functions[name] = FunctionCheck(name, "indirect", Note(Message(
                "`{name}` is a class; it is called like a function.", name=name)))
        else:
            report.functions[name] = FunctionCheck(name, "indirect")
    return report
