"""The unprivileged user a child runs as when the grader runs as root (`RunAs`): looking the
user up, the Popen arguments that switch to it, handing it the folders it may write, and
judging from mode bits what it could read."""
from __future__ import annotations

import os
import pwd
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class RunAs:
    """The unprivileged user a child runs as (when the grader itself runs as root)."""

    name: str
    uid: int
    gid: int

    @classmethod
    def lookup(cls, name: str) -> "RunAs | None":
        """The user called `name` (or with that numeric uid); None when there is none."""
        try:
            entry = pwd.getpwuid(int(name)) if name.isdigit() else pwd.getpwnam(name)
        except (KeyError, ValueError, OverflowError):
            return None
        return cls(entry.pw_name, entry.pw_uid, entry.pw_gid)

    def popen_args(self) -> dict:
        """subprocess.Popen arguments that start the child as this user, with no
        supplementary groups (the kernel then drops every capability)."""
        return {"user": self.uid, "group": self.gid, "extra_groups": []}

    def give(self, folder: Path) -> None:
        """Hand a folder the grader just filled (still root's, so the user cannot change it
        meanwhile) to this user: its contents first, bottom-up, links not followed; then the
        folder. A folder the user already owns is left alone (never walk what they control)."""
        try:
            if folder.lstat().st_uid == self.uid:
                return
        except FileNotFoundError:
            return
        for top, dirs, files in os.walk(folder, topdown=False):
            for name in dirs + files:
                os.chown(os.path.join(top, name), self.uid, self.gid, follow_symlinks=False)
        os.chown(folder, self.uid, self.gid, follow_symlinks=False)

    def can(self, st: os.stat_result, bit: int) -> bool:
        """Whether the mode bits of `st` grant this user `bit` (4 read, 2 write, 1 search)."""
        shift = 6 if st.st_uid == self.uid else 3 if st.st_gid == self.gid else 0
        return bool((st.st_mode >> shift) & bit)

    def readable_inside(self, folder: Path, limit: int = 20000) -> Path | None:
        """A file under `folder` this user could read (judged from the mode bits of the file
        and of every folder above it), or None."""
        folder = folder.resolve()
        try:
            for above in reversed(folder.parents):
                if not self.can(above.stat(), 1):
                    return None
            if not self.can(folder.stat(), 1):
                return None
        except OSError:
            return None
        stack, seen = [folder], 0
        while stack and seen < limit:
            try:
                with os.scandir(stack.pop()) as entries:
                    for entry in entries:
                        seen += 1
                        st = entry.stat(follow_symlinks=False)
                        if entry.is_dir(follow_symlinks=False):
                            if self.can(st, 1):
                                stack.append(Path(entry.path))
                        elif entry.is_file(follow_symlinks=False) and self.can(st, 4):
                            return Path(entry.path)
            except OSError:
                continue
        return None
