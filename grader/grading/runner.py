"""Grading a whole class: parallel workers, progress, atomic per-student results, resume.

Each finished submission's record (results/<id>/record.json) is written atomically as soon as it
finishes, and handed to the batch's `Reports` (the gradebook writes its feedback). A record is
reused on a rerun when its key (the submission's content, the rubric, the stored expected
outputs, the grader's version and sources, and the sandbox settings) is unchanged, so an
interrupted run (Ctrl-C, crash, power loss) resumes where it stopped. `Reports.batch` gets the
class once everything is graded.
"""
from __future__ import annotations

import json
import shutil
import signal
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path

from kanon.files import atomic_write_text, dump_json, sha256_bytes, sha256_file

from ..errors import UserError
from ..rubric import Rubric
from ..sandbox import reaper
from .batch import BatchSettings, Listeners, Reports
from .executors.threads import Executor, ThreadExecutor
from .fingerprint import fingerprint as course_fingerprint
from .grade import Context, grade
from .host import HostSetup, grade_one, grader_fingerprint, host_setup, sandbox_limits
from .intake import Submission, discover
from .manual_scores import apply_saved, load_saved
from .record import StudentRecord, as_record
from .scores_text import fmt
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
        shown = as_record(record)
        what = (f"{shown.student}: {shown.status} {fmt(shown.score)}/{fmt(shown.max)}"
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


def run_batch(batch: BatchSettings, reports: Reports | None = None,
              listeners: Listeners = Listeners()) -> BatchResult:
    """Grade every submission of `batch` into `batch.out`; see the module docstring. Each
    record goes to `reports` as it finishes (and the class once all are graded)."""
    reaper.remove_stale(Path(batch.scratch or tempfile.gettempdir()))
    scratch_base = Path(tempfile.mkdtemp(prefix="kanon-grader-", dir=batch.scratch))
    reaper.claim(scratch_base)
    try:
        return _run_batch(batch, reports, listeners, scratch_base)
    finally:
        shutil.rmtree(scratch_base, ignore_errors=True)


def _run_batch(batch: BatchSettings, reports: Reports | None, listeners: Listeners,
               scratch_base: Path) -> BatchResult:
    started = time.monotonic()
    batch = replace(batch, out=batch.out.resolve(),
                    rubric=apply_term(batch.rubric))  # the cases as drawn for the term, if any
    cancel = threading.Event()
    executor: Executor
    if batch.cluster:
        from .executors.cluster import DaskExecutor  # Dask is imported only here
        executor = DaskExecutor(batch)
        setup = executor.setup
        key_parts = executor.key_parts
    else:
        setup = host_setup(batch.rubric, batch.sandbox, scratch_base,
                           [batch.submissions.resolve(), batch.out], cancel)
        executor = ThreadExecutor(batch.jobs,
                                  lambda sub, key: _grade_one(sub, setup.ctx, key), cancel)
        key_parts = {"sandbox": setup.mode, "python": sys.version, "run_as": setup.run_as}
    try:
        return _grade_all(batch, reports, listeners, setup, executor, key_parts, started)
    finally:
        executor.close()


def _grade_all(batch: BatchSettings, reports: Reports | None, listeners: Listeners,
               setup: HostSetup, executor: Executor, key_parts: dict,
               started: float) -> BatchResult:
    out, rubric = batch.out, batch.rubric
    warnings = setup.warnings
    if setup.ctx is not None and setup.ctx.run_as is not None and not out.exists():
        out.mkdir(parents=True, mode=0o700)  # other students' results: not for children
    out.mkdir(parents=True, exist_ok=True)
    subs = discover(batch.submissions.resolve(), out / ".work", rubric.id_pattern,
                    rubric.settings.caps())
    if batch.only:
        subs = [s for s in subs if s.student in set(batch.only)]
    if not subs:
        raise UserError(f"no submissions found in {batch.submissions}")
    if listeners.start is not None:
        listeners.start()
    base_key = sha256_bytes(json.dumps({
        "rubric": rubric.sha256, "manifest": sha256_file(rubric.cases_dir / "manifest.json"),
        "grader": grader_fingerprint(), "limits": sandbox_limits(rubric.settings).__dict__,
        **key_parts}, sort_keys=True).encode())
    for warning in warnings if listeners.warning else []:
        listeners.warning(warning)
    merged = load_saved(out)  # the staff's scores of the manual parts, when merged
    bar = Progress(len(subs), batch.progress)
    records: dict[str, dict] = {}
    todo: list[tuple[Submission, str]] = []
    cached = 0
    for sub in subs:
        key = sha256_bytes((base_key + sub.content_hash()).encode())
        old = _read_record(out, sub.student)
        if old is not None and as_record(old).cache_key == key:
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
        for sub, graded in executor.results(todo):
            typed = as_record(graded)
            typed.set_course(stamp)  # the course term it was graded with
            record = _save(out, apply_saved(typed, rubric, merged), rubric, reports)
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
    if not interrupted and reports is not None:
        reports.batch(out, ordered, rubric)
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
    """The student's last record, None when missing or not a readable record (graded again)."""
    try:
        data = json.loads(_record_path(out, student).read_text(encoding="utf-8"))
        as_record(data)
    except (OSError, ValueError, TypeError, AttributeError):
        return None
    return data


def _save(out: Path, typed: StudentRecord, rubric: Rubric, reports: Reports | None) -> dict:
    """Hand the record to `reports` and write its record.json; its JSON."""
    record = typed.to_json()
    if reports is not None:
        reports.student(out, record, rubric)
    atomic_write_text(_record_path(out, typed.student), dump_json(record))
    return record
