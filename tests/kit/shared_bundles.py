"""A course's student bundle and its Gradescope autograder, each built once per test run and
shared by the test files that only read them (each unpacks its own copy).

The zip is built by `grader.publishing.bundle.build`, as `python -m grader bundle --course`
builds it, into a folder that every pytest-xdist worker of the run shares; a file lock lets
one worker build a course's bundle while the others wait for it, and the zip appears under its
final name only when it is complete. A run never reuses another run's bundles. The autograder
(`course_autograder`) is shared the same way, built by `grader.publishing.gradescope.build`.
"""
from __future__ import annotations

import fcntl
import hashlib
import os
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from child_python import run_folder

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


def _built_once(factory: pytest.TempPathFactory, course: Path, kind: str,
                build: Callable[[Path, Path], object]) -> Path:
    """The artefact `build(out, course)` writes for `course`, in the run's folder `kind`:
    one worker builds it under a file lock, the others wait and reuse it."""
    course = course.resolve()
    folder = run_folder(factory) / kind
    folder.mkdir(exist_ok=True)
    target = folder / f"{course.stem}-{hashlib.sha256(str(course).encode()).hexdigest()[:16]}.zip"
    with open(folder / f"{target.stem}.lock", "a+b") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not target.is_file():
                partial = folder / f"{target.stem}.{os.getpid()}.partial.zip"
                build(partial, course)
                os.replace(partial, target)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return target
