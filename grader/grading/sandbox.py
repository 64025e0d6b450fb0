"""Running student code in a child process, never in the grader's own process.

A `Session` is one child (grader/grading/worker.py) that imports the student's module once, under an
import CPU-time limit, in a scratch directory; each `call` then runs in a fork of that child,
in the case's own directory, under a CPU-time limit enforced by the kernel (what decides a
verdict) and a generous wall-clock backstop enforced here (`wall_backstop`; the child and all
it started are killed). The child gets a clean environment (HOME and
TMPDIR inside the scratch directory, a fixed hash seed), limits on address space, file size,
processes and open files, stdin from /dev/null, and its output captured up to a cap. With
`bwrap=True` the child also runs under bubblewrap: no network, a read-only view of the
machine, and the grader's cases, the submissions and the results hidden; only the scratch
directory is writable. With `run_as` (a `RunAs`, used when the grader runs as root) the child
runs as that unprivileged user, and the folders it writes are handed to that user.
"""
from __future__ import annotations

import json
import math
import os
import pwd
import selectors
import shutil
import signal
import site
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..paths import KIT_ROOT, WORKER
from . import reaper

WORKER_SOURCE = WORKER.read_text(encoding="utf-8")
BLOCKED_MODULES = ("grader", "reference", "tests")


DISK_CHECK_SECONDS = 0.25
WALL_FACTOR, WALL_EXTRA = 3.0, 2.0  # the wall-clock backstop of a CPU-time limit


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


def python_problem(run_as: RunAs, folder: Path, python: str | None = None) -> str | None:
    """None when `run_as` can start the child's Python in `folder` and import from the site
    folders (numpy); otherwise what went wrong, in one line."""
    code = ("import os, sys; os.chdir(sys.argv[1]); sys.path.extend(sys.argv[2:]); "
            "import json; import importlib.util as u; "
            "u.find_spec('numpy') is None or __import__('numpy')")
    try:
        done = subprocess.run(
            [python or sys.executable, "-S", "-s", "-P", "-B", "-c", code, str(folder),
             *site_dirs()], stdin=subprocess.DEVNULL, capture_output=True, timeout=60,
            cwd="/", env=clean_environment(folder), **run_as.popen_args())
    except (OSError, subprocess.SubprocessError) as e:
        return f"{type(e).__name__}: {e}"
    if done.returncode != 0:
        lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
        return lines[-1] if lines else f"exit status {done.returncode}"
    return None


class Cancelled(Exception):
    """The batch was interrupted (Ctrl-C); the child has been killed."""


@dataclass(frozen=True)
class Limits:
    """Resource limits of one child."""

    memory_mb: int = 2048
    file_size_mb: int = 64
    processes: int = 64  # extra processes/threads beyond those the user already runs
    open_files: int = 256
    output_kb: int = 16  # captured stdout+stderr kept per phase (import, each call)
    disk_mb: int = 1024  # all files under the scratch folder together


@dataclass
class Captured:
    """At most `cap` bytes of a child's output, and how many bytes were dropped."""

    cap: int
    data: bytearray = field(default_factory=bytearray)
    dropped: int = 0

    def add(self, chunk: bytes) -> None:
        room = self.cap - len(self.data)
        if room > 0:
            self.data += chunk[:room]
        self.dropped += max(0, len(chunk) - max(room, 0))

    def text(self) -> str:
        text = self.data.decode("utf-8", "replace")
        if self.dropped:
            text += f"\n[... {self.dropped} more bytes of output not kept]"
        return text


@dataclass
class ImportOutcome:
    """How importing the student's module went."""

    status: str  # "ok", "exception", "exit", "memory", "timeout", "crash"
    seconds: float = 0.0
    functions: dict = field(default_factory=dict)
    error: dict = field(default_factory=dict)  # type, message, traceback / code
    output: str = ""
    output_dropped: int = 0
    forbidden: list[str] = field(default_factory=list)  # refused accesses to grader files
    dropped: list[dict] = field(default_factory=list)  # retry: statements left out, and why


@dataclass
class CallOutcome:
    """How one call went: status "returned", "exception", "exit", "memory", "timeout" (CPU
    limit or wall-clock backstop), "crash" (died without reporting), "file-size" (killed by
    a limit). `cpu_seconds` is the call's CPU time as the kernel counted it."""

    status: str
    seconds: float = 0.0
    cpu_seconds: float | None = None
    value: dict = field(default_factory=dict)  # value_kind, value / type, repr
    error: dict = field(default_factory=dict)
    returncode: int | None = None
    output: str = ""
    output_dropped: int = 0
    forbidden: list[str] = field(default_factory=list)
    leftover: int = 0  # processes the call left running after it returned (then killed)


