"""What must never reach students, checked on every file of a bundle: the staff solution's
code (the distinctive lines of reference/ and kanon/) and the grader's hidden cases (their
files, expected outputs and hidden-only data, identical or contained)."""
from __future__ import annotations

import hashlib
import io
import math
import tokenize
from pathlib import Path

from ..errors import UserError
from ..paths import HIDDEN_CASES, PUBLIC_TESTS
from ..zipfiles import Entry


# A file carries the reference's code when it holds at least REF_MODULE_SHARE of one reference
# module's distinctive lines (and at least REF_MIN_LINES of them), or REF_TOTAL_LINES in all.
# The thresholds tolerate the few generic lines (CSV reading, interval parsing) that skeleton.py
# and the public checker legitimately share with the reference.
REF_MIN_LINE_CHARS = 30
REF_MIN_LINES = 3
REF_MODULE_SHARE = 0.4
REF_TOTAL_LINES = 15


def distinctive_lines(source: str) -> set[str]:
    """The reference's tell-tale lines: stripped code lines (not comments, not docstrings, not
    imports) of at least REF_MIN_LINE_CHARS characters."""
    skip = {tokenize.STRING, tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT,
            tokenize.DEDENT, tokenize.ENCODING, tokenize.ENDMARKER}
    rows: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in skip:
            rows.update(range(token.start[0], token.end[0] + 1))
    lines = source.splitlines()
    stripped = (lines[r - 1].strip() for r in rows if r <= len(lines))
    return {s for s in stripped
            if len(s) >= REF_MIN_LINE_CHARS and not s.startswith(("import ", "from "))}


def reference_fingerprints(root: Path) -> dict[str, set[str]]:
    """reference/<module>.py and kanon/<module>.py (the core the solution stands on) -> their
    distinctive lines. reference/__main__.py is left out: the command line is no part of the
    solution, and skeleton.py's is the same on purpose."""
    paths = [*sorted((root / "reference").glob("*.py")), *sorted((root / "kanon").glob("*.py"))]
    return {p.relative_to(root).as_posix(): distinctive_lines(p.read_text(encoding="utf-8"))
            for p in paths if p.name != "__main__.py"}


def course_reference_fingerprints(rubric_path: Path) -> dict[str, set[str]]:
    """A course's own references (its rubric's [[function]] `reference` files: staff code in
    the course folder) -> their distinctive lines; {} for a course without functions of its
    own."""
    from ..courses.folder import resolve
    from ..parts.course_reference import reference_file
    rubric, _ = resolve(rubric_path)
    files = sorted({reference_file(c, rubric.course_dir) for c in rubric.functions.values()})
    return {f"course reference {p.name}": distinctive_lines(p.read_text(encoding="utf-8"))
            for p in files if p.is_file()}


PUBLIC_PACKAGES = ("kcheck",)
"""Kit packages written to be handed to students as they are (standard library only, no
reference solution in them: kcheck judges outputs, it never makes one); a bundle file equal
to one of their modules is no leak, whatever lines it shares with kanon/."""


def public_package_files(root: Path) -> dict[str, str]:
    """'kcheck/<module>.py' -> sha256 of each module of the PUBLIC_PACKAGES of `root`."""
    return {f"{package}/{p.name}": hashlib.sha256(p.read_bytes()).hexdigest()
            for package in PUBLIC_PACKAGES for p in sorted((root / package).glob("*.py"))}


def is_public_package_file(name: str, data: bytes, public: dict[str, str]) -> bool:
    """Whether the bundle file `name` (under the bundle's folder or at its root) is a
    verbatim module of a public package."""
    parts = name.split("/")
    key = "/".join(parts[-2:])
    return key in public and public[key] == hashlib.sha256(data).hexdigest()


