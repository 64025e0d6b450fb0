"""Choosing the solution file inside an unpacked submission (by parsing, never importing).

The solution is `skeleton.py` when present (the shallowest one), unless it is still the
untouched skeleton and another file implements the functions; otherwise it is the `.py`
defining the most graded functions (ties: the shallowest, then by path). A submission with no
such `.py` but a notebook that defines them is graded from the notebook's code cells.
"""
from __future__ import annotations

import ast
import json
from dataclasses import dataclass, field
from pathlib import Path

from kcheck.text import Message, Verbatim

from .intake import is_ignored
from .notes import Note, file_list
from .static import Signatures, StaticReport, check_source, graded_names

SOLUTION_NAME = "skeleton.py"
DATA_SUFFIXES = (".csv", ".txt", ".tsv", ".json", ".xlsx", ".pkl", ".npy")


@dataclass
class Solution:
    """The chosen file, its module name and folders to import from, and notes for feedback."""

    file: Path | None  # inside the unpacked folder
    module: str = "solution"
    import_paths: list[Path] = field(default_factory=list)
    sources: list[Path] = field(default_factory=list)  # every .py to copy (relative)
    static: StaticReport | None = None
    notes: list[str] = field(default_factory=list)


def notebook_source(path: Path) -> str | None:
    """The code cells of a Jupyter notebook as one Python file (shell and magic lines
    commented out); None when the file is not a readable notebook."""
    try:
        cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
    except (OSError, ValueError, AttributeError):
        return None
    chunks = []
    for cell in cells:
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        text = "".join(source) if isinstance(source, list) else str(source)
        lines = ["# " + line if line.lstrip().startswith(("%", "!")) else line
                 for line in text.splitlines()]
        chunks.append("\n".join(lines))
    return "\n\n".join(chunks) + "\n"


def _defines(source: str | bytes, own: Signatures | None = None) -> tuple[int, int]:
    """(graded functions defined with `def`, graded names bound at all) at the top level;
    (-1, -1) when the file does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return -1, -1
    defs = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    bound = graded_names(tree, own)
    return len(bound & defs), len(bound)


def _depth(rel: Path) -> int:
    return len(rel.parts)


def choose(root: Path, own: Signatures | None = None) -> Solution:
    """Find the solution under `root` (an unpacked submission); `own`: the course's own
    functions (rubric `[[function]]`), graded beside the kit's."""
    files = sorted(p.relative_to(root) for p in root.rglob("*")
                   if p.is_file() and not is_ignored(p.relative_to(root).as_posix()))
    py = [f for f in files if f.suffix == ".py"]
    notebooks = [f for f in files if f.suffix.lower() == ".ipynb"]
    notes: list[str] = []
    data = [f.as_posix() for f in files if f.suffix.lower() in DATA_SUFFIXES]
    if data:
        notes.append(Note(Message("Data files in your submission are not used (each case "
                                  "supplies its own adult-hw1.csv and DGHs): {files}.",
                                  files=file_list(data, 8))))
    chosen: Path | None = None
    skeletons = sorted((f for f in py if f.name == SOLUTION_NAME), key=lambda f: (_depth(f), f))
    if skeletons:
        chosen = skeletons[0]
        report = check_source((root / chosen).read_bytes(), chosen.as_posix(), own)
        stubs = sum(c.state == "not-attempted" for c in report.functions.values())
        if not report.syntax_error and stubs >= len(report.functions) - 1:  # random is given
            better = _best(_counts(root, py, notebooks, own), exclude=chosen, root=root,
                           own=own)
            if better is not None:
                notes.append(Note(Message(
                    "{chosen} is still the untouched skeleton; graded {better}, which "
                    "implements the functions.", chosen=Verbatim(chosen.as_posix()),
                    better=Verbatim(better.as_posix()))))
                chosen = better
    else:
        chosen = _best(_counts(root, py, notebooks, own), root=root, own=own)
        if chosen is not None:
            notes.append(Note(Message(
                "No {name} in your submission; graded {chosen}, the file that defines the "
                "most graded functions.", name=SOLUTION_NAME,
                chosen=Verbatim(chosen.as_posix()))))
    if chosen is not None and chosen.suffix.lower() == ".ipynb":
        if not skeletons:
            notes.pop()  # the "No skeleton.py" note; the notebook note says it all
        chosen = _from_notebook(root, chosen, notes)
        py.append(chosen)
    elif notebooks:
        notes.append(Note(Message("Notebooks are not graded when a .py solution exists: "
                                  "{files}.", files=file_list([n.as_posix() for n in notebooks]))))
    if chosen is None:
        notes.append(Note(Message("No Python file in your submission defines any of the graded "
                                  "functions.")))
        return Solution(None, notes=notes, sources=py)
    solution_dir = (root / chosen).parent
    paths = [solution_dir] + ([root] if solution_dir != root else [])
    stem = chosen.stem
    module = stem if stem.isidentifier() else "solution"
    return Solution(root / chosen, module, paths, py,
                    check_source((root / chosen).read_bytes(), chosen.as_posix(), own), notes)


def _counts(root: Path, py: list[Path], notebooks: list[Path],
            own: Signatures | None) -> dict[Path, tuple[int, int]]:
    """Each candidate file's (graded functions defined, graded names bound): parsed only when
    no skeleton.py settles the choice."""
    counts = {f: _defines((root / f).read_bytes(), own) for f in py if f.name != "__init__.py"}
    for nb in notebooks:
        source = notebook_source(root / nb)
        if source is not None:
            counts[nb] = _defines(source, own)
    return counts


def _best(counts: dict[Path, tuple[int, int]], root: Path, exclude: Path | None = None,
          own: Signatures | None = None) -> Path | None:
    """The file defining the most graded functions (then binding the most names; a .py
    before a notebook; the most attempted; the shallowest; by path)."""
    ranked = sorted((f for f, n in counts.items() if n[1] > 0 and f != exclude),
                    key=lambda f: (-counts[f][0], -counts[f][1], f.suffix.lower() == ".ipynb",
                                   _attempted_rank(root, f, own), _depth(f), f))
    return ranked[0] if ranked else None


def _attempted_rank(root: Path, rel: Path, own: Signatures | None = None) -> int:
    if rel.suffix.lower() == ".ipynb":
        return 0
    return -check_source((root / rel).read_bytes(), own=own).attempted()


def _from_notebook(root: Path, notebook: Path, notes: list[str]) -> Path:
    """Write the notebook's code cells beside it as a .py file; returns that file."""
    target = notebook.with_name(notebook.stem.replace(" ", "_").replace("-", "_") +
                                "_notebook.py")
    if not target.stem.isidentifier():
        target = notebook.with_name("notebook_solution.py")
    (root / target).write_text(notebook_source(root / notebook) or "", encoding="utf-8")
    notes.append(Note(Message("No .py solution: graded the code cells of {notebook} (shell and "
                              "magic lines commented out). Hand in a .py file next time.",
                              notebook=Verbatim(notebook.as_posix()))))
    return target
