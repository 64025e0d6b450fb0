"""The program that runs inside every sandboxed child (standard library only).

The grader starts it as `python -S -s -P -B -c <this file's text> CMD_FD RESULT_FD`, so the
child's command line names no grader path. It never imports the grader and is never given
the location of expected outputs: it only learns, over the command pipe, where the student's
files and the current case's inputs are.

Protocol: one JSON object per line. The grader sends a `setup` message first; the worker
applies the resource limits, imports the student's module (normally, or in mode "retry" one
top-level statement at a time, leaving out the `__main__` block, command-line code,
experiments and whatever fails), reports `imported` (with what a retry left out) or
`import-failed`, then serves `call` messages: each call runs in a fork of the imported module
(so every case starts from the same fresh module state), in the case's directory, under its
CPU-time limit, and reports `started`, the grandchild's `result`, and `exited` with its exit
status and CPU time. Closing the command pipe ends it. Student code may import the standard
library, its own modules and the allowed packages only (PackageGate).
"""
from __future__ import annotations

import ast
import importlib.abc
import importlib.machinery
import importlib.util
import json
import math
import numbers
import os
import resource
import sys
import tempfile
import time
import traceback

_fork, _write, _exit, _wait4, _waitpid = os.fork, os.write, os._exit, os.wait4, os.waitpid
_kill, _getpid, _listdir, _open = os.kill, os.getpid, os.listdir, open  # the student's code
_sleep, _monotonic = time.sleep, time.monotonic  # may replace the originals; reap() needs them
_dumps, _perf = json.dumps, time.perf_counter
TRACEBACK_CHARS = 6000
MESSAGE_CHARS = 2000


def send(fd: int, message: dict) -> None:
    """Write one JSON line to the result pipe (looping over partial writes)."""
    data = (_dumps(message, default=repr) + "\n").encode("utf-8", "replace")
    while data:
        try:
            data = data[_write(fd, data):]
        except InterruptedError:
            continue


def set_limits(limits: dict) -> None:
    """Address space, file size, processes, open files, core dumps and CPU time."""
    def cap(kind: int, value: int, hard: int | None = None) -> None:
        try:
            old_soft, old_hard = resource.getrlimit(kind)
            new_hard = hard if hard is not None else value
            if old_hard != resource.RLIM_INFINITY:
                new_hard = min(new_hard, old_hard)
            resource.setrlimit(kind, (min(value, new_hard), new_hard))
        except (ValueError, OSError):
            pass  # a limit the platform refuses stays as it was; the wall clock still applies
    cap(resource.RLIMIT_AS, limits["address_space"])
    cap(resource.RLIMIT_FSIZE, limits["file_size"])
    cap(resource.RLIMIT_NOFILE, limits["open_files"])
    cap(resource.RLIMIT_CORE, 0)
    if hasattr(resource, "RLIMIT_NPROC") and limits["processes"] > 0:
        cap(resource.RLIMIT_NPROC, limits["processes"])
    cap(resource.RLIMIT_CPU, limits["import_cpu"], limits["max_cpu"])


_LIBC: list = []


def _prctl(option: int, value: int) -> bool:
    """Linux prctl(option, value); False where there is none."""
    try:
        if not _LIBC:
            import ctypes
            _LIBC.append(ctypes.CDLL(None, use_errno=True).prctl)
        return _LIBC[0](option, value, 0, 0, 0) == 0
    except Exception:  # noqa: BLE001 - not Linux, no C library
        return False


def die_with_parent(parent: int | None = None, signum: int = 9) -> None:
    """Ask for `signum` (SIGKILL by default) when the parent dies (PR_SET_PDEATHSIG); exit if
    it already has."""
    parent = os.getppid() if parent is None else parent
    _prctl(1, signum)
    if os.getppid() != parent:
        _exit(0)


