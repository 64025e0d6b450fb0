"""A Dask cluster on this machine's loopback (127.0.0.1 only, no dashboard): one `dask
scheduler` and `dask worker` processes, as docs/scaling.md's laptop commands start them. Used by the
cluster tests and bench/bench_grader.py; a TA can use it to try `--cluster` on one machine:

    with loopback_cluster(Path("/tmp/c"), workers=2) as cluster:
        grade_class(BatchSettings(subs, out, rubric, cluster=cluster.address))

(grade_class: grader.commands.grade; BatchSettings: grader.grading.batch.)
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from ...paths import KIT_ROOT

START_SECONDS = 60


class LoopbackCluster:
    """The scheduler's and workers' processes; `address` is the scheduler's."""

    def __init__(self, folder: Path, scheduler_env: dict[str, str] | None = None):
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.file = folder / "scheduler.json"
        self.processes: list[subprocess.Popen] = []
        self.workers: list[subprocess.Popen] = []
        self._start(["scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                     "--scheduler-file", str(self.file)], "scheduler", scheduler_env)
        deadline = time.monotonic() + START_SECONDS
        while not self.file.is_file() or not self.file.read_text().strip():
            if time.monotonic() > deadline or self.processes[0].poll() is not None:
                raise RuntimeError(f"the Dask scheduler did not start; see {folder}")
            time.sleep(0.1)
        self.address = json.loads(self.file.read_text())["address"]

    def _start(self, args: list[str], log: str, env: dict[str, str] | None) -> subprocess.Popen:
        environ = {**os.environ, "PYTHONPATH": str(KIT_ROOT), **(env or {})}
        with open(self.folder / f"{log}.log", "ab") as out:
            process = subprocess.Popen([sys.executable, "-m", "dask", *args], cwd=KIT_ROOT,
                                       env=environ, stdout=out, stderr=subprocess.STDOUT,
                                       start_new_session=True)
        self.processes.append(process)
        return process

    def add_worker(self, env: dict[str, str] | None = None, threads: int = 1,
                   nanny: bool = True) -> None:
        """Start one `dask worker` of `threads` threads on 127.0.0.1, with its nanny (which
        starts it again when it dies) unless `nanny` is False."""
        n = len(self.workers)
        self.workers.append(self._start(
            ["worker", self.address, "--host", "127.0.0.1", "--nthreads", str(threads),
             "--no-dashboard", "--name", f"worker-{n}", "--local-directory",
             str(self.folder / f"worker-{n}"), *([] if nanny else ["--no-nanny"])],
            f"worker-{n}", env))

    def stop(self) -> None:
        """End every process this cluster started (each in its own process group)."""
        for process in reversed(self.processes):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


@contextmanager
def loopback_cluster(folder: Path, workers: int = 2,
                     scheduler_env: dict[str, str] | None = None) -> Iterator[LoopbackCluster]:
    """A scheduler and `workers` one-thread workers on 127.0.0.1, stopped on exit."""
    cluster = LoopbackCluster(folder, scheduler_env)
    try:
        for _ in range(workers):
            cluster.add_worker()
        yield cluster
    finally:
        cluster.stop()
