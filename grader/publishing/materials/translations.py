"""A course's section sources in its language: the translation of handout/NAME.md is
handout/LANG/NAME.md, of skeleton/NAME.txt skeleton/LANG/NAME.txt, and its first line records
the English source it translates:

    <!-- source: NAME.md sha256=<64 lowercase hex of the English file's bytes> -->

`section_text` reads a section for a language: English as it is; another language's
translation without its first line, or a UserError naming the file and the command that
lists what is missing when the translation is missing or older than its English source (no
fallback: a zh-CN course never shows students an English section). `problems` lists every
missing or stale translation, and every translated text holding an English sentence
(`english_runs`: a run of 6 or more ASCII words outside code, markers and parentheses).
"""
from __future__ import annotations

import hashlib
import re
from pathlib import Path

from ...errors import UserError
from ...language import DEFAULT

HEADER = re.compile(r"^<!-- source: (?P<name>\S+) sha256=(?P<sha>[0-9a-f]{64}) -->$")
FOLDERS = {"handout": "*.md", "skeleton": "*.txt"}
MISSING_COMMAND = "python -m grader languages --language {language}"


def header(english: Path) -> str:
    """The first line a translation of `english` starts with."""
    return f"<!-- source: {english.name} sha256={_sha(english)} -->"


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def translation_of(english: Path, language: str) -> Path:
    return english.parent / language / english.name


def status(english: Path, language: str) -> str | None:
    """Why the `language` translation of `english` cannot be used (None: it can)."""
    path = translation_of(english, language)
    if not path.is_file():
        return f"{path}: missing (the {language} translation of {english.name})"
    first = path.read_text(encoding="utf-8").split("\n", 1)[0].rstrip("\r")
    found = HEADER.match(first)
    if not found or found.group("name") != english.name:
        return (f"{path}, line 1: expected the header {header(english)!r} naming the English "
                f"source it translates")
    if found.group("sha") != _sha(english):
        return (f"{path}: stale: it translates an older {english.name} (sha256 "
                f"{found.group('sha')[:12]}..., now {_sha(english)[:12]}...); translate the "
                f"changes, then set its first line to {header(english)!r}")
    return None


def section_text(english: Path, language: str) -> str:
    """The text of section `english` for a course in `language`."""
    if language == DEFAULT:
        return english.read_text(encoding="utf-8")
    problem = status(english, language)
    if problem:
        raise UserError(f"{problem}; `{MISSING_COMMAND.format(language=language)}` lists "
                        f"every missing or stale translation")
    return translation_of(english, language).read_text(encoding="utf-8").split("\n", 1)[1]


_FENCE = re.compile(r"^\s*(```|~~~)")
_STRIP = (re.compile(r"`[^`]*`"),                       # inline code
          re.compile(r"<!--.*?-->"),                    # markers, comments
          re.compile(r"\{\{[^{}]*\}\}|\{[A-Za-z_][\w.]*\}"),  # fields, placeholders
          re.compile(r"\]\([^)]*\)"),                   # link targets
          re.compile(r"https?://\S+"),
          re.compile(r"\([^()]*\)|（[^（）]*）"))          # parenthesised terms
_WORDS = re.compile(r"(?:[A-Za-z][A-Za-z'’-]*[\s,;:.]+){5,}[A-Za-z][A-Za-z'’-]*")


def english_runs(text: str, python: bool = False) -> list[tuple[int, str]]:
    """(line, words) of every run of 6 or more ASCII words in `text`, outside fenced code
    blocks, inline code, markers, fields, link targets and parentheses. `python`: a Python
    source, where only comments and docstrings are prose (code lines are skipped: a line
    outside a docstring that is not a comment)."""
    found = []
    fenced = in_doc = False
    for number, line in enumerate(text.splitlines(), start=1):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        if python:
            quotes = line.count('"""')
            prose = in_doc or quotes or line.lstrip().startswith("#")
            if quotes % 2:
                in_doc = not in_doc
            if not prose:
                continue
            line = re.sub(r"^\s*(\w+\s*=\s*)?[rbf]?\"\"\"", "", line)
        for pattern in _STRIP:
            line = pattern.sub(" ", line)
        found += [(number, m.group(0)) for m in _WORDS.finditer(line)]
    return found


def problems(sources: Path, language: str) -> list[str]:
    """Every section of `sources` (the materials folder) that a `language` course cannot
    use: missing, stale, or holding an English sentence."""
    found = []
    for folder, pattern in FOLDERS.items():
        for english in sorted((sources / folder).glob(pattern)):
            problem = status(english, language)
            if problem:
                found.append(problem)
                continue
            text = section_text(english, language)
            for number, words in english_runs(text, python=folder == "skeleton"):
                found.append(f"{translation_of(english, language)}, line {number + 1}: an "
                             f"English sentence: {words!r}")
    return found