def reap() -> int:
    """Kill and reap every process left below this one (a subreaper: orphans of the
    student's code, setsid'd or not, are re-parented here); how many there were. Done when
    no child is left at all (a process can appear while /proc is being read)."""
    me, seen, deadline = _getpid(), set(), _monotonic() + 10
    while _monotonic() < deadline:
        try:
            while _waitpid(-1, os.WNOHANG)[0]:  # reap what has exited already
                pass
        except ChildProcessError:
            break
        table = {}
        try:
            for entry in _listdir("/proc"):
                try:
                    with _open(f"/proc/{entry}/stat", "rb") as f:
                        fields = f.read().rpartition(b")")[2].split()
                    table[int(entry)] = (fields[0], int(fields[1]))
                except (OSError, ValueError, IndexError):
                    continue
        except OSError:
            break  # no /proc: what is left is not found
        found, stack = set(), [me]
        while stack:
            parent = stack.pop()
            for pid, (state, ppid) in table.items():
                if ppid == parent and pid not in found:
                    found.add(pid)
                    stack.append(pid)
        for pid in found:
            if table[pid][0] not in (b"Z", b"X"):
                seen.add(pid)
                try:
                    _kill(pid, 9)
                except OSError:
                    pass
        _sleep(0.002)
    return len(seen)


class Blocker(importlib.abc.MetaPathFinder):
    """Refuse the kit's own packages (`grader`, `reference`, ...) unless the submission itself
    has a module of that name: a child must not use the staff solution or the grader."""

    def __init__(self, blocked: list[str], paths: list[str]):
        self.blocked, self.paths = set(blocked), list(paths)

    def find_spec(self, name, path=None, target=None):
        top = name.partition(".")[0]
        if top not in self.blocked or path is not None:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, self.paths)
        if spec is None:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return spec


FILE_EVENTS = {"open", "os.listdir", "os.scandir", "glob.glob", "glob.glob/2", "os.chdir",
               "shutil.copytree", "shutil.copyfile", "os.rename", "os.link", "os.symlink"}
COMMAND_EVENTS = {"subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn"}
FORBIDDEN: list[str] = []  # paths the student's code tried to reach (reported, then refused)


def install_guard(deny: list[str]) -> None:
    """An audit hook that refuses Python-level access to the grader's own folders (cases,
    expected outputs, the kit, other submissions) and signals to the grader's process (or to
    every process, pid -1), and records each attempt. Code that calls the C library directly
    can get around it; bubblewrap is the real boundary."""
    roots = tuple(os.path.realpath(d).rstrip(os.sep) + os.sep for d in deny if d)
    grader, group = os.getppid(), os.getpgrp()
    realpath, fspath, fsdecode = os.path.realpath, os.fspath, os.fsdecode
    readlink, normpath, proc = os.readlink, os.path.normpath, f"/proc/{grader}/"

    def grader_process(arg) -> str | None:
        """Where the grader runs, its environment, files...: /proc/<grader>/ (but its stat)."""
        try:
            path = fsdecode(fspath(arg))
            path = normpath(path if path.startswith("/") else os.path.join(os.getcwd(), path))
        except (TypeError, ValueError, OSError):
            return None
        rest = path[len(proc):] if (path + "/").startswith(proc) else ""
        if rest and rest.split("/")[0] not in ("stat", "status"):
            return f"/proc/<grader>/{rest}"
        return None

    def guarded_readlink(path, *args, **kwargs):
        if not isinstance(path, int) and grader_process(path):
            refuse(grader_process(path))
        return readlink(path, *args, **kwargs)
    os.readlink = guarded_readlink

    def refuse(what: str) -> None:
        if len(FORBIDDEN) < 20:
            FORBIDDEN.append(what)
        raise PermissionError(f"the grader does not let submissions access {what}")

    def hook(event: str, args: tuple) -> None:
        if event in FILE_EVENTS:
            for arg in args[:2] if event in ("os.rename", "os.link", "os.symlink",
                                             "shutil.copyfile", "shutil.copytree") else args[:1]:
                if arg is None or isinstance(arg, int):
                    continue
                if grader_process(arg):
                    refuse(grader_process(arg))
                try:
                    path = fsdecode(fspath(arg))
                    real = realpath(path) + os.sep
                except (TypeError, ValueError, OSError):
                    continue
                if real.startswith(roots):
                    refuse(path)
        elif event in ("os.kill", "os.killpg"):
            target = args[0] if args else 0
            if isinstance(target, int) and (target == -1 or abs(target) == grader or (
                    target < -1 and -target != group) or (event == "os.killpg" and target
                                                           not in (0, group))):
                refuse(f"a signal to process {target} (the grader)")
        elif event in COMMAND_EVENTS and roots:
            text = repr(args)
            for root in roots:
                if root.rstrip(os.sep) in text:
                    refuse(f"a command naming {root.rstrip(os.sep)}")
    sys.addaudithook(hook)


