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
    """The run's temporaries, for the children's compiled modules (child_python.py): every
    program a test starts with this process's environment (the grader, a bundle's
    self-check, pytest) keeps its compiled modules in the run's folder, never beside the
    sources, even where PYTHONDONTWRITEBYTECODE is set (the sandbox's children get a clean
    environment of their own)."""
    import child_python
    child_python.RUN["factory"] = tmp_path_factory
    os.environ.update(child_python.compiled_env({}, tmp_path_factory))
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


# ------------------------------------------------------------------ parallel runs (pytest-xdist)
# pyproject.toml runs the suite with `-n auto --dist loadfile --no-loadscope-reorder`: each
# test file whole on one worker process, handed out in the order below. Two things keep the
# workers from disturbing each other.

HEAVIEST = (  # test files by time, longest first (`python -m pytest --durations=0`, summed per
    # file, three workers; the files with `alone` tests, tests/kit/sandbox, stay at the end)
    "docs/test_docs_commands.py", "courses/test_courses.py", "publishing/test_gradescope.py",
    "reference_solution/test_quality_gate.py", "grading/test_grader_cluster.py",
    "docs/test_docs_instructors.py", "grading/test_grader_examples.py",
    "courses/test_ustc_class.py", "publishing/test_course_wording.py",
    "publishing/test_rules_selfcheck.py", "grading/test_grader_realistic.py",
    "reference_solution/test_reference_crosscheck.py", "publishing/test_bundle_own_parts.py",
    "publishing/test_bundle_statements.py", "publishing/test_bundle.py",
    "publishing/test_bundle_selfcheck.py", "reference_solution/test_experiments.py",
    "courses/test_private_copy.py", "grading/test_grader_runner.py",
    "reference_solution/test_reference_optional.py", "courses/test_course_folders.py",
    "courses/test_ustc_course.py", "languages/test_zh_selfcheck.py",
    "authoring/test_grader_terms.py", "publishing/test_selfcheck_teach_rules.py",
    "courses/test_tdg_private.py", "grading/test_grader_measures.py",
    "grading/test_counterexamples.py",
)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: one worker more than the cores this process may use. Many tests wait for a
    child (a time limit running out, a grading's subprocesses starting): a worker waiting
    leaves its core idle, and the extra worker fills it. The `alone` lock below still gives
    a timing test the whole machine."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        cores = os.cpu_count() or 1
    return cores + 1


def _weight(tests: list[pytest.Item]) -> tuple[int, int]:
    """Which group a test file (its `tests`) is queued in: 0 the heaviest (a long file
    started last would leave the other workers idle at the end), 1 files with slow tests, 2
    the rest, 3 the files with an `alone` test (see `_queue` for where they go)."""
    rel = Path(str(tests[0].fspath)).relative_to(Path(__file__).parent).as_posix()
    if rel in HEAVIEST:
        return 0, HEAVIEST.index(rel)
    if any(item.get_closest_marker("alone") is not None for item in tests):
        return 3, 0
    return (1 if any(item.get_closest_marker("slow") is not None for item in tests) else 2), 0


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Files queued heaviest first, each file's tests kept together and in their order (the
    same order on every worker, so pytest-xdist accepts it)."""
    files: dict[str, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(str(item.fspath), []).append(item)
    rank = {key: i for i, key in enumerate(_queue({key: _weight(tests)
                                                   for key, tests in files.items()}))}
    items.sort(key=lambda item: rank[str(item.fspath)])


def _queue(weights: dict[str, tuple[int, int]]) -> list[str]:
    """The files in queue order: by weight, except that the files with an `alone` test go
    halfway through the short files. An `alone` test waits for the tests running on the other
    workers, so it should start while only short tests run; and the short files queued after
    it fill the workers while the sandbox files' other tests run, instead of a last minute
    in which those files run alone."""
    ordered = sorted(weights, key=lambda key: weights[key])  # stable: collection order kept
    alone = [key for key in ordered if weights[key][0] == 3]
    short = [key for key in ordered if weights[key][0] == 2]
    rest = [key for key in ordered if weights[key][0] < 2]
    half = len(short) // 2
    return rest + short[:half] + alone + short[half:]


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
