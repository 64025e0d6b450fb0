"""A course's student bundle and its Gradescope autograder, each built once per test run and
shared by the test files that only read them (each unpacks its own copy).

The zip is built by `grader.publishing.bundle.build`, as `python -m grader bundle --course`
builds it, into a folder that every pytest-xdist worker of the run shares; a file lock lets
one worker build a course's bundle while the others wait for it, and the zip appears under its
final name only when it is complete. A run never reuses another run's bundles. The autograder
(`course_autograder`) is shared the same way, built by `grader.publishing.gradescope.build`, and
so is courses/ustc's smaller twin (`ustc_twin`, tests/kit/ustc_class/small_course.py), and
the bundle's self-check on its untouched skeleton (`skeleton_self_check`: one run for each
distinct bundle, so courses whose bundles have the same bytes share it).
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import subprocess
import sys
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from child_python import PYTEST_OPTIONS, compiled_env, run_folder

REPO = Path(__file__).resolve().parents[2]


def course_bundle(factory: pytest.TempPathFactory, course: Path) -> Path:
    """The student bundle (zip) of the course folder or rubric `course`, built by this run."""
    from grader.publishing import bundle
    return _built_once(factory, Path(course), "bundles",
                       lambda out, folder: bundle.build(REPO, out, course=folder))


def unpacked_bundle(factory: pytest.TempPathFactory, course: Path, into: Path) -> Path:
    """The course's shared bundle unpacked into `into`: its kanon-hw1 folder."""
    from grader.publishing import bundle
    with zipfile.ZipFile(course_bundle(factory, course)) as archive:
        archive.extractall(into)
    return into / bundle.DEFAULT_FOLDER


def course_autograder(factory: pytest.TempPathFactory, course: Path) -> Path:
    """The Gradescope autograder zip of the course folder or rubric `course`, built once by
    this run with `grader.publishing.gradescope.build`, as `python -m grader gradescope
    --course` builds it (read it, never change it: unpack a copy)."""
    from grader.publishing import gradescope
    return _built_once(factory, Path(course), "autograders",
                       lambda out, folder: gradescope.build(REPO, out, folder))


def ustc_twin(factory: pytest.TempPathFactory) -> Path:
    """courses/ustc's twin with a 4,000-row public dataset (tests/kit/ustc_class/
    small_course.py: the same rubric, course.toml, data model and hidden cases, its expected
    outputs and rules pool recomputed), made once by this run. Read it, never change it:
    grade against it, copy it, or make a private course from it (`course new --from`)."""
    from ustc_class import small_course
    return _built_once(factory, small_course.USTC, "twins",
                       lambda out, _: small_course.make(
                           out, env=compiled_env(dict(os.environ), factory)), suffix="")


def _built_once(factory: pytest.TempPathFactory, course: Path, kind: str,
                build: Callable[[Path, Path], object], suffix: str = ".zip") -> Path:
    """The artefact (a file, or a folder when `suffix` is empty) `build(out, course)` writes
    for `course`, in the run's folder `kind`: one worker builds it under a file lock, the
    others wait and reuse it."""
    course = course.resolve()
    stem = f"{course.stem}-{hashlib.sha256(str(course).encode()).hexdigest()[:16]}"
    return _made_once(factory, kind, stem, lambda out: build(out, course), suffix)


def _made_once(factory: pytest.TempPathFactory, kind: str, stem: str,
               build: Callable[[Path], object], suffix: str) -> Path:
    """The artefact `stem` + `suffix` that `build(out)` writes, in the run's folder `kind`:
    one worker builds it under a file lock, the others wait and reuse it."""
    folder = run_folder(factory) / kind
    folder.mkdir(exist_ok=True)
    target = folder / f"{stem}{suffix}"
    with open(folder / f"{stem}.lock", "a+b") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not target.exists():
                partial = folder / f"{stem}.{os.getpid()}.partial{suffix}"
                build(partial)
                os.replace(partial, target)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return target


@dataclass(frozen=True)
class SelfCheck:
    """A finished self-check: its exit code, what it printed (stdout and stderr together),
    its JUnit XML report and the unpacked bundle it ran in (read them, never change them)."""

    returncode: int
    output: str
    report: Path
    folder: Path


def skeleton_self_check(factory: pytest.TempPathFactory, course: Path) -> SelfCheck:
    """The self-check of the course's shared bundle on its untouched skeleton.py, as a student
    starts it: `python -m pytest` in the unpacked bundle (no pytest or kit variables; the
    unrelated plugins off, child_python.PYTEST_OPTIONS; a JUnit XML report written beside the
    folder). Run once by this run for each distinct bundle: courses whose bundles have the same
    bytes (courses/default and grader/rubric.toml) share the run."""
    from grader.publishing import bundle
    zip_path = course_bundle(factory, Path(course))
    digest = hashlib.sha256(zip_path.read_bytes()).hexdigest()[:16]
    stem = f"skeleton-{digest}"

    def run(out: Path) -> None:
        base = out.parent / f"{stem}.{os.getpid()}"
        with zipfile.ZipFile(zip_path) as archive:
            archive.extractall(base)
        folder = base / bundle.DEFAULT_FOLDER
        env = compiled_env({k: v for k, v in os.environ.items()
                            if not k.startswith(("PYTEST", "KANON"))}, factory)
        done = subprocess.run([sys.executable, "-m", "pytest", *PYTEST_OPTIONS,
                               f"--junitxml={base / 'report.xml'}"], cwd=folder, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              timeout=600)
        out.write_text(json.dumps({"returncode": done.returncode, "output": done.stdout,
                                   "report": str(base / "report.xml"),
                                   "folder": str(folder)}), encoding="utf-8")

    made = json.loads(_made_once(factory, "selfchecks", stem, run, ".json").read_text("utf-8"))
    return SelfCheck(made["returncode"], made["output"], Path(made["report"]),
                     Path(made["folder"]))