GRADED = ("cost_MD", "cost_LM", "random_anonymizer", "clustering_anonymizer",
          "bottomup_anonymizer", "samarati", "mondrian", "topdown_anonymizer",
          "datafly", "topdown_greedy", "kaca")
_COMMAND_LINE_CALLS = {"input", "parse_args", "parse_known_args", "getopt", "gnu_getopt",
                       "breakpoint"}


class StatementTimeout(BaseException):
    """Raised by the CPU timer when one top-level statement of a retry runs too long."""


def _main_guard(node: ast.stmt) -> bool:
    """`if __name__ == "__main__":` (either operand order)."""
    if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
        return False
    parts = [node.test.left, *node.test.comparators]
    names = {p.id for p in parts if isinstance(p, ast.Name)}
    texts = {p.value for p in parts if isinstance(p, ast.Constant)}
    return "__name__" in names and "__main__" in texts


def static_reason(node: ast.stmt) -> str:
    """Why a top-level statement is left out of a retry without running it ("" to run it):
    the `__main__` block, reading the command line or standard input, or running a graded
    function (an experiment)."""
    if _main_guard(node):
        return 'the `if __name__ == "__main__":` block'
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import,
                         ast.ImportFrom)):
        return ""
    for n in ast.walk(node):
        if isinstance(n, ast.Attribute) and n.attr in ("argv", "orig_argv") and isinstance(
                n.value, ast.Name) and n.value.id == "sys":
            return "it reads the command line (sys.argv)"
        if isinstance(n, ast.Name) and n.id == "argv":
            return "it reads the command line (argv)"
        if isinstance(n, ast.Attribute) and n.attr == "stdin":
            return "it reads standard input"
        if isinstance(n, ast.Call):
            func = n.func
            name = func.id if isinstance(func, ast.Name) else (
                func.attr if isinstance(func, ast.Attribute) else "")
            if name in _COMMAND_LINE_CALLS:
                return f"it reads the command line or standard input ({name})"
            if name in GRADED:
                return f"it runs {name} (an experiment)"
    return ""


def _future_flags(tree: ast.Module) -> int:
    import __future__
    flags = 0
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            for alias in node.names:
                feature = getattr(__future__, alias.name, None)
                flags |= getattr(feature, "compiler_flag", 0)
    return flags


def _lines(node: ast.stmt) -> list[int]:
    return [node.lineno, getattr(node, "end_lineno", None) or node.lineno]


def _failure(error: BaseException) -> str:
    if isinstance(error, StatementTimeout):
        return str(error)
    if isinstance(error, SystemExit):
        return f"it called sys.exit / exit (code {error.code!r})"[:300]
    try:
        message = str(error)
    except Exception:  # noqa: BLE001
        message = ""
    return f"it raised {type(error).__name__}: {message}"[:300]


