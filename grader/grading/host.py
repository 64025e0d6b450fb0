"""Grading on one host: its setup (Python, the user children run as, the sandbox mode, the expected
outputs: the Context its submissions share) and grading one submission there. Both the batch
runner (threads) and a cluster's worker (grader/grading/executors/cluster_task.py) stand on it,
so neither imports the other."""
from __future__ import annotations

import os
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from kanon.files import sha256_bytes, sha256_file

from .. import __version__
from ..errors import UserError
from ..paths import GRADER_DIR
from ..rubric import Rubric
from ..settings import Settings
from ..sandbox import (Cancelled, Limits, RunAs, bwrap_available, landlock_available,
                       python_problem, reaper, site_dirs)
from ..sandbox.packages import check_installed
from .executors.threads import grader_error
from .expected import load_manifest, lookup
from .grade import Context, grade
from .intake import Submission
from .record import as_record

__all__ = ["HostSetup", "grade_one", "grader_fingerprint", "host_setup", "resolve_run_as",
           "sandbox_mode"]


def sandbox_limits(settings: Settings) -> Limits:
    """The sandbox's resource limits of every child, from the rubric's settings."""
    return Limits(memory_mb=settings.memory_mb, file_size_mb=settings.file_size_mb,
                  processes=settings.processes, open_files=settings.open_files,
                  output_kb=settings.output_kb, disk_mb=settings.disk_mb)


def grader_fingerprint() -> str:
    """The grader's version and a hash of its own and the core's source files (a change to
    either invalidates the resume cache; kcheck is the core's checker)."""
    sources = sorted([*GRADER_DIR.rglob("*.py"), *(GRADER_DIR.parent / "kanon").rglob("*.py"),
                      *(GRADER_DIR.parent / "kcheck").rglob("*.py")])
    digest = sha256_bytes(b"".join(sha256_file(p).encode() for p in sources
                                   if "templates" not in p.parts))
    return f"{__version__}+{digest[:16]}"


def resolve_run_as(choice: str, scratch_base: Path, warnings: list[str]) -> RunAs | None:
    """The user children run as: only when the grader runs as root (otherwise children run
    as the grader's own user whatever `choice` says). "auto" means `nobody`; "none" or ""
    keeps root. A missing or unusable user is an error when named, a warning under "auto"."""
    choice = choice.strip()
    if choice in ("", "none") or os.geteuid() != 0:
        return None
    name = "nobody" if choice == "auto" else choice
    named = choice != "auto"
    run_as = RunAs.lookup(name)
    problem = None
    way_out = "or pass --run-as none (rubric: run_as = \"none\") to choose root and " \
        "silence this warning"
    if run_as is None:
        problem = f"there is no user {name!r}"
        way_out = f"to run it unprivileged, name a user with --run-as USER, {way_out}"
    elif run_as.uid == 0:
        if named:
            raise UserError(f"run_as: {name!r} is root; use --run-as none to keep root")
        return None
    else:
        problem = python_problem(run_as, scratch_base)
        if problem:
            problem = (f"user {name!r} cannot run {sys.executable} with its packages here "
                       f"({problem})")
            way_out = (f"to run it as {name}, make that Python readable for {name} (e.g. "
                       f"chmod -R o+rX {sys.prefix}, and o+x on the folders above it, or "
                       f"install the kit's venv outside /root), {way_out}")
    if problem and named:
        raise UserError(f"--run-as / run_as {name}: {problem}; make the Python installation "
                        f"readable for it, or pass --run-as none")
    if problem:
        warnings.append(f"run_as auto: {problem}, so student code runs as root; {way_out}")
        return None
    return run_as


def hidden_exposed(folders: list[Path], run_as: RunAs) -> list[str]:
    """A warning for each hidden folder holding a file that `run_as` could read."""
    found = []
    for folder in folders:
        if folder.is_dir():
            leak = run_as.readable_inside(folder)
            if leak is not None:
                found.append(f"{run_as.name} can read {leak} (hidden from student code only by "
                             f"the audit hook); e.g. chmod -R go-rwx {folder}")
    return found


UNCONFINED = ("sandbox auto: neither bubblewrap nor Landlock is usable here, so student code "
              "is held only by resource limits, the audit hook and run_as; code that goes "
              "around Python (ctypes, os-level calls) can read every world-readable file, write "
              "wherever its user may, use the network and signal its user's processes")


