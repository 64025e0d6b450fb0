"""Loading a course's own reference (a `[[function]]`'s `reference = "file.py:name"`): staff
code inside the course folder, imported by the grader's own process (regen, the known-good
solution) and never by a sandboxed child, never shipped to students."""
from __future__ import annotations

import hashlib
import importlib.util
import sys
from pathlib import Path
from typing import Callable

from ..errors import UserError
from .contract import FunctionContract

__all__ = ["reference_file", "load_reference", "reference_digest"]


def reference_file(contract: FunctionContract, course: Path) -> Path:
    return course / contract.reference.partition(":")[0]


def load_reference(contract: FunctionContract, course: Path) -> Callable:
    """The reference callable of a course's function; UserError naming the file when it
    cannot be imported or has no such function."""
    path = reference_file(contract, course)
    name = contract.reference.partition(":")[2]
    module_name = "_course_ref_" + hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:12]
    module = sys.modules.get(module_name)
    if module is None and not path.is_file():
        raise UserError(f"{path} not found (the reference of {contract.name}: "
                        f"reference = {contract.reference!r} in the course's rubric)")
    if module is None:
        spec = importlib.util.spec_from_file_location(module_name, path)
        if spec is None or spec.loader is None:
            raise UserError(f"{path}: not a Python file the grader can import")
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        sys.path.insert(0, str(path.parent))  # its own helper modules beside it
        try:
            spec.loader.exec_module(module)
        except Exception as e:  # staff code: say where it failed
            del sys.modules[module_name]
            raise UserError(f"{path}: importing the course's reference failed: "
                            f"{type(e).__name__}: {e}") from None
        finally:
            sys.path.remove(str(path.parent))
    function = getattr(module, name, None)
    if not callable(function):
        raise UserError(f"{path}: has no function {name!r} (the rubric's reference of "
                        f"{contract.name})")
    return function


def reference_digest(contract: FunctionContract, course: Path) -> str:
    """The sha256 of the reference's folder's Python files (expected outputs go stale when
    the staff change their reference)."""
    folder = reference_file(contract, course).parent
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*.py")):
        if "__pycache__" not in path.parts:
            digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()
