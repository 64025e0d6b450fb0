"""A course's student bundle built once per test run and shared by the test files that only
read it (each unpacks its own copy).

The zip is built by `grader.publishing.bundle.build`, as `python -m grader bundle --course`
builds it, into a folder that every pytest-xdist worker of the run shares; a file lock lets
one worker build a course's bundle while the others wait for it, and the zip appears under its
final name only when it is complete. A run never reuses another run's bundles.
"""
from __future__ import annotations

import fcntl
import hashlib
import os
import zipfile
from pathlib import Path

import pytest

from child_python import run_folder

REPO = Path(__file__).resolve().parents[2]


def course_bundle(factory: pytest.TempPathFactory, course: Path) -> Path:
    """The student bundle (zip) of the course folder or rubric `course`, built by this run."""
    from grader.publishing import bundle
    course = Path(course).resolve()
    folder = run_folder(factory) / "bundles"
    folder.mkdir(exist_ok=True)
    key = hashlib.sha256(str(course).encode("utf-8")).hexdigest()[:16]
    target = folder / f"{course.stem}-{key}.zip"
    with open(folder / f"{target.stem}.lock", "a+b") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not target.is_file():
                partial = folder / f"{target.stem}.{os.getpid()}.partial.zip"
                bundle.build(REPO, partial, course=course)
                os.replace(partial, target)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return target


def unpacked_bundle(factory: pytest.TempPathFactory, course: Path, into: Path) -> Path:
    """The course's shared bundle unpacked into `into`: its kanon-hw1 folder."""
    from grader.publishing import bundle
    with zipfile.ZipFile(course_bundle(factory, course)) as archive:
        archive.extractall(into)
    return into / bundle.DEFAULT_FOLDER
