"""What travels to a Dask worker and what runs there (no Dask import: plain functions that
`grader.grading.executors.cluster` submits).

A task carries one submission's bytes (`pack`) and the batch's `BatchSpec`: the rubric (its
cases' names and arguments, never their data), where the cases are (inside the kit for the
kit's demos; a course folder's cases otherwise, at the same path on a shared filesystem or,
when the worker sets KANON_COURSE_DIR, in its own copy of the course folder), the sandbox
choice and the coordinator's identity. Hidden datasets and expected outputs come only from the
worker's own files, whose course fingerprint and manifest hash the coordinator compares; the
course's secret is never needed there. The worker
grades in its own host's sandbox (`host.host_setup`, once per batch) and returns the record.
"""
from __future__ import annotations

import os
import platform
import shutil
import socket
import tempfile
import threading
from dataclasses import dataclass, replace
from importlib import metadata
from pathlib import Path

from kanon.files import sha256_file

from ... import __version__
from ...errors import UserError
from ...paths import KIT_ROOT
from ...rubric import Rubric
from ..intake import Caps, Submission, is_ignored

# Test hook: a worker started with this variable claims it as its grader fingerprint, so a
# test can show that a worker with other grader sources is refused.
FINGERPRINT_OVERRIDE = "KANON_WORKER_FINGERPRINT"
# A worker's own copy of the course folder (its cases/ is read), when not on a shared path.
COURSE_DIR = "KANON_COURSE_DIR"


@dataclass(frozen=True)
class BatchSpec:
    """One batch's settings, the same in every task."""

    batch: str  # a fresh id per batch: the worker's Context (scratch, cancel) is per batch
    rubric: Rubric  # as the coordinator loaded it (term applied)
    cases_rel: str  # the cases folder: relative to the kit root, or a course's absolute path
    sandbox: str  # "auto", "bwrap", "landlock" or "none"
    identity: dict[str, str]  # the coordinator's host_identity

    def local_rubric(self) -> Rubric:
        """The rubric reading its cases from this host's kit."""
        cases = KIT_ROOT / self.cases_rel
        if Path(self.cases_rel).is_absolute() and os.environ.get(COURSE_DIR):
            cases = Path(os.environ[COURSE_DIR]) / "cases"
        return replace(self.rubric, settings=replace(self.rubric.settings,
                                                          cases_dir=str(cases)))


def package_versions(allowed: tuple[str, ...]) -> str:
    """"numpy 2.1.0, scipy not installed": the allowed packages' installed versions."""
    from ...sandbox.packages import PIP_NAMES
    found = []
    for name in sorted(allowed):
        try:
            found.append(f"{name} {metadata.version(PIP_NAMES.get(name, name))}")
        except metadata.PackageNotFoundError:
            found.append(f"{name} not installed")
    return ", ".join(found) or "none"


def host_identity(rubric: Rubric) -> dict[str, str]:
    """What must be the same on the coordinator and every worker (`rubric` reading this
    host's cases)."""
    from ..fingerprint import fingerprint
    from ..host import grader_fingerprint
    allowed = rubric.settings.allowed_packages
    manifest = rubric.cases_dir / "manifest.json"
    return {"grader version": __version__, "grader fingerprint": grader_fingerprint(),
            "course fingerprint": fingerprint(rubric)["fingerprint"]
            if manifest.is_file() else "no cases",
            "expected outputs (manifest sha256)":
                sha256_file(manifest) if manifest.is_file() else "missing",
            "allowed packages": package_versions(allowed),
            "Python": platform.python_version()}


def worker_identity(spec: BatchSpec) -> dict[str, str]:
    """This worker's identity (run by `client.run` on every worker), with its sandbox mode
    under "sandbox" (not compared: recorded)."""
    from ..host import sandbox_mode
    found = host_identity(spec.local_rubric())
    if os.environ.get(FINGERPRINT_OVERRIDE):
        found["grader fingerprint"] = os.environ[FINGERPRINT_OVERRIDE]
    try:
        found["sandbox"] = sandbox_mode(spec.sandbox)
    except UserError:
        found["sandbox"] = f"{spec.sandbox} not usable"
    return found


