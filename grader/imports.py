"""The one import walker of the grader's own tools (the child's worker, which may use only the
standard library, has its own): which modules a Python source imports."""
from __future__ import annotations

import ast
from collections import deque

__all__ = ["absolute_imports"]

_BODIES = frozenset({"body", "orelse", "finalbody", "handlers", "cases"})
"""The fields that hold statements (or the except clauses and match cases that hold them):
an import is a statement, and no expression holds one."""


def absolute_imports(tree: ast.AST) -> list[str]:
    """The dotted names of every absolute import anywhere in `tree` (inside functions too), in
    ast.walk's order (breadth first): `import a.b` gives "a.b", `from a.b import c` gives
    "a.b"; relative imports (`from . import x`) are left out. Only statements are visited."""
    found: list[str] = []
    todo: deque[ast.AST] = deque([tree])
    while todo:
        node = todo.popleft()
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append(node.module)
        for field in node._fields:
            if field in _BODIES:
                children = getattr(node, field, None)
                if isinstance(children, list):
                    todo.extend(children)
    return found
