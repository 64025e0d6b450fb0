"""The program that runs inside every sandboxed child (standard library only).

The grader starts it as `python -S -s -P -B -c <this file's text> CMD_FD RESULT_FD`, so the
child's command line names no grader path. It never imports the grader and is never given
the location of expected outputs: it only learns, over the command pipe, where the student's
files and the current case's inputs are.

Protocol: one JSON object per line. The grader sends a `setup` message first; the worker
applies the resource limits, imports the student's module (normally, or with top-level code
other than definitions removed: mode "defs"), reports `imported` or `import-failed`, then
serves `call` messages: each call runs in a fork of the imported module (so every case starts
from the same fresh module state), in the case's directory, and reports `started`, the
grandchild's `result`, and `exited` with its exit status. Closing the command pipe ends it.
"""
from __future__ import annotations

import ast
import importlib.abc
import importlib.machinery
import importlib.util
import json
import numbers
import os
import resource
import sys
import tempfile
import time
import traceback

_fork, _write, _exit, _waitpid = os.fork, os.write, os._exit, os.waitpid
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


def die_with_parent(parent: int | None = None) -> None:
    """Ask for SIGKILL when the parent dies (PR_SET_PDEATHSIG); exit if it already has."""
    parent = os.getppid() if parent is None else parent
    _prctl(1, 9)
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


_KEEP = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _has_call(node: ast.AST) -> bool:
    return any(isinstance(n, (ast.Call, ast.Await, ast.Yield)) for n in ast.walk(node))


def _keep_statement(node: ast.stmt) -> bool:
    """Definitions mode keeps imports, functions, classes, plain assignments without calls,
    `try:` blocks made only of imports, and `sys.setrecursionlimit(...)`."""
    if isinstance(node, _KEEP):
        return True
    if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        return node.value is not None and not _has_call(node.value) or _simple_call(node.value)
    if isinstance(node, ast.Try):
        return all(isinstance(n, (ast.Import, ast.ImportFrom, ast.Pass, ast.Assign))
                   for part in (node.body, *[h.body for h in node.handlers])
                   for n in part)
    if isinstance(node, ast.Expr):
        value = node.value
        if isinstance(value, ast.Constant):
            return True
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
            return value.func.attr == "setrecursionlimit"
    return False


_SIMPLE = {"set", "dict", "list", "tuple", "frozenset", "defaultdict", "OrderedDict",
           "namedtuple", "TypeVar", "getLogger", "compile", "dataclass", "field"}


def _simple_call(value: ast.AST | None) -> bool:
    """`X = set()`, `CACHE = {}`, `log = logging.getLogger(...)`: cheap, common constructors."""
    if not isinstance(value, ast.Call):
        return False
    func = value.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(
        func, ast.Attribute) else ""
    return name in _SIMPLE and not any(_has_call(a) for a in value.args)


def load_module(path: str, name: str, mode: str):
    """Import the solution file as module `name`; mode "defs" drops top-level statements that
    are not definitions (experiments, prints, a command line) before running the file."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    if mode == "full":
        spec.loader.exec_module(module)
        return module
    with open(path, "rb") as f:
        tree = ast.parse(f.read(), filename=path)
    tree.body = [node for node in tree.body if _keep_statement(node)]
    code = compile(tree, path, "exec")
    exec(code, module.__dict__)
    return module


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
        cpu = int(message["cpu"])
        hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
        if hard != resource.RLIM_INFINITY:
            cpu = min(cpu, hard)
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, hard))
        function = getattr(module, message["function"])
    except BaseException as error:  # noqa: BLE001
        send(res_fd, {"event": "result", "case": case, "status": "setup-failed",
                      **describe_exception(error)})
        _exit(70)
    start = _perf()
    try:
        value = function(*message["args"])
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


def main() -> None:
    die_with_parent()
    _prctl(36, 1)  # PR_SET_CHILD_SUBREAPER: orphans of the student's code come back here
    cmd_fd, res_fd = int(sys.argv[1]), int(sys.argv[2])
    commands = os.fdopen(cmd_fd, "r", encoding="utf-8")
    setup = json.loads(commands.readline())
    set_limits(setup["limits"])
    sys.path[:0] = setup["paths"]
    sys.path.extend(setup["site"])
    sys.meta_path.insert(0, Blocker(setup["blocked"], setup["paths"]))
    install_guard(setup.get("deny", []))
    sys.argv = [os.path.basename(setup["file"])]
    sys.dont_write_bytecode = True
    os.chdir(setup["import_cwd"])
    start = _perf()
    try:
        module = load_module(setup["file"], setup["module"], setup["mode"])
    except BaseException as error:  # noqa: BLE001 - import failures are reported, then exit
        flush_output()
        reap()
        send(res_fd, {"event": "import-failed", "seconds": _perf() - start,
                      "forbidden": FORBIDDEN, **outcome_of(error)})
        _exit(0)
    seconds = _perf() - start
    flush_output()
    reap()
    send(res_fd, {"event": "imported", "seconds": seconds, "forbidden": FORBIDDEN,
                  "functions": function_info(module, setup["functions"])})
    while True:
        line = commands.readline()
        if not line:
            reap()
            _exit(0)
        message = json.loads(line)
        flush_output()
        worker, pid = _getpid(), _fork()
        if pid == 0:
            die_with_parent(worker)
            run_call(module, message, cmd_fd, res_fd)
        send(res_fd, {"event": "started", "case": message["case"], "pid": pid})
        _, status = _waitpid(pid, 0)
        send(res_fd, {"event": "exited", "case": message["case"], "leftover": reap(),
                      "returncode": os.waitstatus_to_exitcode(status)})


if __name__ == "__main__":
    main()
