"""Shared fixtures for the kit's own tests."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
COURSE_DATA = (REPO / ".." / "shared" / "course-data").resolve()


@pytest.fixture(scope="session")
def repo() -> Path:
    """The repository root."""
    return REPO


@pytest.fixture(scope="session")
def course_data() -> Path:
    """../shared/course-data (a real course's adult-hw1.csv and DGHs/), beside the checkout."""
    if not (COURSE_DATA / "adult-hw1.csv").is_file() or not (COURSE_DATA / "DGHs").is_dir():
        pytest.skip(f"real-course fixture absent: {COURSE_DATA} (it lives in ../shared/course-data "
                    "beside the checkout and is never copied into the project)")
    return COURSE_DATA


@pytest.fixture(autouse=True, scope="session")
def _run_temporaries(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The run's temporaries, for the children's compiled modules (child_python.py)."""
    import child_python
    child_python.RUN["factory"] = tmp_path_factory


# ------------------------------------------------------------------ parallel runs (pytest-xdist)
# pyproject.toml runs the suite with `-n auto --dist loadfile`: each test file whole on one
# worker process. Two things keep the workers from disturbing each other.

XDIST_VARIABLES = ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT", "PYTEST_XDIST_TESTRUNUID")


def pytest_configure(config: pytest.Config) -> None:
    """A worker's own variables are not passed on: the programs the tests start (a bundle's
    self-check, the grader) see the environment of a serial run (pytest-benchmark, for one,
    warns in English in a child that inherits PYTEST_XDIST_WORKER)."""
    if hasattr(config, "workerinput"):
        for name in XDIST_VARIABLES:
            os.environ.pop(name, None)


def _locks(config: pytest.Config) -> tuple | None:
    """The run's two lock files, shared by its workers (None in a serial run)."""
    if not hasattr(config, "workerinput"):
        return None
    if not hasattr(config, "_kit_locks"):
        folder = config._tmp_path_factory.getbasetemp().parent  # the run's, above each worker's
        config._kit_locks = tuple(open(folder / name, "a+b")
                                  for name in ("alone.lock", "gate.lock"))
    return config._kit_locks


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem):
    """A test marked `alone` (it measures wall-clock time against a CPU-time limit) runs while
    no other worker runs a test: every test holds the run's lock, shared, for its setup, call
    and teardown (a module's fixtures included), and an `alone` one holds it exclusively. A
    gate taken on the way in lets no new test start while an `alone` one waits for the lock."""
    import fcntl
    locks = _locks(item.config)
    if locks is None:
        yield
        return
    lock, gate = locks
    alone = item.get_closest_marker("alone") is not None
    fcntl.flock(gate, fcntl.LOCK_EX)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
    finally:
        fcntl.flock(gate, fcntl.LOCK_UN)
    try:
        yield
    finally:
        fcntl.flock(lock, fcntl.LOCK_UN)
