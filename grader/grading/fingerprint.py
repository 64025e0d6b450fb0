"""One fingerprint per course term: what must agree between the course folder, the zips built
from it and a graded folder.

Its parts: the rubric (its settings and parts as parsed, so a copy with another cases_dir,
such as the Gradescope zip's, has the same), the term, the datasets (the manifest's file
hashes: the hidden data the secret drew), the expected outputs (the manifest's entries), the
kit's version (the reference that made them) and the course's language (what students read;
recorded only when it is not English, so an English course's fingerprint is as before).
`fingerprint` is sha256 over the parts, 16 hex digits. It is a one-way hash: it reveals
nothing of the secret or the hidden data.

Written by `grade` (first line, summary.json/.md, every record), `bundle` and `gradescope`
(FINGERPRINT_FILE in the zip); `check --against` compares them (grader/courses/against.py).
"""
from __future__ import annotations

import json
from dataclasses import asdict

from kanon.files import sha256_bytes

from .. import __version__
from .expected import load_manifest
from ..rubric import Rubric

FINGERPRINT_FILE = "course-fingerprint.json"
PARTS = ("rubric", "term", "datasets", "expected outputs", "kit version", "language")
UNRECORDED = {"language": "en"}  # a part a record may leave out, and what that means
DEFAULT_TERM = "(no term: the default cases)"
# Not the course: where the cases live, who runs the children, how the download names the
# submissions (`--id-pattern`: the same class graded under another pattern is the same course).
LOCAL = ("cases_dir", "run_as", "student_id_pattern")


def _digest(data: object) -> str:
    return sha256_bytes(json.dumps(data, sort_keys=True, default=str).encode())[:16]


def rubric_digest(rubric: Rubric) -> str:
    """The rubric's settings (but LOCAL ones) and parts, as parsed."""
    settings = [(k, v) for k, v in rubric.settings.digest_items() if k not in LOCAL]
    return _digest({"settings": settings, "parts": [asdict(p) for p in rubric.parts]})


def fingerprint(rubric: Rubric) -> dict[str, str]:
    """The fingerprint record of `rubric` as graded (its term applied) with its cases folder:
    "fingerprint" and each of PARTS."""
    manifest = load_manifest(rubric.cases_dir)
    parts = {"rubric": rubric_digest(rubric), "term": rubric.term or DEFAULT_TERM,
             "datasets": _digest(manifest.get("files", {})),
             "expected outputs": _digest(manifest.get("entries", {})),
             "kit version": __version__}
    if rubric.language != UNRECORDED["language"]:
        parts["language"] = rubric.language
    return {"fingerprint": _digest(parts), **parts}


def differences(ours: dict, theirs: dict) -> list[str]:
    """The parts where `theirs` differs from `ours`, as "term: 'Fall 2025', course: 'Fall
    2026'" lines (empty when the fingerprints agree)."""
    if ours.get("fingerprint") == theirs.get("fingerprint"):
        return []
    def part_of(record: dict, part: str) -> object:
        return record.get(part, UNRECORDED.get(part, "not recorded"))
    found = [f"{part}: {part_of(theirs, part)!r} there, {part_of(ours, part)!r} in the "
             f"course" for part in PARTS if part_of(theirs, part) != part_of(ours, part)]
    return found or [f"fingerprint: {theirs.get('fingerprint')!r} there, "
                     f"{ours.get('fingerprint')!r} in the course"]


def summary_line(record: dict) -> str:
    """summary.md's line naming the fingerprint."""
    return (f"Course fingerprint: {record['fingerprint']} (`python -m grader check --course "
            f"DIR --against` this folder says whether it is the course's current term).")


def file_text(record: dict) -> str:
    """FINGERPRINT_FILE's text."""
    return json.dumps(record, indent=2, sort_keys=True) + "\n"


__all__ = ["FINGERPRINT_FILE", "PARTS", "differences", "file_text", "fingerprint",
           "summary_line"]
