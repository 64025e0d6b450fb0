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
sentence in English), `check_ref` (that sentence as data: a kcheck.text Message's JSON, the
file names the student's own text), and, once `python -m grader merge` ran, `score` and
`comment`.
"""
from __future__ import annotations

import fnmatch
import logging
import re
from pathlib import Path

from kcheck.text import Joined, Message, Verbatim

from ..rubric import Part, Rubric
from .intake import is_ignored

PROBLEMS = ("missing", "not-pdf", "unreadable", "too-long", "not-checked")
INSTALL_HINT = Message('pypdf is not installed (pip install -e ".[pdf]")')
STAFF = Message("graded by course staff")
MAGIC_WINDOW = 1024  # the PDF header may follow a little junk (the spec allows 1024 bytes)
FOREIGN = {b"PK\x03\x04": Message("a zip archive, e.g. a Word .docx file renamed"),
           b"\xd0\xcf\x11\xe0": Message("an old Word .doc file renamed"),
           b"{\\rtf": Message("an RTF file renamed")}


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


def check_parts(rubric: Rubric, root: Path | None,
                reason: Message | str = "") -> dict[str, dict]:
    """The check of every manual part of `rubric` on the unpacked submission `root`; with
    `root` None (the submission could not be unpacked) each part is `not-checked` for
    `reason`."""
    if root is None:
        return {p.key: not_checked(reason) for p in rubric.manual_parts}
    base = submission_folder(root)
    return {p.key: check_part(p, base) for p in rubric.manual_parts}


def submission_folder(root: Path) -> Path:
    """`root`, or the folder a lone top folder leads to (the student zipped their folder)."""
    while True:
        entries = [p for p in root.iterdir() if not is_ignored(p.name)]
        if len(entries) != 1 or not entries[0].is_dir() or entries[0].is_symlink():
            return root
        root = entries[0]


def not_checked(reason: Message | str) -> dict:
    """The check of a part the grader could not look at, for `reason`."""
    return _entry(None, None, "not-checked", Message("not checked: {reason}", reason=reason))


def _entry(file: str | None, pages: int | None, problem: str | None, check: Message) -> dict:
    return {"file": file, "pages": pages, "problem": problem, "check": check.english(),
            "check_ref": check.to_json()}


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
        return _entry(None, None, "missing", Message("no {part}: no file matching {globs}",
                                                     part=part.key, globs=globs))
    rel = found[0]
    pages, problem, said = _file_check(part, base, rel)
    if len(found) > 1:
        listed = [Verbatim(f) for f in found[:5]] + (["..."] if len(found) > 5 else [])
        said = Message("{text} ({n} files match {globs}: {files}; the first, {file}, was "
                       "taken)", text=said, n=len(found), globs=globs,
                       files=Joined(listed, ", "), file=Verbatim(rel))
    return _entry(rel, pages, problem, said)


def _file_check(part: Part, base: Path, rel: str) -> tuple[int | None, str | None, Message]:
    """(pages, problem, the check's sentence) of the file `rel` a manual part takes."""
    file = Verbatim(rel)  # the student's own file name
    if part.max_pages is None and not all(p.lower().endswith(".pdf") for p in part.files):
        return None, None, Message("{file} found; graded by course staff", file=file)
    pages, problem, why = pdf_pages(base / rel)
    if problem == "not-pdf":
        return None, problem, Message("{file} is not a PDF ({why})", file=file, why=why)
    if problem == "unreadable":
        return None, problem, Message("{file} is not a readable PDF ({why})", file=file,
                                      why=why)
    if pages is None:
        return None, None, Message("{file} found; page count not checked: {why}; graded by "
                                   "course staff", file=file, why=why)
    if part.max_pages is not None and pages > part.max_pages:
        return pages, "too-long", Message("{file} has {pages} pages, more than the {allowed} "
                                          "allowed", file=file, pages=pages,
                                          allowed=part.max_pages)
    if pages == 1:
        return pages, None, Message("{file} found, 1 page; graded by course staff", file=file)
    return pages, None, Message("{file} found, {pages} pages; graded by course staff",
                                file=file, pages=pages)


def pdf_pages(path: Path) -> tuple[int | None, str | None, Message | None]:
    """(page count or None, problem or None, why or None): `not-pdf` when the bytes are not a
    PDF's, `unreadable` when pypdf cannot open them; pages None and no problem (why: the
    install hint) without pypdf."""
    with open(path, "rb") as f:
        head = f.read(MAGIC_WINDOW)
    if b"%PDF-" not in head:
        kind = next((what for magic, what in FOREIGN.items() if head.startswith(magic)),
                    Message("it does not start like one"))
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
        return None, "unreadable", Message("pypdf cannot open it")
    return (pages, None, None) if pages > 0 else (None, "unreadable", Message("it has no page"))