def site_dirs() -> list[str]:
    """Where the child finds third-party packages such as numpy: the site-packages folders
    (without running their .pth files) and numpy's own folder, never the kit's checkout."""
    dirs: list[str] = []
    try:
        dirs += site.getsitepackages()
    except AttributeError:  # pragma: no cover - some virtualenv versions
        pass
    user = site.getusersitepackages() if site.ENABLE_USER_SITE else None
    if user and os.path.isdir(user):
        dirs.append(user)
    try:
        import numpy
        dirs.append(str(Path(numpy.__file__).resolve().parent.parent))
    except ImportError:  # pragma: no cover - numpy is a dependency of the kit
        pass
    seen, result = set(), []
    for d in dirs:
        real = os.path.realpath(d)
        if real not in seen and os.path.isdir(real) and Path(real) != KIT_ROOT:
            seen.add(real)
            result.append(real)
    return result


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


def usable_deny_list(deny: list[Path], scratch: Path) -> list[Path]:
    """The folders a child must not read, minus any that hold the scratch folder or the
    Python installation (refusing those would break every submission)."""
    keep = [Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve(), scratch.resolve()]
    keep += [Path(d) for d in site_dirs()]
    result = []
    for folder in deny:
        folder = folder.resolve()
        if not any(k == folder or folder in k.parents for k in keep):
            result.append(folder)
    return result


def _process_limit(extra: int, uid: int | None = None) -> int:
    """RLIMIT_NPROC counts every task of the user, so the limit is what runs now plus
    `extra`; where that cannot be counted (no /proc), no limit (-1)."""
    running = user_task_count(uid)
    return running + extra if running else -1


def clean_environment(scratch: Path) -> dict[str, str]:
    """The child's whole environment: nothing inherited from the grader's."""
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(scratch / "home"),
        "TMPDIR": str(scratch / "tmp"),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONHASHSEED": "0",  # set iteration order is the same on every run
        "PYTHONUTF8": "1",  # open() reads UTF-8 like the handout says, on every platform
        "PYTHONIOENCODING": "utf-8:replace",
        "OMP_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "MPLBACKEND": "Agg",
    }


def bwrap_available(run_as: RunAs | None = None) -> bool:
    """Whether bubblewrap is installed and can create its namespaces here (as `run_as`)."""
    exe = shutil.which("bwrap")
    if not exe:
        return False
    try:
        result = subprocess.run([exe, "--ro-bind", "/", "/", "--dev", "/dev", "--unshare-all",
                                 "--die-with-parent", "true"], capture_output=True, timeout=10,
                                cwd="/", **(run_as.popen_args() if run_as else {}))
    except (OSError, subprocess.SubprocessError):
        return False
    return result.returncode == 0


def bwrap_prefix(scratch: Path, hidden: list[Path]) -> list[str]:
    """bubblewrap arguments: read-only root, private /tmp, /dev and /proc, no network, the
    `hidden` folders replaced by empty ones, and only `scratch` writable."""
    args = [shutil.which("bwrap") or "bwrap", "--ro-bind", "/", "/", "--dev", "/dev",
            "--proc", "/proc", "--size", str(256 * 2**20), "--tmpfs", "/tmp",
            "--unshare-all", "--die-with-parent",
            "--new-session"]
    python_home = Path(sys.base_prefix).resolve()
    for folder in _python_folders_under(Path("/tmp"), hidden):
        args += ["--ro-bind", str(folder), str(folder)]  # a venv in /tmp stays usable
    for folder in hidden:
        folder = folder.resolve()
        if folder.is_dir() and not (python_home == folder or folder in python_home.parents):
            args += ["--tmpfs", str(folder)]
    args += ["--bind", str(scratch), str(scratch), "--chdir", str(scratch)]
    return args


def _python_folders_under(mount: Path, hidden: list[Path]) -> list[Path]:
    """The interpreter's prefixes and import folders that lie below `mount` (which bubblewrap
    replaces by an empty tmpfs), minus anything inside a hidden folder."""
    candidates = {sys.prefix, sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix,
                  *(p for p in sys.path if p)}
    hidden_resolved = [h.resolve() for h in hidden]
    found: set[Path] = set()
    for text in candidates:
        for folder in {Path(text).absolute(), Path(text).resolve()}:
            inside_hidden = any(folder == h or h in folder.parents for h in hidden_resolved)
            if folder.is_dir() and mount in folder.parents and not inside_hidden:
                found.add(folder)
    return sorted(found)