def sandbox_mode(choice: str, run_as: RunAs | None = None,
                 warnings: list[str] | None = None) -> str:
    """The sandbox mode for `--sandbox choice`: "bwrap", "landlock" or "none". "auto" takes
    bubblewrap where it works, else Landlock where the kernel has it, else none (with the
    UNCONFINED warning); a forced mode that is not usable here is a UserError."""
    if choice == "none":
        return "none"
    if choice == "landlock":
        if not landlock_available():
            raise UserError("--sandbox landlock: this kernel offers no Landlock (Linux 5.13+ "
                            "with landlock in its lsm= list); use --sandbox auto or bwrap")
        return "landlock"
    if bwrap_available(run_as):
        return "bwrap"
    if choice == "bwrap":
        raise UserError("--sandbox bwrap: bubblewrap is not installed or cannot create "
                        "namespaces here (install it with `sudo apt-get install bubblewrap`)")
    if landlock_available():
        return "landlock"
    if warnings is not None:
        warnings.append(UNCONFINED)
    return "none"


@dataclass
class HostSetup:
    """What grading on this host needs: the Context, the sandbox mode and the warnings."""

    ctx: Context | None  # None on a cluster's coordinator: its workers have their own
    mode: str
    warnings: list[str]
    run_as: str | None = None  # the user children run as, None: the grader's own


def host_setup(rubric: Rubric, sandbox: str, scratch_base: Path, private: list[Path],
               cancel: threading.Event) -> HostSetup:
    """Check this host's Python, choose the user and the sandbox mode, load the expected
    outputs: the Context every submission graded here shares. `private` are folders student
    code must not see besides the cases and the grader (submissions, results)."""
    settings = rubric.settings
    warnings: list[str] = []
    check_installed(list(settings.allowed_packages), site_dirs())
    if not reaper.subreaper_supported():
        warnings.append("this platform has no child subreaper: processes a submission "
                        "detaches (setsid, double fork) are only killed by the process-group "
                        "kill and the scan for its scratch folder; grade on Linux (3.4 or "
                        "newer has one) for the full clean-up")
    run_as = resolve_run_as(settings.run_as, scratch_base, warnings)
    if run_as is not None:
        scratch_base.chmod(0o711)  # the children pass through to their own scratch folders
    manifest = load_manifest(rubric.cases_dir)
    expected = {case.id: lookup(case, rubric.cases_dir, manifest) for case in rubric.cases()}
    mode = sandbox_mode(sandbox, run_as, warnings)
    home = [rubric.path.parent] if rubric.path.name == "course.toml" else []  # its secret
    hidden = [rubric.cases_dir, *home, GRADER_DIR, *private]
    deny = hidden + [GRADER_DIR.parent / name for name in ("kanon", "reference", "tests")]
    if run_as is not None and mode == "none":  # bubblewrap or Landlock hides them anyway
        warnings += hidden_exposed([rubric.cases_dir, *home, *private,
                                    GRADER_DIR.parent / "reference"], run_as)
    ctx = Context(rubric, expected, sandbox_limits(settings), settings.caps(), scratch_base,
                  bwrap_hidden=deny if mode == "bwrap" else None, cancel=cancel, deny=deny,
                  run_as=run_as, landlock=mode == "landlock")
    return HostSetup(ctx, mode, warnings, run_as.name if run_as else None)


def grade_one(sub: Submission, ctx: Context, key: str,
              grade_with: Callable[[Submission, Context], dict] = grade) -> dict | None:
    """Grade one submission (in a thread, or on a cluster's worker); a grader bug becomes a "grader-error" record, not a crash.
    None when the batch was cancelled. The record says which sandbox mode graded it."""
    start = time.monotonic()
    try:
        record = grade_with(sub, ctx)
    except Cancelled:
        return None
    except Exception as e:  # noqa: BLE001 - one submission must never stop the batch
        if ctx.cancel is not None and ctx.cancel.is_set():
            return None
        return grader_error(sub, ctx.rubric, f"{type(e).__name__}: {e}")
    typed = as_record(record)
    typed.timing["total"] = round(time.monotonic() - start, 4)
    typed.sandbox = ("bwrap" if ctx.bwrap_hidden is not None else
                     "landlock" if ctx.landlock else "none")
    typed.set_cache_key(None if typed.status == "grader-error" else key)  # retried on a rerun
    return typed.to_json()
