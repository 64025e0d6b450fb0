"""The session policy (`Session`): the scratch folder a child gets (home, tmp, handed to the
RunAs user), starting it and importing the student's module under the import's CPU-time
limit and its wall-clock backstop, each call under its CPU-time limit, its wall-clock backstop
and the disk limit (polled every DISK_CHECK_SECONDS), killing the child on a timeout or a
cancel, and the outcomes (outcomes.py) with the output captured in each phase. The process
itself is child.py's, the pipes channel.py's, the command line spawn.py's."""
from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

from .child import Child
from .confinement import landlock_rules
from .limits import DISK_CHECK_SECONDS, Limits, folder_bytes, wall_backstop
from .outcomes import (CallOutcome, ChildStatus, ImportOutcome, call_outcome, import_died,
                       import_reported)
from .runas import RunAs
from .spawn import setup_message, site_dirs, usable_deny_list


def prepare_scratch(scratch: Path, run_as: RunAs | None, import_cwd: Path) -> None:
    """The child's home and tmp folders in `scratch`; with `run_as`, handed to that user with
    the folder the import runs in."""
    for sub in ("home", "tmp"):
        (scratch / sub).mkdir(exist_ok=True)
    if run_as is not None:
        # the scratch folder stays the grader's (the child cannot add or swap entries in
        # it) but the user may pass through it to the folders handed to them
        scratch.chmod(0o711)
        for folder in (scratch / "home", scratch / "tmp", import_cwd):
            run_as.give(folder)


def end_import(child: Child, event: dict | None, start: float, deadline: float) -> ImportOutcome:
    """The import's outcome from the child's report (`event`; None when none came before the
    deadline or the child died); the child is killed unless the import went well."""
    if event is None and time.monotonic() >= deadline and child.alive():
        child.kill()  # else: it died (pipe closed)
        return ImportOutcome(ChildStatus.TIMEOUT, time.monotonic() - start, error={"wall": True})
    if event is None:
        code = child.wait_exit(2.0)
        child.kill()
        return import_died(code, time.monotonic() - start)
    if event["event"] != "imported":
        child.wait_exit(2.0)
        child.kill()
    return import_reported(event)


