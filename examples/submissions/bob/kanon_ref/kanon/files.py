"""Small file helpers shared by the whole kit: the one atomic write, deterministic JSON,
content hashes, safe names."""
from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from pathlib import Path


def atomic_write_bytes(path: str | os.PathLike, data: bytes, prefix: str = ".tmp-",
                       mode: int | None = None) -> None:
    """Write `data` to `path` through a temporary file in the same folder, flushed to disk,
    and a rename, so a reader (or a rerun after a crash) sees either the old file or the
    whole new one. The file is private to its owner (0600) unless `mode` says otherwise."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def dump_json(data: object) -> str:
    """Deterministic JSON: sorted keys, two-space indent, trailing newline."""
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def sha256_tree(root: Path, skip=lambda rel: False) -> str:
    """A hash of every file under `root` (relative paths and contents, in sorted order)."""
    h = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = path.relative_to(root).as_posix()
        if skip(rel):
            continue
        h.update(rel.encode("utf-8") + b"\0" + sha256_file(path).encode("ascii") + b"\n")
    return h.hexdigest()


_UNSAFE = re.compile(r"[^A-Za-z0-9._@+-]+")


def safe_name(text: str) -> str:
    """A file-name-safe form of a student id or case name (no separators, no leading dot)."""
    name = _UNSAFE.sub("_", text.strip()).strip("._") or "unnamed"
    return name[:120]
