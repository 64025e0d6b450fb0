"""Leaving nothing behind: the grader's side of reaping what student code started.

The child (grader/sandbox/worker.py) is a child subreaper and reaps its own descendants after every
case; this module covers what it cannot: killing a child's whole process tree from the grader
(a timeout, a child that died or was killed), processes that left the tree (a child killed
from inside lets its orphans go to init) found by the scratch folder named in their
environment, and scratch folders of earlier runs whose grader was killed (`kill -9`, power
loss): each run records its owner (pid and process start time) in its scratch folder, and
the next run removes the folders whose owner is gone, after killing what still runs there.
"""
from __future__ import annotations

import os
import shutil
import signal
import sys
import time
from pathlib import Path

OWNER_FILE = ".kanon-owner"
SCRATCH_PREFIXES = ("kanon-grader-", "kanon-")
PR_GET_CHILD_SUBREAPER = 37


def subreaper_supported() -> bool:
    """Whether this platform lets a process adopt its orphaned descendants (Linux prctl)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes
        value = ctypes.c_int(0)
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_GET_CHILD_SUBREAPER, ctypes.byref(value), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _stat(pid: int | str) -> tuple[str, int, int] | None:
    """(state, ppid, start time in clock ticks) of a process, None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            text = f.read().decode("ascii", "replace")
    except OSError:
        return None
    fields = text.rpartition(")")[2].split()
    try:
        return fields[0], int(fields[1]), int(fields[19])
    except (IndexError, ValueError):
        return None


def start_time(pid: int) -> int | None:
    """The process's start time (field 22 of /proc/<pid>/stat), None when it is gone."""
    info = _stat(pid)
    return None if info is None else info[2]


def _processes() -> dict[int, tuple[str, int]]:
    """pid -> (state, ppid) of every process visible in /proc."""
    result = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return result
    for entry in entries:
        if entry.isdigit():
            info = _stat(entry)
            if info is not None:
                result[int(entry)] = (info[0], info[1])
    return result


def descendants(root: int, table: dict[int, tuple[str, int]] | None = None) -> set[int]:
    """Live (not zombie) processes below `root`."""
    table = _processes() if table is None else table
    children: dict[int, list[int]] = {}
    for pid, (_, ppid) in table.items():
        children.setdefault(ppid, []).append(pid)
    found, stack = set(), [root]
    while stack:
        for pid in children.get(stack.pop(), []):
            if pid not in found:
                found.add(pid)
                stack.append(pid)
    return {p for p in found if table[p][0] not in ("Z", "X")}


def marked(folder: Path) -> set[int]:
    """Live processes whose environment names `folder` (HOME and TMPDIR of every child lie
    inside its scratch folder), whatever their parent now is."""
    prefix = os.fsencode(str(folder)) + b"/"
    found = set()
    for pid, (state, _) in _processes().items():
        if pid == os.getpid() or state in ("Z", "X"):
            continue
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                environ = f.read()
        except OSError:
            continue
        if any((entry.partition(b"=")[2] + b"/").startswith(prefix)
               for entry in environ.split(b"\0")):
            found.add(pid)
    return found


def kill_all(root: int | None = None, folder: Path | None = None, seconds: float = 5.0) -> int:
    """SIGKILL every process below `root` (the root itself is left: as a subreaper it keeps
    orphans in its tree) and every process marked with `folder`, until none is left; how
    many were killed."""
    killed: set[int] = set()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = descendants(root) if root is not None else set()
        if folder is not None:
            found |= marked(folder)
        found.discard(os.getpid())
        if not found:
            break
        for pid in found:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        killed |= found
        time.sleep(0.01)
    return len(killed)


def _pid_namespace() -> str:
    try:
        return os.readlink("/proc/self/ns/pid")
    except OSError:
        return "-"


def claim(folder: Path) -> None:
    """Record this process as the owner of the scratch folder `folder` (pid, start time and
    PID namespace: a pid means nothing in another container sharing the folder)."""
    (folder / OWNER_FILE).write_text(
        f"{os.getpid()} {start_time(os.getpid()) or 0} {_pid_namespace()}\n", encoding="ascii")


def owner_alive(folder: Path) -> bool:
    """Whether the process recorded in `folder` still runs (True when nothing is recorded or
    it cannot be told: such folders are never removed)."""
    try:
        pid_text, started, namespace = (folder / OWNER_FILE).read_text(encoding="ascii").split()
        pid, started_at = int(pid_text), int(started)
    except (OSError, ValueError):
        return True
    if namespace != _pid_namespace():
        return True
    if pid == os.getpid():
        return True
    now = start_time(pid)
    if now is None:
        return not Path("/proc").is_dir() or os.path.exists(f"/proc/{pid}")
    return now == started_at


def remove_stale(base: Path) -> list[Path]:
    """Remove the scratch folders in `base` left by earlier runs whose owner is gone (after
    killing whatever still runs in them); the removed folders."""
    removed = []
    try:
        entries = sorted(base.iterdir())
    except OSError:
        return removed
    for folder in entries:
        if not folder.name.startswith(SCRATCH_PREFIXES) or folder.is_symlink():
            continue
        if not folder.is_dir() or not (folder / OWNER_FILE).is_file() or owner_alive(folder):
            continue
        kill_all(folder=folder)
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    return removed
