"""Intake: find the submissions in a folder or a "download all" zip, unpack them safely.

SUBMISSIONS may be a folder of zips, a folder of folders, a folder of loose files named by
the learning management system (grouped by student id), or one zip holding any of these
(possibly inside one top folder). The student id comes from each entry's name through a
regular expression whose group `id` is the id (the whole name when it does not match).

Unzipping refuses absolute paths, `..` components, links, and archives beyond the size and
file-count caps; `__MACOSX`, `__pycache__`, `.pyc` files and editor/VCS folders are skipped.
"""
from __future__ import annotations

import hashlib
import re
import shutil
import stat
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from kanon.files import safe_name
from kcheck.text import Message, Verbatim

from ..errors import UserError
from ..settings import Caps
from .notes import Note

IGNORED_DIRS = {"__MACOSX", "__pycache__", ".git", ".svn", ".hg", ".idea", ".vscode",
                ".ipynb_checkpoints", "venv", ".venv", "env", "node_modules", ".pytest_cache"}
IGNORED_FILES = {".DS_Store", "Thumbs.db", "desktop.ini"}
IGNORED_SUFFIXES = (".pyc", ".pyo")
SOURCE_SUFFIXES = (".py", ".ipynb")


class ArchiveProblem(Exception):
    """A student's archive that is refused; `status` is "unsafe-archive" or "bad-archive",
    `said` why, as a message (its English is the exception's text)."""

    def __init__(self, status: str, said: Message):
        super().__init__(said.english())
        self.status, self.said = status, said


CLASS_ARCHIVE_SUBMISSIONS = 2000  # a class's "download all" zip holds at most this many


@dataclass
class Submission:
    """One student's hand-in as found on disk (not yet unpacked)."""

    student: str  # file-name-safe id
    source: str  # the entry's name in SUBMISSIONS, for messages
    paths: list[Path]  # one zip, one folder, or the student's loose files
    kind: str  # "zip", "folder" or "files"
    notes: list[str] = field(default_factory=list)

    def content_hash(self) -> str:
        """sha256 of everything the student handed in (names and bytes)."""
        h = hashlib.sha256(self.kind.encode())
        for path in self.paths:
            files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
            for f in files:
                rel = f.name if f == path else f.relative_to(path).as_posix()
                if is_ignored(rel):
                    continue
                h.update(rel.encode("utf-8", "surrogateescape") + b"\0")
                h.update(hashlib.sha256(f.read_bytes()).digest())
        return h.hexdigest()


def is_ignored(rel: str) -> bool:
    """Whether a relative path is packaging noise (macOS metadata, caches, VCS, editors)."""
    parts = PurePosixPath(rel).parts
    if any(p in IGNORED_DIRS for p in parts[:-1]) or not parts:
        return True
    name = parts[-1]
    return name in IGNORED_FILES or name.startswith("._") or name.endswith(IGNORED_SUFFIXES)


def member_path(info: zipfile.ZipInfo) -> str:
    """An archive member's path with Windows separators normalized; raises ArchiveProblem
    for absolute paths, drive letters, `..` components and links."""
    name = info.filename.replace("\\", "/")
    if name.startswith("/") or re.match(r"^[A-Za-z]:", name):
        raise ArchiveProblem("unsafe-archive", Message(
            "the archive holds an absolute path: {name}", name=Verbatim(repr(name))))
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise ArchiveProblem("unsafe-archive", Message(
            "the archive holds a path with '..': {name}", name=Verbatim(repr(name))))
    mode = info.external_attr >> 16
    if stat.S_ISLNK(mode):
        raise ArchiveProblem("unsafe-archive", Message(
            "the archive holds a symbolic link: {name}", name=Verbatim(repr(name))))
    return "/".join(parts)


