"""The Fall 2025 bundle's self-check on a solution with endless loops, run the way Windows runs
it (issue 25, item 1; issue 26, item 1): pytest-timeout's thread method (no POSIX signal) and
the `spawn` start method, which the self-check always uses for the process running the
student's calls. The call that never returns fails with the usual one sentence and what the
code printed; that function's later tests are not run, each saying which call stopped it, and
the summary names the function; other functions' tests still run. A function whose small case
fails is not run on adult-hw1.csv. The run ends with its CPU-time table and its count."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from child_python import PYTEST_OPTIONS, compiled_env
from shared_bundles import unpacked_bundle

from staff_submission import staff_submission

REPO = Path(__file__).resolve().parents[3]
COURSE = REPO / "grader" / "rubric-2025.toml"
# The Fall 2025 staff solution, except: cost_MD loops forever on exactly one public call, its
# first (cost_MD of jobsex's `anonymized.csv`, the test cost_MD[jobsex-anon-example]);
# clustering_anonymizer loops on every call (its first is test_public_api.py's); cost_LM is
# wrong on one small case (the raw table itself, world-raw), right on the others. The loops
# sleep: the self-check stops a call by the wall clock, killing its process from outside, so
# an idle loop is stopped as a busy one is (test_zh_selfcheck.py stops a busy one), without
# keeping a core busy for the 3 s of each limit.
LOOPING = '''import time

from staffcopy import *  # noqa: F401,F403
from staffcopy import topdown_anonymizer  # noqa: F401
from staffcopy import cost_LM as staff_cost_LM
from staffcopy import cost_MD as staff_cost_MD


def cost_MD(raw_dataset_file, anonymized_dataset_file, DGH_folder):
    with open(raw_dataset_file, encoding="utf-8") as f:
        header = f.readline()
    if header.startswith("Job,") and anonymized_dataset_file == "anonymized.csv":
        print("cost_MD: looking for the jobsex answer")
        while True:
            time.sleep(0.05)
    return staff_cost_MD(raw_dataset_file, anonymized_dataset_file, DGH_folder)


def cost_LM(raw_dataset_file, anonymized_dataset_file, DGH_folder):
    cost = staff_cost_LM(raw_dataset_file, anonymized_dataset_file, DGH_folder)
    return 1.0 if cost == 0 else cost


def clustering_anonymizer(raw_dataset_file, DGH_folder, k, output_file):
    while True:
        time.sleep(0.05)
'''
MD_LOOP = "cost_MD on case 'jobsex-anon-example'"
CLUSTERING_LOOP = ("clustering_anonymizer('adult-hw1.csv', 'DGHs', 2, 'adult-hw1.csv') on "
                   "case 'jobsex'")
FAILED = ["test_refuses_to_overwrite_the_raw_file[clustering_anonymizer]",
          "test_cost_MD[jobsex-anon-example]", "test_cost_LM[world-raw]"]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> subprocess.CompletedProcess:
    """The bundle, unpacked, with cost_MD's and clustering_anonymizer's limits lowered to 3 s
    (course.json: 1 s, times the self-check's factor 3), checked with the thread timeout
    method."""
    base = tmp_path_factory.mktemp("endless")
    folder = unpacked_bundle(tmp_path_factory, COURSE, base)  # built once per run
    course_file = folder / "tests" / "public" / "course.json"
    course = json.loads(course_file.read_text(encoding="utf-8"))
    for function in ("cost_MD", "clustering_anonymizer"):
        course["time"][function] = {"time_limit": 1.0, "time_per_1000_rows": 0.0}
    course_file.write_text(json.dumps(course), encoding="utf-8")
    solution = staff_submission(base / "looping", LOOPING) / "skeleton.py"
    env = compiled_env({k: v for k, v in os.environ.items()  # compiled modules: reused
                        if not k.startswith(("PYTEST", "KANON"))})
    return subprocess.run([sys.executable, "-m", "pytest", *PYTEST_OPTIONS, "-v",
                           "-o", "timeout_method=thread", f"--solution={solution}"],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=600)


def outcomes(out: str, outcome: str) -> list[str]:
    """The tests of the -v progress lines with that outcome, in the order they ran."""
    return [line.split(" ")[0].split("::")[-1] for line in out.splitlines()
            if line.startswith("tests/") and f" {outcome}" in line]


def not_run(out: str) -> list[str]:
    """The sentences of the closing list of tests not run."""
    section = out[out.index("- public tests not run -"):out.index("- public self-check -")]
    return section.splitlines()[1:-1]  # between the two separator lines


@pytest.mark.slow
def test_only_the_looping_and_wrong_calls_fail(run) -> None:
    out = run.stdout
    assert run.returncode == 1, out[-3000:] + run.stderr[-2000:]
    assert outcomes(out, "FAILED") == FAILED
    assert (f"{MD_LOOP}: did not return within 3 s, so the self-check stopped it (an endless "
            f"loop? HANDOUT.md, \"Time limits\")") in out
    assert "cost_MD: looking for the jobsex answer" in out  # its print, with the failure
    assert "Timeout" not in out and "Stack of" not in out + run.stderr  # no thread dump
    passed = outcomes(out, "PASSED")
    assert f"{len(passed)} public tests passed, 3 failed, 17 not run" in out
    assert len(passed) > 30
    assert [t for t in passed if "clustering" in t] == ["test_signature[clustering_anonymizer]"]


@pytest.mark.slow
def test_a_looping_functions_later_tests_are_not_run_naming_the_stopped_call(run) -> None:
    out = run.stdout
    skipped = outcomes(out, "SKIPPED")
    md = [t for t in skipped if "cost_MD" in t]
    assert md == ["test_cost_MD[world-anon-mixed]", "test_cost_MD[world-raw]",
                  "test_cost_MD_rejects_invalid_cell[jobsex-anon-not-ancestor]",
                  "test_cost_MD_rejects_invalid_cell[world-anon-interval-outside]",
                  "test_cost_MD[adult-levels]", "test_cost_MD[adult-intervals]"]
    clustering = [t for t in skipped if "clustering" in t]  # in another file than the loop
    assert len(clustering) == 9 and all(t.startswith("test_clustering_") for t in clustering)
    sentences = not_run(out)
    assert len(sentences) == 17
    assert (f"cost_MD on case 'world-raw': not run, because {MD_LOOP} did not return within "
            f"3 s and the self-check makes no further call of cost_MD after stopping one (an "
            f"endless loop? fix that call first)") in sentences
    assert sum(f"because {MD_LOOP} did not return" in s for s in sentences) == 6
    assert sum(f"because {CLUSTERING_LOOP} did not return" in s for s in sentences) == 9
    assert "cost_LM on case 'world-raw'" in out[out.index("CPU time of every"):]  # still ran


@pytest.mark.slow
def test_adult_size_cases_wait_for_the_small_ones(run) -> None:
    out = run.stdout
    skipped = outcomes(out, "SKIPPED")
    assert [t for t in skipped if "cost_LM" in t] == ["test_cost_LM[adult-levels]",
                                                     "test_cost_LM[adult-intervals]"]
    assert ("cost_LM on case 'adult-levels': not run, because test_cost_LM[world-raw] failed "
            "and the self-check runs cost_LM on adult-hw1.csv only once its small cases "
            "pass") in not_run(out)
    ran = outcomes(out, "")  # every test, in order
    costs = [t for t in ran if t.startswith(("test_cost_MD", "test_cost_LM"))]
    first_adult = min(i for i, t in enumerate(costs) if "adult" in t)
    assert all("adult" in t for t in costs[first_adult:])  # after the file's small cases
    random = [t for t in outcomes(out, "PASSED") if "random" in t]
    assert random[-2:] == ["test_random_valid_and_k_anonymous[adult-k8-s2026]",
                           "test_random_matches_reference[adult-k8-s2026]"]


@pytest.mark.slow
def test_the_summary_names_the_looping_functions(run) -> None:
    summary = run.stdout[run.stdout.index("- public self-check -"):]
    assert (f"{MD_LOOP} did not return within 3 s (an endless loop in cost_MD?), so the "
            f"self-check did not run cost_MD's 6 later public tests (HANDOUT.md, \"Time "
            f"limits\")") in summary
    assert (f"{CLUSTERING_LOOP} did not return within 3 s (an endless loop in "
            f"clustering_anonymizer?), so the self-check did not run clustering_anonymizer's 9 "
            f"later public tests") in summary
    assert ("cost_LM did not run on adult-hw1.csv (2 public tests): it runs there once its "
            "small cases pass, and test_cost_LM[world-raw] failed") in summary
