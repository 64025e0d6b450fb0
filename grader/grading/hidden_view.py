"""What a student sees of a call on a hidden case: structured facts only, never text.

A hidden case's feedback, Gradescope results and record give the verdict and, for a call that
failed, the exception's type and the innermost frame of the traceback that is the student's
own file: `raised ValueError at skeleton.py, line 12`. Never the exception's message, never
what the call printed, never a source line, an exit code or a repr: any of them may quote the
hidden data (the public counterexample explains the failure instead).

A name is shown only when the data cannot have made it: the exception's (or a returned
object's) type name when it is a type of Python, numpy or the standard modules a solution
uses, or an identifier of the student's own files as they were handed in (read before any of
their code ran); otherwise its nearest such base class. A frame is shown only when its file is
one of those files; its line number only when the traceback is whole (a message cut short by
the worker could forge frames).
"""
from __future__ import annotations

import builtins
import csv
import json
import re
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy

from kcheck.text import Message, Param, Verbatim

from ..sandbox.packages import unavailable, unavailable_message

__all__ = ["TRACEBACK_CHARS", "StudentCode", "exception_facts", "exception_message", "frame",
           "frame_message", "type_name", "type_message"]

_FRAME = re.compile(r'  File "(?P<file>[^"\n]+)", line (?P<line>\d+), in [^\n]*\n')
TRACEBACK_CHARS = 6000
"""The worker's cap on a traceback's text (grader/sandbox/worker.py keeps its last 6000
characters): a text this long may have lost its first frames."""
_MODULES = (builtins, types, numpy, numpy.linalg, csv, json)
LIBRARY_TYPES = frozenset(value.__name__ for module in _MODULES for value in vars(module).values()
                          if isinstance(value, type)) | {
    "generator", "function", "method", "builtin_function_or_method", "NoneType", "dict_keys",
    "dict_values", "dict_items", "coroutine", "module", "DataFrame", "Series"}
"""Type names the data cannot have made (the grader's own Python, numpy, csv and json)."""


@dataclass(frozen=True)
class StudentCode:
    """The submission's own source files (paths as the grader's tracebacks name them) and
    the identifiers written in them, read before any of its code ran."""

    lines: dict[str, int] = field(default_factory=dict)  # file -> its number of lines
    names: frozenset[str] = frozenset()
    allowed: tuple[str, ...] = ()  # the course's packages (the grader's "not available" text)

    @classmethod
    def read(cls, folder: Path, allowed: tuple[str, ...] | list[str] = ()) -> "StudentCode":
        """The `.py` files under `folder` (the submission's copied sources); `allowed`, the
        course's third-party packages."""
        lines: dict[str, int] = {}
        names: set[str] = set()
        for path in sorted(folder.rglob("*.py")) if folder.is_dir() else []:
            try:
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            lines[path.relative_to(folder).as_posix()] = len(text.splitlines()) or 1
            names |= {w for w in re.findall(r"\w+", text) if w.isidentifier()}
        return cls(lines, frozenset(names), tuple(allowed))


def type_name(name: object, mro: object, code: StudentCode,
              fallback: str = "an exception") -> str:
    """`name` when the data cannot have made it, else "a subclass of" the first such name of
    `mro` (the class's bases, nearest first), else `fallback`."""
    return str(type_message(name, mro, code, fallback))


def type_message(name: object, mro: object, code: StudentCode,
                 fallback: str | Message = "an exception") -> Param:
    """`type_name` as a message (kcheck.text): a type's name is a Verbatim of it, the
    fallback a message (its id when given as text)."""
    candidates = [name] + (list(mro) if isinstance(mro, list) else [])
    for candidate in candidates:
        if isinstance(candidate, str) and (candidate in LIBRARY_TYPES or candidate in code.names):
            return (Verbatim(candidate) if candidate == name else
                    Message("a subclass of {name}", name=Verbatim(candidate)))
    return fallback if isinstance(fallback, Message) else Message(fallback)


def frame(traceback: object, code: StudentCode, scrub: Callable[[str], str] = str) -> str:
    """`skeleton.py, line 12`: the innermost frame of `traceback` (the worker's text; `scrub`
    turns its scratch paths into the submission's relative ones) in one of the student's own
    files, at a line that file has; "" when there is none, or when the text is cut short
    (TRACEBACK_CHARS or more: its start may then be the message, which could forge frames)."""
    where = frame_message(traceback, code, scrub)
    return "" if where is None else str(where)


def frame_message(traceback: object, code: StudentCode, scrub: Callable[[str], str] = str
                  ) -> Message | None:
    """`frame` as a message (kcheck.text), None where `frame` is ""."""
    if not isinstance(traceback, str) or not traceback or len(traceback) >= TRACEBACK_CHARS:
        return None
    text, position, found = scrub(traceback), 0, None
    while True:  # the frames come first; the first line that is not one ends them
        match = _FRAME.match(text, position)
        if match is None:
            return found
        position = match.end()
        while text.startswith(("    ", "  [Previous line repeated"), position):
            end = text.find("\n", position)  # a frame's source line, carets, repetitions
            position = len(text) if end < 0 else end + 1
        file, line = match["file"], int(match["line"])
        if 1 <= line <= code.lines.get(file, 0):
            found = Message("{file}, line {line}", file=Verbatim(file), line=line)


def exception_facts(error: dict, code: StudentCode, scrub: Callable[[str], str] = str) -> str:
    """`raised ValueError at skeleton.py, line 12` (the place left out when unknown), and the
    sandbox's own refusal of a package the course does not allow, which no data can make."""
    return str(exception_message(error, code, scrub))


def exception_message(error: dict, code: StudentCode, scrub: Callable[[str], str] = str
                      ) -> Message:
    """`exception_facts` as a message (kcheck.text)."""
    kind = type_message(error.get("type"), error.get("mro"), code)
    where = frame_message(error.get("traceback"), code, scrub)
    refusal = _refusal(error, code)
    if where is None:
        return (Message("raised {kind}", kind=kind) if refusal is None else
                Message("raised {kind}: {message}", kind=kind, message=refusal))
    if refusal is None:
        return Message("raised {kind} at {where}", kind=kind, where=where)
    return Message("raised {kind} at {where}: {refusal}", kind=kind, where=where,
                   refusal=refusal)


def _refusal(error: dict, code: StudentCode) -> Message | None:
    """`pandas is not available: ...` when the message is exactly the sandbox's refusal of
    a package named in the student's files, else None."""
    message = error.get("message")
    if error.get("type") != "ModuleNotFoundError" or not isinstance(message, str):
        return None
    name = message.partition(" ")[0]
    if name in code.names and message == unavailable_message(name, list(code.allowed)):
        return unavailable(name, list(code.allowed))
    return None
