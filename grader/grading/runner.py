"""Grading a whole class: parallel workers, progress, atomic per-student results, resume.

Each finished submission's record (results/<id>/record.json), feedback and results.json are
written atomically as soon as it finishes. A record is reused on a rerun when its key (the
submission's content, the rubric, the stored expected outputs, the grader's version and
sources, and the sandbox settings) is unchanged, so an interrupted run (Ctrl-C, crash, power
loss) resumes where it stopped. The class-wide files are written once everything is graded.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from kanon.files import atomic_write_text, dump_json, sha256_bytes, sha256_file

from .. import __version__
from ..errors import UserError
from ..paths import GRADER_DIR
from ..rubric import Rubric
from ..sandbox import reaper
from . import export
from .manual_scores import apply_saved, load_saved
from .expected import load_manifest, lookup
from .grade import Context, grade
from .intake import Submission, discover
from ..sandbox.packages import check_installed
from ..sandbox import Cancelled, RunAs, bwrap_available, python_problem, site_dirs
from .term_view import apply_term
from .executors import Executor, ThreadExecutor, grader_error


@dataclass
class BatchResult:
    records: list[dict]
    graded: int
    cached: int
    seconds: float
    sandbox: str
    interrupted: bool = False
    run_as: str | None = None  # the user children ran as, None: the grader's own
    warnings: list[str] | None = None  # one line each, for the TA


def grader_fingerprint() -> str:
    """The grader's version and a hash of its own and the core's source files (a change to
    either invalidates the resume cache)."""
    sources = sorted([*GRADER_DIR.rglob("*.py"), *(GRADER_DIR.parent / "kanon").rglob("*.py")])
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
    if run_as is None:
        problem = f"there is no user {name!r}"
    elif run_as.uid == 0:
        if named:
            raise UserError(f"run_as: {name!r} is root; use --run-as none to keep root")
        return None
    else:
        problem = python_problem(run_as, scratch_base)
        if problem:
            problem = (f"user {name!r} cannot run {sys.executable} with its packages here "
                       f"({problem}); make the Python installation readable for it")
    if problem and named:
        raise UserError(f"--run-as / run_as {name}: {problem}")
    if problem:
        warnings.append(f"run_as auto: {problem}; student code runs as root")
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


def _sandbox_mode(choice: str, run_as: RunAs | None = None) -> str:
    if choice == "none":
        return "none"
    available = bwrap_available(run_as)
    if choice == "bwrap" and not available:
        raise UserError("--sandbox bwrap: bubblewrap is not installed or cannot create "
                        "namespaces here (install it with `sudo apt-get install bubblewrap`)")
    return "bwrap" if available else "none"


class Progress:
    """A one-line progress bar on a terminal, one line per submission otherwise."""

    def __init__(self, total: int, enabled: bool = True):
        self.total, self.done, self.enabled = total, 0, enabled
        self.tty = sys.stderr.isatty()
        self.start = time.monotonic()

    def update(self, record: dict, cached: bool = False) -> None:
        self.done += 1
        if not self.enabled:
            return
        what = (f"{record['student']}: {record['status']} "
                f"{export.fmt(record['score'])}/{export.fmt(record['max'])}"
                + (" (cached)" if cached else ""))
        if self.tty:
            width = 30
            filled = int(width * self.done / max(self.total, 1))
            elapsed = time.monotonic() - self.start
            left = elapsed / self.done * (self.total - self.done)  # mean time so far
            eta = f" ~{left:4.0f}s left" if self.done < self.total else ""
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/"
                             f"{self.total} {elapsed:5.0f}s{eta}  {what[:50]:<50}")
            if self.done == self.total:
                sys.stderr.write("\n")
        else:
            sys.stderr.write(f"[{self.done}/{self.total}] {what}\n")
        sys.stderr.flush()


def run_batch(submissions: Path, out: Path, rubric: Rubric, *, jobs: int | None = None,
              sandbox: str = "auto", scratch: Path | None = None, progress: bool = True,
              limit_to: list[str] | None = None,
              on_warning: Callable[[str], None] | None = None,
              cluster: str | None = None) -> BatchResult:
    """Grade every submission in `submissions` into `out`; see the module docstring.
    `on_warning` receives each warning as soon as it is known, before grading starts.
    `cluster` (a Dask scheduler's address) grades on its workers instead of `jobs` threads."""
    reaper.remove_stale(Path(scratch or tempfile.gettempdir()))
    scratch_base = Path(tempfile.mkdtemp(prefix="kanon-grader-", dir=scratch))
    reaper.claim(scratch_base)
    try:
        return _run_batch(submissions, out, rubric, jobs, sandbox, progress, limit_to,
                          scratch_base, on_warning, cluster)
    finally:
        shutil.rmtree(scratch_base, ignore_errors=True)


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
                        "kill and the scan for its scratch folder")
    run_as = resolve_run_as(settings.run_as, scratch_base, warnings)
    if run_as is not None:
        scratch_base.chmod(0o711)  # the children pass through to their own scratch folders
    manifest = load_manifest(rubric.cases_dir)
    expected = {case.id: lookup(case, rubric.cases_dir, manifest) for case in rubric.cases()}
    mode = _sandbox_mode(sandbox, run_as)
    hidden = [rubric.cases_dir, GRADER_DIR, *private]
    deny = hidden + [GRADER_DIR.parent / name for name in ("kanon", "reference", "tests")]
    if run_as is not None and mode != "bwrap":  # bubblewrap hides them anyway
        warnings += hidden_exposed([rubric.cases_dir, *private,
                                    GRADER_DIR.parent / "reference"], run_as)
    ctx = Context(rubric, expected, settings.limits(), settings.caps(), scratch_base,
                  bwrap_hidden=deny if mode == "bwrap" else None, cancel=cancel, deny=deny,
                  run_as=run_as)
    return HostSetup(ctx, mode, warnings, run_as.name if run_as else None)