class Session:
    """One child process: the student's module imported once, calls run in forks of it."""

    def __init__(self, scratch: Path, limits: Limits, *, bwrap_hidden: list[Path] | None = None,
                 cancel: threading.Event | None = None, deny: list[Path] | None = None,
                 run_as: RunAs | None = None, python: str | None = None):
        self.scratch = scratch
        self.run_as = run_as  # None: the child runs as the grader's user
        self.python = python or sys.executable
        self.deny = usable_deny_list(deny or [], scratch)
        self.limits = limits
        self.bwrap_hidden = bwrap_hidden  # None: no bubblewrap
        self.cancel = cancel or threading.Event()
        self.proc: subprocess.Popen | None = None
        self._selector: selectors.BaseSelector | None = None
        self._lines: list[dict] = []
        self._partial = b""
        self._output: Captured | None = None
        self._cmd_w: int | None = None

    # -- lifecycle ---------------------------------------------------------------------
    def start(self, *, file: Path, module: str, paths: list[Path], import_cwd: Path,
              functions: list[str], mode: str, import_limit: float,
              max_call_seconds: float, allowed: list[str] | None = None,
              known: dict[int, str] | None = None) -> ImportOutcome:
        """Start the child and import the solution file (mode "full", or "retry": one
        top-level statement at a time) within `import_limit` seconds of CPU time (and its
        wall-clock backstop); the outcome says how that went. `allowed`: the third-party
        packages student code may import (default numpy). `known`: statements an earlier
        retry left out (first line -> reason), left out again without running."""
        for sub in ("home", "tmp"):
            (self.scratch / sub).mkdir(exist_ok=True)
        if self.run_as is not None:
            # the scratch folder stays the grader's (the child cannot add or swap entries in
            # it) but the user may pass through it to the folders handed to them
            self.scratch.chmod(0o711)
            for folder in (self.scratch / "home", self.scratch / "tmp", import_cwd):
                self.run_as.give(folder)
        cmd_r, cmd_w = os.pipe()
        res_r, res_w = os.pipe()
        argv = [self.python, "-S", "-s", "-P", "-B", "-c", WORKER_SOURCE,
                str(cmd_r), str(res_w)]
        if self.bwrap_hidden is not None:
            argv = bwrap_prefix(self.scratch, self.bwrap_hidden) + argv
        try:
            self.proc = subprocess.Popen(
                argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                pass_fds=(cmd_r, res_w), cwd=self.scratch, env=clean_environment(self.scratch),
                start_new_session=True, **(self.run_as.popen_args() if self.run_as else {}))
        finally:
            os.close(cmd_r)
            os.close(res_w)
        self._cmd_w = cmd_w
        os.set_blocking(res_r, False)
        self._selector = selectors.DefaultSelector()
        for stream, tag in ((self.proc.stdout, "out"), (self.proc.stderr, "out")):
            os.set_blocking(stream.fileno(), False)
            self._selector.register(stream.fileno(), selectors.EVENT_READ, tag)
        self._selector.register(res_r, selectors.EVENT_READ, "res")
        self._res_r = res_r
        mb = 1024 * 1024
        setup = {
            "limits": {"address_space": self.limits.memory_mb * mb,
                       "file_size": self.limits.file_size_mb * mb,
                       "open_files": self.limits.open_files,
                       "processes": _process_limit(self.limits.processes,
                                                   self.run_as.uid if self.run_as else None),
                       "import_cpu": math.ceil(import_limit) + 1,
                       "max_cpu": math.ceil(max(import_limit, max_call_seconds)) + 5},
            "paths": [str(p) for p in paths], "site": site_dirs(),
            "blocked": list(BLOCKED_MODULES), "file": str(file), "module": module,
            "import_cwd": str(import_cwd), "functions": functions, "mode": mode,
            "deny": [str(d) for d in self.deny],
            "allowed": list(["numpy"] if allowed is None else allowed),
            "retry_budget": import_limit,
            "retry_wall": wall_backstop(import_limit) - 1.0,  # ends before the parent's limit
            "known": {str(k): v for k, v in (known or {}).items()},
        }
        self._output = Captured(self.limits.output_kb * 1024)
        start = time.monotonic()
        if not self._send(setup):
            return self._import_death(start)
        deadline = start + wall_backstop(import_limit)
        event = self._wait_for(("imported", "import-failed"), deadline)
        output = self._output
        if event is None:
            if time.monotonic() >= deadline and self.alive():  # else: it died (pipe closed)
                self.kill()
                return ImportOutcome("timeout", time.monotonic() - start, output=output.text(),
                                     output_dropped=output.dropped, error={"wall": True})
            return self._import_death(start)
        forbidden = [str(f) for f in event.get("forbidden", [])][:20]
        if event["event"] == "imported":
            return ImportOutcome("ok", event.get("seconds", 0.0), event.get("functions", {}),
                                 output=output.text(), output_dropped=output.dropped,
                                 forbidden=forbidden, dropped=list(event.get("dropped", [])))
        self._wait_exit(2.0)
        self.kill()
        status = event.get("status", "exception")
        error = {k: event[k] for k in ("type", "message", "traceback", "code", "mro")
                 if k in event}
        return ImportOutcome(status if status in ("exit", "memory") else "exception",
                             event.get("seconds", 0.0), error=error, output=output.text(),
                             output_dropped=output.dropped, forbidden=forbidden)

    def _import_death(self, start: float) -> ImportOutcome:
        code = self._wait_exit(2.0)
        self.kill()
        output = self._output
        status = "exit" if code is not None and code >= 0 else "crash"
        error = {"code": str(code)} if status == "exit" else {"signal": _signal_name(code)}
        if error.get("signal") == "SIGXCPU":  # the import's CPU-time limit
            status = "timeout"
        return ImportOutcome(status, time.monotonic() - start, error=error,
                             output=output.text(), output_dropped=output.dropped)

    def call(self, *, case: str, cwd: Path, function: str, args: list, time_limit: float,
             kwargs: dict | None = None, wall_limit: float | None = None) -> CallOutcome:
        """Run `function(*args, **kwargs)` in a fork of the child, in `cwd`, within
        `time_limit` seconds of CPU time (enforced by the kernel) and `wall_limit` seconds of
        wall-clock time (default: the backstop of `time_limit`)."""
        self._output = Captured(self.limits.output_kb * 1024)
        if self.run_as is not None:
            self.run_as.give(cwd)  # the case's inputs, copied by the grader: now the child's
        start = time.monotonic()
        message = {"case": case, "cwd": str(cwd), "function": function, "args": args,
                   "kwargs": kwargs or {}, "cpu": time_limit}
        if not self._send(message):
            return self._finish(CallOutcome("crash", returncode=self._wait_exit(1.0)))
        deadline = start + (wall_backstop(time_limit) if wall_limit is None else wall_limit)
        result = None
        while True:
            check = min(deadline, time.monotonic() + DISK_CHECK_SECONDS)
            event = self._wait_for(("result", "exited"), check)
            if event is None and self.alive() and time.monotonic() < deadline:
                used = folder_bytes(self.scratch)
                if used > self.limits.disk_mb * 2**20:
                    self.kill()
                    return self._finish(CallOutcome("file-size", time.monotonic() - start,
                                                    error={"disk": used}))
                continue
            if event is None:
                if self.alive() and time.monotonic() >= deadline:
                    self.kill()
                    return self._finish(CallOutcome("timeout", time.monotonic() - start,
                                                    error={"wall": True}))
                # the child itself died (killed from inside, or crashed)
                self.kill()
                return self._finish(_unreported(result, None, time.monotonic() - start))
            if event["event"] == "result":
                result = event
                deadline = max(deadline, time.monotonic()) + 2.0  # let the fork exit
                continue
            outcome = _unreported(result, event.get("returncode"), time.monotonic() - start)
            outcome.cpu_seconds = event.get("cpu")
            outcome.leftover = int(event.get("leftover") or 0)
            if (outcome.status == "crash" and outcome.error.get("signal") == "SIGKILL"
                    and outcome.cpu_seconds is not None and outcome.cpu_seconds >= time_limit):
                outcome.status = "timeout"  # the hard CPU limit, after SIGXCPU was ignored
            if outcome.status == "timeout":
                self.kill()  # with whatever the call started; the next call re-imports
            return self._finish(outcome)

    def _finish(self, outcome: CallOutcome) -> CallOutcome:
        outcome.output = self._output.text()
        outcome.output_dropped = self._output.dropped
        return outcome

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """Kill the child's whole process group (the child, its forks and what they started)."""
        if self.proc is None:
            return
        if self.proc.poll() is None or self.bwrap_hidden is None:
            # what left the group (setsid) or the tree (its subreaper died) goes too
            reaper.kill_all(self.proc.pid, None if self.bwrap_hidden else self.scratch)
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL cannot be ignored
            pass

    def close(self) -> None:
        """End the child and release its pipes."""
        if self._cmd_w is not None:
            try:
                os.close(self._cmd_w)
            except OSError:
                pass
            self._cmd_w = None
        self.kill()
        if self._selector is not None:
            self._selector.close()
            self._selector = None
            os.close(self._res_r)
        if self.proc is not None:
            for stream in (self.proc.stdout, self.proc.stderr):
                if stream:
                    stream.close()

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- pipes -------------------------------------------------------------------------
    def _send(self, message: dict) -> bool:
        data = (json.dumps(message) + "\n").encode("utf-8")
        try:
            while data:
                data = data[os.write(self._cmd_w, data):]
        except (BrokenPipeError, OSError):
            return False
        return True

    def _wait_for(self, events: tuple[str, ...], deadline: float) -> dict | None:
        """Pump the pipes until a result line of one of `events` arrives (returned), the
        deadline passes or the child's result pipe closes (None)."""
        while True:
            for i, line in enumerate(self._lines):
                if line.get("event") in events:
                    del self._lines[: i + 1]
                    return line
            if self.cancel.is_set():
                self.kill()
                raise Cancelled()
            remaining = deadline - time.monotonic()
            if remaining <= 0 or self._selector is None or not self._selector.get_map():
                return None
            if not self._pump(min(remaining, 0.2)) and self._res_closed():
                return None

    def _res_closed(self) -> bool:
        return all(key.data != "res" for key in self._selector.get_map().values())

    def _pump(self, timeout: float) -> bool:
        """Read whatever the child wrote; returns whether anything was read."""
        got = False
        for key, _ in self._selector.select(timeout):
            try:
                chunk = os.read(key.fd, 65536)
            except BlockingIOError:
                continue
            except OSError:
                chunk = b""
            if not chunk:
                self._selector.unregister(key.fd)
                continue
            got = True
            if key.data == "out":
                self._output.add(chunk)
            else:
                self._partial += chunk
                *complete, self._partial = self._partial.split(b"\n")
                for raw in complete:
                    try:
                        message = json.loads(raw.decode("utf-8", "replace"))
                    except ValueError:
                        continue  # not ours (a student wrote to the pipe): ignore it
                    if isinstance(message, dict):
                        self._lines.append(message)
        return got

    def _wait_exit(self, timeout: float) -> int | None:
        """Drain output while the child exits; its return code (None if still running)."""
        deadline = time.monotonic() + timeout
        while self.proc is not None and self.proc.poll() is None and time.monotonic() < deadline:
            if self._selector is not None and self._selector.get_map():
                self._pump(0.05)
            else:
                time.sleep(0.02)
        if self._selector is not None and self._selector.get_map():
            self._pump(0)
        return None if self.proc is None else self.proc.poll()


