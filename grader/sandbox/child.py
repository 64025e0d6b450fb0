"""One started child process (`Child`): starting the worker with its two pipes (as built by
spawn.py: command line, bubblewrap prefix, clean environment, RunAs user, its own process
group), its message channel (channel.py), waiting for a report (killing the child on a
cancel) or for its exit, and killing its whole process tree (with reaper.py for what left
the group or the tree)."""
from __future__ import annotations

import os
import signal
import subprocess
import threading
from pathlib import Path

from . import reaper
from .channel import Cancelled, Channel
from .runas import RunAs
from .spawn import bwrap_prefix, clean_environment, worker_argv


class Child:
    """A running worker: its process and its channel."""

    def __init__(self, proc: subprocess.Popen, channel: Channel, scratch: Path, bwrap: bool):
        self.proc, self.channel, self.scratch, self.bwrap = proc, channel, scratch, bwrap

    @classmethod
    def start(cls, python: str, scratch: Path, *, bwrap_hidden: list[Path] | None,
              run_as: RunAs | None) -> "Child":
        """Start the worker in `scratch` (under bubblewrap unless `bwrap_hidden` is None, as
        `run_as` unless None), in a new session, stdin from /dev/null."""
        cmd_r, cmd_w = os.pipe()
        res_r, res_w = os.pipe()
        argv = worker_argv(python, cmd_r, res_w)
        if bwrap_hidden is not None:
            argv = bwrap_prefix(scratch, bwrap_hidden) + argv
        try:
            proc = subprocess.Popen(
                argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                pass_fds=(cmd_r, res_w), cwd=scratch, env=clean_environment(scratch),
                start_new_session=True, **(run_as.popen_args() if run_as else {}))
        except BaseException:
            os.close(cmd_w)
            os.close(res_r)
            raise
        finally:
            os.close(cmd_r)
            os.close(res_w)
        return cls(proc, Channel(cmd_w, res_r, (proc.stdout, proc.stderr)), scratch,
                   bwrap_hidden is not None)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def wait_for(self, events: tuple[str, ...], deadline: float,
                 cancel: threading.Event) -> dict | None:
        """The channel's `wait_for`; when `cancel` is set the child is killed first, then
        Cancelled raised."""
        try:
            return self.channel.wait_for(events, deadline, cancel)
        except Cancelled:
            self.kill()
            raise

    def wait_exit(self, timeout: float) -> int | None:
        """Drain output while the child exits; its return code (None if still running)."""
        self.channel.drain_while(self.alive, timeout)
        return self.proc.poll()

    def kill(self) -> None:
        """Kill the child's whole process group (the child, its forks and what they started)."""
        if self.proc.poll() is None or not self.bwrap:
            # what left the group (setsid) or the tree (its subreaper died) goes too
            reaper.kill_all(self.proc.pid, None if self.bwrap else self.scratch)
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL cannot be ignored
            pass

    def close(self) -> None:
        """End the child: close its command pipe, kill what is left, release the pipes."""
        self.channel.close_commands()
        self.kill()
        self.channel.close()
