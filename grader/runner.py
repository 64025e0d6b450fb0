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
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

from . import __version__, export
from .errors import UserError
from .expected import load_manifest, lookup
from .fsutil import atomic_write_text, dump_json, sha256_bytes, sha256_file
from .grade import Context, grade
from .intake import Caps, Submission, discover
from .rubric import Rubric
from .sandbox import Cancelled, Limits, bwrap_available

GRADER_DIR = Path(__file__).resolve().parent


@dataclass
class BatchResult:
    records: list[dict]
    graded: int
    cached: int
    seconds: float
    sandbox: str
    interrupted: bool = False


def grader_fingerprint() -> str:
    """The grader's version and a hash of its own source files."""
    digest = sha256_bytes(b"".join(sha256_file(p).encode() for p in
                                   sorted(GRADER_DIR.glob("*.py"))))
    return f"{__version__}+{digest[:16]}"


def _sandbox_mode(choice: str) -> str:
    if choice == "none":
        return "none"
    available = bwrap_available()
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
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/"
                             f"{self.total} {elapsed:5.0f}s  {what[:60]:<60}")
            if self.done == self.total:
                sys.stderr.write("\n")
        else:
            sys.stderr.write(f"[{self.done}/{self.total}] {what}\n")
        sys.stderr.flush()


def run_batch(submissions: Path, out: Path, rubric: Rubric, *, jobs: int | None = None,
              sandbox: str = "auto", scratch: Path | None = None, progress: bool = True,
              limit_to: list[str] | None = None) -> BatchResult:
    """Grade every submission in `submissions` into `out`; see the module docstring."""
    started = time.monotonic()
    out = out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    settings = rubric.settings
    caps = Caps(max_bytes=int(settings["max_archive_mb"]) * 2**20,
                max_files=int(settings["max_archive_files"]))
    subs = discover(submissions.resolve(), out / ".work", rubric.id_pattern, caps)
    if limit_to:
        subs = [s for s in subs if s.student in set(limit_to)]
    if not subs:
        raise UserError(f"no submissions found in {submissions}")
    manifest = load_manifest(rubric.cases_dir)
    expected = {case.id: lookup(case, rubric.cases_dir, manifest) for case in rubric.cases()}
    mode = _sandbox_mode(sandbox)
    limits = Limits(memory_mb=int(settings["memory_mb"]),
                    file_size_mb=int(settings["file_size_mb"]),
                    processes=int(settings["processes"]), open_files=int(settings["open_files"]),
                    output_kb=int(settings["output_kb"]), disk_mb=int(settings["disk_mb"]))
    base_key = sha256_bytes(json.dumps({
        "rubric": rubric.sha256, "manifest": sha256_file(rubric.cases_dir / "manifest.json"),
        "grader": grader_fingerprint(), "sandbox": mode, "python": sys.version,
        "limits": limits.__dict__}, sort_keys=True).encode())
    scratch_base = Path(tempfile.mkdtemp(prefix="kanon-grader-", dir=scratch))
    hidden = [rubric.cases_dir, GRADER_DIR, submissions.resolve(), out]
    cancel = threading.Event()
    deny = hidden + [GRADER_DIR.parent / "reference", GRADER_DIR.parent / "tests"]
    ctx = Context(rubric, expected, limits, caps, scratch_base,
                  bwrap_hidden=deny if mode == "bwrap" else None, cancel=cancel, deny=deny)
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
    pool = ThreadPoolExecutor(max_workers=max(1, jobs or os.cpu_count() or 1))
    try:
        pending: dict[Future, tuple[Submission, str]] = {
            pool.submit(_grade_one, sub, ctx, key): (sub, key) for sub, key in todo}
        while pending:
            done, _ = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
            for future in done:
                sub, key = pending.pop(future)
                record = future.result()
                if record is None:
                    continue
                _save(out, record, rubric)
                records[sub.student] = record
                bar.update(record)
    except KeyboardInterrupt:
        interrupted = True
        cancel.set()
        sys.stderr.write("\ninterrupted: stopping the running submissions...\n")
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        if in_main:
            signal.signal(signal.SIGTERM, previous)
        shutil.rmtree(scratch_base, ignore_errors=True)
    ordered = [records[s.student] for s in subs if s.student in records]
    if not interrupted:
        export.write_batch(out, ordered, rubric)
    return BatchResult(ordered, len(todo), cached, time.monotonic() - started, mode, interrupted)


def _raise_interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def _grade_one(sub: Submission, ctx: Context, key: str) -> dict | None:
    """Grade in a worker thread; a grader bug becomes a "grader-error" record, not a crash."""
    start = time.monotonic()
    try:
        record = grade(sub, ctx)
    except Cancelled:
        return None
    except Exception as e:  # noqa: BLE001 - one submission must never stop the batch
        if ctx.cancel is not None and ctx.cancel.is_set():
            return None
        record = {"student": sub.student, "source": sub.source, "status": "grader-error",
                  "notes": [f"The grader failed on this submission ({type(e).__name__}: {e}); "
                            f"a TA will look at it."], "cases": [], "parts": {}, "score": 0.0,
                  "max": ctx.rubric.max_points, "solution": None, "import": None, "timing": {}}
        return {**record, "key": None}  # never cached: a rerun tries again
    record["timing"]["total"] = round(time.monotonic() - start, 4)
    record["key"] = key
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
