"""The published bundle's self-check as students run it: `pytest --solution PATH` in both
spellings, from the bundle folder, from its tests/ folder and from elsewhere; a solution with
helper modules beside it; and output that ends with the failures and one count, not a list of
every failed test."""
from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Iterator

import pytest
from child_python import PYTEST_OPTIONS, compiled_env
from forked_pytest import PytestServer
from shared_bundles import unpacked_bundle

# bob's skeleton.py imports its helper package kanon_ref/ from beside it; his cost_MD is right.
REPO = Path(__file__).resolve().parents[3]
BOB = REPO / "examples" / "submissions" / "bob"
DEFAULT_COURSE = REPO / "grader" / "rubric.toml"  # what `grader bundle` bundles by default
COST_MD = ("-k", "cost_MD and not adult")
"""The tests of one function, on the small cases: the claims here are about how pytest is
started (the option's spellings, the folders), which adult-hw1.csv's cases add nothing to."""


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The published bundle (the default course's, as `python -m grader bundle` writes it:
    built once per run, tests/kit/shared_bundles.py), unpacked, with bob's folder inside it and
    a copy outside."""
    base = tmp_path_factory.mktemp("selfcheck")
    folder = unpacked_bundle(tmp_path_factory, DEFAULT_COURSE, base)
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(BOB, folder / "bob", ignore=ignore)
    shutil.copytree(BOB, base / "outside" / "bob", ignore=ignore)
    (base / "elsewhere").mkdir()
    return folder


def student_env() -> dict[str, str]:
    """A student's environment (no pytest or kit variables), with the run's compiled
    modules (child_python.py)."""
    return compiled_env({k: v for k, v in os.environ.items()
                         if not k.startswith(("PYTEST", "KANON"))})


@pytest.fixture(scope="module")
def warm() -> Iterator[PytestServer]:
    """A warm pytest whose forks run `python -m pytest ARGS` in a folder as a fresh one does
    (forked_pytest.py): for the runs that vary the option's spelling, the folder started from
    and the solution. The tests of pytest's own output and errors and of the process the calls
    run in start `python -m pytest` as it is."""
    server = PytestServer(REPO, student_env())
    yield server
    server.close()


@functools.lru_cache(maxsize=None)  # the same command in the same folder: run once
def pytest_in(cwd: Path, *args: str, server: PytestServer | None = None
              ) -> subprocess.CompletedProcess:
    """pytest started in `cwd` with `args`, as a student starts it (a fork of `server` when
    given: what it printed, stdout and stderr together, is the stdout); a test that repeats
    another's command line reads that run's output (the tests only read it)."""
    command = [*PYTEST_OPTIONS, *args]
    if server is None:
        return subprocess.run([sys.executable, "-m", "pytest", *command], cwd=cwd,
                              env=student_env(), capture_output=True, text=True, timeout=600)
    handle, name = tempfile.mkstemp(suffix=".out")
    os.close(handle)
    try:
        return server.run(command, cwd, student_env(), Path(name))
    finally:
        os.unlink(name)


def where(bundle: Path, name: str) -> Path:
    return {"bundle": bundle, "tests": bundle / "tests",
            "elsewhere": bundle.parent / "elsewhere"}[name]


@pytest.mark.slow
@pytest.mark.parametrize("spelling", ["space", "equals"])
@pytest.mark.parametrize("start, solution, target", [
    ("bundle", "bob/skeleton.py", None),
    ("bundle", "bob", None),  # a folder must be a package: refused in one line
    ("tests", "../bob/skeleton.py", None),
    ("elsewhere", "../kanon-hw1/bob/skeleton.py", "../kanon-hw1"),
    ("elsewhere", "../outside/bob/skeleton.py", "../kanon-hw1"),
])
def test_solution_option_in_both_spellings(bundle: Path, spelling: str, start: str,
                                           solution: str, target: str | None,
                                           warm: PytestServer) -> None:
    option = ["--solution", solution] if spelling == "space" else [f"--solution={solution}"]
    done = pytest_in(where(bundle, start), *([target] if target else []), *option, *COST_MD,
                     server=warm)
    out = done.stdout + done.stderr
    if solution == "bob":  # a folder must be a package: one clear failure per test
        assert "bob is a folder without __init__.py" in out, out[-2000:]
        return
    assert done.returncode == 0, out[-3000:]
    assert "public tests passed, 0 failed" in out


@pytest.mark.slow
def test_equals_spelling_with_a_solution_outside_the_bundle(bundle: Path,
                                                            warm: PytestServer) -> None:
    for start in ("bundle", "tests"):
        done = pytest_in(where(bundle, start), "--solution=../outside/bob/skeleton.py"
                         if start == "bundle" else "--solution=../../outside/bob/skeleton.py",
                         *COST_MD, server=warm)
        assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]


@pytest.mark.slow
def test_untouched_skeleton_ends_with_the_count_not_a_list(bundle: Path) -> None:
    done = pytest_in(bundle, "-k", "cost_MD or cost_LM")
    assert done.returncode == 1
    lines = done.stdout.strip().splitlines()
    assert "short test summary info" not in done.stdout
    assert not any(line.startswith("FAILED ") for line in lines)
    assert "public tests passed" in lines[-2], lines[-5:]
    assert "cost_MD is not implemented yet" in done.stdout


def test_a_missing_module_names_the_real_problem(bundle: Path, tmp_path: Path,
                                                warm: PytestServer) -> None:
    (tmp_path / "mine.py").write_text("import my_helpers\n", encoding="utf-8")
    done = pytest_in(bundle, f"--solution={tmp_path / 'mine.py'}", *COST_MD, server=warm)
    assert done.returncode == 1
    assert "`my_helpers` is neither a helper module beside mine.py" in done.stdout
    assert "the grader has only the standard library and numpy" not in done.stdout


@pytest.mark.slow
def test_a_space_before_a_path_outside_is_answered_in_the_handout(bundle: Path,
                                                                  warm: PytestServer) -> None:
    """pytest reads no conftest.py of the bundle when the only path it is given lies outside
    it, so nothing of the self-check can answer `--solution PATH` there: pytest's own error
    names the option, and the handout says what to write instead (checked here)."""
    done = pytest_in(bundle, "--solution", "../outside/bob/skeleton.py", *COST_MD)
    assert done.returncode != 0
    assert "unrecognized arguments: --solution" in done.stdout + done.stderr
    handout = " ".join((bundle / "HANDOUT.md").read_text(encoding="utf-8").split())
    assert ('stops with its own "unrecognized arguments: --solution"; `--solution=PATH` (or '
            '`KANON_SOLUTION=PATH`) works') in handout
    fixed = pytest_in(bundle, "--solution=../outside/bob/skeleton.py", *COST_MD, server=warm)
    assert fixed.returncode == 0, (fixed.stdout + fixed.stderr)[-2000:]


PID_SOLUTION = '''import os


def cost_MD(raw_dataset_file, anonymized_dataset_file, DGH_folder):
    print("cost_MD runs in process", os.getpid())
    return 0.0
'''


@pytest.mark.slow
@pytest.mark.parametrize("option, same_process", [((), False), (("--in-process",), True)])
def test_calls_run_in_a_child_process_unless_in_process(bundle: Path, tmp_path: Path,
                                                        option: tuple, same_process: bool
                                                        ) -> None:
    """By default each call runs in the child process that the self-check can stop;
    --in-process (for a debugger) runs it in pytest's own process. Prints are shown with the
    test's result either way (here cost_MD's wrong answer fails the test)."""
    (tmp_path / "pid.py").write_text(PID_SOLUTION, encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-m", "pytest", *PYTEST_OPTIONS,
                             f"--solution={tmp_path / 'pid.py'}", *option,
                             "-k", "test_cost_MD and jobsex-anon-example"],
                            cwd=bundle, env=student_env(), stdout=subprocess.PIPE, text=True)
    out, _ = proc.communicate(timeout=300)
    assert proc.returncode == 1, out[-2000:]
    assert "expected 12.0, got 0.0" in out, out[-2000:]
    pids = {int(p) for p in re.findall(r"cost_MD runs in process (\d+)", out)}
    assert len(pids) == 1, out[-2000:]  # the print, shown with the failure
    assert (pids == {proc.pid}) == same_process
