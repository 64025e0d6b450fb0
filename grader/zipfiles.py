"""Zips the kit publishes (the student bundle, the Gradescope autograder): their entries and
deterministic bytes (sorted entries, fixed 1980-01-01 timestamps and permissions)."""
from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass

ZIP_DATE = (1980, 1, 1, 0, 0, 0)
FILE_MODE = 0o644
EXEC_MODE = 0o755


@dataclass(frozen=True)
class Entry:
    """One file of a zip: its path inside the zip, bytes, and whether it is executable."""

    name: str
    data: bytes
    executable: bool = False


def zip_bytes(entries: list[Entry]) -> bytes:
    """A deterministic zip: entries sorted by name, fixed timestamps and permissions."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for entry in sorted(entries, key=lambda e: e.name):
            info = zipfile.ZipInfo(entry.name, date_time=ZIP_DATE)
            info.create_system = 3  # Unix, so the permission bits below are honoured
            mode = EXEC_MODE if entry.executable else FILE_MODE
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, entry.data, compresslevel=9)
    return buffer.getvalue()
