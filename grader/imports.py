"""The one import walker of the grader's own tools (the child's worker, which may use only the
standard library, has its own): which modules a Python source imports."""
from __future__ import annotations

import ast

__all__ = ["absolute_imports"]


def absolute_imports(tree: ast.AST) -> list[str]:
    """The dotted names of every absolute import anywhere in `tree` (inside functions too), in
    source order: `import a.b` gives "a.b", `from a.b import c` gives "a.b"; relative imports
    (`from . import x`) are left out."""
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append(node.module)
    return found