def run_statements(module, path: str, budget: float, statement_budget: float,
                   wall_budget: float, known: dict[int, str] | None = None) -> list[dict]:
    """Run the file's top-level statements one at a time in `module`, leaving out those
    `static_reason` names and those that fail (exception, sys.exit, more than
    `statement_budget` CPU seconds or three times that in wall-clock seconds). Once `budget`
    CPU seconds or `wall_budget` wall-clock seconds are used, only definitions and imports
    still run. `known` (first line -> reason) lists statements an earlier retry of the same
    file left out: they are left out again without running. Returns what was left out:
    lines, code, reason (and, for imports, the names they would have bound)."""
    import signal
    with open(path, "rb") as f:
        source = f.read()
    tree = ast.parse(source, filename=path)
    text = source.decode("utf-8", "replace").splitlines()
    flags = _future_flags(tree)
    dropped: list[dict] = []

    def on_cpu(signum, frame):
        raise StatementTimeout(f"it used more than {statement_budget:g} s of CPU time")

    def on_wall(signum, frame):
        raise StatementTimeout(f"it ran for more than {3 * statement_budget:g} s (waiting)")
    previous = signal.signal(signal.SIGPROF, on_cpu), signal.signal(signal.SIGALRM, on_wall)
    cpu_start, wall_start = time.process_time(), _perf()
    try:
        for node in tree.body:
            lines = _lines(node)
            code_line = text[node.lineno - 1].strip()[:120] if node.lineno <= len(text) else ""
            reason = (known or {}).get(node.lineno) or static_reason(node)
            definition = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                                           ast.Import, ast.ImportFrom))
            cpu_left = budget - (time.process_time() - cpu_start)
            wall_left = wall_budget - (_perf() - wall_start)
            if not reason and not definition and min(cpu_left, wall_left) <= 0:
                reason = f"not run: the retry's time budget ({budget:g} s of CPU) was used up"
            if reason:
                dropped.append({"lines": lines, "code": code_line, "reason": reason})
                continue
            code = compile(ast.Module(body=[node], type_ignores=[]), path, "exec",
                           flags=flags, dont_inherit=True)
            try:
                signal.setitimer(signal.ITIMER_PROF,
                                 max(0.05, min(statement_budget, max(cpu_left, 0.05))))
                signal.setitimer(signal.ITIMER_REAL,
                                 max(0.05, min(3 * statement_budget, max(wall_left, 0.05))))
                try:
                    exec(code, module.__dict__)
                finally:
                    signal.setitimer(signal.ITIMER_PROF, 0)
                    signal.setitimer(signal.ITIMER_REAL, 0)
            except BaseException as error:  # noqa: BLE001 - every failure drops the statement
                entry = {"lines": lines, "code": code_line, "reason": _failure(error)}
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    entry["binds"] = [(a.asname or a.name).partition(".")[0]
                                      for a in node.names if a.name != "*"]
                dropped.append(entry)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGPROF, previous[0])
        signal.signal(signal.SIGALRM, previous[1])
    return dropped


def load_module(path: str, name: str, mode: str, budget: float = 10.0,
                wall_budget: float = 30.0, known: dict[int, str] | None = None):
    """Import the solution file as module `name`; returns (module, dropped statements).
    Mode "retry" runs the top-level statements one at a time (see `run_statements`)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    if mode == "full":
        spec.loader.exec_module(module)
        return module, []
    dropped = run_statements(module, path, budget, max(1.0, budget / 2), wall_budget, known)
    return module, dropped


class PackageGate(importlib.abc.MetaPathFinder):
    """Student code may import the standard library, its own modules and the course's allowed
    packages; any other package is refused with a message naming the rule. Imports made by
    an allowed package itself (its dependencies) are not the student's and pass."""

    def __init__(self, allowed: list[str], own: list[str], site: list[str]):
        self.allowed = set(allowed)
        self.own = tuple(os.path.realpath(p).rstrip(os.sep) + os.sep for p in own)
        self.site = tuple(os.path.realpath(p).rstrip(os.sep) + os.sep for p in site)
        names = sorted(self.allowed)
        self.rule = ("only the standard library" if not names else
                     f"only {', '.join(names)} and the standard library")

    def find_spec(self, name, path=None, target=None):
        top = name.partition(".")[0]
        if path is not None or top in self.allowed or top in sys.stdlib_module_names \
                or top in sys.builtin_module_names:
            return None
        if self.own and importlib.machinery.PathFinder.find_spec(
                top, [p.rstrip(os.sep) for p in self.own]) is not None:
            return None
        if self._from_a_package():
            return None
        raise ModuleNotFoundError(f"{top} is not available: this course allows {self.rule}",
                                  name=top)

    def _from_a_package(self) -> bool:
        """Whether the import statement at work is in an installed package's code."""
        frame = sys._getframe(2)
        while frame is not None:
            filename = frame.f_code.co_filename
            if not filename.startswith("<frozen") and not filename.endswith(
                    os.sep + os.path.join("importlib", "__init__.py")):
                return os.path.realpath(filename).startswith(self.site)
            frame = frame.f_back
        return False


