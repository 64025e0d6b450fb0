"""`grade --cluster tcp://HOST:8786`: each submission is one task on a Dask cluster.

The coordinator (this process) keeps the intake, the resume cache, the atomic writes and the
class-wide files (grader.grading.runner); workers grade (grader.grading.executors.cluster_task).
At the start every worker's identity (grader version and source fingerprint, expected outputs'
manifest hash, allowed packages, Python version) is compared with the coordinator's; a worker
that differs is refused in one line and gets no task (`workers=` with
`allow_other_workers=False`), as does one joining later until it is checked.

Faults are Dask's: a worker that dies mid-task has its task rerun elsewhere by the scheduler;
a task involved in more worker deaths than the scheduler's `allowed-failures` (default 3)
fails with KilledWorker, recorded as a `grader-error` that a rerun tries again; a task whose
worker-side code raised is retried `RETRIES` times (`retries=`). At most as many tasks are in
flight as the checked workers have threads, so a worker's death touches only the tasks it was
running. Ctrl-C cancels the tasks and stops the workers' running children.
"""
from __future__ import annotations

import platform
import time
import uuid
from typing import Iterator

try:
    import distributed
    from distributed.scheduler import KilledWorker
except ImportError:  # the optional extra is not installed
    distributed = None  # type: ignore[assignment]

from ...errors import UserError
from ...paths import KIT_ROOT
from ...rubric import Rubric
from ..batch import BatchSettings
from .cluster_task import (BatchSpec, end_batch, grade_task, host_identity, pack, refusal,
                           worker_identity)
from .threads import grader_error
from ..intake import Submission

INSTALL = 'pip install -e ".[cluster]"'
RETRIES = 1  # a task that raised (not a grading failure: that is a record) runs once more
CONNECT_SECONDS = 30  # for the scheduler to answer and a first worker to join
RECHECK_SECONDS = 2.0  # how often joining workers are looked for


def checked_record(sub: Submission, future, rubric: Rubric, wanted: dict[str, str]
                   ) -> dict | None:
    """A finished task's record, its manifest hash checked; a failed task (or one graded with
    other expected outputs) becomes a grader-error record. None: the batch was cancelled."""
    try:
        answer = future.result()
    except KilledWorker as e:
        return grader_error(sub, rubric, f"each of {e.allowed_failures + 1} Dask workers died "
                            f"while grading it")
    except Exception as e:  # noqa: BLE001 - one submission must never stop the batch
        return grader_error(sub, rubric, f"on a Dask worker: {type(e).__name__}: {e}")
    manifest = wanted["expected outputs (manifest sha256)"]
    if answer["record"] is not None and answer["manifest"] != manifest:
        return grader_error(sub, rubric, f"worker {answer['host']} graded with other "
                            f"expected outputs")
    return answer["record"]


class DaskExecutor:
    """Grades on a Dask cluster's checked workers; see the module docstring."""

    def __init__(self, batch: BatchSettings):
        from ..host import HostSetup
        address, rubric = batch.cluster, batch.rubric
        if distributed is None:
            raise UserError(f"--cluster {address}: Dask is not installed; install it with "
                            f"{INSTALL}")
        try:
            cases_rel = rubric.cases_dir.relative_to(KIT_ROOT).as_posix()
        except ValueError:  # a course folder: the same path, or the worker's KANON_COURSE_DIR
            cases_rel = str(rubric.cases_dir)
        identity = host_identity(rubric)
        self.spec = BatchSpec(uuid.uuid4().hex, rubric, cases_rel, batch.sandbox, identity)
        self.rubric, self.address = rubric, address
        try:
            self.client = distributed.Client(address, timeout=f"{CONNECT_SECONDS}s",
                                             set_as_default=False)
        except (OSError, TimeoutError) as e:
            raise UserError(f"--cluster {address}: no Dask scheduler answers there ({e})")
        self.ok: dict[str, int] = {}  # checked worker -> threads
        self.modes: set[str] = set()
        self.seen: set[str] = set()
        self.warnings: list[str] = []
        self.inflight: dict[distributed.Future, tuple[Submission, str, dict, list[str]]] = {}
        try:
            self.client.wait_for_workers(1, timeout=CONNECT_SECONDS)
        except (OSError, TimeoutError):
            self.close()
            raise UserError(f"--cluster {address}: no worker joined the scheduler within "
                            f"{CONNECT_SECONDS} s")
        self._check_new()
        if not self.ok:
            self.close()
            raise UserError(f"--cluster {address}: no worker matches this grader: "
                            f"{self.warnings[0]}")
        mode = "/".join(sorted(self.modes))
        self.setup = HostSetup(None, f"{mode} on the Dask workers", self.warnings,
                               f"the workers' run_as ({rubric.settings.run_as})")
        self.key_parts = {"sandbox": f"dask/{mode}", "python": platform.python_version(),
                          "run_as": rubric.settings.run_as}
        self.last_check = time.monotonic()

    def _check_new(self) -> None:
        """Check the workers not seen yet; the matching ones may get tasks."""
        threads = self.client.nthreads()
        new = sorted(set(threads) - self.seen)
        self.seen.update(new)
        for gone in set(self.ok) - set(threads):
            del self.ok[gone]
        if not new:
            return
        found = self.client.run(worker_identity, self.spec, workers=new, on_error="return")
        for address in new:
            line = refusal(address, found.get(address, RuntimeError("it left")),
                           self.spec.identity)
            if line:
                self.warnings.append(line)
            else:
                self.ok[address] = threads[address]
                self.modes.add(found[address]["sandbox"])

    def _submit(self, sub: Submission, key: str, payload: dict) -> None:
        workers = sorted(self.ok)
        future = self.client.submit(
            grade_task, payload, key, self.spec, key=f"grade-{sub.student}-{uuid.uuid4().hex}",
            workers=workers, allow_other_workers=False, retries=RETRIES, pure=False)
        self.inflight[future] = (sub, key, payload, workers)

    def _refresh(self) -> None:
        """Look for joining workers; resubmit a task none of whose workers is left."""
        if time.monotonic() - self.last_check < RECHECK_SECONDS:
            return
        self.last_check = time.monotonic()
        self._check_new()
        for future, (sub, key, payload, workers) in list(self.inflight.items()):
            if self.ok and not set(workers) & set(self.ok) and not future.done():
                del self.inflight[future]
                future.cancel()
                self._submit(sub, key, payload)

    def results(self, todo: list[tuple[Submission, str]]) -> Iterator[tuple[Submission, dict]]:
        queue = list(reversed(todo))
        caps = self.rubric.settings.caps()
        while queue or self.inflight:
            self._refresh()
            while queue and len(self.inflight) < max(1, sum(self.ok.values())):
                sub, key = queue.pop()
                self._submit(sub, key, pack(sub, caps))
            try:
                with self.client.as_current():
                    distributed.wait(list(self.inflight), timeout=0.5,
                                     return_when="FIRST_COMPLETED")
            except TimeoutError:
                continue
            for future in [f for f in self.inflight if f.done()]:
                sub, _, _, _ = self.inflight.pop(future)
                record = checked_record(sub, future, self.rubric, self.spec.identity)
                if record is not None:
                    yield sub, record

    def cancel(self) -> None:
        self.client.cancel(list(self.inflight))
        self.inflight.clear()

    def close(self) -> None:
        try:
            if self.ok:
                self.client.run(end_batch, self.spec.batch, workers=sorted(self.ok),
                                on_error="ignore")
        finally:
            self.client.close()
