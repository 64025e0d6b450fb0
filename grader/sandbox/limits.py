"""The limits of one child and how they are measured: `Limits` (resource limits), the
wall-clock backstop of a CPU-time limit (`wall_backstop`), the process limit (RLIMIT_NPROC
counts every task of the user, so it is counted from /proc), and the disk use of a scratch
folder (`folder_bytes`, polled by the session during a call)."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

DISK_CHECK_SECONDS = 0.25
WALL_FACTOR, WALL_EXTRA = 3.0, 2.0  # the wall-clock backstop of a CPU-time limit


@dataclass(frozen=True)
class Limits:
    """Resource limits of one child."""

    memory_mb: int = 2048
    file_size_mb: int = 64
    processes: int = 64  # extra processes/threads beyond those the user already runs
    open_files: int = 256
    output_kb: int = 16  # captured stdout+stderr kept per phase (import, each call)
    disk_mb: int = 1024  # all files under the scratch folder together


def wall_backstop(cpu_seconds: float) -> float:
    """The wall-clock limit that backs a CPU-time limit: generous, so that a busy machine
    never turns a run within its CPU limit into a timeout; it only stops code that waits
    (sleeps, blocks) instead of computing."""
    return WALL_FACTOR * cpu_seconds + WALL_EXTRA


def folder_bytes(folder: Path) -> int:
    """Total size of the files under `folder` (links not followed)."""
    total = 0
    stack = [str(folder)]
    while stack:
        try:
            with os.scandir(stack.pop()) as entries:
                for entry in entries:
                    try:
                        if entry.is_dir(follow_symlinks=False):
                            stack.append(entry.path)
                        else:
                            total += entry.stat(follow_symlinks=False).st_size
                    except OSError:
                        continue
        except OSError:
            continue
    return total


def user_task_count(uid: int | None = None) -> int:
    """Processes and threads the user (by default the current one) runs now (RLIMIT_NPROC
    counts them all)."""
    uid, count = os.getuid() if uid is None else uid, 0
    try:
        entries = os.listdir("/proc")
    except OSError:
        return 0
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status", encoding="ascii", errors="replace") as f:
                status = f.read()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        if fields.get("Uid", "").split()[:1] == [str(uid)]:
            count += int(fields.get("Threads", "1").strip() or 1)
    return count


def process_limit(extra: int, uid: int | None = None) -> int:
    """RLIMIT_NPROC counts every task of the user, so the limit is what runs now plus
    `extra`; where that cannot be counted (no /proc), no limit (-1)."""
    running = user_task_count(uid)
    return running + extra if running else -1