def refusal(address: str, found: dict[str, str] | BaseException,
            wanted: dict[str, str]) -> str | None:
    """One line naming a worker and how it differs from the coordinator, or None."""
    if isinstance(found, BaseException):
        return f"worker {address} refused: it cannot run the grader ({type(found).__name__}: " \
               f"{found})"
    if str(found.get("sandbox", "")).endswith(" not usable"):
        mode = found["sandbox"].removesuffix(" not usable")
        return f"worker {address} refused: --sandbox {mode}, but {mode} is not usable there"
    diffs = [f"{name} {found.get(name, 'unknown')!r} there, {value!r} here"
             for name, value in wanted.items() if found.get(name) != value]
    return f"worker {address} refused: {'; '.join(diffs)}" if diffs else None


def pack(sub: Submission, caps: Caps) -> dict:
    """A submission as bytes: {"files": [(relative path, bytes or None), ...], "links":
    [...]} plus its id, source, kind and notes. A folder is packed as the intake would copy
    it, links included (the worker refuses them as the intake does), and stops once past the
    caps (the worker then refuses it as too large, as the intake does)."""
    files: list[tuple[str, bytes]] = []
    links: list[str] = []
    if sub.kind == "folder":
        root, total = sub.paths[0], 0
        for path in sorted(root.rglob("*")):
            rel = path.relative_to(root).as_posix()
            if path.is_symlink():
                links.append(rel)
            elif path.is_file() and not is_ignored(rel):
                data = path.read_bytes()
                files.append((rel, data))
                total += len(data)
                if len(files) > caps.max_files or total > caps.max_bytes:
                    break
    else:
        files = [(path.name, path.read_bytes()) for path in sub.paths]
    return {"student": sub.student, "source": sub.source, "kind": sub.kind,
            "notes": list(sub.notes), "files": files, "links": links}


def unpack(payload: dict, folder: Path) -> Submission:
    """The packed submission written under `folder`, as the intake found it."""
    if payload["kind"] == "folder":
        root = folder / "submission"
        root.mkdir()
        for rel, data in payload["files"]:
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_bytes(data)
        for rel in payload["links"]:
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).symlink_to("/nonexistent")
        paths = [root]
    else:
        paths = []
        for name, data in payload["files"]:
            (folder / name).write_bytes(data)
            paths.append(folder / name)
    return Submission(payload["student"], payload["source"], paths, payload["kind"],
                      list(payload["notes"]))


class _Batches:
    """The worker's Context of each batch (made on its first task), and its staging folder."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.setups: dict[str, tuple[object, Path, Path]] = {}

    def get(self, spec: BatchSpec):
        from ...sandbox import reaper
        from ..host import host_setup
        with self.lock:
            if spec.batch not in self.setups:
                reaper.remove_stale(Path(tempfile.gettempdir()))
                scratch = Path(tempfile.mkdtemp(prefix="kanon-grader-"))
                reaper.claim(scratch)
                staging = Path(tempfile.mkdtemp(prefix="kanon-staging-"))
                setup = host_setup(spec.local_rubric(), spec.sandbox, scratch, [staging],
                                   threading.Event())
                self.setups[spec.batch] = (setup, scratch, staging)
            return self.setups[spec.batch]

    def end(self, batch: str) -> None:
        with self.lock:
            found = self.setups.pop(batch, None)
        if found is not None:
            setup, scratch, staging = found
            setup.ctx.cancel.set()  # running submissions stop, their children are killed
            shutil.rmtree(scratch, ignore_errors=True)
            shutil.rmtree(staging, ignore_errors=True)


BATCHES = _Batches()


def grade_task(payload: dict, key: str, spec: BatchSpec) -> dict:
    """The task: grade one packed submission on this worker. Returns {"record": the record
    (None when the batch was cancelled), "manifest": this kit's manifest hash, "host"}."""
    from ..host import grade_one as _grade_one
    setup, _, staging = BATCHES.get(spec)
    folder = Path(tempfile.mkdtemp(prefix="sub-", dir=staging))
    try:
        record = _grade_one(unpack(payload, folder), setup.ctx, key)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    host = socket.gethostname()
    if record is not None:
        record["worker"] = host
    return {"record": record, "host": host,
            "manifest": sha256_file(setup.ctx.rubric.cases_dir / "manifest.json")}


def end_batch(batch: str) -> None:
    """Run on every worker when a batch ends or is interrupted: stop and clean up."""
    BATCHES.end(batch)