def reference_leak(entry: Entry, fingerprints: dict[str, set[str]]) -> str | None:
    """Why `entry` looks like it carries reference code, or None."""
    try:
        lines = {line.strip() for line in entry.data.decode("utf-8").splitlines()}
    except UnicodeDecodeError:
        return None
    total = 0
    for module, fingerprint in fingerprints.items():
        shared = len(fingerprint & lines)
        total += shared
        if shared >= max(REF_MIN_LINES, math.ceil(REF_MODULE_SHARE * len(fingerprint))):
            return f"{entry.name} contains {shared} of the {len(fingerprint)} distinctive " \
                   f"lines of {module}"
    if total >= REF_TOTAL_LINES:
        return f"{entry.name} contains {total} distinctive lines of reference/*.py"
    return None


def _is_hierarchy(path: Path) -> bool:
    return path.suffix == ".txt" and path.parent.name == "DGHs"


def _files(folder: Path) -> set[Path]:
    return {p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts} \
        if folder.is_dir() else set()


def _hidden_case_files(rubric_path: Path) -> tuple[set[Path], list[Path]]:
    """A rubric's hidden cases: the expected outputs (from the case manifest) and the files
    of every data folder that only hidden cases use; and its public cases' hierarchy
    files."""
    from ..grading.expected import case_key, data_folder, load_manifest
    from ..courses.folder import resolve
    rubric, _ = resolve(rubric_path)
    cases_dir = rubric.cases_dir
    manifest = load_manifest(cases_dir).get("entries", {})
    public_data = {c.data for c in rubric.cases() if not c.hidden}
    found: set[Path] = set()
    shown = sorted(p for d in public_data for p in _files(data_folder(cases_dir, d))
                   if _is_hierarchy(p))
    for case in rubric.cases():
        if not case.hidden:
            continue
        if case.data not in public_data:
            found |= _files(data_folder(cases_dir, case.data))
        try:
            entry = manifest.get(case_key(case, cases_dir), {})
        except UserError:  # inputs missing: nothing stored to leak for this case
            continue
        if entry.get("file"):
            found.add(cases_dir / entry["file"])
    return found, shown


def hidden_secrets(root: Path, rubrics: list[Path] | None = None) -> list[Path]:
    """The files of the grader's hidden cases that students must never see: every file under
    grader/cases/hidden/ plus, for grader/rubric.toml and each of `rubrics`, its hidden cases'
    expected outputs and hidden-only data. Exempt: hierarchy files (DGHs/*.txt) byte-identical
    to a public hierarchy, and copies of the kit's adult-hw1.csv (both are handed out anyway)."""
    found = _files(root / HIDDEN_CASES)
    default = root / "grader" / "rubric.toml"
    public: list[Path] = []  # a course's public cases' hierarchies (its self-check's too)
    for rubric_path in ([default] if default.is_file() else []) + list(rubrics or []):
        hidden, shown = _hidden_case_files(rubric_path)
        found |= hidden
        public += shown
    digest = lambda p: hashlib.sha256(p.read_bytes()).hexdigest()  # noqa: E731
    hierarchies = {digest(p) for p in list((root / "DGHs").glob("*.txt"))
                   + list((root / PUBLIC_TESTS / "data").rglob("*.txt")) + public}
    dataset = digest(root / "adult-hw1.csv") if (root / "adult-hw1.csv").is_file() else None
    return sorted(p for p in found if not (_is_hierarchy(p) and digest(p) in hierarchies)
                  and digest(p) != dataset)


# A hidden file's text counts as "contained" in a bundle file only when it is long enough to be
# a real leak rather than a coincidence (a header line, one short value).
MIN_CONTAINED_BYTES = 200


def hidden_leak(entry: Entry, secrets: dict[str, tuple[str, bytes]]) -> str | None:
    """Why `entry` reveals a hidden case file (same sha256, or holds its whole content)."""
    digest = hashlib.sha256(entry.data).hexdigest()
    for name, (secret_digest, data) in secrets.items():
        if digest == secret_digest:
            return f"{entry.name} is identical to the hidden case file {name}"
        body = data.strip()
        if len(body) >= MIN_CONTAINED_BYTES and body in entry.data:
            return f"{entry.name} contains the hidden case file {name}"
    return None
