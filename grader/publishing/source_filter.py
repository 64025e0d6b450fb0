"""Python sources cut down to one course's parts, keeping their layout and comments: the
public tests a bundle ships name only the functions the course grades.

Three edits, each made on the text (lines and character ranges the AST gives), so what is
kept reads exactly as in the kit:

  literals    an element of a list, tuple, set or dict literal that names only functions the
              course does not grade (string constants among `known`) is dropped, with the
              comment lines heading its group when the whole group goes (a group: the
              elements after a comment, up to the next comment); a literal whose elements
              share lines is rewritten from its kept elements
  branches    an `if` whose test a course decides (`x == "samarati"`, `x in ("a", "b")`,
              `and`/`or`/`not` of those) keeps only the branch that runs
  unused      a top-level function, class or assignment that the kit's files use but none
              of the filtered files does any more (say, a checker only samarati's tests
              called) is dropped, until nothing more goes

`filter_sources` applies all three to a bundle's Python files.
"""
from __future__ import annotations

import ast
from collections.abc import Iterable

WIDTH = 99


class _Text:
    """A source as lines, with edits given as (start, end, replacement) character offsets."""

    def __init__(self, source: str):
        self.source = source
        self.starts = [0]
        for line in source.splitlines(keepends=True):
            self.starts.append(self.starts[-1] + len(line))

    def offset(self, line: int, col: int) -> int:
        return self.starts[line - 1] + len(self.source[self.starts[line - 1]:].encode()
                                           [:col].decode("utf-8", "ignore"))

    def lines(self, first: int, last: int) -> tuple[int, int]:
        """Offsets spanning whole lines first..last (1-based, inclusive)."""
        return self.starts[first - 1], self.starts[min(last, len(self.starts) - 1)]

    def segment(self, node: ast.AST) -> str:
        return self.source[self.offset(node.lineno, node.col_offset):
                           self.offset(node.end_lineno, node.end_col_offset)]


def _apply(source: str, edits: list[tuple[int, int, str]]) -> str:
    for start, end, text in sorted(edits, reverse=True):
        source = source[:start] + text + source[end:]
    return source


def _names(node: ast.AST, known: frozenset[str]) -> set[str]:
    """The known function names among the string constants inside `node`."""
    return {n.value for n in ast.walk(node)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value in known}


# ------------------------------------------------------------------------------- literals

def _elements(node: ast.AST) -> list[ast.AST] | None:
    """A literal's elements (a dict's as key-value tuples), or None for anything else."""
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return list(node.elts)
    if isinstance(node, ast.Dict) and None not in node.keys:
        return [ast.Tuple(elts=[k, v], lineno=k.lineno, col_offset=k.col_offset,
                          end_lineno=v.end_lineno, end_col_offset=v.end_col_offset)
                for k, v in zip(node.keys, node.values)]
    return None


def _dropped(element: ast.AST, graded: frozenset[str], known: frozenset[str]) -> bool:
    names = _names(element, known)
    return bool(names) and not names & graded


def _own_lines(elements: list[ast.AST]) -> bool:
    """Whether no two elements share a line."""
    return all(a.end_lineno < b.lineno for a, b in zip(elements, elements[1:]))


def _by_lines(text: _Text, node: ast.AST, elements: list[ast.AST],
              drop: list[bool]) -> list[tuple[int, int, str]]:
    """Delete the dropped elements' lines, and a comment block whose group all goes."""
    lines = text.source.splitlines()
    edits, group, comment = [], [], None

    def close() -> None:
        if comment is not None and group and all(drop[i] for i in group):
            edits.append((*text.lines(*comment), ""))

    previous_end = node.lineno
    for i, element in enumerate(elements):
        between = range(previous_end + 1, element.lineno)
        block = [n for n in between if lines[n - 1].strip().startswith("#")]
        if block:
            close()
            comment, group = (block[0], block[-1]), []
        group.append(i)
        if drop[i]:
            edits.append((*text.lines(element.lineno, element.end_lineno), ""))
        previous_end = element.end_lineno
    close()
    return edits