def safe_extract(archive: Path, dest: Path, caps: Caps, *, skip_ignored: bool = True) -> None:
    """Unpack `archive` into `dest` (created), enforcing `caps` on the bytes actually
    written, not on what the archive's headers claim."""
    try:
        zf = zipfile.ZipFile(archive)
    except (zipfile.BadZipFile, OSError) as e:
        raise ArchiveProblem("bad-archive", Message(
            "{name} is not a readable zip file ({why})", name=Verbatim(archive.name),
            why=Verbatim(str(e))))
    with zf:
        infos = zf.infolist()
        if len(infos) > caps.max_entries:
            raise ArchiveProblem("unsafe-archive", Message("the archive has {n} entries",
                                                           n=len(infos)))
        plan = [(info, member_path(info)) for info in infos]  # refuse before writing anything
        dest.mkdir(parents=True, exist_ok=True)
        written, files = 0, 0
        for info, rel in plan:
            if not rel or info.is_dir() or (skip_ignored and is_ignored(rel)):
                continue
            files += 1
            if files > caps.max_files:
                raise ArchiveProblem("unsafe-archive", Message(
                    "the archive has more than {n} files", n=caps.max_files))
            target = dest / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            if target.exists():
                raise ArchiveProblem("bad-archive", Message("the archive holds {name} twice",
                                                            name=Verbatim(repr(rel))))
            try:
                with zf.open(info) as src, open(target, "wb") as out:
                    while block := src.read(1 << 16):
                        written += len(block)
                        if written > caps.max_bytes:
                            raise ArchiveProblem("unsafe-archive", Message(
                                "the archive unpacks to more than {mb} MB",
                                mb=caps.max_bytes // (1024 * 1024)))
                        out.write(block)
            except (zipfile.BadZipFile, OSError, EOFError, RuntimeError,
                    NotImplementedError) as e:
                raise ArchiveProblem("bad-archive", Message(
                    "{name} cannot be unpacked ({why})", name=Verbatim(repr(rel)),
                    why=Verbatim(str(e))))


def student_id(name: str, pattern: re.Pattern) -> tuple[str, str]:
    """(id, rest of the name after the match) for an entry name."""
    m = pattern.search(name)
    if not m or not m.groupdict().get("id"):
        return name, ""
    return m.group("id"), name[m.end():]


def _entries(folder: Path) -> list[Path]:
    return sorted((p for p in folder.iterdir() if not is_ignored(p.name)
                   and p.name not in IGNORED_DIRS), key=lambda p: p.name)


def discover(submissions: Path, workdir: Path, pattern: re.Pattern, caps: Caps
             ) -> list[Submission]:
    """Every submission in SUBMISSIONS, sorted by student id; ids made unique with `~2`, ..."""
    if not submissions.exists():
        raise UserError(f"submissions not found: {submissions}")
    root = submissions
    if submissions.is_file():
        if submissions.suffix.lower() != ".zip":
            raise UserError(f"{submissions}: expected a folder or a .zip file of submissions")
        root = workdir / "download"
        if root.exists():
            shutil.rmtree(root)
        try:
            safe_extract(submissions, root, caps.times(CLASS_ARCHIVE_SUBMISSIONS),
                         skip_ignored=True)
        except ArchiveProblem as e:
            raise UserError(f"{submissions}: {e}") from None
    entries = _entries(root)
    while len(entries) == 1 and entries[0].is_dir() and not _looks_like_submission(entries[0]):
        entries = _entries(entries[0])  # a download wrapped in one top folder
    found: list[Submission] = []
    loose: dict[str, list[Path]] = {}
    for entry in entries:
        if entry.is_dir():
            sid, _ = student_id(entry.name, pattern)
            found.append(Submission(sid, entry.name, [entry], "folder"))
        elif entry.suffix.lower() == ".zip":
            sid, _ = student_id(entry.name[:-4], pattern)
            found.append(Submission(sid, entry.name, [entry], "zip"))
        elif entry.is_file():
            sid, _ = student_id(entry.name, pattern)
            loose.setdefault(sid, []).append(entry)
    for sid, paths in loose.items():
        found.append(Submission(sid, ", ".join(p.name for p in paths), paths, "files"))
    return _unique(found)


def _looks_like_submission(folder: Path) -> bool:
    """A folder with source files directly inside it is one student's, not a wrapper."""
    return any(p.is_file() and p.suffix.lower() in SOURCE_SUFFIXES for p in folder.iterdir())


def _unique(found: list[Submission]) -> list[Submission]:
    found.sort(key=lambda s: (safe_name(s.student), s.source))
    seen: dict[str, int] = {}
    for sub in found:
        base = safe_name(sub.student)
        seen[base] = seen.get(base, 0) + 1
        sub.student = base if seen[base] == 1 else f"{base}~{seen[base]}"
        if seen[base] > 1:
            sub.notes.append(Note(Message(
                "Another submission has the same student id {base}; this one ({source}) is "
                "graded as {student}.", base=Verbatim(repr(base)),
                source=Verbatim(sub.source), student=Verbatim(repr(sub.student)))))
    return found


def unpack(sub: Submission, dest: Path, pattern: re.Pattern, caps: Caps) -> Path:
    """Copy or unzip one submission into `dest` (a fresh folder); returns the folder that
    holds the student's files. A zip inside (the student zipped a zip) is unpacked too."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    if sub.kind == "zip":
        safe_extract(sub.paths[0], dest, caps)
    elif sub.kind == "folder":
        _copy_tree(sub.paths[0], dest, caps)
    else:
        for path in sub.paths:
            _, rest = student_id(path.name, pattern)
            name = rest.lstrip("_- ") or path.name
            if not is_ignored(name):
                shutil.copyfile(path, dest / name)
    inner = [p for p in dest.rglob("*.zip") if p.is_file()]
    has_source = any(p.suffix.lower() in SOURCE_SUFFIXES for p in dest.rglob("*") if p.is_file())
    if inner and not has_source:
        for archive in sorted(inner):
            safe_extract(archive, archive.with_suffix(""), caps)
            sub.notes.append(Note(Message("Unpacked the zip inside your submission: {name}.",
                                          name=Verbatim(archive.name))))
    return dest


def _copy_tree(src: Path, dest: Path, caps: Caps) -> None:
    """Copy a submission folder, skipping ignored files and symbolic links, within caps."""
    total, count = 0, 0
    for path in sorted(src.rglob("*")):
        rel = path.relative_to(src).as_posix()
        if path.is_symlink():
            raise ArchiveProblem("unsafe-archive", Message(
                "the submission holds a symbolic link: {name}", name=Verbatim(rel)))
        if not path.is_file() or is_ignored(rel):
            continue
        count += 1
        total += path.stat().st_size
        if count > caps.max_files or total > caps.max_bytes:
            raise ArchiveProblem("unsafe-archive", Message(
                "the submission is larger than the caps ({files} files, {mb} MB)",
                files=caps.max_files, mb=caps.max_bytes // 2**20))
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)


@dataclass(frozen=True)
class LmsIdentity:
    """Who a submission belongs to in the learning management system it was downloaded from,
    read from the entry's name: Moodle's participant number, or Canvas's user id."""

    system: str  # "moodle" or "canvas"
    user_id: str  # Moodle: the participant number; Canvas: the user id
    name: str  # Moodle: the full name; Canvas: the name part (lowercase, no spaces)


# Moodle's "Download all submissions": `Jane Smith_12345_assignsubmission_file_` (a folder, or
# a prefix of each file's name); onlinetext is the other submission plugin.
MOODLE_NAME = re.compile(r"^(?P<name>.+?)_(?P<id>\d+)_assignsubmission_[a-z]+_")
# Canvas's "Download Submissions": `smithjane_12345_67890_file.zip`, `smithjane_late_12345_...`
# (user id, then the attachment's id).
CANVAS_NAME = re.compile(r"^(?P<name>[^_]+)_(?:late_)?(?P<id>\d+)_(?P<attachment>\d+)(?:_|\.|$)",
                         re.IGNORECASE)


def lms_identity(source: str) -> LmsIdentity | None:
    """The LMS identity in a submission's entry name (the first one, for grouped loose files);
    None for names no learning management system made."""
    first = source.split(", ")[0]
    m = MOODLE_NAME.match(first)
    if m:
        return LmsIdentity("moodle", m.group("id"), m.group("name"))
    m = CANVAS_NAME.match(first)
    if m:
        return LmsIdentity("canvas", m.group("id"), m.group("name"))
    return None
