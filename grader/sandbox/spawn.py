"""How a child is started: the worker program's text (its parts joined in WORKER_PARTS order),
the command line (`worker_argv`, behind a bubblewrap prefix with `bwrap_prefix`), a clean
environment, the site folders it may import numpy from, the deny list of the grader's
folders, the kit packages it must not import (BLOCKED_MODULES), and the setup message that
carries the limits and what to import. `python_problem` tries a child's Python as a RunAs
user, `bwrap_available` whether bubblewrap works here."""
from __future__ import annotations

import math
import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

from ..paths import KIT_ROOT, WORKER
from .limits import Limits, process_limit, wall_backstop
from .runas import RunAs

# The child's program: worker.py first (it has the docstring and the __future__ import),
# then its parts in this order (each uses only names of the parts before it).
WORKER_PARTS = (WORKER, *(WORKER.parent / "worker_parts" / f"{name}.py"
                          for name in ("limits", "confine", "guards", "retry", "calls", "loop")))
WORKER_SOURCE = "\n\n".join(p.read_text(encoding="utf-8").rstrip("\n") + "\n"
                             for p in WORKER_PARTS)
BLOCKED_MODULES = ("grader", "kanon", "reference", "tests")


def worker_argv(python: str, cmd_r: int, res_w: int) -> list[str]:
    """The child's command line: isolated Python (no site, no user site, no script folder on
    the path, no bytecode), the worker's text, and its two pipe descriptors."""
    return [python, "-S", "-s", "-P", "-B", "-c", WORKER_SOURCE, str(cmd_r), str(res_w)]


def setup_message(limits: Limits, run_as: RunAs | None, deny: list[Path], *, file: Path,
                  module: str, paths: list[Path], import_cwd: Path, functions: list[str],
                  mode: str, import_limit: float, max_call_seconds: float,
                  allowed: list[str] | None, known: dict[int, str] | None,
                  confine: dict | None = None) -> dict:
    """The first message to the child: its resource limits, its Landlock rules (`confine`,
    None: none) and what to import, how."""
    mb = 1024 * 1024
    return {
        "limits": {"address_space": limits.memory_mb * mb,
                   "file_size": limits.file_size_mb * mb,
                   "open_files": limits.open_files,
                   "processes": process_limit(limits.processes,
                                              run_as.uid if run_as else None),
                   "import_cpu": math.ceil(import_limit) + 1,
                   "max_cpu": math.ceil(max(import_limit, max_call_seconds)) + 5},
        "paths": [str(p) for p in paths], "site": site_dirs(),
        "blocked": list(BLOCKED_MODULES), "file": str(file), "module": module,
        "import_cwd": str(import_cwd), "functions": functions, "mode": mode,
        "deny": [str(d) for d in deny],
        "allowed": list(["numpy"] if allowed is None else allowed),
        "retry_budget": import_limit,
        "retry_wall": wall_backstop(import_limit) - 1.0,  # ends before the parent's limit
        "known": {str(k): v for k, v in (known or {}).items()},
        "confine": confine,
    }


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