def describe_exception(error: BaseException) -> dict:
    """Type, message and a traceback of the student's frames only."""
    try:
        message = str(error)
    except Exception:  # noqa: BLE001 - a student's __str__ may raise
        message = "<the exception's message could not be printed>"
    try:
        frames = [f for f in traceback.extract_tb(error.__traceback__)
                  if f.filename not in ("<string>",) and not f.filename.startswith("<frozen")]
        text = "".join(traceback.format_list(frames[-12:]))
        text += "".join(traceback.format_exception_only(type(error), error))
    except Exception:  # noqa: BLE001
        text = f"{type(error).__name__}: {message}\n"
    return {"type": type(error).__name__, "message": message[:MESSAGE_CHARS],
            "traceback": text[-TRACEBACK_CHARS:],
            "mro": [c.__name__ for c in type(error).__mro__]}


def outcome_of(error: BaseException) -> dict:
    if isinstance(error, SystemExit):
        return {"status": "exit", "code": repr(error.code)[:200]}
    if isinstance(error, MemoryError):
        return {"status": "memory", **describe_exception(error)}
    if isinstance(error, OSError) and error.errno == 27:  # EFBIG: RLIMIT_FSIZE reached
        return {"status": "file-size", **describe_exception(error)}
    return {"status": "exception", **describe_exception(error)}


def flush_output() -> None:
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - a student may have replaced or closed them
            pass


def encode_value(value: object) -> dict:
    """How a call's return value is reported: numbers as floats, anything else by type."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        try:
            return {"value_kind": "number", "value": float(value)}
        except Exception:  # noqa: BLE001
            pass
    if value is None:
        return {"value_kind": "none"}
    try:
        shown = repr(value)[:200]
    except Exception:  # noqa: BLE001
        shown = "<unprintable>"
    return {"value_kind": "other", "type": type(value).__name__, "repr": shown}


def run_call(module, message: dict, cmd_fd: int, res_fd: int) -> None:
    """The grandchild: run one function in the case's directory, report, and exit."""
    try:
        os.close(cmd_fd)
    except OSError:
        pass
    case = message["case"]
    FORBIDDEN.clear()  # attempts while importing were reported with the import
    try:
        cwd = message["cwd"]
        os.chdir(cwd)
        for var in ("HOME", "TMPDIR"):  # inside the case's own directory
            os.environ[var] = cwd
        tempfile.tempdir = None
        cpu = max(1, math.ceil(float(message["cpu"])))  # SIGXCPU at the limit, then SIGKILL
        hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
        wanted = cpu + 1 if hard == resource.RLIM_INFINITY else min(cpu + 1, hard)
        resource.setrlimit(resource.RLIMIT_CPU, (min(cpu, wanted), wanted))
        function = getattr(module, message["function"])
    except BaseException as error:  # noqa: BLE001
        send(res_fd, {"event": "result", "case": case, "status": "setup-failed",
                      **describe_exception(error)})
        _exit(70)
    start = _perf()
    try:
        value = function(*message.get("args", []), **message.get("kwargs", {}))
        outcome = {"status": "returned", **encode_value(value)}
    except BaseException as error:  # noqa: BLE001 - every student failure is reported
        outcome = outcome_of(error)
    seconds = _perf() - start
    flush_output()
    send(res_fd, {"event": "result", "case": case, "seconds": seconds, "forbidden": FORBIDDEN,
                  **outcome})
    _exit(0)


