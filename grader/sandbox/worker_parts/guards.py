"""Worker part 4 of 7 (see grader/sandbox/worker.py): the guards around the student's code.
Blocker (the kit's own packages), PackageGate (only the standard library, the student's
modules and the allowed packages), the audit hook that refuses the grader's folders and
signals to the grader (install_guard, recording each attempt in FORBIDDEN), and folder
listings in name order (sorted_listings)."""
import importlib.abc
import importlib.machinery
import os
import sys


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
