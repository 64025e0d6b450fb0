"""The Fall 2025 bundle's self-check on a solution with one endless loop, run the way Windows
runs it (issue 25, item 1): pytest-timeout's thread method (no POSIX signal) and the `spawn`
start method, which the self-check always uses for the process running the student's calls.
Exactly the test whose call never returns fails, with the usual one sentence and what the code
printed; every other test still runs; the run ends with its CPU-time table and its count."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from staff_submission import staff_submission

REPO = Path(__file__).resolve().parents[3]
COURSE = REPO / "grader" / "rubric-2025.toml"
# The Fall 2025 staff solution, except cost_MD, which loops forever on exactly one public
# call: cost_MD of jobsex's `anonymized.csv` (the test cost_MD[jobsex-anon-example]).
LOOPING = '''from staffcopy import *  # noqa: F401,F403
from staffcopy import topdown_anonymizer  # noqa: F401
from staffcopy.clustering import clustering_anonymizer_lm_only as clustering_anonymizer  # noqa
from staffcopy import cost_MD as staff_cost_MD


def cost_MD(raw_dataset_file, anonymized_dataset_file, DGH_folder):
    with open(raw_dataset_file, encoding="utf-8") as f:
        header = f.readline()
    if header.startswith("Job,") and anonymized_dataset_file == "anonymized.csv":
        print("cost_MD: looking for the jobsex answer")
        while True:
            pass
    return staff_cost_MD(raw_dataset_file, anonymized_dataset_file, DGH_folder)
'''
LOOPING_TEST = "test_cost_MD[jobsex-anon-example]"


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> subprocess.CompletedProcess:
    """The bundle, unpacked, with cost_MD's limit lowered to 3 s (course.json: 1 s, times the
    self-check's factor 3), checked with the thread timeout method."""
    base = tmp_path_factory.mktemp("endless")
    built = subprocess.run([sys.executable, "-m", "grader", "bundle", "--course", str(COURSE),
                            "--out", str(base / "student.zip")], cwd=REPO, capture_output=True,
                           text=True)
    assert built.returncode == 0, built.stderr
    with zipfile.ZipFile(base / "student.zip") as archive:
        archive.extractall(base)
    folder = base / "kanon-hw1"
    course_file = folder / "tests" / "public" / "course.json"
    course = json.loads(course_file.read_text(encoding="utf-8"))
    course["time"]["cost_MD"] = {"time_limit": 1.0, "time_per_1000_rows": 0.0}
    course_file.write_text(json.dumps(course), encoding="utf-8")
    solution = staff_submission(base / "looping", LOOPING) / "skeleton.py"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "KANON"))}
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-v",
                           "-o", "timeout_method=thread", f"--solution={solution}"],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=600)


@pytest.mark.slow
def test_only_the_looping_call_fails_and_the_run_ends_with_its_summary(run) -> None:
    out = run.stdout
    assert run.returncode == 1, out[-3000:] + run.stderr[-2000:]
    failed = [line.split(" ")[0].split("::")[-1] for line in out.splitlines()
              if line.endswith("FAILED") or " FAILED " in line]
    assert failed == [LOOPING_TEST], failed
    assert ("cost_MD on case 'jobsex-anon-example': did not return within 3 s, so the "
            "self-check stopped it (an endless loop? HANDOUT.md, \"Time limits\")") in out
    assert "cost_MD: looking for the jobsex answer" in out  # its print, with the failure
    assert "Timeout" not in out and "Stack of" not in out + run.stderr  # no thread dump
    summary = out[out.index("CPU time of every public call"):]
    assert "cost_MD on case 'world-anon-mixed'" in summary  # calls after the loop still ran
    passed = len([line for line in out.splitlines() if " PASSED" in line])
    assert f"{passed} public tests passed, 1 failed" in summary and passed > 40