def function_info(module, names: list[str]) -> dict:
    """For each graded name: whether it is a callable, and its parameters if inspectable."""
    import inspect
    info = {}
    for name in names:
        obj = getattr(module, name, None)
        entry = {"callable": callable(obj), "params": None}
        if callable(obj):
            try:
                entry["params"] = [[p.name, p.kind.name, p.default is not p.empty]
                                   for p in inspect.signature(obj).parameters.values()]
            except (TypeError, ValueError):
                pass
        info[name] = entry
    return info


class _SortedScandir:
    """os.scandir's iterator, in name order (a context manager like the original)."""

    def __init__(self, it):
        self._it = it
        try:
            self._entries = iter(sorted(it, key=lambda e: e.name))
        finally:
            it.close()

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._entries)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self._it.close()


def sorted_listings() -> None:
    """Folder listings in name order (os.listdir, os.scandir, and through them glob, os.walk
    and Path.iterdir): the order a file system returns differs from machine to machine, and
    a verdict must not."""
    listdir, scandir = os.listdir, os.scandir

    def sorted_listdir(path="."):
        return sorted(listdir(path))

    def sorted_scandir(path="."):
        return _SortedScandir(scandir(path))
    os.listdir, os.scandir = sorted_listdir, sorted_scandir


def orphaned(signum, frame) -> None:
    """The grader died (the worker's parent-death signal, SIGTERM): kill and reap everything
    the student's code started, detached daemons included (they were re-parented here), and
    end, so that a killed grader leaves nothing running in any sandbox mode."""
    reap()
    _exit(0)


def main() -> None:
    import signal
    signal.signal(signal.SIGTERM, orphaned)
    die_with_parent(signum=signal.SIGTERM)
    _prctl(36, 1)  # PR_SET_CHILD_SUBREAPER: orphans of the student's code come back here
    cmd_fd, res_fd = int(sys.argv[1]), int(sys.argv[2])
    commands = os.fdopen(cmd_fd, "r", encoding="utf-8")
    setup = json.loads(commands.readline())
    set_limits(setup["limits"])
    sys.path[:0] = setup["paths"]
    sys.path.extend(setup["site"])
    sys.meta_path.insert(0, Blocker(setup["blocked"], setup["paths"]))
    sys.meta_path.insert(1, PackageGate(setup.get("allowed", ["numpy"]), setup["paths"],
                                        setup["site"]))
    install_guard(setup.get("deny", []))
    sorted_listings()
    sys.argv = [os.path.basename(setup["file"])]
    sys.dont_write_bytecode = True
    os.chdir(setup["import_cwd"])
    start = _perf()
    try:
        module, dropped = load_module(setup["file"], setup["module"], setup["mode"],
                                      float(setup.get("retry_budget", 10.0)),
                                      float(setup.get("retry_wall", 30.0)),
                                      {int(k): v for k, v in setup.get("known", {}).items()})
    except BaseException as error:  # noqa: BLE001 - import failures are reported, then exit
        flush_output()
        reap()
        send(res_fd, {"event": "import-failed", "seconds": _perf() - start,
                      "forbidden": FORBIDDEN, **outcome_of(error)})
        _exit(0)
    seconds = _perf() - start
    signal.signal(signal.SIGTERM, orphaned)  # again: the student's import may have replaced it
    flush_output()
    reap()
    send(res_fd, {"event": "imported", "seconds": seconds, "forbidden": FORBIDDEN,
                  "functions": function_info(module, setup["functions"]), "dropped": dropped})
    while True:
        line = commands.readline()
        if not line:
            reap()
            _exit(0)
        message = json.loads(line)
        flush_output()
        worker, pid = _getpid(), _fork()
        if pid == 0:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)  # only the worker cleans up
            die_with_parent(worker)
            run_call(module, message, cmd_fd, res_fd)
        send(res_fd, {"event": "started", "case": message["case"], "pid": pid})
        _, status, usage = _wait4(pid, 0)
        send(res_fd, {"event": "exited", "case": message["case"], "leftover": reap(),
                      "returncode": os.waitstatus_to_exitcode(status),
                      "cpu": usage.ru_utime + usage.ru_stime})


if __name__ == "__main__":
    main()