def _signal_name(code: int | None) -> str:
    if code is None or code >= 0:
        return str(code)
    try:
        return signal.Signals(-code).name
    except ValueError:
        return f"signal {-code}"


def _unreported(result: dict | None, returncode: int | None, seconds: float) -> CallOutcome:
    """Turn a fork's result line (if any) and exit status into a CallOutcome."""
    if result is not None and result.get("status") in ("returned", "exception", "exit",
                                                       "memory", "file-size", "setup-failed"):
        status = result["status"]
        error = {k: result[k] for k in ("type", "message", "traceback", "code", "mro")
                 if k in result}
        value = {k: result[k] for k in ("value_kind", "value", "type", "repr") if k in result}
        if status == "setup-failed":
            status = "crash"
        returned = status == "returned"
        return CallOutcome(status, float(result.get("seconds", seconds) or 0.0),
                           value=value if returned else {}, error={} if returned else error,
                           returncode=returncode,
                           forbidden=[str(f) for f in result.get("forbidden", [])][:20])
    if returncode is not None and returncode < 0:
        name = _signal_name(returncode)
        status = {"SIGXCPU": "timeout", "SIGXFSZ": "file-size"}.get(name, "crash")
        return CallOutcome(status, seconds, error={"signal": name}, returncode=returncode)
    return CallOutcome("crash", seconds, error={"code": str(returncode)}, returncode=returncode)
