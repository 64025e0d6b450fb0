"""Importing your solution by path, and describing what went wrong in one line. Used by the
self-check's own process and by the child process that runs your functions."""
from __future__ import annotations

import importlib.util
import sys
import traceback
from pathlib import Path

from messages import _


def import_solution(path: Path):
    """Import a .py file, or a package folder (its __init__.py), by path; its folder goes
    first on sys.path, so helper modules beside it import as in the grader."""
    if path.is_dir():
        init = path / "__init__.py"
        if not init.is_file():
            raise FileNotFoundError(_("{path} is a folder without __init__.py").format(
                path=path))
        spec = importlib.util.spec_from_file_location(path.name, init,
                                                      submodule_search_locations=[str(path)])
    elif path.is_file():
        spec = importlib.util.spec_from_file_location(path.stem, path)
    else:
        raise FileNotFoundError(_("no such file: {path}").format(path=path))
    folder = str(path.parent)  # helper modules beside the solution, as in the grader
    if folder not in sys.path:
        sys.path.insert(0, folder)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[spec.name]
        raise
    return module


def import_failure(error: BaseException, solution: Path) -> str:
    """'could not import skeleton.py: ...' with a hint a student can act on."""
    text = _("could not import {file}: {error}").format(file=solution.name,
                                                         error=describe(error, solution))
    if isinstance(error, SystemExit):
        text += _(" (importing your file must not run anything: keep experiments under "
                  "`if __name__ == \"__main__\":`)")
    elif isinstance(error, ImportError):
        text += import_hint(error, solution)
    return text


def import_hint(error: ImportError, solution: Path) -> str:
    """Why an import inside the solution failed, in words a student can act on."""
    name = (getattr(error, "name", None) or "").split(".")[0]
    if not name:
        return ""
    folder = solution.parent if solution.is_file() else solution
    if (folder / name).is_dir() or (folder / f"{name}.py").is_file():
        return _(" (`{name}` is beside your file, but importing from it failed)").format(
            name=name)
    return _(" (`{name}` is neither a helper module beside {file} nor in the standard library "
             "or numpy, the only packages the grader has; hand in your helper modules with "
             "your solution)").format(name=name, file=solution.name)


def describe(error: BaseException, solution: Path) -> str:
    """'ValueError: message (skeleton.py, line 12, in helper)'; the place is the innermost
    frame inside the solution."""
    text = f"{type(error).__name__}: {error}".rstrip(": ").replace("\n", " / ")
    place = None
    for frame in traceback.extract_tb(error.__traceback__):
        file = Path(frame.filename).resolve()
        if file == solution or solution in file.parents:
            place = _("{file}, line {line}, in {function}").format(
                file=file.name, line=frame.lineno, function=frame.name)
    return _("{error} ({place})").format(error=text, place=place) if place else text
