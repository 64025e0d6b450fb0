"""A course's secret: a random 256-bit key in DIR/secret, made once by `course new` and never
overwritten. Every draw of a term (hidden rows, sizes, arguments) is seeded from
HMAC-SHA256(key, "kanon-kit term" NUL term NUL what), so a term's hidden cases cannot be derived
from the public kit and the term's name alone (grader.authoring.terms.term_seed), and two
courses with the same term name draw different cases. The key stays in the course folder:
nothing the grader writes or publishes carries it.
"""
from __future__ import annotations

import os
import secrets
from pathlib import Path

from ..errors import UserError

SECRET_FILE = "secret"
KEY_BYTES = 32  # 256 bits, stored as 64 hex digits and a newline


def new_key() -> bytes:
    """A fresh key from the operating system's cryptographic generator."""
    return secrets.token_bytes(KEY_BYTES)


def write_key(folder: Path, key: bytes) -> Path:
    """Write DIR/secret (owner-only, mode 0600); refuses to replace an existing one."""
    path = folder / SECRET_FILE
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise UserError(f"{path}: a course's secret is never overwritten; keep it, or make "
                        f"the course in a new folder") from None
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(key.hex() + "\n")
    return path


def read_key(folder: Path) -> bytes:
    """The course's key; UserError naming DIR/secret and the fix when it is missing,
    unreadable or not 64 hex digits."""
    path = folder / SECRET_FILE
    fix = ("restore it from the course's private repository (without it this course's "
           "hidden cases cannot be drawn again), or make a new course with `python -m grader "
           "course new`")
    try:
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        raise UserError(f"{path}: the course's secret is missing; {fix}") from None
    except (OSError, UnicodeDecodeError) as e:
        why = getattr(e, "strerror", None) or "not text"
        raise UserError(f"{path}: cannot read the course's secret ({why}); {fix}") from None
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) != KEY_BYTES:
        raise UserError(f"{path}: not a course secret (expected {2 * KEY_BYTES} hex digits); "
                        f"{fix}")
    return key


def refuse_secret(entries: list, key: bytes, what: str) -> None:
    """UserError when any of `entries` (zip entries: .name, .data) carries the course's
    secret, as bytes or as hex."""
    for entry in entries:
        if key in entry.data or key.hex().encode() in entry.data.lower():
            raise UserError(f"refusing to write {what}: {entry.name} carries the course's "
                            f"secret")
