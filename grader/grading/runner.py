"""Grading a whole class: parallel workers, progress, atomic per-student results, resume.

Each finished submission's record (results/<id>/record.json), feedback and results.json are
written atomically as soon as it finishes. A record is reused on a rerun when its key (the
submission's content, the rubric, the stored expected outputs, the grader's version and
sources, and the sandbox settings) is unchanged, so an interrupted run (Ctrl-C, crash, power
loss) resumes where it stopped. The class-wide files are written once everything is graded.
"""
from __future__ import annotations

import json
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

from ..courses.fingerprint import fingerprint as course_fingerprint
from ..errors import UserError
from ..rubric import Rubric
from ..sandbox import reaper
from . import export
from .executors import Executor, ThreadExecutor
from .grade import Context, grade
from .host import HostSetup, grade_one, grader_fingerprint, host_setup
from .intake import Submission, discover
from .manual_scores import apply_saved, load_saved
from .term_view import apply_term


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
              cluster: str | None = None,
              on_start: Callable[[], None] | None = None) -> BatchResult:
    """Grade every submission in `submissions` into `out`; see the module docstring.
    `on_start` is called once the submissions are found (before any warning), `on_warning`
    receives each warning as soon as it is known, before grading starts.
    `cluster` (a Dask scheduler's address) grades on its workers instead of `jobs` threads."""
    reaper.remove_stale(Path(scratch or tempfile.gettempdir()))
    scratch_base = Path(tempfile.mkdtemp(prefix="kanon-grader-", dir=scratch))
    reaper.claim(scratch_base)
    try:
        return _run_batch(submissions, out, rubric, jobs, sandbox, progress, limit_to,
                          scratch_base, on_warning, cluster, on_start)
    finally:
        shutil.rmtree(scratch_base, ignore_errors=True)


def _run_batch(submissions: Path, out: Path, rubric: Rubric, jobs: int | None, sandbox: str,
               progress: bool, limit_to: list[str] | None, scratch_base: Path,
               on_warning: Callable[[str], None] | None = None,
               cluster: str | None = None,
               on_start: Callable[[], None] | None = None) -> BatchResult:
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
                          limit_to, on_warning, started, on_start)
    finally:
        executor.close()


def _grade_all(submissions: Path, out: Path, rubric: Rubric, setup: HostSetup,
               executor: Executor, key_parts: dict, progress: bool,
               limit_to: list[str] | None, on_warning: Callable[[str], None] | None,
               started: float, on_start: Callable[[], None] | None = None) -> BatchResult:
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
    if on_start is not None:
        on_start()
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
        stamp = course_fingerprint(rubric)["fingerprint"]
        for sub, record in executor.results(todo):
            record["course"] = stamp  # the course term it was graded with
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
    """Grade in a worker thread (host.grade_one with this module's `grade`)."""
    return grade_one(sub, ctx, key, grade)


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