def _rewritten(text: _Text, node: ast.AST, kept: list[ast.AST]) -> str:
    """The literal written again from its kept elements, filled to WIDTH columns."""
    opening, closing = text.segment(node)[0], text.segment(node)[-1]
    if isinstance(node, ast.Tuple) and text.segment(node)[0] != "(":
        opening, closing = "", ""
    parts = [text.segment(k.elts[0]) + ": " + text.segment(k.elts[1])
             if isinstance(node, ast.Dict) else text.segment(k) for k in kept]
    if isinstance(node, ast.Tuple) and len(parts) == 1:
        parts[0] += ","
    if node.lineno == node.end_lineno or not parts:
        return opening + ", ".join(parts) + closing
    column = len(text.source[text.starts[node.lineno - 1]:text.offset(node.lineno,
                                                                        node.col_offset)])
    lines = [""]
    for n, part in enumerate(parts):
        piece = part + ("," if n < len(parts) - 1 else "")
        if lines[-1] and column + 1 + len(lines[-1]) + 1 + len(piece) + 1 > WIDTH:
            lines.append("")
        lines[-1] += (" " if lines[-1] else "") + piece
    return opening + ("\n" + " " * (column + 1)).join(lines) + closing


def _literal_edits(text: _Text, tree: ast.AST, graded: frozenset[str],
                   known: frozenset[str]) -> list[tuple[int, int, str]]:
    edits: list[tuple[int, int, str]] = []
    todo = [tree]
    while todo:
        node = todo.pop()
        elements = _elements(node)
        if elements:
            drop = [_dropped(e, graded, known) for e in elements]
            if any(drop):
                kept = [e for e, d in zip(elements, drop) if not d]
                if node.lineno != node.end_lineno and _own_lines(elements) and \
                        elements[0].lineno > node.lineno and \
                        elements[-1].end_lineno < node.end_lineno:
                    edits += _by_lines(text, node, elements, drop)
                else:
                    start = text.offset(node.lineno, node.col_offset)
                    end = text.offset(node.end_lineno, node.end_col_offset)
                    edits.append((start, end, _rewritten(text, node, kept)))
                continue
        todo.extend(ast.iter_child_nodes(node))
    return edits


# ------------------------------------------------------------------------------- branches

def decided(test: ast.AST, graded: frozenset[str], known: frozenset[str]) -> bool | None:
    """The value of an `if` test in a course that grades `graded`, or None when it depends
    on more than the course (only comparisons with known function names are decided)."""
    if isinstance(test, ast.BoolOp):
        values = [decided(v, graded, known) for v in test.values]
        if isinstance(test.op, ast.And):
            return False if False in values else (True if all(v is True for v in values)
                                                  else None)
        return True if True in values else (False if all(v is False for v in values) else None)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = decided(test.operand, graded, known)
        return None if inner is None else not inner
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        names = _names(test.comparators[0], known) | _names(test.left, known)
        if not names or names & graded:
            return None
        op = test.ops[0]
        if isinstance(op, (ast.Eq, ast.In)):
            return False
        if isinstance(op, (ast.NotEq, ast.NotIn)):
            return True
    return None


def _dedent(text: str, by: int) -> str:
    return "".join(line[by:] if line[:by].strip() == "" else line
                   for line in text.splitlines(keepends=True))


def _branch_edit(text: _Text, node: ast.If, value: bool) -> tuple[int, int, str]:
    """Replace the `if` statement by the branch that runs (or by nothing)."""
    start, end = text.lines(node.lineno, node.end_lineno)
    indent = node.col_offset
    branch = node.body if value else node.orelse
    if not branch:
        return start, end, " " * indent + "pass\n" if _alone(text, node) else ""
    first, last = branch[0].lineno, branch[-1].end_lineno
    if not value and len(branch) == 1 and isinstance(branch[0], ast.If) and \
            text.source[text.offset(first, branch[0].col_offset):].startswith("elif"):
        kept = text.source[slice(*text.lines(first, node.end_lineno))]
        return start, end, kept.replace("elif", "if", 1)
    kept = text.source[slice(*text.lines(first, last))]
    return start, end, _dedent(kept, branch[0].col_offset - indent)