def _run_batch(submissions: Path, out: Path, rubric: Rubric, jobs: int | None, sandbox: str,
               progress: bool, limit_to: list[str] | None, scratch_base: Path,
               on_warning: Callable[[str], None] | None = None,
               cluster: str | None = None) -> BatchResult:
    started = time.monotonic()
    out = out.resolve()
    rubric = apply_term(rubric)  # the cases as drawn for the cases folder's term, if any
    cancel = threading.Event()
    executor: Executor
    if cluster:
        from .cluster import DaskExecutor  # Dask is imported only here
        executor = DaskExecutor(cluster, rubric, sandbox)
        setup = executor.setup
        key_parts = executor.key_parts
    else:
        setup = host_setup(rubric, sandbox, scratch_base, [submissions.resolve(), out], cancel)
        executor = ThreadExecutor(jobs, lambda sub, key: _grade_one(sub, setup.ctx, key),
                                  cancel)
        key_parts = {"sandbox": setup.mode, "python": sys.version, "run_as": setup.run_as}
    try:
        return _grade_all(submissions, out, rubric, setup, executor, key_parts, progress,
                          limit_to, on_warning, started)
    finally:
        executor.close()


def _grade_all(submissions: Path, out: Path, rubric: Rubric, setup: HostSetup,
               executor: Executor, key_parts: dict, progress: bool,
               limit_to: list[str] | None, on_warning: Callable[[str], None] | None,
               started: float) -> BatchResult:
    warnings = setup.warnings
    if setup.ctx is not None and setup.ctx.run_as is not None and not out.exists():
        out.mkdir(parents=True, mode=0o700)  # other students' results: not for children
    out.mkdir(parents=True, exist_ok=True)
    subs = discover(submissions.resolve(), out / ".work", rubric.id_pattern,
                    rubric.settings.caps())
    if limit_to:
        subs = [s for s in subs if s.student in set(limit_to)]
    if not subs:
        raise UserError(f"no submissions found in {submissions}")
    base_key = sha256_bytes(json.dumps({
        "rubric": rubric.sha256, "manifest": sha256_file(rubric.cases_dir / "manifest.json"),
        "grader": grader_fingerprint(), "limits": rubric.settings.limits().__dict__,
        **key_parts}, sort_keys=True).encode())
    for warning in warnings if on_warning else []:
        on_warning(warning)
    merged = load_saved(out)  # the staff's scores of the manual parts, when merged
    bar = Progress(len(subs), progress)
    records: dict[str, dict] = {}
    todo: list[tuple[Submission, str]] = []
    cached = 0
    for sub in subs:
        key = sha256_bytes((base_key + sub.content_hash()).encode())
        old = _read_record(out, sub.student)
        if old is not None and old.get("key") == key:
            records[sub.student] = old
            cached += 1
            bar.update(old, cached=True)
        else:
            todo.append((sub, key))
    interrupted = False
    previous = signal.getsignal(signal.SIGTERM)
    in_main = threading.current_thread() is threading.main_thread()
    if in_main:
        signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        for sub, record in executor.results(todo):
            apply_saved(record, rubric, merged)
            _save(out, record, rubric)
            records[sub.student] = record
            bar.update(record)
    except KeyboardInterrupt:
        interrupted = True
        sys.stderr.write("\ninterrupted: stopping the running submissions...\n")
        executor.cancel()
    finally:
        if in_main:
            signal.signal(signal.SIGTERM, previous)
    ordered = [records[s.student] for s in subs if s.student in records]
    if not interrupted:
        export.write_batch(out, ordered, rubric)
    return BatchResult(ordered, len(todo), cached, time.monotonic() - started, setup.mode,
                       interrupted, setup.run_as, warnings)


def _raise_interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def _grade_one(sub: Submission, ctx: Context, key: str) -> dict | None:
    """Grade in a worker thread; a grader bug becomes a "grader-error" record, not a crash.
    None when the batch was cancelled. The record says which sandbox mode graded it."""
    start = time.monotonic()
    try:
        record = grade(sub, ctx)
    except Cancelled:
        return None
    except Exception as e:  # noqa: BLE001 - one submission must never stop the batch
        if ctx.cancel is not None and ctx.cancel.is_set():
            return None
        return grader_error(sub, ctx.rubric, f"{type(e).__name__}: {e}")
    record["timing"]["total"] = round(time.monotonic() - start, 4)
    record["sandbox"] = "bwrap" if ctx.bwrap_hidden is not None else "none"
    record["key"] = None if record["status"] == "grader-error" else key  # retried on a rerun
    return record


def _record_path(out: Path, student: str) -> Path:
    return out / "results" / student / "record.json"


def _read_record(out: Path, student: str) -> dict | None:
    try:
        return json.loads(_record_path(out, student).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _save(out: Path, record: dict, rubric: Rubric) -> None:
    export.write_student(out, record, rubric)
    atomic_write_text(_record_path(out, record["student"]), dump_json(record))