class Session:
    """One child process: the student's module imported once, calls run in forks of it."""

    def __init__(self, scratch: Path, limits: Limits, *, bwrap_hidden: list[Path] | None = None,
                 cancel: threading.Event | None = None, deny: list[Path] | None = None,
                 run_as: RunAs | None = None, python: str | None = None,
                 landlock: bool = False):
        self.scratch = scratch
        self.run_as = run_as  # None: the child runs as the grader's user
        self.python = python or sys.executable
        self.deny = usable_deny_list(deny or [], scratch)
        self.limits = limits
        self.bwrap_hidden = bwrap_hidden  # None: no bubblewrap
        self.landlock = landlock  # the child confines itself with Landlock (confinement.py)
        self.layers: dict = {}  # the confinement the child reported it applied
        self.cancel = cancel or threading.Event()
        self.child: Child | None = None

    def start(self, *, file: Path, module: str, paths: list[Path], import_cwd: Path,
              functions: list[str], mode: str, import_limit: float,
              max_call_seconds: float, allowed: list[str] | None = None,
              known: dict[int, str] | None = None) -> ImportOutcome:
        """Start the child and import the solution file (mode "full", or "retry": one
        top-level statement at a time) within `import_limit` seconds of CPU time (and its
        wall-clock backstop); the outcome says how that went. `allowed`: the third-party
        packages student code may import (default numpy). `known`: statements an earlier
        retry left out (first line -> reason), left out again without running."""
        prepare_scratch(self.scratch, self.run_as, import_cwd)
        self.child = Child.start(self.python, self.scratch, bwrap_hidden=self.bwrap_hidden,
                                 run_as=self.run_as)
        setup = setup_message(self.limits, self.run_as, self.deny, file=file, module=module,
                              paths=paths, import_cwd=import_cwd, functions=functions,
                              mode=mode, import_limit=import_limit,
                              max_call_seconds=max_call_seconds, allowed=allowed, known=known,
                              confine=landlock_rules(self.scratch, ["numpy"] if allowed is None
                                                     else allowed, site_dirs())
                              if self.landlock else None)
        output = self.child.channel.new_phase(self.limits.output_kb * 1024)
        start = time.monotonic()
        deadline = start + wall_backstop(import_limit)
        event = None
        if self.child.channel.send(setup):
            event = self.child.wait_for(("imported", "import-failed"), deadline, self.cancel)
        outcome = end_import(self.child, event, start, deadline)
        self.layers = outcome.layers
        outcome.output, outcome.output_dropped = output.text(), output.dropped
        return outcome

    def call(self, *, case: str, cwd: Path, function: str, args: list, time_limit: float,
             kwargs: dict | None = None, wall_limit: float | None = None) -> CallOutcome:
        """Run `function(*args, **kwargs)` in a fork of the child, in `cwd`, within
        `time_limit` seconds of CPU time (enforced by the kernel) and `wall_limit` seconds of
        wall-clock time (default: the backstop of `time_limit`)."""
        output = self.child.channel.new_phase(self.limits.output_kb * 1024)
        if self.run_as is not None:
            self.run_as.give(cwd)  # the case's inputs, copied by the grader: now the child's
        start = time.monotonic()
        message = {"case": case, "cwd": str(cwd), "function": function, "args": args,
                   "kwargs": kwargs or {}, "cpu": time_limit}
        if not self.child.channel.send(message):
            outcome = CallOutcome(ChildStatus.CRASH, returncode=self.child.wait_exit(1.0))
        else:
            deadline = start + (wall_backstop(time_limit) if wall_limit is None else wall_limit)
            outcome = self._await_call(start, deadline, time_limit)
        outcome.output, outcome.output_dropped = output.text(), output.dropped
        return outcome

    def _await_call(self, start: float, deadline: float, time_limit: float) -> CallOutcome:
        """Wait for the fork's report and exit, polling the disk use meanwhile."""
        result = None
        while True:
            check = min(deadline, time.monotonic() + DISK_CHECK_SECONDS)
            event = self.child.wait_for(("result", "exited"), check, self.cancel)
            if event is None and self.alive() and time.monotonic() < deadline:
                used = folder_bytes(self.scratch)
                if used > self.limits.disk_mb * 2**20:
                    self.kill()
                    return CallOutcome(ChildStatus.FILE_SIZE, time.monotonic() - start,
                                       error={"disk": used})
                continue
            if event is None:
                if self.alive() and time.monotonic() >= deadline:
                    self.kill()
                    return CallOutcome(ChildStatus.TIMEOUT, time.monotonic() - start,
                                       error={"wall": True})
                self.kill()  # the child itself died (killed from inside, or crashed)
                return call_outcome(result, None, time.monotonic() - start)
            if event["event"] == "result":
                result = event
                deadline = max(deadline, time.monotonic()) + 2.0  # let the fork exit
                continue
            outcome = call_outcome(result, event.get("returncode"), time.monotonic() - start)
            outcome.cpu_seconds = event.get("cpu")
            outcome.leftover = int(event.get("leftover") or 0)
            if (outcome.status == ChildStatus.CRASH and outcome.error.get("signal") == "SIGKILL"
                    and outcome.cpu_seconds is not None and outcome.cpu_seconds >= time_limit):
                outcome.status = ChildStatus.TIMEOUT  # the hard CPU limit, SIGXCPU ignored
            if outcome.status == ChildStatus.TIMEOUT:
                self.kill()  # with whatever the call started; the next call re-imports
            return outcome

    def alive(self) -> bool:
        return self.child is not None and self.child.alive()

    def kill(self) -> None:
        """Kill the child's whole process group (the child, its forks and what they started)."""
        if self.child is not None:
            self.child.kill()

    def close(self) -> None:
        """End the child and release its pipes."""
        if self.child is not None:
            self.child.close()

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