def _alone(text: _Text, node: ast.If) -> bool:
    """Whether the `if` is its block's only statement (removing it needs a `pass`)."""
    return getattr(node, "_alone", False)


def _first_branch(text: _Text, tree: ast.AST, graded: frozenset[str],
                  known: frozenset[str]) -> tuple[int, int, str] | None:
    for parent in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(parent, field, None)
            if not isinstance(block, list):
                continue
            for statement in block:
                if isinstance(statement, ast.If):
                    value = decided(statement.test, graded, known)
                    if value is not None:
                        statement._alone = len(block) == 1  # type: ignore[attr-defined]
                        return _branch_edit(text, statement, value)
    return None


# --------------------------------------------------------------------------------- unused

def used_names(sources: Iterable[str]) -> set[str]:
    """Every name the sources load, import, take as a parameter or read as an attribute."""
    found: set[str] = set()
    for source in sources:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Store):
                found.add(node.id)
            elif isinstance(node, ast.Attribute):
                found.add(node.attr)
            elif isinstance(node, ast.alias):
                found.add(node.name.split(".")[0] if node.asname is None else node.name)
            elif isinstance(node, ast.arg):
                found.add(node.arg)
    return found


def _defined(statement: ast.stmt) -> str | None:
    if isinstance(statement, (ast.FunctionDef, ast.ClassDef)):
        return statement.name
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and \
            isinstance(statement.targets[0], ast.Name):
        return statement.targets[0].id
    if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
        return statement.target.id
    return None


def _unused_edits(text: _Text, tree: ast.Module, before: set[str],
                  now: set[str]) -> list[tuple[int, int, str]]:
    """Drop the top-level definitions `before` used and `now` does not, each with its
    docstring (a string statement right after it) and the comment lines right above it."""
    lines = text.source.splitlines()
    edits = []
    body = tree.body
    for i, statement in enumerate(body):
        name = _defined(statement)
        if name is None or name not in before or name in now:
            continue
        first = min([statement.lineno] + [d.lineno for d in
                                          getattr(statement, "decorator_list", [])])
        while first > 1 and lines[first - 2].strip().startswith("#"):
            first -= 1
        last = statement.end_lineno
        following = body[i + 1] if i + 1 < len(body) else None
        if isinstance(following, ast.Expr) and isinstance(following.value, ast.Constant) \
                and isinstance(following.value.value, str):
            last = following.end_lineno
        while last < len(lines) and not lines[last].strip():
            last += 1  # the blank lines after it
        edits.append((*text.lines(first, last), ""))
    return edits


# ---------------------------------------------------------------------------------- whole

def filter_source(source: str, graded: frozenset[str], known: frozenset[str]) -> str:
    """One file: its decided branches, then its literals, cut to the course."""
    while True:
        edit = _first_branch(_Text(source), ast.parse(source), graded, known)
        if edit is None:
            break
        source = _apply(source, [edit])
    return _apply(source, _literal_edits(_Text(source), ast.parse(source), graded, known))


def filter_sources(sources: dict[str, str], graded: frozenset[str], known: frozenset[str],
                   kit_sources: Iterable[str]) -> dict[str, str]:
    """Every file of `sources` (name -> text) cut to the course; a definition that the
    kit's files (`kit_sources`) use and the cut files do not is dropped."""
    before = used_names(kit_sources)
    out = {name: filter_source(text, graded, known) for name, text in sources.items()}
    while True:
        now = used_names(out.values())
        changed = False
        for name, text in out.items():
            edits = _unused_edits(_Text(text), ast.parse(text), before, now)
            if edits:
                out[name] = _apply(text, edits)
                changed = True
        if not changed:
            return out


__all__ = ["decided", "filter_source", "filter_sources", "used_names"]
