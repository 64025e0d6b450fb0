"""What the grader checks of a part graded by the course staff (rubric `kind = "manual"`),
without running or importing anything: the file its `files` globs name is in the submission,
it is a PDF (magic bytes, and pypdf opens it), and its page count is within `max_pages`.

Globs are relative to the submission folder (a lone top folder the student zipped is that
folder), case-insensitive; `*` and `?` stay within a folder, `**/` spans folders. When several
files match, the first in sorted order is taken and the feedback says so. The PDF is read in
the grader process from the unpacked copy, which the intake's caps already bound; any failure
of pypdf on it is "not a readable PDF". Without pypdf (the `pdf` extra) the page count is not
checked, and the message says so.

Each check is a JSON-ready dict (the record's `manual[<part>]`): `file` (relative path or
None), `pages` (int or None), `problem` (None or one of PROBLEMS), `check` (the feedback
sentence), and, once `python -m grader merge` ran, `score` and `comment`.
"""
from __future__ import annotations

import fnmatch
import logging
import re
from pathlib import Path

from ..rubric import Part, Rubric
from .intake import is_ignored

PROBLEMS = ("missing", "not-pdf", "unreadable", "too-long", "not-checked")
INSTALL_HINT = 'pypdf is not installed (pip install -e ".[pdf]")'
STAFF = "graded by course staff"
MAGIC_WINDOW = 1024  # the PDF header may follow a little junk (the spec allows 1024 bytes)
FOREIGN = {b"PK\x03\x04": "a zip archive, e.g. a Word .docx file renamed",
           b"\xd0\xcf\x11\xe0": "an old Word .doc file renamed",
           b"{\\rtf": "an RTF file renamed"}


def describe(part: Part) -> str:
    """A manual part in one sentence, for a handout: "report (10 points, graded by the course
    staff): one file matching *.pdf, a PDF of at most 1 page"."""
    points = f"{part.points:g} point{'s' * (part.points != 1)}"
    text = f"{part.key} ({points}, graded by the course staff)"
    if part.files:
        text += f": one file matching {' or '.join(part.files)}"
    if part.max_pages is not None:
        text += f", a PDF of at most {part.max_pages} page{'s' * (part.max_pages != 1)}"
    return text


def check_parts(rubric: Rubric, root: Path | None, reason: str = "") -> dict[str, dict]:
    """The check of every manual part of `rubric` on the unpacked submission `root`; with
    `root` None (the submission could not be unpacked) each part is `not-checked` for
    `reason`."""
    if root is None:
        return {p.key: _entry(None, None, "not-checked", f"not checked: {reason}")
                for p in rubric.manual_parts}
    base = submission_folder(root)
    return {p.key: check_part(p, base) for p in rubric.manual_parts}


def submission_folder(root: Path) -> Path:
    """`root`, or the folder a lone top folder leads to (the student zipped their folder)."""
    while True:
        entries = [p for p in root.iterdir() if not is_ignored(p.name)]
        if len(entries) != 1 or not entries[0].is_dir() or entries[0].is_symlink():
            return root
        root = entries[0]


def _entry(file: str | None, pages: int | None, problem: str | None, check: str) -> dict:
    return {"file": file, "pages": pages, "problem": problem, "check": check}


def matching(base: Path, patterns: tuple[str, ...]) -> list[str]:
    """The files under `base` (relative POSIX paths, sorted) that match any of `patterns`."""
    compiled = [glob_regex(p) for p in patterns]
    found = []
    for path in base.rglob("*"):
        rel = path.relative_to(base).as_posix()
        if path.is_file() and not path.is_symlink() and not is_ignored(rel) \
                and any(rx.fullmatch(rel.lower()) for rx in compiled):
            found.append(rel)
    return sorted(found)


def glob_regex(pattern: str) -> re.Pattern:
    """A case-insensitive glob as a regular expression: `*` and `?` within a folder, `**/`
    across folders (a final `**`: anything below)."""
    segments = pattern.lower().split("/")
    parts = []
    for n, segment in enumerate(segments, start=1):
        if segment == "**":
            parts.append(".*" if n == len(segments) else "(?:[^/]+/)*")
            continue
        body = fnmatch.translate(segment)[4:-3]  # without (?s: and )\Z
        body = re.sub(r"(?<!\\)\.\*", "[^/]*", body)
        parts.append(re.sub(r"(?<!\\)\.(?![^\[]*\])", "[^/]", body)
                     + ("/" if n < len(segments) else ""))
    return re.compile("".join(parts))


def check_part(part: Part, base: Path) -> dict:
    """Check one manual part in the submission folder `base`."""
    if not part.files:
        return _entry(None, None, None, STAFF)
    found = matching(base, part.files)
    globs = " or ".join(part.files)
    if not found:
        return _entry(None, None, "missing", f"no {part.key}: no file matching {globs}")
    rel = found[0]
    taken = (f" ({len(found)} files match {globs}: {', '.join(found[:5])}"
             f"{', ...' if len(found) > 5 else ''}; the first, {rel}, was taken)"
             if len(found) > 1 else "")
    if part.max_pages is None and not all(p.lower().endswith(".pdf") for p in part.files):
        return _entry(rel, None, None, f"{rel} found; {STAFF}{taken}")
    pages, problem, why = pdf_pages(base / rel)
    if problem == "not-pdf":
        return _entry(rel, None, problem, f"{rel} is not a PDF ({why}){taken}")
    if problem == "unreadable":
        return _entry(rel, None, problem, f"{rel} is not a readable PDF ({why}){taken}")
    if pages is None:
        return _entry(rel, None, None, f"{rel} found; page count not checked: {why}; "
                      f"{STAFF}{taken}")
    if part.max_pages is not None and pages > part.max_pages:
        return _entry(rel, pages, "too-long", f"{rel} has {pages} pages, more than the "
                      f"{part.max_pages} allowed{taken}")
    return _entry(rel, pages, None, f"{rel} found, {pages} page{'s' * (pages != 1)}; "
                  f"{STAFF}{taken}")


def pdf_pages(path: Path) -> tuple[int | None, str | None, str]:
    """(page count or None, problem or None, why): `not-pdf` when the bytes are not a PDF's,
    `unreadable` when pypdf cannot open them; pages None and no problem without pypdf."""
    with open(path, "rb") as f:
        head = f.read(MAGIC_WINDOW)
    if b"%PDF-" not in head:
        kind = next((what for magic, what in FOREIGN.items() if head.startswith(magic)),
                    "it does not start like one")
        return None, "not-pdf", kind
    try:
        import pypdf
    except ImportError:
        return None, None, INSTALL_HINT
    logging.getLogger("pypdf").setLevel(logging.ERROR)  # its warnings are not the TA's concern
    try:
        reader = pypdf.PdfReader(path, strict=False)
        if reader.is_encrypted:
            reader.decrypt("")
        pages = len(reader.pages)
    except Exception:  # noqa: BLE001 - untrusted bytes: any failure means unreadable
        return None, "unreadable", "pypdf cannot open it"
    return (pages, None, "") if pages > 0 else (None, "unreadable", "it has no page")
